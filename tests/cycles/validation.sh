#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs/cycle-model.md's validation tables are what scripts/cycle-validation.mjs
# renders from the extracts of the runs kept here, validation-run.json
# (qemu-m4) and validation-run-m3.json (qemu-m3) (docs/cycle-model.md,
# "Validation against silicon"). To regenerate after a new run: `node
# scripts/cycle-validation.mjs extract RESULTS "COMMAND"` into the run's
# file, then paste `node scripts/cycle-validation.mjs render` between the
# markers.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
want=$(node "$root/scripts/cycle-validation.mjs" render)
have=$(sed -n '/<!-- validation:begin -->/,/<!-- validation:end -->/p' \
  "$root/docs/cycle-model.md" | sed '1d;$d')
if [ "$want" != "$have" ]; then
  echo "FAIL: docs/cycle-model.md's validation table differs from the script:"
  diff <(printf '%s\n' "$want") <(printf '%s\n' "$have") | sed 's/^/  /'
  exit 1
fi
echo "ok: the validation table matches scripts/cycle-validation.mjs render"
