#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The cycle model end to end (docs/cycle-model.md): `merlin run --target
# qemu-m4` with a small profile (SHA-256, ML-KEM-768, ML-DSA-44) twice with
# the plugin and once with --cycle-model off; check_cycles checks the
# results. Also: a broken plugin path is a clear error, not silence.
#
# usage: e2e_cycles.sh MERLIN CHECK_CYCLES OUTDIR
set -euo pipefail
merlin=$1
checker=$2
out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
run() {
  "$merlin" run --target qemu-m4 --profile tests/cycles/cycles.profile \
    --runs 5 --warmup 1 --quiet "$@" >/dev/null
}
run --out "$out/a"
run --out "$out/b"
run --out "$out/off" --cycle-model off
"$checker" "$out/a/latest/results.json" "$out/b/latest/results.json" \
  "$out/off/latest/results.json"

# The report labels the estimate.
grep -q 'estimate (model)' "$out/a/latest/report.md" ||
  { echo "FAIL: report.md has no 'estimate (model)' section"; exit 1; }

# A missing plugin stops the run with a message saying what to do.
if MERLIN_QEMU_PLUGIN=/nonexistent/merlin_cycles.so run --out "$out/x" \
     2>"$out/x.err"; then
  echo "FAIL: run succeeded without its plugin"; exit 1
fi
grep -q 'cycle-model off' "$out/x.err" ||
  { echo "FAIL: no hint in: $(cat "$out/x.err")"; exit 1; }
echo "ok: missing plugin: $(head -n1 "$out/x.err")"
