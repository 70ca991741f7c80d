#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// The "Measured scale" table of docs/scaling.md: a sweep as N slices, the
// wall time measured for the N this machine can run at once, and for larger
// N the time projected from the plan's per-job costs.
//
//   scale-table.mjs measure --costs DIR --wall N=SECONDS[,N=SECONDS] \
//       --what "TEXT" -- RUN_ARGS...
//       plan RUN_ARGS (`merlin run RUN_ARGS --plan-only - --costs DIR
//       --shard 0/N`) for N = 1, 2, 16, 64 and keep each plan's summary
//       (the heaviest slice, the whole, the heaviest job: instructions, as
//       estimated from the run in DIR) with the measured wall times
//       (`time` of the slices run side by side; TEXT says how) in
//       docs/scaling-measured.json
//   scale-table.mjs render
//       print the table: per N, the heaviest slice and the wall time,
//       measured where it was, else projected from the largest N measured:
//       its wall time per instruction of its heaviest slice, times this N's
//       heaviest slice (a QEMU job's time follows its instruction count;
//       the building and the host reference step inside the measured
//       time are scaled with it)
//   scale-table.mjs write
//       put it into docs/scaling.md between its markers
//   scale-table.mjs check
//       fail unless docs/scaling.md holds what write would put there
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATA = join(root, 'docs', 'scaling-measured.json');
const DOC = join(root, 'docs', 'scaling.md');
const BEGIN = '<!-- scale-table: begin (node scripts/scale-table.mjs write) -->';
const END = '<!-- scale-table: end -->';
const SLICES = [1, 2, 16, 64];
const die = (m) => {
  console.error(`scale-table: ${m}`);
  process.exit(2);
};
const [mode, ...args] = process.argv.slice(2);

function summary(text, n) {
  const m = text.match(
    /(\d+) slice\(s\): the heaviest ([0-9,.]+) \(estimate\), [0-9.]+% of the plan's ([0-9,.]+); the heaviest job, ([0-9,.]+)/);
  if (!m || Number(m[1]) !== n) die(`merlin printed no summary of ${n} slice(s) (does every job have a cost?)`);
  const num = (s) => Number(s.replace(/,/g, ''));
  return { heaviest: num(m[2]), whole: num(m[3]), job: num(m[4]) };
}

function measure() {
  const sep = args.indexOf('--');
  if (sep < 0) die('measure: give the run options after --');
  const opts = args.slice(0, sep), run = args.slice(sep + 1);
  const get = (k) => {
    const i = opts.indexOf(k);
    return i >= 0 ? opts[i + 1] : undefined;
  };
  const costs = get('--costs'), wall = get('--wall') ?? '', what = get('--what');
  if (!costs || !what) die('measure: --costs DIR and --what TEXT are needed');
  const walls = {};
  for (const w of wall.split(',').filter(Boolean)) {
    const [n, s] = w.split('=');
    if (!/^\d+$/.test(n) || !(Number(s) > 0)) die(`--wall ${w}: N=SECONDS`);
    walls[n] = Number(s);
  }
  if (!Object.keys(walls).length) die('measure: --wall needs N=SECONDS (the projection scales it)');
  const merlin = join(root, 'build', 'host', 'merlin');
  const slices = {}, tmp = mkdtempSync(join(tmpdir(), 'scale-table-'));
  try {
    for (const n of SLICES) {
      const out = execFileSync(merlin, ['run', ...run, '--plan-only', join(tmp, 'plan.json'),
        '--costs', costs, '--shard', `0/${n}`], { encoding: 'utf8' });
      slices[n] = summary(out, n);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const quote = (a) => (/[*?\s'"]/.test(a) ? `'${a}'` : a);
  const data = { command: `merlin run ${run.map(quote).join(' ')}`, measured: what, walls, slices };
  writeFileSync(DATA, JSON.stringify(data, null, 1) + '\n');
  console.log(`scale-table: wrote ${DATA}`);
}

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const hms = (s) => {
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = Math.round(s % 60);
  return h ? `${h} h ${m} min` : `${m} min ${r} s`;
};

function render() {
  const d = JSON.parse(readFileSync(DATA, 'utf8'));
  const one = d.slices['1'];
  // The base of the projection: the largest N measured (its slices ran
  // side by side, so its rate is the machine's when fully used).
  const base = Math.max(...Object.keys(d.walls).map(Number));
  const perInsn = d.walls[base] / d.slices[base].heaviest;
  const rows = [
    `Plan of \`${d.command}\`; costs from that run's own results; ${d.measured}.`,
    '',
    '| slices N | heaviest slice (instructions, estimate) | share of the plan | wall time |',
    '|---:|---:|---:|---|',
  ];
  for (const n of Object.keys(d.slices).sort((a, b) => a - b)) {
    const s = d.slices[n];
    const share = s.heaviest / one.whole;
    const wall = d.walls[n] ? `${hms(d.walls[n])} (measured)` :
      `${hms(perInsn * s.heaviest)} (projected)`;
    rows.push(`| ${n} | ${fmt(s.heaviest)} | ${(100 * share).toFixed(1)} % | ${wall} |`);
  }
  rows.push('', `The heaviest job, ${fmt(one.job)} instructions (estimate), is ` +
    `${(100 * one.job / one.whole).toFixed(1)} % of the plan: no number of slices ` +
    `finishes sooner than ${hms(perInsn * one.job)} (projected from N = ${base}).`);
  return rows.join('\n');
}

if (mode === 'measure') measure();
else if (mode === 'render') console.log(render());
else if (mode === 'write' || mode === 'check') {
  const doc = readFileSync(DOC, 'utf8');
  const a = doc.indexOf(BEGIN), b = doc.indexOf(END);
  if (a < 0 || b < a) die(`docs/scaling.md has no markers ${BEGIN} ... ${END}`);
  const now = doc.slice(0, a + BEGIN.length) + '\n' + render() + '\n' + doc.slice(b);
  if (mode === 'check') {
    if (now !== doc) die('docs/scaling.md does not hold what docs/scaling-measured.json renders (run write)');
    console.log('scale-table: docs/scaling.md matches docs/scaling-measured.json');
  } else {
    writeFileSync(DOC, now);
    console.log('scale-table: docs/scaling.md written');
  }
} else if (mode === '--help' || mode === '-h') {
  console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(2, 25)
    .map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
} else die('usage: scale-table.mjs measure|render|write|check (--help)');
