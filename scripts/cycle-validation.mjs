#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// The validation tables of docs/cycle-model.md: per core, Merlin's estimate
// next to published silicon measurements of the same code (whole operations
// of PQClean and pqm4 schemes, CoreMark), each reference with its source in
// tests/cycles (part, clock, memory placement, compiler), and the cores that
// have none, with what was searched; and the per-function table of pqm4's
// own M4 code (scripts/cycle-perfunction.mjs).
//
//   cycle-validation.mjs extract RESULTS_JSON "COMMAND" [CYCLES_SIDE] > OUT
//       keep what a scheme table needs from the results of COMMAND, a `merlin
//       run` of PQClean ML-KEM-768 and ML-DSA-44 on qemu-m4, qemu-m3 or
//       qemu-m0plus (--profile tests/cycles/validation.profile); OUT:
//       validation-run.json (M4), validation-run-m3.json, validation-run-m0plus.json;
//       with the image's cycles.side, also the run-time helpers of HELPERS
//   cycle-validation.mjs extract-pqm4 RESULTS_JSON CYCLES_SIDE "COMMAND" > OUT
//       the per-function extract of a run of pqm4's folders on qemu-m4 (its
//       results.json and the image's cycles.side); OUT: pqm4-perfunction-run.json
//   cycle-validation.mjs render | render-perfunction
//       print the validation tables, or the per-function table
//   cycle-validation.mjs write
//       put them into docs/cycle-model.md, between their markers, with the
//       AES tables rom/ram and Helium cross-check tables
//       (scripts/cycle-crosscheck.mjs); scripts/cycle-tables makes the runs
//   cycle-validation.mjs check
//       exit 1 when docs/cycle-model.md does not hold both (make test:
//       cycle-model-validation-table); the CoreMark runs come from
//       scripts/cycle-coremark.mjs (coremark-run.json)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderAes, renderHelium } from './cycle-crosscheck.mjs';
import { extractPqm4, helperCycles, renderPerFunction, sideSamples } from './cycle-perfunction.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const data = (f) => JSON.parse(readFileSync(join(root, 'tests', 'cycles', f), 'utf8'));
const DOC = join(root, 'docs', 'cycle-model.md');
const [mode, ...args] = process.argv.slice(2);

const ORDER = [
  ['cortex-m0plus', 'Cortex-M0+'], ['cortex-m3', 'Cortex-M3'], ['cortex-m4', 'Cortex-M4'],
  ['cortex-m7', 'Cortex-M7'], ['cortex-m33', 'Cortex-M33'], ['cortex-m55', 'Cortex-M55'],
  ['cortex-m85', 'Cortex-M85'],
];
// Whole operations of the same schemes: a merlin run (extract) beside a
// published reference.
const SCHEMES = [
  { core: 'cortex-m0plus', run: 'validation-run-m0plus.json', ref: 'rp2040-reference.json' },
  { core: 'cortex-m3', run: 'validation-run-m3.json', ref: 'pqm3-reference.json' },
  { core: 'cortex-m4', run: 'validation-run.json', ref: 'pqm4-reference.json' },
];
// The cores without a usable published figure, and what was looked for.
const MISSING = {
  'cortex-m55': 'No silicon measurement of a whole function or program was found here. ' +
    'Searched: the SLOTHY paper (Abdulrahman, Becker, Kannwischer, Klein, TCHES 2024, eprint ' +
    '2022/1303: Kyber and Dilithium NTTs and FFTs measured on the M55 of Arm\'s MPS3 FPGA ' +
    'image AN547; only its abstract could be read here, not its tables), slothy-optimizer/pqmx ' +
    '(the Helium code, no figures in the repository), GorgonMeducer/coremark_cortex-m55 ' +
    '(CoreMark/MHz of GCC, LLVM and Arm Compiler builds, but run on Arm\'s SSE-300 FVP, which ' +
    'is not cycle-accurate), and CoreMark/MHz figures quoted for the core without a part, ' +
    'compiler or memory placement',
  'cortex-m85': 'No usable whole-function or whole-program figure was found here. Searched: ' +
    'the SLOTHY paper (the M85 of the MPS3 FPGA image AN555; tables not readable here), pqmx\'s ' +
    'EK-RA8M1 environment (no published figures), CoreMark claims for the Renesas RA8M1/RA8D1 ' +
    'and the core (no compiler or memory placement found with them), and jnk0le\'s RA8D1 ' +
    'measurements (instruction sequences: the published-sequence test above). The issue\'s own ' +
    'M85 silicon cases are kept aside for its check and are not used here',
};

