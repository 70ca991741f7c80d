#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// Regenerate the measured tables of docs/measurements.md (once the
// README's; the blocks keep their name) from one results directory (what
// `make bench` writes to results/latest): every block
//   <!-- merlin readme KIND TARGET --> ... <!-- /merlin readme -->
// of the page gets the table of that kind for that target's run, with a
// first line naming the results file and when it was made. KIND is
//   ops        public-key operations: median, p99, stack, heap, code,
//              constant-time verdict
//   cycles     a few operations with the cycle model's estimate (the rows
//              are listed in CYCLE_ROWS below)
//   workflows  every workflow row: device time, wire bytes, storage, stack,
//              and time and bytes against classical-p256 on wolfCrypt
// Nothing is typed into the tables: every figure is read from results.json.
// Usage: node scripts/readme-tables.mjs [RESULTS_DIR] [PAGE]
// (PAGE: docs/measurements.md by default)
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const [dirArg, readmeArg] = process.argv.slice(2);
const dir = dirArg ?? path.join(root, "results", "latest");
const readme = readmeArg ?? path.join(root, "docs", "measurements.md");
const die = (msg) => {
  console.error(`readme-tables: ${msg}`);
  process.exit(1);
};

const resultsPath = path.join(dir, "results.json");
if (!fs.existsSync(resultsPath))
  die(`no results.json in ${dir} (run make bench first, or name a results directory)`);
let results;
try {
  results = JSON.parse(fs.readFileSync(resultsPath, "utf8"));
} catch (e) {
  die(`${resultsPath}: ${e.message}`);
}
if (!Array.isArray(results.runs)) die(`${resultsPath}: no runs`);

// The operations of the cycles table: (algorithm, operation, bytes, backend).
const CYCLE_ROWS = [
  ["sha256", "hash", 64, "wolfcrypt"],
  ["x25519", "shared", null, "wolfcrypt"],
  ["ml-kem-768", "keygen", null, "wolfcrypt"],
  ["ml-kem-768", "encaps", null, "wolfcrypt"],
  ["ml-kem-768", "decaps", null, "pqclean"],
  ["ml-dsa-44", "sign", null, "wolfcrypt"],
  ["ml-dsa-44", "verify", null, "pqclean"],
];
// The workflow the ratios are against.
const BASELINE = ["provision", "classical-p256", "wolfcrypt"];

// Thousands separators; a non-integer keeps one decimal (never rounded to
// an integer it is not).
const num = (x) => {
  if (x === null || x === undefined) return "-";
  const [i, f] = (Number.isInteger(x) ? String(x) : x.toFixed(1)).split(".");
  return i.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (f ? "." + f : "");
};
const label = (o) => `${o.alg} ${o.op}${o.bytes ? ` ${o.bytes} B` : ""}`;

function runOf(target) {
  const run = results.runs.find((r) => r.target === target);
  if (!run) die(`${resultsPath} has no run on target ${target} (a block of the page asks for it)`);
  return run;
}

function source(run) {
  return `From \`${path.relative(root, resultsPath) || resultsPath}\` (${run.target}, profile ${run.profile}, made ${results.created}; ${run.provenance.runs} runs after ${run.provenance.warmup} warm-up; \`node scripts/readme-tables.mjs\` wrote this table):`;
}

function opsTable(run) {
  const u = run.provenance.unit;
  const ops = run.ops.filter((o) => o.bytes === null && o.op !== "setup");
  // Group by algorithm, then operation, then backend, in results.json order.
  const rank = (key) => {
    const seen = new Map();
    for (const o of ops) if (!seen.has(key(o))) seen.set(key(o), seen.size);
    return (o) => seen.get(key(o));
  };
  const ra = rank((o) => o.alg), rop = rank((o) => o.alg + " " + o.op), rb = rank((o) => o.backend);
  ops.sort((a, b) => ra(a) - ra(b) || rop(a) - rop(b) || rb(a) - rb(b));
  const code = (o) => {
    const a = (run.algorithms ?? []).find((x) => x.alg === o.alg && x.backend === o.backend);
    return a ? num(a.flash_bytes) : "-";
  };
  const rows = ops.map((o) =>
    `| ${label(o)} | ${o.backend} | ${num(o.median)} | ${num(o.p99)} | ${num(o.stack_bytes)} | ${num(o.heap_bytes)} | ${code(o)} | ${o.ct ? o.ct.status : "-"} |`);
  return [source(run), "",
    `| operation | backend | median (${u}) | p99 (${u}) | stack (bytes) | heap (bytes) | code (bytes, algorithm) | constant time |`,
    "|---|---|---:|---:|---:|---:|---:|---|", ...rows].join("\n");
}

