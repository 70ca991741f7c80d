/* SPDX-License-Identifier: Apache-2.0 */
// Recomputes the output of `merlin-image --xcheck` (format: src/core/xcheck.c,
// tests/xcheck/README.md) with independent JavaScript implementations:
//
//   @noble/post-quantum  ML-KEM (FIPS 203): SHA-256 of ek, dk and c, K, and
//                        the implicit-rejection key of c with c[0] ^= 1;
//                        ML-DSA (FIPS 204) and SLH-DSA (FIPS 205): SHA-256 of
//                        pk, sk and the deterministic signature, and pk where
//                        printed; the signature verifies under noble.
//   @noble/hashes        SHA-256, SHA3-256, SHAKE128/256, HMAC, HKDF
//   @noble/ciphers       AES-GCM; AES-CCM (SP 800-38C, written here on noble's
//                        AES block cipher)
//   @noble/curves        P-256 keys, ECDH and ECDSA (the RFC 6979 signature is
//                        recomputed, which OpenSSL 3.0 cannot), X25519,
//                        Ed25519
//   BigInt               FFDHE-2048 (RFC 7919 group) and RSASSA-PKCS1-v1_5
//                        verification
//   tests/vectors/ascon_sp800_232.mjs
//                        Ascon-Hash256 and Ascon-AEAD128 (SP 800-232), when
//                        that reference file is present (noble has no Ascon)
// SPHINCS+ round 3 (PQClean) has no independent implementation here: skipped.
//
//   node check_noble.mjs FILE [--modules DIR]...
//
// DIR is a node_modules directory holding @noble/*; without it NODE_PATH and
// then <repo>/third_party/node_modules are tried.
// Prints one FAIL line per failure naming algorithm, backend and seed, a
// coverage note per algorithm, and "N passed, N failed".
// Exit status: 0 nothing failed, 1 a failure, 77 @noble/post-quantum missing,
// 2 usage or I/O error.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');

function usage(msg) {
  process.stderr.write(`check_noble: ${msg}\n` +
      'usage: node check_noble.mjs FILE [--modules DIR]...\n');
  process.exit(2);
}

const args = process.argv.slice(2);
let file = null;
const moduleDirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--modules') {
    if (i + 1 >= args.length) usage('--modules needs a directory');
    moduleDirs.push(args[++i]);
  } else if (file === null) {
    file = args[i];
  } else {
    usage(`unexpected argument '${args[i]}'`);
  }
}
if (file === null) usage('no input file');
const searchDirs = [...moduleDirs,
  ...(process.env.NODE_PATH || '').split(delimiter).filter((d) => d !== ''),
  join(repo, 'third_party', 'node_modules')];

// The first node_modules directory holding pkg/file; null when none does.
async function load(pkg, fileName) {
  for (const d of searchDirs) {
    const f = join(d, '@noble', pkg, fileName);
    if (existsSync(f)) return import(pathToFileURL(f).href);
  }
  return null;
}
function version(pkg) {
  for (const d of searchDirs) {
    const f = join(d, '@noble', pkg, 'package.json');
    if (existsSync(f)) return JSON.parse(readFileSync(f, 'utf8')).version;
  }
  return null;
}

const mlkem = await load('post-quantum', 'ml-kem.js');
const mldsa = await load('post-quantum', 'ml-dsa.js');
const slhdsa = await load('post-quantum', 'slh-dsa.js');
if (!mlkem || !mldsa || !slhdsa) {
  console.log(`SKIP: @noble/post-quantum not found in ${searchDirs.join(', ')}`);
  process.exit(77);
}
const sha2 = await load('hashes', 'sha2.js');
const sha3 = await load('hashes', 'sha3.js');
const hmacMod = await load('hashes', 'hmac.js');
const hkdfMod = await load('hashes', 'hkdf.js');
const aes = await load('ciphers', 'aes.js');
const nist = await load('curves', 'nist.js');
const ed = await load('curves', 'ed25519.js');
let ascon = null;
const asconFile = join(repo, 'tests', 'vectors', 'ascon_sp800_232.mjs');
if (existsSync(asconFile)) {
  ascon = await import(pathToFileURL(asconFile).href);
  ascon.selfTest(); // it proves itself on the official KAT values first
}

