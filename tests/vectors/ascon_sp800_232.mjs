/* SPDX-License-Identifier: Apache-2.0 */
// A small, deliberately plain reference implementation of NIST SP 800-232
// (August 2025) Ascon-AEAD128 and Ascon-Hash256, written from the standard
// for the host checks of src/ops/vectors_aead.c and src/ops/vectors_hash.c.
// OpenSSL 3.0 and @noble/* have no Ascon, so this file is the second
// implementation the known answers are compared with; it shares no code with
// any library Merlin benchmarks. It is slow (BigInt) and not constant-time:
// never use it for anything but tests.
//
// SP 800-232 conventions it follows (the points where the final standard
// differs from the round-3 Ascon v1.2 submission, whose values differ):
//   - the 320-bit state is five 64-bit words S0..S4, and byte strings are
//     loaded into and stored from words little-endian (Section 2.1);
//   - padding appends the byte 0x01 after the last byte (Section 4.1,
//     pad(X, r) = X || 1 || 0^j in the little-endian bit order);
//   - Ascon-AEAD128: IV = 0x00001000808c0001, S = IV || K || N, rate 128 bits,
//     p[12] / p[8], domain separation S4 ^= 1 << 63 (Algorithms 3 and 4);
//   - Ascon-Hash256: IV = 0x0000080100cc0002, rate 64 bits, p[12]
//     throughout (Algorithm 5).
// The round constants and the permutation are Section 3 (Table 5).

const MASK = (1n << 64n) - 1n;
// Table 5: constants c_i of rounds i = 0..15; p[rnd] uses the last rnd.
const RC = [0x3cn, 0x2dn, 0x1en, 0x0fn, 0xf0n, 0xe1n, 0xd2n, 0xc3n, 0xb4n,
  0xa5n, 0x96n, 0x87n, 0x78n, 0x69n, 0x5an, 0x4bn];

const rotr = (x, n) => ((x >> BigInt(n)) | (x << BigInt(64 - n))) & MASK;

// Ascon-p[rnd] (Section 3): constant addition, substitution layer (the
// 5-bit S-box in its bitsliced form), linear diffusion layer.
export function permute(s, rnd) {
  for (let i = 16 - rnd; i < 16; i++) {
    s[2] ^= RC[i];
    s[0] ^= s[4]; s[4] ^= s[3]; s[2] ^= s[1];
    const t = s.map((x, j) => (~x & MASK) & s[(j + 1) % 5]);
    for (let j = 0; j < 5; j++) s[j] ^= t[(j + 1) % 5];
    s[1] ^= s[0]; s[0] ^= s[4]; s[3] ^= s[2]; s[2] = ~s[2] & MASK;
    s[0] ^= rotr(s[0], 19) ^ rotr(s[0], 28);
    s[1] ^= rotr(s[1], 61) ^ rotr(s[1], 39);
    s[2] ^= rotr(s[2], 1) ^ rotr(s[2], 6);
    s[3] ^= rotr(s[3], 10) ^ rotr(s[3], 17);
    s[4] ^= rotr(s[4], 7) ^ rotr(s[4], 41);
  }
}

// Little-endian word of up to 8 bytes, and back.
function load(b, off, len = 8) {
  let x = 0n;
  for (let i = 0; i < len; i++) x |= BigInt(b[off + i]) << BigInt(8 * i);
  return x;
}
function store(x, len = 8) {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) out[i] = Number((x >> BigInt(8 * i)) & 0xffn);
  return out;
}

// The blocks of pad(X, rate): full rate-byte blocks, the last one carrying
// the 0x01 padding byte.
function padBlocks(x, rate) {
  const n = Math.floor(x.length / rate) + 1;
  const p = new Uint8Array(n * rate);
  p.set(x);
  p[x.length] = 0x01;
  return { p, n };
}

const AEAD128_IV = 0x00001000808c0001n;
const HASH256_IV = 0x0000080100cc0002n;

