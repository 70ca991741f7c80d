// SPDX-License-Identifier: Apache-2.0
// The per-function table of docs/cycle-model.md (scripts/cycle-validation.mjs
// imports this): on pqm4's own Cortex-M4 code, run as shipped, the cycles
// Merlin's M4 model puts inside SHA-3/SHA-2 and outside it, per operation,
// beside pqm4's benchmarks.md (total cycles and its "hashing" share).
//
// pqm4 counts as hashing every cycle inside a call of its instrumented
// fips202.c / sha2.c functions (PROFILE_HASHING), so here hashing is every
// cycle of the functions of that common code: the Keccak-f[1600] assembly
// (permutation, XOR-in, extract) and the C sponge around it (absorb,
// squeeze, the SHAKE/SHA-3 entry points), matched by name (HASH_FN below).
// The plugin gives each function's cycles per timed sample (the side file's
// `fn` records), so the extract reads the run's cycles.side beside its
// results.json and keeps, per operation, the mean over its samples.
import { readFileSync } from 'node:fs';

// fips202.c, sha2.c and keccakf1600.S of pqm4's common code, with the
// prefix a folder run gives common code (mbe_uc<N>_, docs/bring-your-own.md)
export const HASH_FN = new RegExp('^(mbe_uc\\d+_)?(KeccakF1600_|keccak_(absorb|squeeze|inc_)|' +
  '(c?shake(128|256)|sha3_(224|256|384|512)|sha(224|256|384|512))(_|$)|crypto_hashblocks_sha)');
// the entry points pqm4 instruments (two hal_get_time() calls each)
const API_FN = /^(mbe_uc\d+_)?(c?shake(128|256)|sha3_(224|256|384|512)|sha(224|256|384|512))/;
const PERMUTE_FN = /^(mbe_uc\d+_)?KeccakF1600_StatePermute$/;
// once per signing attempt (ML-DSA: the challenge of each candidate)
const ATTEMPT_FN = /poly_challenge$/;
// FIPS 204 Table 1, expected number of repetitions of the signing loop
const EXPECTED_ATTEMPTS = { 'ml-dsa-44': 4.25, 'ml-dsa-65': 5.1, 'ml-dsa-87': 3.85 };

// cycles.side: the calibration region, then every timed sample in the order
// of the console stream, each with its functions
function readSide(file) {
  const samples = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.split(' ');
    if (f[0] === 'sample') {
      const kv = Object.fromEntries(f.slice(2).map((x) => x.split('=')).map(([k, v]) =>
        [k, Number(v)]));
      samples.push({ insns: kv.insns, cycles: kv.cycles, exc: kv.exc, fn: [] });
    } else if (f[0] === 'fn' && samples.length) {
      samples[samples.length - 1].fn.push({ name: f[1], cycles: Number(f[3]),
        calls: Number(f[4]) });
    }
  }
  return samples;
}

const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;

// least squares y = a + b k, evaluated at k0
function atAttempts(k, y, k0) {
  const mk = mean(k), my = mean(y);
  let sxy = 0, sxx = 0;
  k.forEach((ki, i) => { sxy += (ki - mk) * (y[i] - my); sxx += (ki - mk) ** 2; });
  const b = sxx > 0 ? sxy / sxx : 0;
  return my + b * (k0 - mk);
}

// Each operation's timed samples in a run's side file: a run of them whose
// plugin counts exceed the results' by one and the same edge (the bracket's
// edge; wraps add plugin_wrap_insns each), the same for every operation
// asked for. Returns [op, samples] pairs and the calibration sample.
export function sideSamples(run, sideFile, wanted) {
  const cm = run.provenance.cycle_model;
  const side = readSide(sideFile);
  const counter = (s) => s.insns - s.exc * (cm.plugin_wrap_insns || 0);
  const cands = wanted.map((o) => {
    const c = [];
    for (let s = 1; s + o.samples.length <= side.length; s++) {
      const d = counter(side[s]) - o.samples[0];
      if (d >= 0 && d < 1000 && o.samples.every((v, i) => counter(side[s + i]) - v === d))
        c.push({ s, d });
    }
    return c;
  });
  const votes = {};
  for (const c of cands) if (c.length === 1) votes[c[0].d] = (votes[c[0].d] || 0) + 1;
  const edge = Number(Object.keys(votes).sort((a, b) => votes[b] - votes[a])[0]);
  const pairs = wanted.map((o, j) => {
    const hit = cands[j].filter((c) => c.d === edge);
    if (hit.length !== 1)
      throw new Error(`${sideFile}: ${hit.length} runs of samples match ${o.backend} ${o.op}`);
    return [o, side.slice(hit[0].s, hit[0].s + o.samples.length)];
  });
  return { cal: side[0], pairs };
}

// per operation, the mean cycles and calls per sample of the functions named
export function helperCycles(samples, names) {
  const out = {};
  for (const name of names) {
    const c = samples.map((s) => s.fn.filter((f) => f.name === name)
      .reduce((a, f) => [a[0] + f.cycles, a[1] + f.calls], [0, 0]));
    out[name] = { cycles: mean(c.map((x) => x[0])), calls: mean(c.map((x) => x[1])) };
  }
  return out;
}

