#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// CoreMark under the cycle model, for the validation tables of
// docs/cycle-model.md: every build named in coremark-reference.json (tests/cycles)
// (a QEMU target and the compiler flags of a published silicon run) is
// compiled from a CoreMark checkout with the port in tests/cycles/coremark/,
// run under QEMU with the cycle plugin (the timed loop is the plugin's one
// region), and its estimated cycles per iteration written to
// coremark-run.json (tests/cycles), which `cycle-validation.mjs render` reads.
//
//   node scripts/cycle-coremark.mjs COREMARK_DIR [OUT]
//
// COREMARK_DIR: a checkout of eembc/coremark (core_*.c, coremark.h); it is
// not part of this tree and this script is not part of make test (CI cannot
// fetch it). Needs arm-none-eabi-gcc, qemu-system-arm and the plugin
// (build/host/merlin_cycles.so, `make tools`).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ITERATIONS = 20;
const CORE_FILES = ['core_list_join.c', 'core_main.c', 'core_matrix.c', 'core_state.c',
  'core_util.c'];

const die = (msg) => { console.error(`cycle-coremark: ${msg}`); process.exit(1); };
const [cmDir, outArg] = process.argv.slice(2);
if (!cmDir) {
  console.error('usage: cycle-coremark.mjs COREMARK_DIR [OUT]');
  process.exit(2);
}
for (const f of [...CORE_FILES, 'coremark.h'])
  if (!existsSync(join(cmDir, f))) die(`${join(cmDir, f)}: missing (not a CoreMark checkout)`);
const plugin = join(root, 'build', 'host', 'merlin_cycles.so');
if (!existsSync(plugin)) die(`${plugin}: missing (run make tools)`);
const out = resolve(outArg || join(root, 'tests', 'cycles', 'coremark-run.json'));
const ref = JSON.parse(readFileSync(join(root, 'tests', 'cycles', 'coremark-reference.json'),
  'utf8'));
const port = join(root, 'tests', 'cycles', 'coremark');
const work = join(root, 'build', 'coremark');
mkdirSync(work, { recursive: true });

// the board file of a QEMU target: its machine, CPU, linker script, model
function target(name) {
  const file = join(root, 'boards', `${name}.board`);
  const kv = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([a-z_]+)\s*=\s*(.*)$/.exec(line.trim());
    if (m) kv[m[1]] = m[2];
  }
  for (const k of ['qemu_machine', 'qemu_cpu', 'linker_script', 'cycle_model'])
    if (!kv[k]) die(`${file}: no ${k}`);
  return kv;
}

const sha = createHash('sha256');
for (const f of [...CORE_FILES, 'coremark.h']) sha.update(readFileSync(join(cmDir, f)));
const compiler = execFileSync('arm-none-eabi-gcc', ['--version'], { encoding: 'utf8' })
  .split('\n')[0];
let tree = 'unknown';
try {
  tree = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
} catch { /* not a git checkout */ }

const builds = {};
for (const [id, b] of Object.entries(ref.builds)) {
  const t = target(b.target);
  const elf = join(work, `${id}.elf`), side = join(work, `${id}.side`);
  const cflags = b.cflags.split(/\s+/).filter(Boolean);
  execFileSync('arm-none-eabi-gcc', [...cflags, `-DITERATIONS=${ITERATIONS}`,
    '-DPERFORMANCE_RUN=1', `-DCOMPILER_FLAGS="${b.cflags}"`, `-I${port}`, `-I${cmDir}`,
    ...CORE_FILES.map((f) => join(cmDir, f)), join(port, 'core_portme.c'),
    join(port, 'start.c'), '-nostartfiles', '--specs=nano.specs',
    '-T', join(root, t.linker_script), '-o', elf, '-lc', '-lgcc'], { stdio: 'inherit' });
  const q = spawnSync('qemu-system-arm', ['-M', t.qemu_machine, '-cpu', t.qemu_cpu,
    '-display', 'none', '-monitor', 'none', '-serial', 'null',
    '-semihosting-config', 'enable=on,target=native',
    '-icount', 'shift=7,align=off,sleep=off', '-kernel', elf,
    '-plugin', `${plugin},elf=${elf},out=${side},model=${t.cycle_model}`],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // semihosting writes the report to QEMU's stdout or stderr
  const console_ = `${q.stdout}${q.stderr}`;
  if (q.status !== 0) die(`${id}: QEMU exited with status ${q.status}:\n${console_}`);
  if (!/Correct operation validated/.test(console_))
    die(`${id}: CoreMark did not validate its results:\n${console_}`);
  const lines = readFileSync(side, 'utf8').split('\n');
  const samples = lines.filter((l) => l.startsWith('sample '));
  if (samples.length !== 1 || !lines.some((l) => l.startsWith('end ')))
    die(`${side}: expected one sample region and an end record`);
  const num = (line, key) => Number(new RegExp(`\\b${key}=(\\d+)`).exec(line)?.[1] ?? NaN);
  const model = lines.find((l) => l.startsWith('model ')).split(' ').slice(1, 3).join(' ');
  const mem = lines.find((l) => l.startsWith('mem ')) || '';
  const cycles = num(samples[0], 'cycles');
  if (num(samples[0], 'exc') !== 0 || !(cycles > 0)) die(`${side}: bad sample record`);
  builds[id] = {
    target: b.target, model, cflags: b.cflags, instructions: num(samples[0], 'insns'),
    cycles, mispredict_stall: mem ? num(mem, 'stall') : 0,
    cycles_per_iteration: cycles / ITERATIONS,
  };
  console.log(`${id}: ${model}, ${(cycles / ITERATIONS).toFixed(0)} cycles per iteration`);
}
writeFileSync(out, JSON.stringify({
  command: 'node scripts/cycle-coremark.mjs COREMARK_DIR',
  coremark_sha256: sha.digest('hex'), compiler, tree: tree.slice(0, 12), iterations: ITERATIONS,
  builds }, null, 2) + '\n');
console.log(`wrote ${out}`);
