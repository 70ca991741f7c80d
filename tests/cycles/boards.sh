#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The Cortex-M33 and M7 models and the board models end to end
# (docs/cycle-model.md): qemu-m33 and qemu-m7 twice each (every operation
# has est_cycles of cortex-m33 / cortex-m7, identical in both runs);
# qemu-m4 --board nucleo-f439zi and qemu-m0plus --board rp2040-pico against
# their zero-wait runs (never below them, the difference explained by the
# memory events; energy in uJ with its source on every operation; the
# report names the part and labels energy and the projection); a board of
# another core and --accel garbage are clear errors; the board run goes
# through a source root with a comma in its path.
#
# usage: boards.sh MERLIN OUTDIR
set -euo pipefail
merlin=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
run() {  # run NAME TARGET [ARGS...]
  local name=$1 target=$2
  shift 2
  "$merlin" run --target "$target" --profile tests/cycles/cycles.profile \
    --runs 3 --warmup 1 --quiet --out "$out/$name" "$@" >/dev/null
}
run m33a qemu-m33
run m33b qemu-m33
run m7a qemu-m7
run m7b qemu-m7
run m4 qemu-m4
# Through a source root whose path holds a comma (a link to this tree, the
# image built above): QEMU's -plugin syntax would split the plugin's elf=
# and out= there unless merlin doubles it (issue 30).
ln -sfn "$root" "$out/r,oot"
export MERLIN_ROOT="$out/r,oot"
run f439 qemu-m4 --board nucleo-f439zi --accel keccak=100,ntt=1000
unset MERLIN_ROOT
run m0 qemu-m0plus
run pico qemu-m0plus --board rp2040-pico
node "$root/tests/cycles/check_boards.mjs" "$out"

grep -q 'Estimated cycles on NUCLEO-F439ZI at 168 MHz (model)' \
  "$out/f439/latest/report.md" || { echo "FAIL: no board heading"; exit 1; }
grep -q '#### energy (estimate, datasheet model)' \
  "$out/f439/latest/report.md" || { echo "FAIL: no energy section"; exit 1; }
grep -q 'What an accelerator would take away (projection)' \
  "$out/f439/latest/report.md" || { echo "FAIL: no projection"; exit 1; }
# --accel's costs and the default for a group it does not name (SHA-256 of
# the profile's sha256), each group with its columns.
grep -q '(Keccak 100 per permutation, NTT 1,000 per call, SHA-256 88 per compression;' \
  "$out/f439/latest/report.md" || { echo "FAIL: the projection's costs"; exit 1; }
grep -q '| Keccak share | Keccak calls | NTT share | NTT calls | SHA-256 share | SHA-256 calls | projected cycles |' \
  "$out/f439/latest/report.md" || { echo "FAIL: the projection's groups"; exit 1; }
head -n1 "$out/f439/latest/results.csv" | grep -q ',est_cycles,est_energy_uj,ct_status,' ||
  { echo "FAIL: results.csv has no est_energy_uj"; exit 1; }
echo "ok: report.md and results.csv of the board run"

# Failure paths: a part of another core, a part without a memory system
# (usage errors, exit 2, before any build).
for bad in "qemu-m4 rp2040-pico another core" "qemu-m4 qemu-m4 no memory system"; do
  set -- $bad
  rc=0
  "$merlin" run --target "$1" --profile tests/cycles/cycles.profile \
    --runs 1 --warmup 0 --quiet --board "$2" --out "$out/x" \
    2>"$out/x.err" || rc=$?
  [ "$rc" = 2 ] || { echo "FAIL: --board $2 on $1 exited $rc, want 2"; exit 1; }
  grep -q -- "--board $2" "$out/x.err" ||
    { echo "FAIL: no message for --board $2: $(cat "$out/x.err")"; exit 1; }
  echo "ok: --board $2 on $1: $(head -n1 "$out/x.err")"
done
if "$merlin" run --target host --board nrf52832 --out "$out/x" 2>"$out/x.err"; then
  echo "FAIL: --board on the host accepted"; exit 1
fi
grep -q 'QEMU targets' "$out/x.err" || { echo "FAIL: $(cat "$out/x.err")"; exit 1; }
echo "ok: --board on the host refused (usage)"
if "$merlin" run --target qemu-m4 --accel keccak --out "$out/x" 2>"$out/x.err"; then
  echo "FAIL: --accel keccak accepted"; exit 1
fi
grep -q 'NAME=CYCLES' "$out/x.err" || { echo "FAIL: $(cat "$out/x.err")"; exit 1; }
echo "ok: --accel keccak refused (usage)"