const fmt = (v) => Math.round(v).toLocaleString('en-US');
const within = (r, tol) => Math.abs(r - 1) <= tol;

// library helpers whose code differs from the silicon run's (rp2040-reference.json)
const HELPERS = ['__muldi3'];

if (mode === 'extract') {
  const [file, command, sideFile] = args;
  const res = JSON.parse(readFileSync(file, 'utf8'));
  const run = res.runs.find((r) => r.provenance?.cycle_model &&
    SCHEMES.some((c) => c.core === r.provenance.cycle_model.name));
  if (!run) {
    console.error(`cycle-validation: no run with the ${SCHEMES.map((c) => c.core).join(', ')} ` +
      `model in ${file}`);
    process.exit(1);
  }
  const ops = run.ops
    .filter((o) => o.backend === 'pqclean' && ['ml-kem-768', 'ml-dsa-44'].includes(o.alg))
    .map((o) => ({ alg: o.alg, op: o.op, instructions: o.median,
                   est_cycles: o.est_cycles.median, est_cycles_mean: o.est_cycles.mean,
                   hash_share: o.profile.hash_share }));
  if (sideFile) {
    const want = run.ops.filter((o) => ops.some((x) => x.alg === o.alg && x.op === o.op &&
      o.backend === 'pqclean'));
    for (const [o, samples] of sideSamples(run, sideFile, want).pairs)
      ops.find((x) => x.alg === o.alg && x.op === o.op).helpers = helperCycles(samples, HELPERS);
  }
  const p = run.provenance;
  const board = p.cycle_model.board ? `, --board ${p.cycle_model.board.id}` : '';
  console.log(JSON.stringify({
    command: command || `merlin run --target ${run.target}`,
    model: `${p.cycle_model.name} ${p.cycle_model.version}${board}`,
    compiler: p.compiler, cflags: p.cflags, source: p.source, ops }, null, 2));
  process.exit(0);
}
if (mode === 'extract-pqm4') {
  const [results, side, command] = args;
  console.log(JSON.stringify(extractPqm4(results, side, command), null, 2));
  process.exit(0);
}

