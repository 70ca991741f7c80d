#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The plugin-versus-counter exactness rule across many timer wraps
# (docs/cycle-model.md, "Exactness"): a qemu-m4 image whose counter timer
# has a 16-bit period (the MERLIN_TEST_TIMER_BITS test hook; every other
# image has 32 bits) takes a wrap every 65,536 ticks, so an ML-DSA-44
# sample spans hundreds. The run must be accepted, with every such sample
# explained by the per-wrap difference derived from the data.
#
# usage: wraps.sh MERLIN OUTDIR
set -euo pipefail
merlin=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
profile=tests/cycles/wraps.profile
"$merlin" build --target qemu-m4 --profile "$profile" --quiet >/dev/null
bdir=build/img/qemu-m4-wraps
cmake -DMERLIN_TEST_TIMER_BITS=16 "$bdir" >/dev/null
"$merlin" run --target qemu-m4 --profile "$profile" --runs 5 --warmup 1 \
  --quiet --out "$out" >/dev/null
cmake -DMERLIN_TEST_TIMER_BITS= "$bdir" >/dev/null # leave it as merlin makes it
node - "$out/latest/results.json" <<'JS'
const r = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8')).runs[0];
const cm = r.provenance.cycle_model;
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
if (!cm) fail('no cycle_model in the provenance');
// One wrap every 2^16 ticks of 40 ns = 20,480 instructions of 128 ns.
const perWrap = 65536 * 40 / 128;
const longest = Math.max(...r.ops.map((o) => o.max));
if (longest / perWrap < 100)
  fail(`longest sample ${longest} spans fewer than 100 wraps`);
if (!(cm.wrap_samples > 0)) fail('no sample counted as taking a wrap');
if (!Number.isInteger(cm.plugin_wrap_insns))
  fail('no per-wrap difference derived');
if (!r.ops.every((o) => o.est_cycles)) fail('an operation has no estimate');
console.log(`ok: longest sample ${longest} instructions (${Math.floor(longest / perWrap)} wraps), ` +
  `${cm.wrap_samples} samples with wraps, ${cm.plugin_wrap_insns} instructions per wrap`);
JS
