#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// The tables of docs/bring-your-own.md, "From a pqm4 checkout": Merlin's
// figures for a pqm4 checkout's ML-KEM and ML-DSA folders beside the rows
// of pqm4's own benchmarks.md.
//
//   pqm4-checkout.mjs reference BENCHMARKS_MD "SOURCE" > pqm4-benchmarks.json (in tests/impl)
//       the ML-KEM and ML-DSA rows of pqm4's benchmarks.md (speed AVG
//       cycles, stack bytes, hashing share), SOURCE naming the commit
//   pqm4-checkout.mjs extract "COMMAND" RESULTS_JSON... > pqm4-checkout-run.json (in tests/impl)
//       what the tables need of the results of COMMAND (one results.json
//       per target): each folder's operations and the folders left out
//   pqm4-checkout.mjs render [RUN_JSON [REFERENCE_JSON]]
//       print the tables (default: the two files in tests/impl);
//       tests/integration/impl_pqm4_table.sh checks the doc holds them
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [mode, ...args] = process.argv.slice(2);
const SCHEME = /^ml-(kem|dsa)-/;
const fail = (m) => { console.error('pqm4-checkout: ' + m); process.exit(1); };
const num = (s) => Number(String(s).replace(/,/g, ''));

if (mode === 'reference') {
  const [file, source] = args;
  if (!file || !source) fail('usage: reference BENCHMARKS_MD "SOURCE"');
  const rows = {}; // "alg/impl" -> {ops: [...], cycles: [3], stack: [3], hash: [3]}
  let section = '', kind = '';
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('# ')) section = line.slice(2).trim();
    if (line.startsWith('## ')) kind = /Key Encapsulation/.test(line) ? 'kem' : 'sign';
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 5) continue;
    const alg = cells[0].replace(/ \(.*\)$/, '');
    if (!SCHEME.test(alg)) continue;
    const key = `${alg}/${cells[1]}`;
    const r = (rows[key] ??= { alg, impl: cells[1],
      ops: kind === 'kem' ? ['keygen', 'encaps', 'decaps'] : ['keygen', 'sign', 'verify'] });
    const v = cells.slice(2, 5);
    if (section === 'Speed Evaluation') {
      r.cycles = v.map((c) => num(/AVG: ([\d,]+)/.exec(c)[1]));
      r.executions = Number(/\((\d+) executions\)/.exec(cells[0])[1]);
    } else if (section === 'Memory Evaluation') r.stack = v.map(num);
    else if (section === 'Hashing Evaluation') r.hash = v.map((c) => Number(c.replace('%', '')) / 100);
  }
  console.log(JSON.stringify({ source, rows: Object.values(rows) }, null, 2));
  process.exit(0);
}

