#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Planted constant-time leaks (docs/constant-time.md, "Planted leaks"): an
# image with the test-only backend tests/ct/plant (the CMake test hook
# MERLIN_TEST_CT_PLANT; no shipped image has it) runs `merlin run --ct`.
# Each planted leak must be caught by the check meant for it, and neither
# the constant-time variant nor BearSSL's HMAC-SHA256 may be flagged:
#   table-lookup     address trace (same instruction, another address)
#   secret-branch    path, while the instruction count stays the same
#   secret-division  qemu-m4: UDIV in the variable-latency list;
#                    qemu-m0plus (no divide instruction): the path, in
#                    libgcc's __udivsi3
#   select-branch    qemu-m4: address trace (gcc selects the pointer with a
#                    conditional move); qemu-m0plus: path (a branch)
# Also: the same verdicts with timer interrupts landing in every secret run
# (the plugin leaves exception handlers out), and on qemu-m4 that --ct
# without the plugin fails, saying why. About 20 s per target.
#
# usage: plant.sh MERLIN TARGET OUTDIR
set -euo pipefail
merlin=$1 target=$2 out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
profile=tests/ct/plant.profile
"$merlin" build --target "$target" --profile "$profile" --quiet >/dev/null
bdir=build/img/$target-plant
cmake -DMERLIN_TEST_CT_PLANT=ON "$bdir" >/dev/null
trap 'cmake -DMERLIN_TEST_CT_PLANT=OFF "$bdir" >/dev/null' EXIT
"$merlin" run --target "$target" --profile "$profile" --runs 1 --warmup 0 \
  --ct --quiet --out "$out" >/dev/null
# Without its plugin the constant-time pass fails the run, saying why, and
# nothing is written (the timed run itself needs no plugin here).
if [ "$target" = qemu-m4 ]; then
  rm -rf "$out/noplugin"
  if MERLIN_QEMU_PLUGIN=/nonexistent/merlin_cycles.so "$merlin" run \
    --target "$target" --profile "$profile" --runs 1 --warmup 0 --ct \
    --cycle-model off --quiet --out "$out/noplugin" 2>"$out/noplugin.err"; then
    echo "FAIL: --ct without the plugin succeeded"
    exit 1
  fi
  grep -q "constant-time pass: QEMU plugin /nonexistent" "$out/noplugin.err" ||
    { echo "FAIL: no reason given:"; cat "$out/noplugin.err"; exit 1; }
  [ ! -e "$out/noplugin" ] || { echo "FAIL: results written"; exit 1; }
fi
grep -q "^## Constant time" "$out/latest/report.md" ||
  { echo "FAIL: report.md has no constant-time section"; exit 1; }
cat >"$out/check.js" <<'JS'
const [file, target] = process.argv.slice(2);
const ops = JSON.parse(require('fs').readFileSync(file, 'utf8')).runs[0].ops;
let fails = 0, passes = 0;
const check = (ok, what) => {
  if (ok) { passes++; return; }
  fails++;
  console.log(`FAIL: ${target}: ${what}`);
};
const m4 = target === 'qemu-m4';
const has = (o, method) => o.ct.detail.includes(`${method}: `);
const vl = (o, insn, fn) =>
  o.ct.variable_latency.some((v) => v.insn === insn && v.function === fn);
const want = {
  'c': (o) => o.ct.status === 'none',
  'ct-select': (o) => o.ct.status === 'none',
  'table-lookup': (o) => o.ct.address_equal === false && o.ct.path_equal &&
    !has(o, 'instruction-count') && o.ct.detail.includes('(table+'),
  'secret-branch': (o) => !o.ct.path_equal && o.ct.address_equal &&
    !has(o, 'instruction-count') && o.ct.detail.includes('plant_secret_branch'),
  'secret-division': m4
    ? (o) => o.ct.path_equal && o.ct.address_equal &&
      vl(o, 'udiv', 'plant_secret_division')
    : (o) => !o.ct.path_equal && o.ct.detail.includes('__udivsi3'),
  'select-branch': m4
    ? (o) => o.ct.path_equal && o.ct.address_equal === false &&
      /\((ones|zeros)/.test(o.ct.detail)
    : (o) => !o.ct.path_equal,
};
for (const o of ops) {
  const name = `${o.variant} ${o.bytes} B`;
  const ok = want[o.variant];
  check(ok !== undefined, `${name}: an unexpected variant`);
  check(o.kat === 'pass' && o.ct, `${name}: KAT passed and a verdict`);
  if (!ok || !o.ct) continue;
  check(o.ct.method.join() ===
        'instruction-count,path,address,variable-latency',
        `${name}: methods ${o.ct.method.join()}`);
  check(o.ct.layout_equal === true, `${name}: stack and heap placed alike`);
  check(o.ct.status === (o.variant === 'c' || o.variant === 'ct-select'
                         ? 'none' : 'finding'),
        `${name}: status ${o.ct.status}`);
  check(ok(o), `${name}: not caught as planted: ${JSON.stringify(o.ct)}`);
}
check(ops.length === 18, `18 operations (6 variants x 3 payloads), not ${ops.length}`);
console.log(`${passes} passed, ${fails} failed`);
process.exit(fails ? 1 : 0);
JS
node "$out/check.js" "$out/latest/results.json" "$target"

# Timer interrupts in the secret runs (the qemu-mps2 test hook
# MERLIN_TEST_TIMER_BITS: a wrap every 4096 ticks, several in every run, at
# other places in each, and QEMU cutting its blocks at other places for
# them): the plugin leaves the handler out, so every verdict is the same.
# The timed run goes without the plugin (its exactness rule is for wraps
# outside counter reads, docs/cycle-model.md).
cmake -DMERLIN_TEST_TIMER_BITS=12 "$bdir" >/dev/null
trap 'cmake -DMERLIN_TEST_CT_PLANT=OFF -DMERLIN_TEST_TIMER_BITS= "$bdir" >/dev/null' EXIT
"$merlin" run --target "$target" --profile "$profile" --runs 1 --warmup 0 \
  --ct --cycle-model off --quiet --out "$out/irq" >/dev/null
awk '$1 == "run" && $4 != "exc=0" { n++ } END { exit n > 100 ? 0 : 1 }' \
  "$bdir/ct.side" || { echo "FAIL: too few runs took interrupts"; exit 1; }
node "$out/check.js" "$out/irq/latest/results.json" "$target"
