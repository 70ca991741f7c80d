#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// docs/benchmarks.md: pqm4's tables of a scripts/site-sweep sweep (issue 42
// item 3), one section per core, each naming the commands and the merlin
// revision that made it, and what was not swept.
//
//   benchmarks-doc.mjs update SWEEP_DIR "NOT SWEPT"
//       from a sweep's directory (sweep.tsv, each group's merged
//       results.json, the site's <core>-benchmarks.md): writes what the
//       page needs into tests/site/benchmarks-sweep.json and the page's
//       section; NOT SWEPT says what was left out of the defaults and why
//   benchmarks-doc.mjs render
//       print the section from tests/site/benchmarks-sweep.json
//   benchmarks-doc.mjs check [DOC]
//       DOC (default docs/benchmarks.md) holds exactly what render prints
//       (make test: benchmarks-doc-table; needs no sweep)
//
// The tables are `merlin site`'s <core>-benchmarks.md as it wrote them
// (mh_report_pqm4_group, the code of `merlin report --format pqm4`), their
// headings two levels down; nothing in them is typed or rounded here.
import { readFileSync, writeFileSync, existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = join(root, 'tests', 'site', 'benchmarks-sweep.json');
const DOC = join(root, 'docs', 'benchmarks.md');
const BEGIN = '<!-- benchmarks-sweep -->';
const END = '<!-- /benchmarks-sweep -->';
const CORES = ['qemu-m0plus', 'qemu-m3', 'qemu-m4', 'qemu-m7', 'qemu-m33', 'qemu-m55', 'qemu-m85'];
// scripts/site-sweep's default groups (ml-kem, ml-dsa, falcon, slh-dsa-f).
const DEFAULT_SETS = [/^ml-kem-/, /^ml-dsa-/, /^falcon-/, /^sphincs-.*f-simple$/];
const TREE = join(root, 'third_party', 'pqclean', 'deps', 'PQClean');
const [mode, ...args] = process.argv.slice(2);
const fail = (m) => { console.error('benchmarks-doc: ' + m); process.exit(1); };
const read = (f) => { try { return readFileSync(f, 'utf8'); } catch (e) { fail(`${f}: ${e.message}`); } };

// A command sweep.tsv recorded unquoted (site-sweep before 2026-12-07
// 22:45): a word with a shell pattern in single quotes, as it was typed.
const quoted = (c) => c.split(' ').map((w) => (/[*?[]/.test(w) && !/['"\\]/.test(w) ? `'${w}'` : w)).join(' ');

// sweep.tsv: one line per group swept (the last line of a group wins: a
// sweep run again after a failure).
function groups(dir) {
  const [head, ...lines] = read(join(dir, 'sweep.tsv')).trim().split('\n');
  const keys = head.split('\t');
  const byName = new Map();
  for (const l of lines) {
    const row = Object.fromEntries(l.split('\t').map((v, k) => [keys[k], v]));
    byName.set(row.group, row);
  }
  return [...byName.values()].map((g) => ({
    group: g.group, schemes: g.schemes.split(' '), cores: g.cores.split(','),
    runs: Number(g.runs), warmup: Number(g.warmup), shards: Number(g.shards), engine: g.engine,
    status: g.status, seconds: Number(g.seconds), plan: g.plan, command: quoted(g.command),
  }));
}

// What a group's merged results say of each core: merlin's revision, the
// cycle model, when, and the folders left out.
function provenance(dir, g) {
  const file = join(dir, g.group.replace(/[^A-Za-z0-9._-]/g, '_'), 'merged', 'latest', 'results.json');
  if (!existsSync(file)) fail(`${file}: missing (group ${g.group} ${g.status})`);
  const res = JSON.parse(read(realpathSync(file)));
  if (!res.plan || res.plan.hash.slice(0, g.plan.length) !== g.plan) fail(`${file}: not the plan sweep.tsv names for ${g.group}`);
  return res.runs.map((r) => ({
    target: r.target, source: r.provenance.source, merlin: res.merlin, created: res.created,
    model: r.provenance.cycle_model ? `${r.provenance.cycle_model.name} ${r.provenance.cycle_model.version}` : null,
    left_out: (r.implementations || []).filter((i) => i.left_out).map((i) => `${i.backend.replace(/^impl:/, '')}: ${i.left_out}`),
  }));
}

function extract(dir, notSwept) {
  const all = groups(dir);
  const gs = all.filter((g) => g.status === 'done');
  const failed = all.filter((g) => g.status !== 'done');
  if (!gs.length) fail(`${dir}/sweep.tsv: no group swept`);
  const cores = [];
  for (const target of CORES) {
    const runs = gs.flatMap((g) => provenance(dir, g).filter((r) => r.target === target)
      .map((r) => ({ group: g.group, ...r })));
    if (!runs.length) continue;
    const md = read(join(dir, 'site', `${target}-benchmarks.md`)).split('\n');
    // The first line names the database file of this machine: left out.
    if (md[0].startsWith('<!--')) md.shift();
    // The site must hold every group swept on this core.
    for (const r of runs) {
      const want = `/${r.group.replace(/[^A-Za-z0-9._-]/g, '_')}/merged`;
      if (!md.some((l) => l.startsWith('- run ') && l.includes(want))) {
        fail(`${dir}/site/${target}-benchmarks.md has no run of group ${r.group} (${want}): ` +
             `the site predates it; merlin site ${dir}/results.db --out ${dir}/site`);
      }
    }
    cores.push({ target, runs, benchmarks: md.join('\n').trim() });
  }
  // The default sets of the pinned tree, to name those not swept.
  const sets = ['crypto_kem', 'crypto_sign'].flatMap((k) => readdirSync(join(TREE, k)))
    .filter((n) => DEFAULT_SETS.some((re) => re.test(n))).sort();
  return { groups: gs, failed, default_sets: sets, not_swept: notSwept, cores };
}

const minutes = (s) => (s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`);

function render(data) {
  const L = [];
  L.push('What was swept (each group one plan, `scripts/site-sweep`; each group\'s wall time as its sweep.tsv line records it):');
  L.push('');
  L.push('| group | sets | cores | runs / warm-up | shards | wall time | command |');
  L.push('|---|---|---|---|---:|---:|---|');
  for (const g of data.groups) {
    L.push(`| ${g.group} | ${g.schemes.join(', ')} | ${g.cores.join(', ')} | ${g.runs} / ${g.warmup} | ` +
           `${g.shards} | ${minutes(g.seconds)} | \`${g.command}\` |`);
  }
  L.push('');
  for (const g of data.failed || []) {
    L.push(`Failed, nothing of it kept: group ${g.group} (${g.schemes.join(', ')}) on ${g.cores.join(', ')}, ` +
           `${g.status} after ${minutes(g.seconds)} (\`${g.command}\`).`);
    L.push('');
  }
  // Per core, the default sets no group swept there.
  const missing = CORES.map((c) => {
    const done = new Set(data.groups.filter((g) => g.cores.includes(c)).flatMap((g) => g.schemes));
    return [c, data.default_sets.filter((n) => !done.has(n))];
  }).filter(([, m]) => m.length);
  const same = missing.length === CORES.length && missing.every(([, m]) => m.join() === missing[0][1].join());
  const list = (m) => (m.length === data.default_sets.length ? 'any default set' : m.join(', '));
  L.push('Not swept (of the default sets: ' + data.default_sets.join(', ') + '): ' +
         (!missing.length ? 'none' : same ? `${list(missing[0][1])} on every core`
           : missing.map(([c, m]) => `on ${c} ${list(m)}`).join('; ')) + `. ${data.not_swept}`);
  for (const c of data.cores) {
    L.push('');
    L.push(`## ${c.target}`);
    L.push('');
    const byGroup = c.runs.map((r) => `${r.group}: merlin ${r.merlin} revision ${r.source}, ` +
      `${r.model ? `estimated cycles (model ${r.model})` : 'instructions (no cycle model)'}, made ${r.created}`);
    L.push(`Made by the commands above (${byGroup.join('; ')}).`);
    const out = c.runs.flatMap((r) => r.left_out);
    L.push('');
    L.push(out.length ? `Left out: ${out.join('; ')}.` : 'No folder left out.');
    L.push('');
    L.push(c.benchmarks.split('\n').map((l) => (/^#+ /.test(l) ? '##' + l : l)).join('\n'));
  }
  return L.join('\n');
}

function section(doc) {
  const text = read(doc);
  const a = text.indexOf(BEGIN), b = text.indexOf(END);
  if (a < 0 || b < a) fail(`${doc}: no ${BEGIN} ... ${END} markers`);
  return { text, a: a + BEGIN.length, b };
}

if (mode === 'update') {
  const [dir, notSwept] = args;
  if (!dir || notSwept === undefined) fail('usage: update SWEEP_DIR "NOT SWEPT"');
  const data = extract(dir, notSwept);
  writeFileSync(DATA, JSON.stringify(data, null, 1) + '\n');
  const d = section(DOC);
  writeFileSync(DOC, d.text.slice(0, d.a) + '\n' + render(data) + '\n' + d.text.slice(d.b));
  console.log(`benchmarks-doc: wrote ${DATA} and the tables of ${DOC}`);
} else if (mode === 'render') {
  console.log(render(JSON.parse(read(DATA))));
} else if (mode === 'check') {
  const doc = args[0] || DOC;
  const d = section(doc);
  const want = ('\n' + render(JSON.parse(read(DATA))) + '\n').split('\n');
  const have = d.text.slice(d.a, d.b).split('\n');
  const i = want.findIndex((l, k) => l !== have[k]);
  if (i >= 0 || have.length !== want.length) {
    const k = i >= 0 ? i : Math.min(want.length, have.length);
    fail(`${doc}: the benchmarks tables differ from what scripts/benchmarks-doc.mjs renders ` +
         `(tests/site/benchmarks-sweep.json) at line ${k + 1} of the section:\n  want: ${want[k] ?? '(end)'}\n  have: ${have[k] ?? '(end)'}`);
  }
  console.log(`ok: ${doc} holds what scripts/benchmarks-doc.mjs renders`);
} else {
  fail('usage: update SWEEP_DIR "NOT SWEPT" | render | check [DOC]');
}
