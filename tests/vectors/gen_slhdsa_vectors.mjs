/* SPDX-License-Identifier: Apache-2.0 */
// Computes the SLH-DSA (FIPS 205) known answers of src/ops/vectors_pq.c with
// the independent JavaScript implementation @noble/post-quantum and prints
// them; also the key digests of the SPHINCS+ round 3.1 "simple" vectors,
// whose key generation is the same algorithm (see below).
//
//   node gen_slhdsa_vectors.mjs [--modules DIR] [--format lines|c|json]
//
// Seed rule, vector i = 0 (one vector per set: signing the "s" sets is slow):
//   seed[j] = (uint8_t)(i*101 + j),       j = 0..47  (SK.seed || SK.prf || PK.seed)
//   msg[j]  = (uint8_t)(i*101 + 200 + j), j = 0..31
// Expected values: SHA-256 of pk (PK.seed || PK.root, 32 bytes), of sk
// (SK.seed || SK.prf || PK.seed || PK.root, 64 bytes) and of the signature of
// FIPS 205 slh_sign(M, ctx = empty, SK) in its deterministic variant
// (opt_rand = PK.seed): noble's sign(msg, secretKey, { extraEntropy: false }),
// which sets opt_rand to PK.seed when extraEntropy is false.
//
// SPHINCS+ round 3.1 (PQClean, sphincs-*-simple-r3): its key generation from
// a 3n-byte seed (crypto_sign_seed_keypair) is FIPS 205 slh_keygen_internal
// for these sets, so the pk/sk digests of the r3 vectors are checked here
// too. Its signatures are not: round 3.1 signs M itself (no 0 || |ctx| || ctx
// prefix) and reads the FORS indices from the digest in a different bit order
// (FIPS 205 base_2b versus round 3.1 message_to_indices), so they come from
// tests/vectors/gen_sphincs_vectors.c instead.
//
// Exit status: 0 done, 77 @noble/post-quantum not found, 1 any other error.

import { cArray, hex, loadNoble, nobleMissing, parseArgs, run, seq, sha256 } from './noble.mjs';

const TOOL = 'gen_slhdsa_vectors';
const N_VECTORS = 1;
const SETS = [
  { id: 'SLH-DSA-SHA2-128s', fn: 'slh_dsa_sha2_128s', c: 'slhdsa_sha2_128s',
    table: 'slh_dsa_sha2_128s', sig: 7856 },
  { id: 'SLH-DSA-SHA2-128f', fn: 'slh_dsa_sha2_128f', c: 'slhdsa_sha2_128f',
    table: 'slh_dsa_sha2_128f', sig: 17088 },
  { id: 'SLH-DSA-SHAKE-128s', fn: 'slh_dsa_shake_128s', c: 'slhdsa_shake_128s',
    table: 'slh_dsa_shake_128s', sig: 7856 },
  { id: 'SLH-DSA-SHAKE-128f', fn: 'slh_dsa_shake_128f', c: 'slhdsa_shake_128f',
    table: 'slh_dsa_shake_128f', sig: 17088 },
];
// The SPHINCS+ round 3.1 set with the same parameters, by FIPS 205 set.
const R3 = {
  slh_dsa_sha2_128s: 'sphincs_sha2_128s_r3', slh_dsa_sha2_128f: 'sphincs_sha2_128f_r3',
  slh_dsa_shake_128s: 'sphincs_shake_128s_r3', slh_dsa_shake_128f: 'sphincs_shake_128f_r3',
};
const FIELDS = ['pk_sha256', 'sk_sha256', 'sig_sha256'];

