/* SPDX-License-Identifier: Apache-2.0 */
// Computes the ML-DSA-44/65/87 (FIPS 204) known answers of src/ops/vectors_pq.c
// with the independent JavaScript implementation @noble/post-quantum and
// prints them.
//
//   node gen_mldsa_vectors.mjs [--modules DIR] [--format lines|c|json]
//
// Seed rule, vector i = 0, 1, 2 (shared with SLH-DSA, see vectors_pq.c):
//   seed[j] = (uint8_t)(i*101 + j),       j = 0..31  (xi of ML-DSA.KeyGen_internal)
//   msg[j]  = (uint8_t)(i*101 + 200 + j), j = 0..31
// Expected values: SHA-256 of pk, of sk and of the signature of FIPS 204
// ML-DSA.Sign(sk, msg, ctx = empty) in its deterministic variant (rnd = 0^32):
// noble's sign(msg, secretKey, { extraEntropy: false }).
//
// Formats: lines ("<C array name> <hex>", what check_pq_vectors.sh compares
// with the C file), c (the arrays and tables, to paste into vectors_pq.c;
// run clang-format -i afterwards), json.
//
// Exit status: 0 done, 77 @noble/post-quantum not found, 1 any other error.

import { cArray, hex, loadNoble, nobleMissing, parseArgs, run, seq, sha256 } from './noble.mjs';

const TOOL = 'gen_mldsa_vectors';
const N_VECTORS = 3;
const SETS = [
  { id: 'ML-DSA-44', fn: 'ml_dsa44', c: 'mldsa44', table: 'ml_dsa_44', pk: 1312, sk: 2560, sig: 2420 },
  { id: 'ML-DSA-65', fn: 'ml_dsa65', c: 'mldsa65', table: 'ml_dsa_65', pk: 1952, sk: 4032, sig: 3309 },
  { id: 'ML-DSA-87', fn: 'ml_dsa87', c: 'mldsa87', table: 'ml_dsa_87', pk: 2592, sk: 4896, sig: 4627 },
];
const FIELDS = ['pk_sha256', 'sk_sha256', 'sig_sha256'];

function compute(mod, set) {
  const dsa = mod[set.fn];
  const out = [];
  for (let i = 0; i < N_VECTORS; i++) {
    const seed = seq(i * 101, 32);
    const msg = seq(i * 101 + 200, 32);
    const { publicKey, secretKey } = dsa.keygen(seed);
    const sig = dsa.sign(msg, secretKey, { extraEntropy: false });
    if (publicKey.length !== set.pk || secretKey.length !== set.sk || sig.length !== set.sig)
      throw new Error(`${set.id} vector ${i}: unexpected sizes`);
    // The reference agrees with itself: the signature verifies, and signing
    // again gives the same bytes (deterministic variant).
    if (!dsa.verify(sig, msg, publicKey))
      throw new Error(`${set.id} vector ${i}: noble's signature does not verify`);
    if (hex(dsa.sign(msg, secretKey, { extraEntropy: false })) !== hex(sig))
      throw new Error(`${set.id} vector ${i}: signing is not deterministic`);
    out.push({ index: i, pk_sha256: sha256(publicKey), sk_sha256: sha256(secretKey),
      sig_sha256: sha256(sig), sig_len: sig.length });
  }
  return out;
}

const arrayName = (set, i, f) => `${set.c}_v${i}_${f}`;

function cFragment(set, vecs, version) {
  let s = `/* ---- ${set.id} (FIPS 204), @noble/post-quantum ${version} ---- */\n\n`;
  for (const v of vecs) {
    for (const f of FIELDS) s += cArray(arrayName(set, v.index, f), v[f]);
    s += '\n';
  }
  s += `static const mops_sig_seed_vec ${set.table}_seed_vecs[] = {\n`;
  for (const v of vecs) {
    s += `    {.name = "${set.id} seed ${v.index} (Merlin seed rule, deterministic, ` +
        `@noble/post-quantum ${version})",\n` +
        `     .seed = pq_seed${v.index}, .msg = pq_msg${v.index}, .msg_len = sizeof pq_msg${v.index},\n` +
        `     .pk_sha256 = ${arrayName(set, v.index, 'pk_sha256')},\n` +
        `     .sk_sha256 = ${arrayName(set, v.index, 'sk_sha256')},\n` +
        `     .sig_sha256 = ${arrayName(set, v.index, 'sig_sha256')}, .sig_len = ${v.sig_len}},\n`;
  }
  s += '};\n\n';
  s += `const mops_kat_table mops_kat_${set.table.toUpperCase()} = {\n` +
      `    .vecs = NULL, .n = 0, .seed_vecs = ${set.table}_seed_vecs,\n` +
      `    .n_seed = sizeof ${set.table}_seed_vecs / sizeof ${set.table}_seed_vecs[0]};\n\n`;
  return s;
}

async function main() {
  const opts = parseArgs(TOOL, process.argv.slice(2));
  const noble = await loadNoble('ml-dsa.js', opts.modules);
  if (noble === null) nobleMissing(TOOL, opts);
  const all = SETS.map((set) => ({ set, vecs: compute(noble.mod, set) }));
  if (opts.format === 'lines') {
    for (const { set, vecs } of all)
      for (const v of vecs)
        for (const f of FIELDS) process.stdout.write(`${arrayName(set, v.index, f)} ${hex(v[f])}\n`);
  } else if (opts.format === 'c') {
    for (const { set, vecs } of all) process.stdout.write(cFragment(set, vecs, noble.version));
  } else {
    process.stdout.write(`${JSON.stringify({
      generator: `tests/vectors/${TOOL}.mjs`,
      reference: `@noble/post-quantum ${noble.version}`,
      sets: all.map(({ set, vecs }) => ({
        id: set.id,
        vectors: vecs.map((v) => ({ index: v.index, sig_len: v.sig_len,
          ...Object.fromEntries(FIELDS.map((f) => [f, hex(v[f])])) })),
      })),
    }, null, 2)}\n`);
  }
}

run(TOOL, main);
