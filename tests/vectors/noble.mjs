/* SPDX-License-Identifier: Apache-2.0 */
// Shared helpers of the vector generators (gen_*_vectors.mjs): locating
// @noble/post-quantum, the Merlin seed rule, digests and C/line output.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PKG = join('@noble', 'post-quantum');

// Imports @noble/post-quantum/<file> (e.g. 'ml-dsa.js'). modulesDir is a
// node_modules directory, or null to try every directory of NODE_PATH and
// then ordinary resolution (ES module imports ignore NODE_PATH, hence the
// search by hand). Returns { mod, version, dir } or null when not found.
export async function loadNoble(file, modulesDir) {
  const dirs = modulesDir !== null && modulesDir !== undefined
    ? [modulesDir]
    : (process.env.NODE_PATH || '').split(delimiter).filter((d) => d !== '');
  for (const d of dirs) {
    const pkgDir = join(d, PKG);
    const path = join(pkgDir, file);
    if (!existsSync(path)) continue;
    const mod = await import(pathToFileURL(path).href);
    const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
    return { mod, version, dir: pkgDir };
  }
  if (modulesDir !== null && modulesDir !== undefined) return null;
  try {
    const mod = await import(`@noble/post-quantum/${file}`);
    return { mod, version: 'unknown', dir: '(module resolution)' };
  } catch {
    return null;
  }
}

// Command line: [--modules DIR] [--format lines|c|json]
export function parseArgs(tool, argv, formats = ['lines', 'c', 'json']) {
  const usage = (msg) => {
    process.stderr.write(`${tool}: ${msg}\nusage: node ${tool}.mjs [--modules DIR] ` +
        `[--format ${formats.join('|')}]\n`);
    process.exit(1);
  };
  const opts = { modules: null, format: formats[0] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--modules') opts.modules = value();
    else if (a.startsWith('--modules=')) opts.modules = a.slice(10);
    else if (a === '--format') opts.format = value();
    else if (a.startsWith('--format=')) opts.format = a.slice(9);
    else usage(`unknown argument '${a}'`);
  }
  if (!formats.includes(opts.format)) usage(`unknown format '${opts.format}'`);
  return opts;
}

export function nobleMissing(tool, opts) {
  process.stderr.write(`${tool}: @noble/post-quantum not found (looked in ` +
      `${opts.modules !== null ? opts.modules : `NODE_PATH='${process.env.NODE_PATH || ''}'`})\n`);
  process.exit(77);
}

export const sha256 = (b) => new Uint8Array(createHash('sha256').update(b).digest());
export const hex = (b) => Buffer.from(b).toString('hex');
// The Merlin seed rule: byte j of the string is (uint8_t)(start + j).
export const seq = (start, len) => Uint8Array.from({ length: len }, (_, j) => (start + j) & 0xff);

export function cArray(name, bytes) {
  const items = Array.from(bytes, (b) => `0x${b.toString(16).padStart(2, '0')}`);
  return `static const uint8_t ${name}[] = {${items.join(', ')}};\n`;
}

export function run(tool, main) {
  main().catch((e) => {
    process.stderr.write(`${tool}: ${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  });
}
