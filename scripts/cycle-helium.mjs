#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// Helium kernels beside SLOTHY's own figures (docs/cycle-model.md "Helium
// kernels"): every loop body SLOTHY scheduled for the Cortex-M55 or M85
// and annotated with its "Expected cycles" (slothy-optimizer/slothy's
// examples/opt/armv8m, mlkem-native's Keccak-f[1600]x4 for the M55) runs
// under QEMU with the plugin, 4 and 14 copies in a row between the sample
// markers as the published sequences do (tests/cycles/published.inc), and
// Merlin's cycles per copy are written beside the annotation to
// tests/cycles/helium-run.json, which `cycle-validation.mjs render` reads.
// A cross-check, not a validation: SLOTHY's figure is its own model's.
//
//   node scripts/cycle-helium.mjs SLOTHY_DIR MLKEM_NATIVE_DIR [OUT]
//
// The two directories are checkouts (not part of this tree; this script is
// not part of make test). Needs arm-none-eabi-gcc, qemu-system-arm and the
// plugin (build/host/merlin_cycles.so, `make tools`).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const die = (msg) => { console.error(`cycle-helium: ${msg}`); process.exit(1); };
const [slothyDir, mlkemDir, outArg] = process.argv.slice(2);
if (!slothyDir || !mlkemDir) {
  console.error('usage: cycle-helium.mjs SLOTHY_DIR MLKEM_NATIVE_DIR [OUT]');
  process.exit(2);
}
const plugin = join(root, 'build', 'host', 'merlin_cycles.so');
if (!existsSync(plugin)) die(`${plugin}: missing (run make tools)`);
const out = resolve(outArg || join(root, 'tests', 'cycles', 'helium-run.json'));
const work = join(root, 'build', 'helium');
mkdirSync(work, { recursive: true });

function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

// The loop bodies of one file: after a "// Expected cycles: N" header, the
// instruction lines up to the first blank or comment-only line.
function regions(text) {
  const lines = text.split('\n');
  const found = [];
  lines.forEach((l, i) => {
    const m = /\/\/ Expected cycles:\s*(\d+)/.exec(l);
    if (!m) return;
    const n = /\/\/ Instructions:\s*(\d+)/.exec(lines[i - 1] || '');
    const body = [];
    for (let k = i + 1; k < lines.length; k++) {
      const s = lines[k].replace(/\/\/.*$/, '').trim();
      if (!s) {
        if (body.length) break;
        continue;
      }
      body.push(s);
    }
    found.push({ line: i + 1, expected: Number(m[1]), declared: n ? Number(n[1]) : null, body });
  });
  return found;
}

const kernels = [];
const slothyOpt = join(slothyDir, 'examples', 'opt', 'armv8m');
if (!existsSync(slothyOpt)) die(`${slothyOpt}: missing (not a SLOTHY checkout)`);
for (const f of walk(slothyOpt).filter((p) => /\.s$/i.test(p)).sort()) {
  const core = /_m85\.s$/i.test(f) ? 'm85' : /_m55\.s$/i.test(f) ? 'm55' : null;
  if (core) kernels.push({ file: f, name: `slothy ${relative(slothyOpt, f)}`, core });
}
const keccak = join(mlkemDir, 'dev', 'fips202', 'armv81m', 'src', 'keccak_f1600_x4_mve.S');
if (!existsSync(keccak)) die(`${keccak}: missing (not an mlkem-native checkout)`);
kernels.push({ file: keccak, name: 'mlkem-native keccak_f1600_x4_mve.S', core: 'm55' });

