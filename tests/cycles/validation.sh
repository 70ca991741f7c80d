#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs/cycle-model.md's validation table is what scripts/cycle-validation.mjs
# renders from the extract of a run kept here, validation-run.json
# (docs/cycle-model.md, "Validation against silicon"). To regenerate after
# a new run: `node scripts/cycle-validation.mjs extract RESULTS "COMMAND"`
# into validation-run.json, then paste `node scripts/cycle-validation.mjs
# render` between the markers.
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
