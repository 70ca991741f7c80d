#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The per-sample output checks (docs/results.md, "Every timed sample is
# checked") add nothing to the timed spans: the same qemu-m4 image built
# with the checks and without them (the MERLIN_TEST_NO_SAMPLE_CHECKS test
# hook) gives the same instruction count for every sample of every
# operation. The one allowed difference is a sample that took a wrap of
# the 32-bit counter timer in one run and not in the other (its handler
# adds a few instructions, and the checks move where wraps fall); such a
# sample differs by at most 16 instructions.
#
# usage: sample_checks.sh MERLIN OUTDIR
set -euo pipefail
merlin=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
profile=tests/checks/checks.profile
bdir=build/img/qemu-m4-checks
run() { # $1: ON (no checks) or OFF; $2: output directory
  "$merlin" build --target qemu-m4 --profile "$profile" --quiet >/dev/null
  cmake -DMERLIN_TEST_NO_SAMPLE_CHECKS="$1" "$bdir" >/dev/null
  "$merlin" run --target qemu-m4 --profile "$profile" --runs 8 --warmup 1 \
    --cycle-model off --quiet --out "$2" >/dev/null
}
trap 'cmake -DMERLIN_TEST_NO_SAMPLE_CHECKS=OFF "$bdir" >/dev/null 2>&1 || true' EXIT
run ON "$out/without"
run OFF "$out/with"
node - "$out/without/latest/results.json" "$out/with/latest/results.json" <<'JS'
const fs = require('fs');
const load = (p) => JSON.parse(fs.readFileSync(p, 'utf8')).runs[0].ops;
const [a, b] = [load(process.argv[2]), load(process.argv[3])];
const key = (o) => [o.alg, o.op, o.bytes, o.backend].join(' ');
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
if (a.length !== b.length || a.length < 40) fail(`${a.length} vs ${b.length} operations`);
const bk = new Map(b.map((o) => [key(o), o]));
let same = 0, wrapped = 0;
for (const o of a) {
  const p = bk.get(key(o));
  if (!p) fail(`${key(o)} missing in the run with checks`);
  if (o.samples.length !== p.samples.length) fail(`${key(o)}: n differs`);
  let moved = 0;
  o.samples.forEach((v, i) => {
    const d = Math.abs(v - p.samples[i]);
    if (d > 16) fail(`${key(o)} sample ${i}: ${v} without checks, ${p.samples[i]} with`);
    if (d) moved++;
  });
  if (moved) wrapped++; else same++;
}
console.log(`ok: ${a.length} operations, ${same} with identical samples, ` +
  `${wrapped} differing only in samples that took a timer wrap`);
JS