// ---- input --------------------------------------------------------------

const records = [];
let text;
try {
  text = readFileSync(file, 'utf8');
} catch (e) {
  usage(`cannot read ${file}: ${e.message}`);
}
for (const line of text.split('\n')) {
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'xcheck') continue; // structure: check_xcheck's job
  const f = {};
  for (const w of words.slice(1)) {
    const eq = w.indexOf('=');
    if (eq > 0) f[w.slice(0, eq)] = w.slice(eq + 1);
  }
  records.push(f);
}

let passed = 0, failed = 0;
const where = (r) => `alg=${r.alg} backend=${r.backend} seed=${r.seed}`;
function fail(r, what) {
  console.log(`FAIL ${where(r)}: ${what}`);
  failed++;
}
const hexOf = (b) => Buffer.from(b).toString('hex');
function bytes(r, key) {
  const v = r[key];
  if (v === undefined || !/^([0-9a-f]{2})*$/.test(v))
    throw new Error(`field ${key} is missing or not hex`);
  return Uint8Array.from(Buffer.from(v, 'hex'));
}
// Compares the printed field with the recomputed value (bytes).
function expect(r, key, value, by) {
  if (r[key] === undefined) return fail(r, `field ${key} missing`);
  if (r[key] === hexOf(value)) passed++;
  else fail(r, `${key} differs from ${by}: ${r[key].slice(0, 40)}... vs ${hexOf(value).slice(0, 40)}...`);
}
function expectTrue(r, ok, what) {
  if (ok) passed++;
  else fail(r, what);
}
const sha256 = (b) => new Uint8Array(createHash('sha256').update(b).digest());

// Results of one (algorithm, inputs) are shared by every backend that got
// the same inputs (SLH-DSA signing in JavaScript takes seconds).
const cache = new Map();
function memo(key, fn) {
  if (!cache.has(key)) cache.set(key, fn());
  return cache.get(key);
}

// ---- post-quantum -------------------------------------------------------

const KEMS = { 'ml-kem-512': 'ml_kem512', 'ml-kem-768': 'ml_kem768', 'ml-kem-1024': 'ml_kem1024' };
const DSAS = { 'ml-dsa-44': 'ml_dsa44', 'ml-dsa-65': 'ml_dsa65', 'ml-dsa-87': 'ml_dsa87' };
const SLHS = {
  'slh-dsa-sha2-128s': 'slh_dsa_sha2_128s', 'slh-dsa-sha2-128f': 'slh_dsa_sha2_128f',
  'slh-dsa-shake-128s': 'slh_dsa_shake_128s', 'slh-dsa-shake-128f': 'slh_dsa_shake_128f',
};

// FIPS 203 ML-KEM.KeyGen_internal(d, z), Encaps_internal(ek, m), Decaps.
function checkKem(r, kem) {
  const coins = bytes(r, 'keygen_coins'), m = bytes(r, 'encaps_coins');
  const v = memo(`${r.alg} ${r.keygen_coins} ${r.encaps_coins}`, () => {
    const { publicKey, secretKey } = kem.keygen(coins);
    const { cipherText, sharedSecret } = kem.encapsulate(publicKey, m);
    const bad = Uint8Array.from(cipherText);
    bad[0] ^= 0x01; // as xcheck.c: implicit rejection, FIPS 203 Algorithm 18
    return { pk: sha256(publicKey), sk: sha256(secretKey), ct: sha256(cipherText),
      ss: sharedSecret, rej: kem.decapsulate(bad, secretKey) };
  });
  expect(r, 'pk_sha256', v.pk, 'noble');
  expect(r, 'sk_sha256', v.sk, 'noble');
  expect(r, 'ct_sha256', v.ct, 'noble');
  expect(r, 'ss', v.ss, 'noble');
  expect(r, 'rej_ss', v.rej, 'noble');
}