const git = (dir) => {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

const rows = [];
const skipped = [];
const models = new Set();
kernels.forEach((kn, idx) => {
  const text = readFileSync(kn.file, 'utf8');
  const regs = regions(text);
  if (!regs.length) return;
  // the file's own register names and constants
  const prelude = text.split('\n').filter((l) => /^\s*\.equ\s|^\s*\w+\s+\.req\s/.test(l));
  const src = [
    '  .syntax unified', '  .thumb', '  .text', '  .word 0x31010000', '  .word reset',
    '  .include "published.inc"',
    '  .macro setup', '  movw r0, #0x4000', '  movt r0, #0x3100',
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((r) => `  mov r${r}, r0`), '  .endm',
    ...prelude,
    ...regs.flatMap((r, k) => [`  .macro region${k}`, ...r.body.map((b) => `  ${b}`), '  .endm']),
    '  .global reset', '  .type reset, %function', '  .thumb_func', 'reset:',
    '  movw r0, #0xED88', '  movt r0, #0xE000', '  ldr r1, [r0]',
    '  orr r1, r1, #(0xF << 20)', '  str r1, [r0]', '  dsb', '  isb',
    ...regs.map((r, k) => `  measure region${k}`),
    '  movs r0, #0x18', '  ldr r1, =0x20026', '  bkpt 0xab', '2:', '  b 2b', '  .pool', '',
  ].join('\n');
  const asm = join(work, `k${idx}.S`), elf = join(work, `k${idx}.elf`), side = join(work, `k${idx}.side`);
  writeFileSync(asm, src);
  try {
    execFileSync('arm-none-eabi-gcc', ['-march=armv8.1-m.main+mve.fp+fp.dp', '-mfloat-abi=hard',
      '-mthumb', '-nostdlib', '-nostartfiles', `-Wa,-I${join(root, 'tests', 'cycles')}`,
      '-Wl,-Ttext=0x10000000', '-Wl,-e,reset', asm, '-o', elf], { stdio: 'pipe' });
  } catch (e) {
    const msg = String(e.stderr).split('\n').find((l) => /Error/.test(l)) || 'assembler error';
    skipped.push({ kernel: kn.name,
      reason: `does not assemble alone: ${msg.replace(/^.*?Error:\s*/, '')}` });
    return;
  }
  try {
    execFileSync('qemu-system-arm', ['-M', 'mps3-an547', '-cpu', 'cortex-m55', '-display',
      'none', '-monitor', 'none', '-serial', 'null', '-semihosting-config',
      'enable=on,target=native', '-icount', 'shift=7,align=off,sleep=off', '-kernel', elf,
      '-plugin', `${plugin},elf=${elf},out=${side},model=${kn.core},ws=0`], { stdio: 'pipe' });
  } catch (e) {
    skipped.push({ kernel: kn.name, reason: 'faults when its loop bodies run alone (they need ' +
      `the kernel's own data or stack): ${String(e.stderr).split('\n')[0]}` });
    return;
  }
  const sideText = readFileSync(side, 'utf8');
  for (const l of sideText.split('\n'))
    if (l.startsWith('model ')) models.add(l.split(' ').slice(1, 3).join(' '));
  const cyc = sideText.split('\n').filter((l) => l.startsWith('sample '))
    .map((l) => Number(/cycles=(\d+)/.exec(l)[1]));
  if (cyc.length !== 2 * regs.length) die(`${kn.name}: ${cyc.length} samples, want ${2 * regs.length}`);
  regs.forEach((r, k) => {
    rows.push({ kernel: kn.name, line: r.line, core: `cortex-${kn.core}`, insns: r.body.length,
      declared_insns: r.declared, expected: r.expected, merlin: (cyc[2 * k + 1] - cyc[2 * k]) / 10 });
  });
});
writeFileSync(out, `${JSON.stringify({
  command: 'node scripts/cycle-helium.mjs SLOTHY_DIR MLKEM_NATIVE_DIR',
  slothy: git(slothyDir), mlkem_native: git(mlkemDir), models: [...models].sort(), rows,
  skipped,
}, null, 2)}\n`);
console.log(`cycle-helium: ${rows.length} loop bodies of ${kernels.length} files, ` +
  `${skipped.length} left out; ${basename(out)} written`);