// SP 800-232 Algorithm 3: Ascon-AEAD128.enc(K, N, A, P) -> { ct, tag }.
export function asconAead128Encrypt(key, nonce, ad, pt) {
  if (key.length !== 16 || nonce.length !== 16)
    throw new Error('Ascon-AEAD128: 16-byte key and nonce');
  const k0 = load(key, 0), k1 = load(key, 8);
  const s = [AEAD128_IV, k0, k1, load(nonce, 0), load(nonce, 8)];
  permute(s, 12);
  s[3] ^= k0; s[4] ^= k1;
  if (ad.length > 0) {
    const { p, n } = padBlocks(ad, 16);
    for (let i = 0; i < n; i++) {
      s[0] ^= load(p, 16 * i); s[1] ^= load(p, 16 * i + 8);
      permute(s, 8);
    }
  }
  s[4] ^= 1n << 63n; // domain separation: 0^319 || 1 (little-endian)
  const { p, n } = padBlocks(pt, 16);
  const ct = new Uint8Array(pt.length);
  for (let i = 0; i < n; i++) {
    s[0] ^= load(p, 16 * i); s[1] ^= load(p, 16 * i + 8);
    const c = new Uint8Array(16);
    c.set(store(s[0]), 0); c.set(store(s[1]), 8);
    const take = Math.min(16, pt.length - 16 * i);
    ct.set(c.subarray(0, take), 16 * i);
    if (i < n - 1) permute(s, 8);
  }
  s[2] ^= k0; s[3] ^= k1;
  permute(s, 12);
  const tag = new Uint8Array(16);
  tag.set(store(s[3] ^ k0), 0); tag.set(store(s[4] ^ k1), 8);
  return { ct, tag };
}

// SP 800-232 Algorithm 5: Ascon-Hash256(M), 32 bytes.
export function asconHash256(msg) {
  const s = [HASH256_IV, 0n, 0n, 0n, 0n];
  permute(s, 12);
  const { p, n } = padBlocks(msg, 8);
  for (let i = 0; i < n; i++) {
    s[0] ^= load(p, 8 * i);
    permute(s, 12);
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 4; i++) {
    out.set(store(s[0]), 8 * i);
    if (i < 3) permute(s, 12);
  }
  return out;
}

// Values of the official Ascon KAT files (ascon-c, final SP 800-232 edition:
// Key = 00..0f, Nonce = 10..1f, PT = 20.., AD = 30.. for AEAD; Msg = 00..
// for Hash), embedded so that the implementation above proves itself before
// it is used to judge anything.
export const OFFICIAL_SELF_TEST = {
  hash256: [
    // LWC_HASH_KAT_128_256.txt Count = 1 (empty message) and Count = 2 (00)
    ['', '0b3be5850f2f6b98caf29f8fdea89b64a1fa70aa249b8f839bd53baa304d92b2'],
    ['00', '0728621035af3ed2bca03bf6fde900f9456f5330e4b5ee23e7f6a1e70291bc80'],
  ],
  aead128: [
    // LWC_AEAD_KAT_128_128.txt Count = 1 (empty AD, empty PT): CT = tag
    ['', '', '4f9c278211bec9316bf68f46ee8b2ec6'],
  ],
};

export function selfTest() {
  const hex = (b) => Buffer.from(b).toString('hex');
  const h = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
  for (const [m, d] of OFFICIAL_SELF_TEST.hash256)
    if (hex(asconHash256(h(m))) !== d)
      throw new Error(`Ascon-Hash256 self-test failed for '${m}'`);
  const key = Uint8Array.from({ length: 16 }, (_, i) => i);
  const nonce = Uint8Array.from({ length: 16 }, (_, i) => 0x10 + i);
  for (const [ad, pt, ctTag] of OFFICIAL_SELF_TEST.aead128) {
    const { ct, tag } = asconAead128Encrypt(key, nonce, h(ad), h(pt));
    if (hex(ct) + hex(tag) !== ctTag)
      throw new Error('Ascon-AEAD128 self-test failed');
  }
}
