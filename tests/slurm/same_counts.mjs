// SPDX-License-Identifier: Apache-2.0
// node tests/slurm/same_counts.mjs A.json B.json: the two results.json hold
// the same runs (target, profile, compiler, flags) with the same operations,
// each with identical samples (instruction counts), known-answer verdict,
// stack and heap figures, and identical workflow results, of one plan (its
// hash, when both record it); the order of the runs may differ. Exits 1
// naming the first difference.
import { readFileSync } from 'node:fs';

const [fa, fb] = process.argv.slice(2);
const load = (f) => JSON.parse(readFileSync(f, 'utf8'));
const fail = (m) => {
  console.error('same_counts: FAIL: ' + m);
  process.exit(1);
};
const runKey = (r) =>
  [r.target, r.profile, r.provenance.compiler, r.provenance.cflags].join(' | ');
const opKey = (o) => [o.alg, o.op, o.bytes, o.backend, o.variant].join(' ');
const opFacts = (o) =>
  JSON.stringify([o.kat, o.unit, o.n, o.warmup, o.samples, o.stack_bytes, o.heap_bytes]);

const byKey = (file) => {
  const m = new Map();
  for (const r of load(file).runs) {
    const k = runKey(r);
    if (m.has(k)) fail(`${file}: run ${k} twice`);
    m.set(k, r);
  }
  return m;
};
const pa = load(fa).plan, pb = load(fb).plan;
if (pa && pb && pa.hash !== pb.hash) fail(`plans ${pa.hash} and ${pb.hash}`);
const a = byKey(fa), b = byKey(fb);
if (a.size === 0) fail(`${fa}: no runs`);
for (const k of a.keys()) if (!b.has(k)) fail(`run ${k} of ${fa} missing from ${fb}`);
for (const k of b.keys()) if (!a.has(k)) fail(`run ${k} of ${fb} not in ${fa}`);
let ops = 0, samples = 0;
for (const [k, ra] of a) {
  const rb = b.get(k);
  if (ra.valid !== rb.valid) fail(`run ${k}: valid ${ra.valid} and ${rb.valid}`);
  const ob = new Map(rb.ops.map((o) => [opKey(o), o]));
  if (ra.ops.length !== rb.ops.length) fail(`run ${k}: ${ra.ops.length} and ${rb.ops.length} operations`);
  for (const o of ra.ops) {
    const p = ob.get(opKey(o));
    if (!p) fail(`run ${k}: ${opKey(o)} missing from ${fb}`);
    if (opFacts(o) !== opFacts(p)) fail(`run ${k}: ${opKey(o)} differs: ${opFacts(o)} and ${opFacts(p)}`);
    ops++;
    samples += o.samples.length;
  }
  if (JSON.stringify(ra.workflows) !== JSON.stringify(rb.workflows)) fail(`run ${k}: the workflows differ`);
}
console.log(`same_counts: ${a.size} runs, ${ops} operations, ${samples} samples identical`);
