#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs/bring-your-own.md's pqm4 tables ("From a pqm4 checkout") are what
# scripts/pqm4-checkout.mjs renders from pqm4-checkout-run.json
# and pqm4-benchmarks.json in tests/impl. To regenerate after a new run:
# `node scripts/pqm4-checkout.mjs extract "COMMAND" RESULTS...` into
# pqm4-checkout-run.json, then paste `node scripts/pqm4-checkout.mjs
# render` between the markers.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
want=$(node "$root/scripts/pqm4-checkout.mjs" render)
have=$(sed -n '/<!-- pqm4-checkout-table -->/,/<!-- \/pqm4-checkout-table -->/p' \
  "$root/docs/bring-your-own.md" | sed '1d;$d')
if [ "$want" != "$have" ]; then
  echo "FAIL: docs/bring-your-own.md's pqm4 tables differ from the script:"
  diff <(printf '%s\n' "$want") <(printf '%s\n' "$have") | sed 's/^/  /' | head -40
  exit 1
fi
echo "ok: the pqm4 tables match scripts/pqm4-checkout.mjs render"
