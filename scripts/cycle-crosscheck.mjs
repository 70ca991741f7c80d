// SPDX-License-Identifier: Apache-2.0
// Two tables of docs/cycle-model.md that scripts/cycle-validation.mjs
// writes with the others: Mbed TLS's AES tables in flash against RAM per
// board, beside the ratios the seed measured on the parts (aes-boards-run.json,
// aes-seed-reference.json in tests/cycles); and Merlin's estimate of the
// Helium loop bodies SLOTHY annotates, beside SLOTHY's own figure
// (helium-run.json, scripts/cycle-helium.mjs).
import { readFileSync } from 'node:fs';

const fmt = (v) => Math.round(v).toLocaleString('en-US');

// One board's AES-128-GCM medians of estimated cycles, tables in RAM
// (profile aes-ram) and in flash (aes-rom), from one merlin run of both.
export function extractAes(resultsFile, command) {
  const res = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const byProfile = Object.fromEntries(res.runs.map((r) => [r.profile, r]));
  const ram = byProfile['aes-ram'], rom = byProfile['aes-rom'];
  if (!ram || !rom) throw new Error(`${resultsFile}: want the runs of profiles aes-ram and aes-rom`);
  const cm = rom.provenance.cycle_model;
  if (!cm?.board) throw new Error(`${resultsFile}: not a --board run`);
  const rows = [];
  for (const o of rom.ops.filter((x) => x.alg === 'aes-128-gcm' && x.op !== 'setup')) {
    const r = ram.ops.find((x) => x.alg === o.alg && x.op === o.op && x.bytes === o.bytes);
    rows.push({ op: o.op, bytes: o.bytes, ram: r.est_cycles.median, rom: o.est_cycles.median,
      ram_dc_miss: r.memsys_events?.dc_miss ?? 0, rom_dc_miss: o.memsys_events?.dc_miss ?? 0 });
  }
  return { board: cm.board.id, name: cm.board.name, command, model: `${cm.name} ${cm.version}`,
    memsys: cm.board.memsys, compiler: rom.provenance.compiler, source: rom.provenance.source, rows };
}

export function renderAes(run, ref) {
  const lines = [`Merlin: \`${run.command}\` for each board below (${run.date}); tree ` +
    `${String(run.boards[0].source).slice(0, 12)}; ${run.boards[0].compiler}, -O2; the memory ` +
    'systems the plugin modelled: ' + run.boards.map((b) => `${b.board} (${b.model}) ` +
      `\`${b.memsys.replace(/flash=\S+ /, '')}\``).join(', ') + '.',
  `Reference: ${ref.source}.`, '',
  '| board | operation | RAM tables | flash tables | ratio | seed\'s ratio | within ±8 points, or why not |',
  '|---|---|---:|---:|---:|---:|---|'];
  for (const b of run.boards) {
    const seed = ref.boards[b.board];
    for (const r of b.rows) {
      const ratio = r.rom / r.ram;
      let why = 'no seed figure', seedText = '—';
      if (seed?.ratio !== undefined) {
        seedText = seed.ratio.toFixed(2);
        why = Math.abs(ratio - seed.ratio) <= 0.08 ? 'within ±8 points'
          : `${ratio > seed.ratio ? 'above' : 'below'}: ` +
            `${seed.why[ratio > seed.ratio ? 'above' : 'below']}`;
      } else if (seed) {
        seedText = seed.text;
        why = ratio <= 1 + seed.tolerance ? seed.ok : seed.why;
      }
      lines.push(`| ${b.board} | ${r.op} ${r.bytes} B | ${fmt(r.ram)} | ${fmt(r.rom)} | ` +
        `${ratio.toFixed(3)} | ${seedText} | ${why} |`);
    }
  }
  return lines;
}

export function renderHelium(run) {
  const lines = [`Merlin: \`${run.command}\` (slothy-optimizer/slothy at ` +
    `${run.slothy.slice(0, 12)}, pq-code-package/mlkem-native at ${run.mlkem_native.slice(0, 12)}), ` +
    `${run.models.join(', ')}: every loop body whose schedule SLOTHY annotates with its ` +
    '"Expected cycles", 4 and 14 copies in a row (the published sequences\' method), cycles per ' +
    'copy. SLOTHY\'s figure is its own model\'s (Arm\'s Cortex-M55/M85 models in SLOTHY, "NOT ' +
    'an official software optimization guide"), not a silicon measurement: a cross-check.', '',
    '| kernel | line | core | instructions | SLOTHY expected cycles | Merlin est. cycles | ratio |',
    '|---|---:|---|---:|---:|---:|---:|'];
  for (const r of run.rows)
    lines.push(`| ${r.kernel} | ${r.line} | ${r.core} | ${r.insns} | ${r.expected} | ` +
      `${r.merlin.toFixed(1)} | ${(r.merlin / r.expected).toFixed(2)} |`);
  for (const s of run.skipped) lines.push(`| ${s.kernel} | | | | | left out | ${s.reason} |`);
  const by = {};
  for (const r of run.rows) {
    const k = r.core;
    by[k] = by[k] || { n: 0, e: 0, m: 0, one: 0 };
    by[k].n++;
    by[k].e += r.expected;
    by[k].m += r.merlin;
    if (Math.abs(r.merlin / r.expected - 1) <= 0.05) by[k].one++;
  }
  lines.push('');
  lines.push(Object.entries(by).map(([k, v]) => `${k}: ${v.n} loop bodies, ${v.one} within ` +
    `±5% of SLOTHY's figure, all together ${(v.m / v.e).toFixed(3)} of it`).join('; ') + '.');
  return lines;
}