function compute(mod, set) {
  const slh = mod[set.fn];
  const out = [];
  for (let i = 0; i < N_VECTORS; i++) {
    const seed = seq(i * 101, 48);
    const msg = seq(i * 101 + 200, 32);
    const { publicKey, secretKey } = slh.keygen(seed);
    if (publicKey.length !== 32 || secretKey.length !== 64)
      throw new Error(`${set.id} vector ${i}: unexpected key sizes`);
    // slh_keygen_internal: sk = SK.seed || SK.prf || PK.seed || PK.root.
    if (hex(secretKey.subarray(0, 48)) !== hex(seed) ||
        hex(secretKey.subarray(32, 64)) !== hex(publicKey))
      throw new Error(`${set.id} vector ${i}: unexpected key layout`);
    const sig = slh.sign(msg, secretKey, { extraEntropy: false });
    if (sig.length !== set.sig) throw new Error(`${set.id} vector ${i}: unexpected signature size`);
    // opt_rand = PK.seed is what extraEntropy: false means in noble: giving
    // PK.seed explicitly must produce the same signature (checked on the
    // fast "f" sets only; a second 128s signature costs many seconds).
    if (set.fn.endsWith('f')) {
      const explicit = slh.sign(msg, secretKey, { extraEntropy: seed.subarray(32, 48) });
      if (hex(explicit) !== hex(sig))
        throw new Error(`${set.id} vector ${i}: extraEntropy false is not opt_rand = PK.seed`);
    }
    if (!slh.verify(sig, msg, publicKey))
      throw new Error(`${set.id} vector ${i}: noble's signature does not verify`);
    out.push({ index: i, pk_sha256: sha256(publicKey), sk_sha256: sha256(secretKey),
      sig_sha256: sha256(sig), sig_len: sig.length });
  }
  return out;
}

const arrayName = (prefix, i, f) => `${prefix}_v${i}_${f}`;

function cFragment(set, vecs, version) {
  let s = `/* ---- ${set.id} (FIPS 205), @noble/post-quantum ${version} ---- */\n\n`;
  for (const v of vecs) {
    for (const f of FIELDS) s += cArray(arrayName(set.c, v.index, f), v[f]);
    s += '\n';
  }
  s += `static const mops_sig_seed_vec ${set.table}_seed_vecs[] = {\n`;
  for (const v of vecs) {
    s += `    {.name = "${set.id} seed ${v.index} (Merlin seed rule, deterministic, ` +
        `@noble/post-quantum ${version})",\n` +
        `     .seed = pq_seed${v.index}, .msg = pq_msg${v.index}, .msg_len = sizeof pq_msg${v.index},\n` +
        `     .pk_sha256 = ${arrayName(set.c, v.index, 'pk_sha256')},\n` +
        `     .sk_sha256 = ${arrayName(set.c, v.index, 'sk_sha256')},\n` +
        `     .sig_sha256 = ${arrayName(set.c, v.index, 'sig_sha256')}, .sig_len = ${v.sig_len}},\n`;
  }
  s += '};\n\n';
  s += `const mops_kat_table mops_kat_${set.table.toUpperCase()} = {\n` +
      `    .vecs = NULL, .n = 0, .seed_vecs = ${set.table}_seed_vecs,\n` +
      `    .n_seed = sizeof ${set.table}_seed_vecs / sizeof ${set.table}_seed_vecs[0]};\n\n`;
  return s;
}

async function main() {
  const opts = parseArgs(TOOL, process.argv.slice(2));
  const noble = await loadNoble('slh-dsa.js', opts.modules);
  if (noble === null) nobleMissing(TOOL, opts);
  const all = SETS.map((set) => ({ set, vecs: compute(noble.mod, set) }));
  if (opts.format === 'lines') {
    for (const { set, vecs } of all)
      for (const v of vecs)
        for (const f of FIELDS) process.stdout.write(`${arrayName(set.c, v.index, f)} ${hex(v[f])}\n`);
    for (const { set, vecs } of all)
      for (const v of vecs)
        for (const f of ['pk_sha256', 'sk_sha256'])
          process.stdout.write(`${arrayName(R3[set.fn], v.index, f)} ${hex(v[f])}\n`);
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