// FIPS 204 ML-DSA.KeyGen_internal(xi) / FIPS 205 slh_keygen_internal
// (SK.seed || SK.prf || PK.seed); the deterministic signature with an empty
// context (ML-DSA rnd = 0^32, SLH-DSA opt_rand = PK.seed): noble's
// extraEntropy: false.
function checkSeededSig(r, dsa) {
  const seed = bytes(r, 'key_seed'), msg = bytes(r, 'msg');
  const v = memo(`${r.alg} ${r.key_seed} ${r.msg}`, () => {
    const { publicKey, secretKey } = dsa.keygen(seed);
    const sig = dsa.sign(msg, secretKey, { extraEntropy: false });
    return { pk: publicKey, sk: secretKey, sig, ok: dsa.verify(sig, msg, publicKey) };
  });
  expectTrue(r, v.ok, 'noble does not verify its own signature');
  expect(r, 'pk_sha256', sha256(v.pk), 'noble');
  expect(r, 'sk_sha256', sha256(v.sk), 'noble');
  expect(r, 'sig_sha256', sha256(v.sig), 'noble');
  if (r.pk !== undefined) expect(r, 'pk', v.pk, 'noble');
  if (r.sig !== undefined) expect(r, 'sig', v.sig, 'noble');
}

// ---- symmetric ------------------------------------------------------------

// AES-CCM, SP 800-38C Appendix A with a 13-byte nonce (q = 2) and a 16-byte
// tag, on noble's AES block function.
function aesCcm(key, nonce, aad, pt) {
  const block = (b) => aes.ecb(key, { disablePadding: true }).encrypt(b);
  const q = 15 - nonce.length;
  const b0 = new Uint8Array(16);
  b0[0] = (aad.length ? 0x40 : 0) | (((16 - 2) / 2) << 3) | (q - 1);
  b0.set(nonce, 1);
  for (let i = 0, n = pt.length; i < q; i++, n = Math.floor(n / 256)) b0[15 - i] = n & 0xff;
  // B0 || encoded a (2-byte length for a < 2^16 - 2^8) || P, zero-padded.
  const aEnc = aad.length ? Uint8Array.from([aad.length >> 8, aad.length & 0xff, ...aad]) : new Uint8Array(0);
  const pad = (b) => { const p = new Uint8Array(Math.ceil(b.length / 16) * 16); p.set(b); return p; };
  const data = Uint8Array.from([...b0, ...pad(aEnc), ...pad(pt)]);
  let y = new Uint8Array(16);
  for (let i = 0; i < data.length; i += 16) {
    const x = y.map((v, j) => v ^ data[i + j]);
    y = block(x);
  }
  const ctr = (i) => {
    const a = new Uint8Array(16);
    a[0] = q - 1;
    a.set(nonce, 1);
    for (let j = 0, n = i; j < q; j++, n = Math.floor(n / 256)) a[15 - j] = n & 0xff;
    return block(a);
  };
  const ct = new Uint8Array(pt.length);
  for (let i = 0; i < pt.length; i += 16) {
    const s = ctr(i / 16 + 1);
    for (let j = 0; j < 16 && i + j < pt.length; j++) ct[i + j] = pt[i + j] ^ s[j];
  }
  const s0 = ctr(0);
  return { ct, tag: y.map((v, j) => v ^ s0[j]) };
}

function checkAead(r) {
  const key = bytes(r, 'key'), nonce = bytes(r, 'nonce'), aad = bytes(r, 'aad'), pt = bytes(r, 'pt');
  let ct, tag;
  if (r.alg === 'aes-128-ccm') {
    ({ ct, tag } = aesCcm(key, nonce, aad, pt));
  } else if (r.alg === 'ascon-aead128') {
    ({ ct, tag } = ascon.asconAead128Encrypt(key, nonce, aad, pt));
  } else {
    const out = aes.gcm(key, nonce, aad).encrypt(pt);
    ct = out.subarray(0, pt.length);
    tag = out.subarray(pt.length);
  }
  expect(r, 'ct', ct, 'noble');
  expect(r, 'tag', tag, 'noble');
}

// ---- classical public key -------------------------------------------------