// the schemes' table: whole operations, and outside hashing where the
// reference gives its hashing share
function schemeTable(c) {
  const run = data(c.run), ref = data(c.ref);
  const name = ref.name || 'pqm4';
  const hashCols = ref.ops.every((r) => r.hash !== undefined);
  const o2 = /-O[^3]/.test(run.cflags);
  const why = (r, rn, op) => {
    if (within(r, 0.10)) return 'within ±10%';
    const out = [];
    if (op === 'sign')
      out.push(`signing: ${name} gives the mean of its signatures, Merlin the ` +
               `${ref.stat === 'mean' ? 'mean' : 'median'} of its own messages (rejection ` +
               'sampling: not like for like)');
    if (ref.round3)
      out.push(`${name} measured round-3 Kyber/Dilithium, Merlin runs FIPS 203/204`);
    if (ref.why) out.push(ref.why);
    if (!hashCols) return out.join('; ');
    if (within(rn, 0.10))
      out.push(ref.hash_like
        ? 'outside hashing within ±10%: the gap is in hashing, C Keccak-f[1600] on both sides'
        : 'outside hashing within ±10%: the gap is Keccak-f[1600] (PQClean C here, pqm4 assembly there)');
    else
      out.push((o2 ? '-O2 here, -O3 there; ' : '') + `outside hashing too: ${name} counts whole ` +
               'hashing calls (absorb and squeeze: byte-wise state loads and stores in PQClean C) ' +
               'as hashing, this table\'s Merlin share only the permutation (largest where ' +
               'squeezing dominates: ML-DSA ExpandA, ExpandS); the per-function table below ' +
               'counts hashing as pqm4 does');
    return out.join('; ');
  };
  const lines = [`Merlin: \`${run.command}\`, ${run.model}${/--board/.test(run.model) ? '' :
    ', zero wait states'}; ${run.compiler}, \`${run.cflags}\`; tree ${String(run.source).slice(0, 12)}.`,
  `Reference: ${ref.source}.`, ''];
  const stat = ref.stat === 'mean' ? 'mean' : 'median';
  if (hashCols) {
    lines.push(`| operation | Merlin est. cycles | ${name} cycles (silicon) | ratio | Merlin outside hashing | ${name} outside hashing | ratio | within ±10%, or why not |`);
    lines.push('|---|---:|---:|---:|---:|---:|---:|---|');
  } else {
    lines.push(`| operation | Merlin est. cycles (${stat}) | ${name} cycles (silicon, ${stat}) | ratio | within ±10%, or why not |`);
    lines.push('|---|---:|---:|---:|---|');
  }
  for (const r of ref.ops) {
    const m = run.ops.find((o) => o.alg === r.alg && o.op === r.op);
    if (!m) throw new Error(`no ${r.alg} ${r.op} in ${c.run}`);
    const est = stat === 'mean' ? m.est_cycles_mean : m.est_cycles;
    const cycles = r.cycles ?? r.us * ref.mhz;
    const ratio = est / cycles;
    if (!hashCols) {
      let w = why(ratio, 1, r.op);
      const hl = ref.helper && m.helpers?.[ref.helper.name];
      if (!within(ratio, 0.10) && hl?.calls) {
        const adj = (est - hl.cycles + hl.calls * ref.helper.cycles) / cycles;
        w = [`libgcc's 64-bit multiply here (\`${ref.helper.name}\`: ${fmt(hl.calls)} calls, ` +
          `${(100 * hl.cycles / est).toFixed(1)}% of the estimate), ${ref.helper.text}: with it ` +
          `${adj.toFixed(3)}`, w].filter(Boolean).join('; ');
      }
      lines.push(`| ${r.alg} ${r.op} | ${fmt(est)} | ${fmt(cycles)} | ${ratio.toFixed(3)} | ${w} |`);
      continue;
    }
    const mn = est * (1 - m.hash_share), pn = cycles * (1 - r.hash);
    const rn = mn / pn;
    lines.push(`| ${r.alg} ${r.op} | ${fmt(est)} | ${fmt(cycles)} | ${ratio.toFixed(3)} | ${fmt(mn)} | ${fmt(pn)} | ${rn.toFixed(3)} | ${why(ratio, rn, r.op)} |`);
  }
  return lines;
}

