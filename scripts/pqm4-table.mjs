#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// docs/bring-your-own.md's table of every pqm4 M4 folder (issue 39): a
// whole pqm4 checkout run by Merlin on qemu-m4, each folder measured or
// left out (and why), beside the rows of pqm4's own benchmarks.md.
//
//   pqm4-table.mjs update RESULTS_DIR PQM4_CHECKOUT "COMMAND"
//       from a run (RESULTS_DIR/results.json of COMMAND) and the checkout
//       it ran (its benchmarks.md and git commits): writes the figures the
//       table needs into tests/impl/pqm4-m4-run.json and
//       tests/impl/pqm4-m4-reference.json, and the table into the doc
//   pqm4-table.mjs render
//       print the table from those two files
//   pqm4-table.mjs check
//       the doc holds exactly what render prints (make test:
//       impl-pqm4-m4-table; needs no pqm4 checkout)
//
// pqm4's M4 folders are its crypto_kem/<scheme>/<impl> and
// crypto_sign/<scheme>/<impl> folders, whose names start with m4 (m4,
// m4f, m4fspeed, m4fstack, m4speed, m4stack); its benchmarks.md rows of
// those are kept (speed AVG, MIN and MAX cycles and the executions, stack
// bytes, hashing share). Merlin's side: per operation the estimated cycles
// (mean, min, max over the timed samples, and how many), the peak stack
// and the hashing share; and every folder left out with its reason.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUN = join(root, 'tests', 'impl', 'pqm4-m4-run.json');
const REF = join(root, 'tests', 'impl', 'pqm4-m4-reference.json');
const DOC = join(root, 'docs', 'bring-your-own.md');
const BEGIN = '<!-- pqm4-m4-table -->';
const END = '<!-- /pqm4-m4-table -->';
const M4 = /^m4/;
const [mode, ...args] = process.argv.slice(2);
const fail = (m) => { console.error('pqm4-table: ' + m); process.exit(1); };
const num = (s) => Number(String(s).replace(/,/g, ''));
const OPS = { kem: ['keygen', 'encaps', 'decaps'], sign: ['keygen', 'sign', 'verify'] };

// pqm4's benchmarks.md: its M4 rows.
function reference(file, source) {
  const rows = {};
  let section = '', kind = '';
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('# ')) section = line.slice(2).trim();
    if (line.startsWith('## ')) kind = /Key Encapsulation/.test(line) ? 'kem' : 'sign';
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 5 || !M4.test(cells[1])) continue;
    const scheme = cells[0].replace(/ \(.*\)$/, '');
    const r = (rows[`${scheme}/${cells[1]}`] ??= { scheme, impl: cells[1], kind, ops: OPS[kind] });
    const v = cells.slice(2, 5);
    const stat = (c, k) => { const m = new RegExp(k + ': ([\\d,]+)').exec(c); return m ? num(m[1]) : null; };
    if (section === 'Speed Evaluation') {
      r.avg = v.map((c) => stat(c, 'AVG'));
      r.min = v.map((c) => stat(c, 'MIN'));
      r.max = v.map((c) => stat(c, 'MAX'));
      r.executions = Number((/\((\d+) executions\)/.exec(cells[0]) || [0, 0])[1]);
    } else if (section === 'Memory Evaluation') r.stack = v.map((c) => (c === '-' ? null : num(c)));
    else if (section === 'Hashing Evaluation') r.hash = v.map((c) => (/%/.test(c) ? Number(c.replace('%', '')) / 100 : null));
  }
  return { source, rows: Object.values(rows) };
}

// What the table needs of a run: every folder of its implementations, each
// operation's estimated cycles, stack and hashing share, or why it was left out.
function extract(file, command) {
  const runs = JSON.parse(readFileSync(file, 'utf8')).runs;
  if (runs.length !== 1) fail(`${file}: ${runs.length} runs, expected one (qemu-m4)`);
  const run = runs[0], p = run.provenance;
  const folders = (run.implementations || []).map((i) => {
    const [scheme, impl] = i.backend.replace(/^impl:/, '').split('/');
    const f = { scheme, impl, keccak: i.hash };
    if (i.left_out) f.left_out = i.left_out;
    const ops = run.ops.filter((o) => o.backend === i.backend);
    if (ops.length) f.kind = ops.some((o) => o.op === 'encaps') ? 'kem' : 'sign';
    f.ops = Object.fromEntries(ops.map((o) => [o.op, {
      n: o.n,
      avg: o.est_cycles ? o.est_cycles.mean : null,
      min: o.est_cycles ? o.est_cycles.min : null,
      max: o.est_cycles ? o.est_cycles.max : null,
      insn_median: o.median,
      stack: o.stack_bytes,
      heap: o.heap_bytes,
      hash: o.profile ? o.profile.hash_share : null }]));
    return f;
  }).filter((f) => M4.test(f.impl));
  return { command, target: run.target, compiler: p.compiler, cflags: p.cflags, source: p.source,
           model: p.cycle_model ? `${p.cycle_model.name} ${p.cycle_model.version}` : 'none',
           created: JSON.parse(readFileSync(file, 'utf8')).created, folders };
}

const fmt = (v) => (v == null ? '-' : Math.round(v).toLocaleString('en-US'));
const pct = (v) => (v == null ? '-' : (100 * v).toFixed(1) + '%');
const cmpName = (a, b) => (a.scheme === b.scheme ? a.impl.localeCompare(b.impl) : a.scheme.localeCompare(b.scheme));

