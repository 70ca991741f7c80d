#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# qemu-m85 end to end (docs/targets.md "qemu-m85", docs/cycle-model.md
# "Cortex-M85"): a small profile (tests/cycles/m85.profile) built for the
# Cortex-M85 and run on QEMU's Cortex-M55 machine: every operation passes
# its KAT and has est_cycles of the cortex-m85 model, named with its
# version in the provenance; then the same image with --board ek-ra8m1
# (the benchmark's RA8M1) gives the same instructions, never fewer
# estimated cycles, and names the part.
#
# usage: m85.sh MERLIN OUTDIR
set -euo pipefail
merlin=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
for args in "plain" "ra8m1 --board ek-ra8m1"; do
  set -- $args
  name=$1
  shift
  "$merlin" run --target qemu-m85 --profile tests/cycles/m85.profile \
    --runs 3 --warmup 1 --quiet --out "$out/$name" "$@" >/dev/null
done
node - "$out/plain/latest/results.json" "$out/ra8m1/latest/results.json" <<'JS'
const fs = require('fs');
const [a, b] = process.argv.slice(2).map((f) => JSON.parse(fs.readFileSync(f, 'utf8')).runs[0]);
const fail = (m) => { console.log('FAIL: ' + m); console.log('0 passed, 1 failed'); process.exit(1); };
for (const r of [a, b]) {
  const cm = r.provenance.cycle_model || {};
  if (r.target !== 'qemu-m85' || cm.name !== 'cortex-m85' || !cm.version)
    fail(`provenance.cycle_model is ${JSON.stringify(cm.name)} ${cm.version} on ${r.target}`);
  if (!r.ops.length) fail('no operations');
  for (const o of r.ops) {
    if (o.kat !== 'pass') fail(`${o.alg} ${o.op}: KAT ${o.kat}`);
    if (!o.est_cycles || !(o.est_cycles.median > 0)) fail(`${o.alg} ${o.op} ${o.bytes}: no est_cycles`);
  }
}
if (!b.provenance.cycle_model.board || b.provenance.cycle_model.board.id !== 'ek-ra8m1')
  fail('the board run does not name ek-ra8m1');
a.ops.forEach((o, i) => {
  const p = b.ops[i];
  if (o.median !== p.median) fail(`${o.alg} ${o.op} ${o.bytes}: instructions differ with --board`);
  if (p.est_cycles.median < o.est_cycles.median) fail(`${o.alg} ${o.op} ${o.bytes}: fewer cycles on the board`);
});
console.log(`ok: qemu-m85, ${a.ops.length} operations with est_cycles (cortex-m85 ${a.provenance.cycle_model.version}), --board ek-ra8m1 the same instructions`);
console.log('2 passed, 0 failed');
JS
