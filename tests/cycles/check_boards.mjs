// SPDX-License-Identifier: Apache-2.0
// Checks of tests/cycles/boards.sh on the results of its runs.
import { readFileSync } from 'node:fs';

const dir = process.argv[2];
const load = (name) =>
  JSON.parse(readFileSync(`${dir}/${name}/latest/results.json`, 'utf8')).runs[0];
let fail = 0;
const bad = (msg) => { console.log(`FAIL: ${msg}`); fail = 1; };
const key = (o) => `${o.alg} ${o.op} ${o.bytes ?? ''} ${o.backend}`;

// M33 and M7: est_cycles of the model on every operation, deterministic.
for (const [a, b, model] of [['m33a', 'm33b', 'cortex-m33'], ['m7a', 'm7b', 'cortex-m7']]) {
  const x = load(a), y = load(b);
  if (x.provenance.cycle_model.name !== model) bad(`${a}: model ${x.provenance.cycle_model.name}`);
  x.ops.forEach((o, i) => {
    if (!o.est_cycles) bad(`${a} ${key(o)}: no est_cycles`);
    else if (JSON.stringify(o.est_cycles) !== JSON.stringify(y.ops[i].est_cycles))
      bad(`${a}/${b} ${key(o)}: estimates differ between two runs`);
  });
  if (!fail) console.log(`ok: ${model}: est_cycles on ${x.ops.length} operations, identical in two runs`);
}

// Boards: never below zero-wait; energy = time x V x I on every operation.
for (const [zw, brd, id] of [['m4', 'f439', 'nucleo-f439zi'], ['m0', 'pico', 'rp2040-pico']]) {
  const z = load(zw), b = load(brd), cm = b.provenance.cycle_model;
  if (!cm.board || cm.board.id !== id) { bad(`${brd}: no board ${id}`); continue; }
  const p = cm.board.power;
  if (!p || !p.source || !p.weakness || p.label !== 'energy (estimate, datasheet model)')
    bad(`${brd}: power model without label, source or weakness`);
  b.ops.forEach((o, i) => {
    const zo = z.ops[i], e = o.est_cycles.median, ze = zo.est_cycles.median;
    if (o.median !== zo.median) bad(`${brd} ${key(o)}: instructions differ`);
    if (e < ze) bad(`${brd} ${key(o)}: ${e} below zero-wait ${ze}`);
    if (!o.memsys_events) bad(`${brd} ${key(o)}: no memsys_events`);
    const uj = e / cm.board.clock_hz * (p.supply_mv / 1e3) * (p.run_current_ua / 1e6) * 1e6;
    if (!(Math.abs(o.est_energy_uj - uj) <= 1e-9 * uj)) bad(`${brd} ${key(o)}: energy ${o.est_energy_uj} != ${uj}`);
  });
  const kem = b.ops.find((o) => o.alg === 'ml-kem-768' && o.op === 'keygen');
  const zkem = z.ops.find((o) => o.alg === 'ml-kem-768' && o.op === 'keygen');
  console.log(`ok: ${id}: ML-KEM-768 keygen ${zkem.est_cycles.median} -> ${kem.est_cycles.median} est. cycles ` +
    `(${kem.memsys_events.ic_miss} I-misses, ${kem.memsys_events.dc_miss} D-misses per op), ` +
    `${kem.est_energy_uj.toFixed(1)} uJ`);
}

// The projection's data: Keccak share and calls for ML-KEM-768 and ML-DSA-44.
const f = load('f439');
if (f.provenance.cycle_model.accel.keccak !== 100 || f.provenance.cycle_model.accel.ntt !== 1000)
  bad('--accel costs not recorded');
for (const alg of ['ml-kem-768', 'ml-dsa-44']) {
  for (const o of f.ops.filter((x) => x.alg === alg)) {
    const k = o.profile.accel.keccak;
    if (!(k.cycles > 0 && k.calls > 0)) bad(`${key(o)}: no Keccak cycles/calls`);
  }
}
if (!fail) console.log('ok: Keccak share and calls for ML-KEM-768 and ML-DSA-44, --accel recorded');
process.exit(fail);