if (mode === 'extract') {
  const [command, ...files] = args;
  if (!command || !files.length) fail('usage: extract "COMMAND" RESULTS_JSON...');
  const targets = [];
  for (const f of files)
    for (const run of JSON.parse(readFileSync(f, 'utf8')).runs) {
      const p = run.provenance;
      const ops = run.ops.filter((o) => o.backend.startsWith('impl:') && SCHEME.test(o.alg))
        .map((o) => ({ alg: o.alg, impl: o.variant, op: o.op, n: o.n,
                       instructions: o.median, est_cycles: o.est_cycles ? o.est_cycles.median : null,
                       stack: o.stack_bytes, heap: o.heap_bytes,
                       hash_share: o.profile ? o.profile.hash_share : null }));
      const left = (run.implementations || []).filter((i) => i.left_out)
        .map((i) => ({ backend: i.backend, why: i.left_out }));
      const keccak = [...new Set((run.implementations || []).filter((i) => !i.left_out)
        .map((i) => i.hash.replace(/^.*\//, '')))];
      targets.push({ target: run.target, compiler: p.compiler, cflags: p.cflags, source: p.source,
                     model: p.cycle_model ? `${p.cycle_model.name} ${p.cycle_model.version}` : 'none',
                     keccak, ops, left_out: left });
    }
  console.log(JSON.stringify({ command, targets }, null, 2));
  process.exit(0);
}

if (mode !== 'render') fail('usage: reference BENCHMARKS_MD SOURCE | extract COMMAND RESULTS_JSON... | render');
const run = JSON.parse(readFileSync(args[0] || join(root, 'tests', 'impl', 'pqm4-checkout-run.json'), 'utf8'));
const ref = JSON.parse(readFileSync(args[1] || join(root, 'tests', 'impl', 'pqm4-benchmarks.json'), 'utf8'));
const fmt = (v) => (v == null ? '-' : Math.round(v).toLocaleString('en-US'));
const pct = (v) => (v == null ? '-' : (100 * v).toFixed(1) + '%');
const ratio = (a, b) => (a == null || !b ? '-' : (a / b).toFixed(3));
const out = [];
out.push(`Merlin: \`${run.command}\` (every folder of the checkout's crypto_kem/ and crypto_sign/, and mupq's PQClean clean folders, of ML-KEM and ML-DSA; each built against the checkout's common/ and mupq/common/).`);
out.push(`pqm4: ${ref.source}.`);
for (const t of run.targets) {
  out.push('');
  out.push(`**${t.target}** (${t.compiler}, \`${t.cflags}\`; model ${t.model}; Keccak ${t.keccak.join(', ') || '-'}; tree ${String(t.source).slice(0, 12)}):`);
  out.push('');
  // pqm4 publishes Cortex-M4 figures: beside qemu-m4's only.
  const m4 = t.target === 'qemu-m4';
  const ops = [...t.ops].sort((a, b) => a.alg.localeCompare(b.alg) || a.impl.localeCompare(b.impl));
  if (!m4) {
    out.push('| scheme | implementation | operation | Merlin instructions | Merlin est. cycles | Merlin stack [B] | Merlin hashing |');
    out.push('|---|---|---|---:|---:|---:|---:|');
    for (const o of ops)
      out.push(`| ${o.alg} | ${o.impl} | ${o.op} | ${fmt(o.instructions)} | ${fmt(o.est_cycles)} | ${fmt(o.stack)} | ${pct(o.hash_share)} |`);
  }
  if (m4) {
    out.push('| scheme | implementation | operation | Merlin instructions | Merlin est. cycles | pqm4 cycles (AVG) | est. / pqm4 | Merlin stack [B] | pqm4 stack [B] | Merlin hashing | pqm4 hashing |');
    out.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  }
  for (const o of m4 ? ops : []) {
    const r = ref.rows.find((x) => x.alg === o.alg && x.impl === o.impl);
    const k = r ? r.ops.indexOf(o.op) : -1;
    const c = k >= 0 && r.cycles ? r.cycles[k] : null;
    const s = k >= 0 && r.stack ? r.stack[k] : null;
    const h = k >= 0 && r.hash ? r.hash[k] : null;
    out.push(`| ${o.alg} | ${o.impl} | ${o.op} | ${fmt(o.instructions)} | ${fmt(o.est_cycles)} | ${fmt(c)} | ${ratio(o.est_cycles, c)} | ${fmt(o.stack)} | ${fmt(s)} | ${pct(o.hash_share)} | ${pct(h)} |`);
  }
  // The spread, by what is like for like: signing is not (rejection
  // sampling over other messages), the rest is deterministic.
  const rows = ops.map((o) => {
    const r = ref.rows.find((x) => x.alg === o.alg && x.impl === o.impl);
    const k = r ? r.ops.indexOf(o.op) : -1;
    return k < 0 || !r.cycles ? null : { o, c: r.cycles[k], s: r.stack ? r.stack[k] : null,
                                         h: r.hash ? r.hash[k] : null };
  }).filter((x) => m4 && x && x.o.est_cycles != null);
  const span = (xs) => xs.length ? `${Math.min(...xs).toFixed(3)} to ${Math.max(...xs).toFixed(3)}` : '-';
  const det = rows.filter((x) => x.o.op !== 'sign').map((x) => x.o.est_cycles / x.c);
  const sig = rows.filter((x) => x.o.op === 'sign').map((x) => x.o.est_cycles / x.c);
  const ds = rows.filter((x) => x.s != null).map((x) => x.o.stack - x.s);
  const dh = rows.filter((x) => x.h != null).map((x) => 100 * (x.o.hash_share - x.h));
  if (rows.length) {
    out.push('');
    const sg = (v, d) => (v > 0 ? '+' : '') + v.toFixed(d);
    out.push(`${t.target}, ${rows.length} operations with a pqm4 row: est. / pqm4 ${span(det)} for key generation, encapsulation, decapsulation and verification, ${span(sig)} for signing; stack ${sg(Math.min(...ds), 0)} to ${sg(Math.max(...ds), 0)} B from pqm4's; hashing share ${sg(Math.min(...dh), 1)} to ${sg(Math.max(...dh), 1)} points from pqm4's.`);
  }
  if (t.left_out.length) {
    out.push('');
    out.push(`Left out on ${t.target}:`);
    out.push('');
    for (const l of t.left_out) out.push(`- ${l.backend}: ${l.why}`);
  }
}
console.log(out.join('\n'));