// CoreMark: estimated cycles per iteration beside the silicon's
function coremarkTable(src, run) {
  const b0 = run.builds[src.rows[0].build];
  const lines = [`Merlin: \`${run.command}\` (eembc/coremark, core files SHA-256 ` +
    `${run.coremark_sha256.slice(0, 12)}, ${run.iterations} iterations), ${b0.model}, zero wait ` +
    `states; ${run.compiler}, each row's flags as its source's; tree ${run.tree}.`,
  `Reference: ${src.source}.`, '',
  '| CoreMark run | Merlin est. cycles per iteration | silicon cycles per iteration | ratio | within ±10%, or why not |',
  '|---|---:|---:|---:|---|'];
  for (const r of src.rows) {
    const b = run.builds[r.build];
    if (!b) throw new Error(`no build ${r.build} in coremark-run.json`);
    const silicon = r.mhz * 1e6 / r.iter_per_s;
    const ratio = b.cycles_per_iteration / silicon;
    let why = 'within ±10%';
    if (!within(ratio, 0.10)) {
      const out = [];
      if (b.mispredict_stall > 0) {
        const share = b.mispredict_stall / b.cycles;
        out.push(`the model's mispredicted branches are ${(100 * share).toFixed(1)}% of its ` +
          `estimate; without them ${(ratio * (1 - share)).toFixed(3)}`);
      }
      if (src.why) out.push(src.why);
      why = out.join('; ');
    }
    lines.push(`| ${r.part} at ${r.mhz} MHz, ${r.memory}, \`${r.opt}\` | ` +
      `${fmt(b.cycles_per_iteration)} | ${fmt(silicon)} | ${ratio.toFixed(3)} | ${why} |`);
  }
  return lines;
}

function renderValidation() {
  const cm = data('coremark-reference.json'), cmRun = data('coremark-run.json');
  const lines = [];
  for (const [core, title] of ORDER) {
    const blocks = [];
    for (const c of SCHEMES.filter((s) => s.core === core)) blocks.push(schemeTable(c));
    for (const s of cm.sources.filter((x) => x.core === core)) blocks.push(coremarkTable(s, cmRun));
    if (lines.length) lines.push('');
    if (!blocks.length) {
      lines.push(`**${title}.** ${MISSING[core]}.`);
      continue;
    }
    blocks.forEach((b, i) => {
      if (i) lines.push('');
      lines.push(i ? b[0] : `**${title}.** ${b[0]}`, ...b.slice(1));
    });
  }
  return lines.join('\n');
}

// pqm4's benchmarks.md rows, kept by issue 29 (tests/impl/README.md)
const renderPf = () =>
  renderPerFunction(data('pqm4-perfunction-run.json'), data(join('..', 'impl', 'pqm4-benchmarks.json')))
    .join('\n');

const SECTIONS = [['validation', renderValidation], ['perfunction', renderPf],
  ['aes', () => renderAes(data('aes-boards-run.json'), data('aes-seed-reference.json')).join('\n')],
  ['helium', () => renderHelium(data('helium-run.json')).join('\n')]];
function splice(doc, name, body) {
  const b = `<!-- ${name}:begin -->\n`, e = `<!-- ${name}:end -->`;
  const i = doc.indexOf(b), j = doc.indexOf(e);
  if (i < 0 || j < i) throw new Error(`${DOC}: no ${b.trim()} ... ${e} markers`);
  return doc.slice(0, i + b.length) + body + '\n' + doc.slice(j);
}

if (mode === 'render') {
  console.log(renderValidation());
} else if (mode === 'render-perfunction') {
  console.log(renderPf());
} else if (mode === 'write' || mode === 'check') {
  const doc = readFileSync(DOC, 'utf8');
  let want = doc;
  for (const [name, fn] of SECTIONS) want = splice(want, name, fn());
  if (mode === 'write') {
    writeFileSync(DOC, want);
  } else if (want !== doc) {
    const a = doc.split('\n'), w = want.split('\n');
    const k = a.findIndex((l, i) => l !== w[i]);
    console.error(`FAIL: docs/cycle-model.md differs from \`node scripts/cycle-validation.mjs ` +
      `write\` from line ${k + 1}:\n  doc:    ${a[k]}\n  script: ${w[k]}`);
    process.exit(1);
  } else {
    console.log('ok: docs/cycle-model.md holds the validation and per-function tables');
  }
} else {
  const help = mode === '--help' || mode === '-h';
  (help ? console.log : console.error)('usage: cycle-validation.mjs extract RESULTS_JSON COMMAND | extract-pqm4 ' +
    'RESULTS_JSON CYCLES_SIDE COMMAND | render | render-perfunction | write | check');
  process.exit(help ? 0 : 2);
}
