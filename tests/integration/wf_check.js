// SPDX-License-Identifier: Apache-2.0
// Checks of the workflows in a results.json (docs/workflows.md).
//   node wf_check.js structure RESULTS TARGET [VARIANT...]
//     every workflow entry is complete and consistent; the listed
//     workflow/variant pairs are all present
//   node wf_check.js layout DOC RESULTS
//     the message layout table of DOC adds up, per message and for the
//     stored record, to the bytes every workflow of RESULTS reported
'use strict';
const fs = require('fs');
const [mode, ...args] = process.argv.slice(2);
let failures = 0;
function fail(msg) { console.log('FAIL: ' + msg); failures++; }
function runsOf(path, target) {
  const j = JSON.parse(fs.readFileSync(path, 'utf8'));
  return j.runs.filter(r => !target || r.target === target);
}
const finite = v => typeof v === 'number' && Number.isFinite(v);

if (mode === 'structure') {
  const [path, target, ...want] = args;
  const runs = runsOf(path, target);
  if (!runs.length) fail(`no run for ${target}`);
  for (const r of runs) {
    const wfs = r.workflows || [];
    if (!wfs.length) fail(`${r.target}: no workflows`);
    for (const w of wfs) {
      const id = `${r.target} ${w.workflow} ${w.variant} (${w.backend})`;
      for (const k of ['workflow', 'variant', 'backend', 'primitives', 'unit'])
        if (typeof w[k] !== 'string' || !w[k]) fail(`${id}: ${k} missing`);
      if (w.check !== 'pass') fail(`${id}: check is ${w.check}`);
      if (w.unit !== r.provenance.unit) fail(`${id}: unit ${w.unit} is not the run's`);
      for (const k of ['median', 'p99', 'iqr', 'min', 'max', 'mean'])
        if (!finite(w[k]) || w[k] < 0) fail(`${id}: ${k} is ${w[k]}`);
      if (!(w.median > 0) || w.min > w.median || w.median > w.max)
        fail(`${id}: min ${w.min} <= median ${w.median} <= max ${w.max} does not hold`);
      if (!Number.isInteger(w.n) || w.n < 1 || w.samples.length !== w.n)
        fail(`${id}: n ${w.n} vs ${w.samples.length} samples`);
      let sum = 0;
      for (const m of w.messages) {
        if (!m.name || !(m.bytes > 0) || !['sent', 'received'].includes(m.direction))
          fail(`${id}: bad message ${JSON.stringify(m)}`);
        sum += m.bytes;
      }
      if (sum !== w.wire_bytes) fail(`${id}: wire_bytes ${w.wire_bytes} != sum of messages ${sum}`);
      for (const k of ['stored_bytes', 'stack_bytes', 'heap_bytes'])
        if (!Number.isInteger(w[k]) || w[k] < 0) fail(`${id}: ${k} is ${w[k]}`);
      if (!(w.stack_bytes > 0)) fail(`${id}: no stack measured`);
      if (!w.steps.length) fail(`${id}: no steps`);
      let stepSum = 0;
      for (const s of w.steps) {
        if (!s.name || !finite(s.median) || s.median < 0) fail(`${id}: bad step ${JSON.stringify(s)}`);
        stepSum += s.median;
      }
      // Each sample's total is the sum of its steps, so no step's median
      // can exceed the largest total. The sum of the step medians is not
      // bounded by the totals in general (with three or more steps each
      // median may come from a different sample), so it is checked only
      // where samples are exact, repeatable instruction counts: there the
      // steps barely vary and a run reproduces exactly (QEMU determinism),
      // while host nanoseconds would make the check flaky.
      for (const s of w.steps)
        if (s.median > w.max * 1.000001 + 1)
          fail(`${id}: step ${s.name} median ${s.median} above the largest total ${w.max}`);
      if (w.unit === 'instructions' &&
          (stepSum > w.max * 1.000001 + 1 || stepSum < w.min * 0.999999 - 1))
        fail(`${id}: step medians sum to ${stepSum}, outside [${w.min}, ${w.max}]`);
      if (!w.control || !finite(w.control['hkdf-sha256']) || !finite(w.control['hmac-sha256']))
        fail(`${id}: control figures missing`);
    }
    for (const pair of want) {
      const [wf, variant] = pair.split('/');
      if (!wfs.some(w => w.workflow === wf && w.variant === variant))
        fail(`${r.target}: workflow ${wf} ${variant} missing`);
    }
    console.log(`${r.target}: ${wfs.length} workflow instance(s) checked`);
  }
} else if (mode === 'layout') {
  const [doc, path] = args;
  const text = fs.readFileSync(doc, 'utf8');
  const start = text.indexOf('## Message layouts');
  if (start < 0) fail(`${doc}: no "## Message layouts" section`);
  const layout = new Map(); // "wf/variant/msg" -> bytes
  let rows = 0;
  for (const line of text.slice(start).split('\n')) {
    const c = line.split('|').map(s => s.trim());
    if (c.length !== 9 || c[1] === 'workflow' || c[1].startsWith('-')) continue;
    const [, wf, variant, msg, dir, field, bytes, count] = c;
    if (!/^\d+$/.test(bytes) || !/^\d+$/.test(count) || !['tx', 'rx', 'stored'].includes(dir)) {
      fail(`${doc}: malformed row: ${line}`);
      continue;
    }
    const key = `${wf}/${variant}/${msg}`;
    layout.set(key, (layout.get(key) || 0) + Number(bytes) * Number(count));
    layout.set(`${key}#dir`, dir);
    rows++;
  }
  if (rows < 10) fail(`${doc}: only ${rows} layout rows`);
  let checked = 0;
  for (const r of runsOf(path)) {
    for (const w of r.workflows || []) {
      const base = `${w.workflow}/${w.variant}`;
      const msgs = [...w.messages, { name: 'stored', bytes: w.stored_bytes, direction: 'stored' }];
      for (const m of msgs) {
        const key = `${base}/${m.name}`;
        if (!layout.has(key)) {
          fail(`${r.target} ${base}: message ${m.name} is not documented`);
          continue;
        }
        const dir = { sent: 'tx', received: 'rx', stored: 'stored' }[m.direction];
        if (layout.get(`${key}#dir`) !== dir)
          fail(`${r.target} ${base}: ${m.name} is ${dir}, documented ${layout.get(key + '#dir')}`);
        if (layout.get(key) !== m.bytes)
          fail(`${r.target} ${base} (${w.backend}): ${m.name} is ${m.bytes} bytes, the documented fields add up to ${layout.get(key)}`);
        checked++;
      }
      for (const k of layout.keys())
        if (k.startsWith(base + '/') && !k.endsWith('#dir') &&
            !msgs.some(m => `${base}/${m.name}` === k))
          fail(`${r.target} ${base}: documented message ${k} was not reported`);
    }
  }
  if (!checked) fail('no workflow messages to check');
  console.log(`layout: ${checked} message(s) compared with ${doc}`);
} else {
  console.log('usage: wf_check.js structure RESULTS TARGET [WF/VARIANT...] | layout DOC RESULTS');
  process.exit(2);
}
process.exit(failures ? 1 : 0);