function cyclesTable(run) {
  const hz = run.provenance.clock_hz;
  const model = run.provenance.cycle_model;
  if (!model) die(`${run.target}: the run has no cycle model (run it without --cycle-model off)`);
  const time = (cycles) => {
    const us = (cycles / hz) * 1e6;
    return us < 1000 ? `${num(Math.round(us))} µs` : `${(us / 1000).toFixed(1)} ms`;
  };
  const rows = CYCLE_ROWS.map(([alg, op, bytes, backend]) => {
    const o = run.ops.find((x) => x.alg === alg && x.op === op && x.bytes === bytes && x.backend === backend);
    if (!o || !o.est_cycles) die(`${run.target}: no estimate for ${alg} ${op} on ${backend}`);
    const share = o.profile ? `${(o.profile.hash_share * 100).toFixed(1)}%` : "-";
    return `| ${label(o)} | ${backend} | ${num(o.median)} | ${num(o.est_cycles.median)} | ${time(o.est_cycles.median)} | ${share} |`;
  });
  return [source(run),
    `Cycle model ${model.name} version ${model.version}, ${model.flash_wait_states} flash wait states; time at the board clock of ${hz / 1e6} MHz; medians.`, "",
    `| operation | backend | ${run.provenance.unit} (exact) | est. cycles (model) | est. time (model) | hashing share |`,
    "|---|---|---:|---:|---:|---:|", ...rows].join("\n");
}

function workflowsTable(run) {
  const u = run.provenance.unit;
  const base = run.workflows.find((w) => w.workflow === BASELINE[0] && w.variant === BASELINE[1] && w.backend === BASELINE[2]);
  if (!base) die(`${run.target}: no ${BASELINE.join(" ")} workflow to take ratios against`);
  const rows = run.workflows.map((w) => {
    const ratio = w.workflow === base.workflow;
    return `| ${w.workflow} | ${w.variant} | ${w.backend} | ${num(w.median)} | ${w.n} | ${num(w.wire_bytes)} | ${num(w.stored_bytes)} | ${num(w.stack_bytes)} | ${ratio ? (w.median / base.median).toFixed(2) : ""} | ${ratio ? (w.wire_bytes / base.wire_bytes).toFixed(1) : ""} |`;
  });
  return [source(run), "",
    `| workflow | variant | backend | device time (${u}) | n | wire bytes | stored | stack | time × | bytes × |`,
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|", ...rows].join("\n");
}

const kinds = { ops: opsTable, cycles: cyclesTable, workflows: workflowsTable };
const close = "<!-- /merlin readme -->";
let text = fs.readFileSync(readme, "utf8");
const open = /<!-- merlin readme (\S+) (\S+) -->/g;
let out = "", at = 0, n = 0, m;
while ((m = open.exec(text)) !== null) {
  const [tag, kind, target] = m;
  if (!kinds[kind]) die(`${readme}: unknown block kind '${kind}' (${Object.keys(kinds).join(", ")})`);
  const end = text.indexOf(close, m.index);
  if (end < 0) die(`${readme}: block '${tag}' has no ${close}`);
  out += text.slice(at, m.index + tag.length) + "\n" + kinds[kind](runOf(target)) + "\n";
  at = end;
  open.lastIndex = end;
  n++;
}
if (n === 0) die(`${readme}: no <!-- merlin readme KIND TARGET --> block`);
fs.writeFileSync(readme, out + text.slice(at));
console.error(`readme-tables: ${n} table(s) of ${readme} written from ${resultsPath}`);