function render(run, ref) {
  const refOf = (f) => ref.rows.find((r) => r.scheme === f.scheme && r.impl === f.impl);
  const folders = [...run.folders].sort(cmpName);
  const measured = folders.filter((f) => !f.left_out), out = folders.filter((f) => f.left_out);
  const lines = [];
  lines.push(`Merlin: \`${run.command}\` (${run.created}; ${run.compiler}, \`${run.cflags}\`; ` +
             `cycle model ${run.model}, zero wait states; tree ${String(run.source).slice(0, 12)}).`);
  lines.push(`pqm4: ${ref.source}.`);
  lines.push('');
  lines.push(`**${measured.length} of ${folders.length} M4 folders measured**` +
             (out.length ? `; left out: ${out.map((f) => `${f.scheme}/${f.impl}`).join(', ')} (reasons below).` : '.'));
  lines.push('');
  lines.push('| scheme | implementation | operation | Merlin n | Merlin est. cycles AVG | MIN | MAX | pqm4 cycles AVG | MIN | MAX | est. / pqm4 (AVG) | Merlin stack [B] | pqm4 stack [B] | Merlin hashing | pqm4 hashing |');
  lines.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const ratios = {};
  for (const f of folders) {
    const r = refOf(f);
    if (f.left_out) {
      lines.push(`| ${f.scheme} | ${f.impl} | - | left out | ${f.left_out.replace(/\|/g, '\\|')} | | | | | | | | | | |`);
      continue;
    }
    const ops = OPS[f.kind];
    ops.forEach((op, k) => {
      const o = f.ops[op] || {};
      const pa = r && r.avg ? r.avg[k] : null;
      const ratio = o.avg && pa ? o.avg / pa : null;
      if (ratio != null) (ratios[op] ??= []).push(ratio);
      lines.push(`| ${f.scheme} | ${f.impl} | ${op} | ${o.n ?? '-'} | ${fmt(o.avg)} | ${fmt(o.min)} | ${fmt(o.max)} | ` +
                 `${fmt(pa)} | ${fmt(r && r.min ? r.min[k] : null)} | ${fmt(r && r.max ? r.max[k] : null)} | ` +
                 `${ratio == null ? '-' : ratio.toFixed(3)} | ${fmt(o.stack)} | ${fmt(r && r.stack ? r.stack[k] : null)} | ` +
                 `${pct(o.hash)} | ${pct(r && r.hash ? r.hash[k] : null)} |`);
    });
  }
  lines.push('');
  const span = (v) => (v && v.length ? `${Math.min(...v).toFixed(3)} to ${Math.max(...v).toFixed(3)} (${v.length})` : '-');
  lines.push('est. / pqm4 of the AVG, by operation (lowest to highest, and how many): ' +
             Object.keys(ratios).sort().map((op) => `${op} ${span(ratios[op])}`).join('; ') + '.');
  if (out.length) {
    lines.push('');
    lines.push('Left out:');
    lines.push('');
    for (const f of out) lines.push(`- ${f.scheme}/${f.impl}: ${f.left_out}`);
  }
  return lines.join('\n');
}

function docSection() {
  const text = readFileSync(DOC, 'utf8');
  const a = text.indexOf(BEGIN), b = text.indexOf(END);
  if (a < 0 || b < a) fail(`${DOC}: no ${BEGIN} ... ${END} markers`);
  return { text, a: a + BEGIN.length, b };
}

const load = (f) => JSON.parse(readFileSync(f, 'utf8'));
if (mode === 'update') {
  const [dir, checkout, command] = args;
  if (!dir || !checkout || !command) fail('usage: update RESULTS_DIR PQM4_CHECKOUT "COMMAND"');
  const rev = (d) => execFileSync('git', ['-C', d, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const source = `pqm4 benchmarks.md at ${rev(checkout)} (mupq ${rev(join(checkout, 'mupq')).slice(0, 8)}, ` +
    `mupq's PQClean ${rev(join(checkout, 'mupq', 'pqclean')).slice(0, 8)}): AVG, MIN and MAX cycles of its executions, ` +
    'peak stack, hashing share, measured by pqm4 on NUCLEO-L4R5ZI (Cortex-M4F) at 24 MHz, no flash wait states, ' +
    'arm-none-eabi-gcc -O3';
  const ref = reference(join(checkout, 'benchmarks.md'), source);
  const run = extract(join(dir, 'results.json'), command);
  writeFileSync(REF, JSON.stringify(ref, null, 1) + '\n');
  writeFileSync(RUN, JSON.stringify(run, null, 1) + '\n');
  const d = docSection();
  writeFileSync(DOC, d.text.slice(0, d.a) + '\n' + render(run, ref) + '\n' + d.text.slice(d.b));
  console.log(`pqm4-table: wrote ${REF}, ${RUN} and the table of ${DOC}`);
} else if (mode === 'render') {
  console.log(render(load(RUN), load(REF)));
} else if (mode === 'check') {
  const d = docSection();
  const want = '\n' + render(load(RUN), load(REF)) + '\n';
  const have = d.text.slice(d.a, d.b);
  if (want !== have) {
    const w = want.split('\n'), h = have.split('\n');
    const i = w.findIndex((l, k) => l !== h[k]);
    fail(`docs/bring-your-own.md's pqm4 M4 table differs from the script's at line ${i}:\n  want: ${w[i]}\n  have: ${h[i]}`);
  }
  console.log('ok: docs/bring-your-own.md holds what scripts/pqm4-table.mjs renders');
} else {
  fail('usage: update RESULTS_DIR PQM4_CHECKOUT "COMMAND" | render | check');
}
