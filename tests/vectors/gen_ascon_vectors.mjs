/* SPDX-License-Identifier: Apache-2.0 */
// Recomputes the Ascon known answers of src/ops/vectors_hash.c
// (Ascon-Hash256) and src/ops/vectors_aead.c (Ascon-AEAD128) with the
// stand-alone SP 800-232 implementation ascon_sp800_232.mjs and prints them.
//
//   node gen_ascon_vectors.mjs [--format lines|c]
//
// The vectors are records of the official Ascon KAT files of the final
// standard (ascon-c, crypto_hash/asconhash256/LWC_HASH_KAT_128_256.txt and
// crypto_aead/asconaead128/LWC_AEAD_KAT_128_128.txt), whose inputs follow a
// fixed rule:
//   Hash256 Count = n:  Msg = 00 01 02 ... (n - 1 bytes)
//   AEAD128 Count = n = 33 * |PT| + |AD| + 1:
//     Key = 00..0f, Nonce = 10..1f, PT = 20 21 ..., AD = 30 31 ...
// The C file holds each input once, at its longest, and the vectors use
// prefixes of it.
//
// Exit status: 0 done, 1 error (including a failed self-test against the
// official values embedded in ascon_sp800_232.mjs).

import { asconAead128Encrypt, asconHash256, selfTest } from './ascon_sp800_232.mjs';
import { cArray, hex, parseArgs, run, seq } from './noble.mjs';

const TOOL = 'gen_ascon_vectors';
export const HASH_COUNTS = [1, 2, 8, 9, 33];
// [Count, |AD|, |PT|]
export const AEAD_COUNTS = [[1, 0, 0], [17, 16, 0], [235, 3, 7], [545, 16, 16],
  [579, 17, 17], [1089, 32, 32]];

function compute() {
  const lines = [];
  const msg = seq(0x00, 32);
  const key = seq(0x00, 16);
  const nonce = seq(0x10, 16);
  const pt = seq(0x20, 32);
  const ad = seq(0x30, 32);
  lines.push(['ascon_kat_msg', msg]);
  for (const n of HASH_COUNTS) {
    if (n - 1 > msg.length) throw new Error(`hash Count ${n} beyond the message`);
    lines.push([`ascon_hash256_count${n}_digest`, asconHash256(msg.subarray(0, n - 1))]);
  }
  lines.push(['ascon_kat_key', key], ['ascon_kat_nonce', nonce], ['ascon_kat_pt', pt],
      ['ascon_kat_ad', ad]);
  for (const [n, adLen, ptLen] of AEAD_COUNTS) {
    if (n !== 33 * ptLen + adLen + 1) throw new Error(`AEAD Count ${n} does not match its lengths`);
    const { ct, tag } = asconAead128Encrypt(key, nonce, ad.subarray(0, adLen), pt.subarray(0, ptLen));
    if (ptLen > 0) lines.push([`ascon_aead128_count${n}_ct`, ct]);
    lines.push([`ascon_aead128_count${n}_tag`, tag]);
  }
  return lines;
}

async function main() {
  const opts = parseArgs(TOOL, process.argv.slice(2), ['lines', 'c']);
  selfTest();
  const lines = compute();
  for (const [name, bytes] of lines)
    process.stdout.write(opts.format === 'lines' ? `${name} ${hex(bytes)}\n` : cArray(name, bytes));
}

run(TOOL, main);