export function extractPqm4(resultsFile, sideFile, command) {
  const res = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const run = res.runs.find((r) => r.provenance?.cycle_model?.name === 'cortex-m4');
  if (!run) throw new Error(`${resultsFile}: no run with the cortex-m4 model`);
  const cm = run.provenance.cycle_model;
  const hashNames = new Set();
  const perm = { cycles: 0, calls: 0 };
  const ops = [];
  const wanted = run.ops.filter((x) => /^impl:ml-(kem|dsa)-/.test(x.backend));
  const { cal, pairs } = sideSamples(run, sideFile, wanted);
  for (const [o, samples] of pairs) {
    const n = o.samples.length;
    const total = [], hash = [], k = [], api = [];
    for (const s of samples) {
      let h = 0, a = 0, c = 0;
      for (const f of s.fn) {
        if (HASH_FN.test(f.name)) { h += f.cycles; hashNames.add(f.name); }
        if (API_FN.test(f.name)) c += f.calls;
        if (PERMUTE_FN.test(f.name)) { perm.cycles += f.cycles; perm.calls += f.calls; }
        if (ATTEMPT_FN.test(f.name)) a += f.calls;
      }
      total.push(s.cycles - cal.cycles);
      hash.push(h);
      k.push(a);
      api.push(c);
    }
    // the totals as the run reports them (its edge subtracted), per sample
    const shift = o.est_cycles.mean - mean(total);
    total.forEach((t, i) => { total[i] = t + shift; });
    const op = { alg: o.alg, impl: o.variant, op: o.op, n, cycles: mean(total), hash: mean(hash),
      hash_calls: mean(api), branch_taken: o.insn_classes.branch_taken };
    if (o.op === 'sign' && k.every((x) => x > 0)) {
      const k0 = EXPECTED_ATTEMPTS[o.alg];
      op.attempts = mean(k);
      op.expected_attempts = k0;
      op.cycles_at_expected = atAttempts(k, total, k0);
      op.hash_at_expected = atAttempts(k, hash, k0);
    }
    ops.push(op);
  }
  const p = run.provenance;
  return { command, model: `${cm.name} ${cm.version}`, compiler: p.compiler, cflags: p.cflags,
    source: p.source, hash_functions: [...hashNames].sort(),
    permute_cycles_per_call: perm.calls ? perm.cycles / perm.calls : 0, ops };
}

const fmt = (v) => Math.round(v).toLocaleString('en-US');

export function renderPerFunction(run, ref) {
  const lines = [];
  lines.push(`Merlin: \`${run.command}\`, ${run.model}, zero wait states; ${run.compiler}, ` +
    `\`${run.cflags}\`; tree ${String(run.source).slice(0, 12)}. Hashing here: the cycles of ` +
    `the functions of pqm4's fips202.c, sha2.c and keccakf1600.S that ran (${run.hash_functions
      .map((f) => `\`${f.replace(/^mbe_uc\d+_/, '')}\``).join(', ')}, with the prefix ` +
    'the folder run gives common code), the mean over each operation\'s samples; signing at ' +
    'FIPS 204\'s expected number of attempts (below).');
  lines.push(`Reference: ${ref.source} (pqm4-benchmarks.json in tests/impl); its hashing share ` +
    'is the share of cycles inside pqm4\'s instrumented SHA-2/SHA-3 calls (PROFILE_HASHING in ' +
    'mupq/common/fips202.c and sha2.c), taken in a build of its own.');
  lines.push('');
  lines.push('| operation | implementation | Merlin hashing | pqm4 hashing | ratio | Merlin ' +
    'outside hashing | pqm4 outside hashing | ratio | total ratio | within ±5%, or why not |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of ref.rows) {
    r.ops.forEach((opName, i) => {
      const m = run.ops.find((o) => o.alg === r.alg && o.impl === r.impl && o.op === opName);
      if (!m) return;
      const tot = m.cycles_at_expected ?? m.cycles, h = m.hash_at_expected ?? m.hash;
      const ph = r.cycles[i] * r.hash[i], pr = r.cycles[i] - ph;
      const rh = h / ph, rr = (tot - h) / pr;
      lines.push(`| ${r.alg} ${opName} | ${r.impl} | ${fmt(h)} | ${fmt(ph)} | ${rh.toFixed(3)} | ` +
        `${fmt(tot - h)} | ${fmt(pr)} | ${rr.toFixed(3)} | ${(tot / r.cycles[i]).toFixed(3)} | ` +
        `${whyPerFunction(rh, rr, m, pr)} |`);
    });
  }
  return lines;
}

function whyPerFunction(rh, rr, m, pr) {
  const within = (r) => Math.abs(r - 1) <= 0.05;
  if (within(rh) && within(rr)) return 'within ±5%';
  const out = [];
  if (m.op === 'sign') out.push('signing, not like for like (2)');
  if (!within(rh) && m.op !== 'sign') out.push(`hashing ${rh > 1 ? 'above' : 'below'}`);
  if (!within(rr) && rr < 1 && m.op !== 'sign')
    out.push(`outside hashing below: ${fmt(m.branch_taken)} taken branches at the TRM's and ` +
      `the measured refill (1); one cycle more each: ` +
      `${((m.cycles - m.hash + m.branch_taken) / pr).toFixed(3)}`);
  if (m.hash_calls > 1000)
    out.push(`${fmt(m.hash_calls)} SHAKE calls, each timed in pqm4's hashing build (3)`);
  return out.join('; ');
}