// RFC 7919 Appendix A.1, ffdhe2048 p (g = 2).
const FFDHE2048_P = BigInt('0x' +
  'FFFFFFFFFFFFFFFFADF85458A2BB4A9AAFDC5620273D3CF1D8B9C583CE2D3695A9E13641146433FBCC939DCE249B3EF97D' +
  '2FE363630C75D8F681B202AEC4617AD3DF1ED5D5FD65612433F51F5F066ED0856365553DED1AF3B557135E7F57C935984F' +
  '0C70E0E68B77E2A689DAF3EFE8721DF158A136ADE73530ACCA4F483A797ABC0AB182B324FB61D108A94BB2C8E3FBB96ADA' +
  'B760D7F4681D4F42A3DE394DF4AE56EDE76372BB190B07A7C8EE0A6D709E02FCE1CDF7E2ECC03404CD28342F619172FE9C' +
  'E98583FF8E4F1232EEF28183C3FE3B1B4C6FAD733BB5FCBC2EC22005C58EF1837D1683B2C6F34A26C1B2EFFA886B423861' +
  '285C97FFFFFFFFFFFFFFFF');
const toBig = (b) => (b.length ? BigInt('0x' + hexOf(b)) : 0n);
function toBytes(x, len) {
  const h = x.toString(16).padStart(2 * len, '0');
  return Uint8Array.from(Buffer.from(h, 'hex'));
}
function modpow(b, e, m) {
  let r = 1n;
  b %= m;
  for (; e > 0n; e >>= 1n, b = (b * b) % m) if (e & 1n) r = (r * b) % m;
  return r;
}

function checkKa(r) {
  const sk = bytes(r, 'sk'), peer = bytes(r, 'peer_pk');
  let pk, ss;
  if (r.alg === 'ecdh-p256') {
    pk = nist.p256.getPublicKey(sk, false);
    ss = nist.p256.getSharedSecret(sk, peer, true).subarray(1); // x only
  } else if (r.alg === 'x25519') {
    pk = ed.x25519.getPublicKey(sk);
    ss = ed.x25519.getSharedSecret(sk, peer);
  } else { // ffdhe-2048
    pk = toBytes(modpow(2n, toBig(sk), FFDHE2048_P), 256);
    ss = toBytes(modpow(toBig(peer), toBig(sk), FFDHE2048_P), 256);
  }
  expect(r, 'pk', pk, 'noble');
  expect(r, 'ss', ss, 'noble');
}

// RSASSA-PKCS1-v1_5 verification (RFC 8017 section 8.2.2, EMSA-PKCS1-v1_5
// with SHA-256's DigestInfo), e = 65537.
function rsaVerify(n, sig, msg) {
  const k = n.length;
  const em = toBytes(modpow(toBig(sig), 65537n, toBig(n)), k);
  const t = Buffer.concat([Buffer.from('3031300d060960864801650304020105000420', 'hex'), sha2.sha256(msg)]);
  const want = Buffer.concat([Buffer.from([0, 1]), Buffer.alloc(k - t.length - 3, 0xff), Buffer.from([0]), t]);
  return hexOf(em) === hexOf(want);
}

function checkSig(r) {
  const msg = bytes(r, 'msg');
  if (r.alg === 'ecdsa-p256') {
    // RFC 6979 with SHA-256 is deterministic: noble recomputes the same
    // r || s (no low-s normalisation, as FIPS 186-5).
    const o = { lowS: false };
    if (r.sk !== undefined) {
      const sk = bytes(r, 'sk');
      expect(r, 'pk', nist.p256.getPublicKey(sk, false), 'noble');
      expect(r, 'sig', nist.p256.sign(msg, sk, o), 'noble (RFC 6979)');
    }
    expectTrue(r, nist.p256.verify(bytes(r, 'sig'), msg, bytes(r, 'pk'), o), 'noble does not accept sig');
    if (r.fixed_sig !== undefined)
      expectTrue(r, nist.p256.verify(bytes(r, 'fixed_sig'), msg, bytes(r, 'fixed_pk'), o),
          'noble does not accept fixed_sig');
  } else if (r.alg === 'ed25519') {
    // An sk printed as seed || pk (libsodium's 64-byte form): the seed.
    const seed = bytes(r, r.key_seed !== undefined ? 'key_seed' : 'sk').subarray(0, 32);
    expect(r, 'pk', ed.ed25519.getPublicKey(seed), 'noble');
    expect(r, 'sig', ed.ed25519.sign(msg, seed), 'noble (RFC 8032)');
  } else { // rsa-2048
    expectTrue(r, rsaVerify(bytes(r, 'pk'), bytes(r, 'sig'), msg),
        'sig is not a valid PKCS#1 v1.5 SHA-256 signature under pk');
  }
}

// ---- dispatch -------------------------------------------------------------

const hashes = sha2 && sha3 ? {
  sha256: sha2.sha256, 'sha3-256': sha3.sha3_256, shake128: sha3.shake128, shake256: sha3.shake256,
} : {};
const classicalOk = sha2 && sha3 && hmacMod && hkdfMod && aes && nist && ed;

// Returns the name of the reference used, or null when there is none.
function checkRecord(r) {
  const a = r.alg;
  if (KEMS[a]) return checkKem(r, mlkem[KEMS[a]]), `@noble/post-quantum ${version('post-quantum')}`;
  if (DSAS[a]) return checkSeededSig(r, mldsa[DSAS[a]]), `@noble/post-quantum ${version('post-quantum')}`;
  if (SLHS[a]) return checkSeededSig(r, slhdsa[SLHS[a]]), `@noble/post-quantum ${version('post-quantum')}`;
  if (a === 'ascon-hash256' && ascon) {
    expect(r, 'digest', ascon.asconHash256(bytes(r, 'msg')), 'SP 800-232 reference');
    return 'tests/vectors/ascon_sp800_232.mjs';
  }
  if (a === 'ascon-aead128' && ascon) return checkAead(r), 'tests/vectors/ascon_sp800_232.mjs';
  if (!classicalOk) return null;
  const noble = `@noble/hashes,ciphers,curves ${version('curves')}`;
  if (a === 'sha256' || a === 'sha3-256') return expect(r, 'digest', hashes[a](bytes(r, 'msg')), 'noble'), noble;
  if (a === 'shake128' || a === 'shake256') {
    const n = bytes(r, 'out').length;
    return expect(r, 'out', hashes[a](bytes(r, 'msg'), { dkLen: n }), 'noble'), noble;
  }
  if (a === 'hmac-sha256')
    return expect(r, 'tag', hmacMod.hmac(sha2.sha256, bytes(r, 'key'), bytes(r, 'msg')), 'noble'), noble;
  if (a === 'hkdf-sha256') {
    const salt = bytes(r, 'salt'), okm = bytes(r, 'okm');
    // RFC 5869 section 2.2: absent salt = HashLen zeros (noble: undefined).
    const v = hkdfMod.hkdf(sha2.sha256, bytes(r, 'ikm'), salt.length ? salt : undefined, bytes(r, 'info'), okm.length);
    return expect(r, 'okm', v, 'noble'), noble;
  }
  if (a === 'aes-128-gcm' || a === 'aes-256-gcm' || a === 'aes-128-ccm') return checkAead(r), noble;
  if (a === 'ecdh-p256' || a === 'x25519' || a === 'ffdhe-2048') return checkKa(r), noble;
  if (a === 'ecdsa-p256' || a === 'ed25519' || a === 'rsa-2048') return checkSig(r), noble;
  return null;
}

const coverage = new Map(); // alg -> { lines, ref }
for (const r of records) {
  const c = coverage.get(r.alg) || { lines: 0, checked: 0, ref: null, missing: false };
  coverage.set(r.alg, c);
  c.lines++;
  if (r.error !== undefined || r.skipped !== undefined) continue; // check_xcheck reports these
  try {
    const ref = checkRecord(r);
    if (ref) {
      c.checked++;
      c.ref = ref;
    } else {
      c.missing = true;
    }
  } catch (e) {
    fail(r, e.message);
  }
}
if (records.length === 0) {
  console.log('FAIL no xcheck lines');
  failed++;
}
for (const [alg, c] of coverage)
  console.log(`note: ${alg.padEnd(28)} lines=${String(c.lines).padEnd(3)} checked=${String(c.checked).padEnd(3)} ` +
      `by=${c.ref ?? (c.missing ? 'none (no independent JavaScript implementation here)'
        : '- (every line skipped or failed)')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
