/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cross-check mode (merlin-image --xcheck).
 *
 * For every impl of every backend linked into the image and for seeds
 * 0..XCHECK_SEEDS-1, the inputs are drawn from the harness stream seeded
 * with XCHECK_RNG_BASE + seed (so every backend gets the same inputs), the
 * operations are run once, and one text line is printed per (algorithm,
 * backend, seed):
 *
 *   xcheck-begin v=1 profile=<name> seeds=10 rng_base=0x78636b00
 *                lib.<library>=<version> ...
 *   xcheck alg=<id> backend=<name> variant=<v> seed=<n> <field>=<value> ...
 *   xcheck-end lines=<n> errors=<n> status=ok|fail
 *
 * Values are lower-case hex (empty for an empty string), a status word, or
 * text with spaces, '=', '%' and control characters percent-encoded.
 * Fields per class, in this order (inputs first):
 *   HASH  msg digest
 *   XOF   msg out                      (out: as many bytes as printed)
 *   MAC   key msg tag
 *   KDF   salt ikm info okm            (RFC 5869; empty salt passed as NULL)
 *   AEAD  key nonce aad pt ct tag decrypt=ok forgery=rejected
 *         (forgery: the tag with its first bit flipped must be refused)
 *   KA    sk pk peer_pk ss agree=ok    (both key pairs from keygen; agree:
 *         shared(sk, peer_pk) == shared(peer_sk, pk))
 *   SIG with keygen_seed (ML-DSA, SLH-DSA, Ed25519):
 *         key_seed msg pk_sha256 sk_sha256 sig_sha256 [pk] [sig] verify=ok
 *         forgery=rejected             (pk / sig in full when short; the
 *         signature is the deterministic one of mcore_sig_vt; "128s" sets
 *         print skipped=slow for seeds >= XCHECK_SLOW_SEEDS)
 *   SIG with keygen only (ECDSA P-256):
 *         msg sk|sk_sha256 pk sig verify=ok forgery=rejected
 *         [fixed_pk fixed_sig fixed_verify=ok] (the key of the first
 *         known-answer vector: RFC 6979 makes that signature comparable)
 *   SIG without keygen (RSA-2048): msg pk sig verify=ok forgery=rejected,
 *         with the key of the first known-answer vector
 *   KEM   keygen_coins encaps_coins pk_sha256 sk_sha256 ct_sha256 ss
 *         decaps=ok rej_ss             (FIPS 203 ML-KEM.KeyGen_internal /
 *         Encaps_internal; rej_ss: Decaps of c with c[0] ^= 0x01, the
 *         implicit-rejection key K-bar of FIPS 203 Algorithm 18)
 * An operation that fails ends its line with error=<operation>.
 *
 * Buffers come from mcore_malloc, so this mode adds no static RAM to the
 * images that never use it.
 */
#include "xcheck.h"
#include "digest.h"
#include "mcore.h"
#include "merlin_build_info.h"
#include "mops.h"
#include "port.h"
#include "vectors.h"

#include <string.h>

/* Any one message, key or output of the symmetric classes. */
#define IN_MAX 512

/* Input lengths by seed: the empty string and the block boundaries of
 * SHA-256 (55/56/64: one or two padding blocks, FIPS 180-4 section 5.1.1),
 * of SHA3-256 (rate 136) and SHAKE128 (rate 168), FIPS 202 section 5.1. */
static const uint16_t hash_msg_len[XCHECK_SEEDS] = {0,  1,   55,  56,  64,
                                                    65, 135, 136, 168, 255};
static const uint16_t xof_out_len[XCHECK_SEEDS] = {32,  1,   16,  64,  136,
                                                   137, 168, 169, 300, 512};
/* HMAC keys: empty (RFC 2104 pads it to the block), shorter than, equal to
 * and longer than the 64-byte block (longer keys are hashed first). */
static const uint16_t mac_key_len[XCHECK_SEEDS] = {0,  4,  16, 20,  32,
                                                   63, 64, 65, 100, 131};
/* HKDF: absent salt (RFC 5869 section 2.2: HashLen zeros), salts longer than
 * the block, 1-byte and 255-block outputs. */
static const uint16_t kdf_salt_len[XCHECK_SEEDS] = {0,  1,  13, 32, 64,
                                                    65, 80, 0,  16, 32};
static const uint16_t kdf_ikm_len[XCHECK_SEEDS] = {22, 32, 80,  1,  16,
                                                   64, 13, 100, 32, 48};
static const uint16_t kdf_info_len[XCHECK_SEEDS] = {0,  10, 80,  1, 0,
                                                    16, 32, 255, 7, 64};
static const uint16_t kdf_okm_len[XCHECK_SEEDS] = {42, 82,  32,  1,   16,
                                                   64, 100, 128, 255, 33};
/* AEAD: empty everything (seed 0), authenticate-only (seed 9), partial and
 * whole AES blocks. */
static const uint16_t aead_aad_len[XCHECK_SEEDS] = {0,  1,  16, 20,  0,
                                                    64, 13, 31, 100, 7};
static const uint16_t aead_pt_len[XCHECK_SEEDS] = {0,  1,   15, 16,  17,
                                                   64, 100, 8,  256, 0};
static const uint16_t sig_msg_len[XCHECK_SEEDS] = {0,   1,   32,  33,  64,
                                                   100, 128, 255, 256, 17};

/* Full values of public keys and signatures up to these sizes; digests
 * always (ML-DSA and SLH-DSA objects run to kilobytes). */
#define FULL_PK_MAX 64
#define FULL_SIG_MAX 512

typedef struct {
  uint8_t *pk, *sk, *big, *peer_pk, *peer_sk;
  uint8_t *in1, *in2, *in3, *in4, *out1, *out2;
  void *ctx;
  uint32_t lines, errors;
  int line_failed;
} xc_state;

/* ---- output ------------------------------------------------------------ */

static void put(const char *s) { mport_console_write(s, strlen(s)); }

static void put_u(uint64_t v) {
  char b[21];
  size_t at = sizeof b;
  do {
    b[--at] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v);
  mport_console_write(b + at, sizeof b - at);
}

/* key=value with value percent-encoded where it would break the line into
 * other fields (spaces, '=', '%', control characters): library versions
 * such as "1.1.0 (AWS-LC 5.1.0)" stay one field. */
static void put_kv(const char *key, const char *val) {
  static const char digits[] = "0123456789ABCDEF";
  put(" ");
  put(key);
  put("=");
  for (const char *s = val; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c <= ' ' || c == '=' || c == '%' || c >= 0x7f) {
      char esc[3] = {'%', digits[c >> 4], digits[c & 15u]};
      mport_console_write(esc, sizeof esc);
    } else {
      mport_console_write(s, 1);
    }
  }
}

static void put_hex(const char *key, const uint8_t *p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  char buf[128];
  size_t at = 0;
  put(" ");
  put(key);
  put("=");
  for (size_t i = 0; i < n; i++) {
    buf[at++] = digits[p[i] >> 4];
    buf[at++] = digits[p[i] & 15u];
    if (at == sizeof buf) {
      mport_console_write(buf, at);
      at = 0;
    }
  }
  if (at)
    mport_console_write(buf, at);
}

static void put_sha256(const char *key, const uint8_t *p, size_t n) {
  uint8_t d[32];
  mcore_sha256(d, p, n);
  put_hex(key, d, sizeof d);
}

/* A status field: ok_value when good, otherwise "fail" (and the line and
 * the run count as failed). */
static void put_status(xc_state *x, const char *key, int good,
                       const char *ok_value) {
  put_kv(key, good ? ok_value : "fail");
  if (!good)
    x->line_failed = 1;
}

/* error=<op>: the operation returned an error; nothing more on the line. */
static void put_error(xc_state *x, const char *op) {
  put_kv("error", op);
  x->line_failed = 1;
}

/* n bytes of input from the seeded stream: every backend draws the same. */
static void draw(uint8_t *buf, size_t n) { mcore_rng_fill(buf, n); }

/* ---- classes ----------------------------------------------------------- */

static void xc_hash(xc_state *x, const mcore_impl *impl, unsigned seed) {
  const mcore_hash_vt *vt = impl->vt.hash;
  size_t len = hash_msg_len[seed];
  draw(x->in1, len);
  put_hex("msg", x->in1, len);
  if (vt->digest_len > IN_MAX || vt->hash(x->out1, x->in1, len) != MCORE_OK) {
    put_error(x, "hash");
    return;
  }
  put_hex("digest", x->out1, vt->digest_len);
}

static void xc_xof(xc_state *x, const mcore_impl *impl, unsigned seed) {
  size_t len = hash_msg_len[seed], out_len = xof_out_len[seed];
  draw(x->in1, len);
  put_hex("msg", x->in1, len);
  if (impl->vt.xof->xof(x->out1, out_len, x->in1, len) != MCORE_OK) {
    put_error(x, "xof");
    return;
  }
  put_hex("out", x->out1, out_len);
}

static void xc_mac(xc_state *x, const mcore_impl *impl, unsigned seed) {
  const mcore_mac_vt *vt = impl->vt.mac;
  size_t key_len = mac_key_len[seed], len = hash_msg_len[seed];
  draw(x->in1, key_len);
  draw(x->in2, len);
  put_hex("key", x->in1, key_len);
  put_hex("msg", x->in2, len);
  if (vt->tag_len > IN_MAX ||
      vt->mac(x->out1, x->in1, key_len, x->in2, len) != MCORE_OK) {
    put_error(x, "mac");
    return;
  }
  put_hex("tag", x->out1, vt->tag_len);
}

static void xc_kdf(xc_state *x, const mcore_impl *impl, unsigned seed) {
  size_t salt_len = kdf_salt_len[seed], ikm_len = kdf_ikm_len[seed];
  size_t info_len = kdf_info_len[seed], okm_len = kdf_okm_len[seed];
  draw(x->in1, salt_len);
  draw(x->in2, ikm_len);
  draw(x->in3, info_len);
  put_hex("salt", x->in1, salt_len);
  put_hex("ikm", x->in2, ikm_len);
  put_hex("info", x->in3, info_len);
  /* An absent salt is NULL, as in the KDF known-answer vectors. */
  if (impl->vt.kdf->derive(x->out1, okm_len, salt_len ? x->in1 : NULL, salt_len,
                           x->in2, ikm_len, x->in3, info_len) != MCORE_OK) {
    put_error(x, "derive");
    return;
  }
  put_hex("okm", x->out1, okm_len);
}

static void xc_aead(xc_state *x, const mcore_impl *impl, unsigned seed) {
  const mcore_aead_vt *vt = impl->vt.aead;
  size_t aad_len = aead_aad_len[seed], pt_len = aead_pt_len[seed];
  uint8_t tag[64];
  int rc;
  if (vt->ctx_size > MCORE_AEAD_CTX_MAX || vt->key_len > IN_MAX ||
      vt->nonce_len > IN_MAX || vt->tag_len > sizeof tag) {
    put_error(x, "sizes");
    return;
  }
  draw(x->in1, vt->key_len);
  draw(x->in2, vt->nonce_len);
  draw(x->in3, aad_len);
  draw(x->in4, pt_len);
  put_hex("key", x->in1, vt->key_len);
  put_hex("nonce", x->in2, vt->nonce_len);
  put_hex("aad", x->in3, aad_len);
  put_hex("pt", x->in4, pt_len);
  /* Absent associated data or plaintext are passed as NULL, as the timed
   * operations do (authenticate-only passes pt = NULL). */
  const uint8_t *aad = aad_len ? x->in3 : NULL;
  const uint8_t *pt = pt_len ? x->in4 : NULL;
  if (vt->setup(x->ctx, x->in1) != MCORE_OK) {
    put_error(x, "setup");
    return;
  }
  if (vt->encrypt(x->ctx, x->out1, tag, x->in2, aad, aad_len, pt, pt_len) !=
      MCORE_OK) {
    put_error(x, "encrypt");
  } else {
    put_hex("ct", x->out1, pt_len);
    put_hex("tag", tag, vt->tag_len);
    rc = vt->decrypt(x->ctx, x->out2, x->in2, aad, aad_len, x->out1, pt_len,
                     tag);
    put_status(x, "decrypt",
               rc == MCORE_OK && memcmp(x->out2, x->in4, pt_len) == 0, "ok");
    /* SP 800-38D section 7.2 / SP 800-38C section 6.2: a wrong tag is
     * refused. */
    tag[0] ^= 0x01u;
    rc = vt->decrypt(x->ctx, x->out2, x->in2, aad, aad_len, x->out1, pt_len,
                     tag);
    put_status(x, "forgery", rc == MCORE_BAD_SIGNATURE, "rejected");
  }
  if (vt->cleanup)
    vt->cleanup(x->ctx);
}

static void xc_ka(xc_state *x, const mcore_impl *impl) {
  const mcore_ka_vt *vt = impl->vt.ka;
  if (vt->pk_len > MOPS_PK_MAX || vt->sk_len > MOPS_SK_MAX ||
      vt->ss_len > IN_MAX) {
    put_error(x, "sizes");
    return;
  }
  if (vt->keygen(x->pk, x->sk) != MCORE_OK ||
      vt->keygen(x->peer_pk, x->peer_sk) != MCORE_OK) {
    put_error(x, "keygen");
    return;
  }
  put_hex("sk", x->sk, vt->sk_len);
  put_hex("pk", x->pk, vt->pk_len);
  put_hex("peer_pk", x->peer_pk, vt->pk_len);
  if (vt->shared(x->out1, x->sk, x->peer_pk) != MCORE_OK ||
      vt->shared(x->out2, x->peer_sk, x->pk) != MCORE_OK) {
    put_error(x, "shared");
    return;
  }
  put_hex("ss", x->out1, vt->ss_len);
  put_status(x, "agree", memcmp(x->out1, x->out2, vt->ss_len) == 0, "ok");
}

/* Verify sig and, with forgery, the same signature with one flipped bit
 * (in place, restored afterwards). */
static void sig_verify(xc_state *x, const mcore_sig_vt *vt, const char *key,
                       int forgery, uint8_t *sig, size_t sig_len,
                       const uint8_t *msg, size_t msg_len, const uint8_t *pk) {
  int rc = vt->verify(sig, sig_len, msg, msg_len, pk);
  put_status(x, key, rc == MCORE_OK, "ok");
  if (!forgery)
    return;
  sig[sig_len / 2] ^= 0x10u;
  rc = vt->verify(sig, sig_len, msg, msg_len, pk);
  sig[sig_len / 2] ^= 0x10u;
  put_status(x, "forgery", rc == MCORE_BAD_SIGNATURE, "rejected");
}

static int is_slow(mcore_alg alg) {
  return strstr(mcore_alg_id(alg), "128s") != NULL;
}

static void xc_sig(xc_state *x, const mcore_impl *impl, unsigned seed) {
  const mcore_sig_vt *vt = impl->vt.sig;
  size_t msg_len = sig_msg_len[seed], sig_len = 0;
  uint8_t *msg = x->in2, *sig = x->big;
  if (vt->pk_len > MOPS_PK_MAX || vt->sk_len > MOPS_SK_MAX ||
      vt->sig_len > MOPS_CT_MAX || vt->seed_len > IN_MAX) {
    put_error(x, "sizes");
    return;
  }
  if (vt->keygen_seed) {
    if (is_slow(impl->alg) && seed >= XCHECK_SLOW_SEEDS) {
      put_kv("skipped", "slow");
      return;
    }
    draw(x->in1, vt->seed_len);
    draw(msg, msg_len);
    put_hex("key_seed", x->in1, vt->seed_len);
    put_hex("msg", msg, msg_len);
    if (vt->keygen_seed(x->pk, x->sk, x->in1) != MCORE_OK) {
      put_error(x, "keygen_seed");
      return;
    }
    if (vt->sign(sig, &sig_len, msg, msg_len, x->sk) != MCORE_OK ||
        sig_len == 0 || sig_len > vt->sig_len) {
      put_error(x, "sign");
      return;
    }
    put_sha256("pk_sha256", x->pk, vt->pk_len);
    put_sha256("sk_sha256", x->sk, vt->sk_len);
    put_sha256("sig_sha256", sig, sig_len);
    if (vt->pk_len <= FULL_PK_MAX)
      put_hex("pk", x->pk, vt->pk_len);
    if (sig_len <= FULL_SIG_MAX)
      put_hex("sig", sig, sig_len);
    sig_verify(x, vt, "verify", 1, sig, sig_len, msg, msg_len, x->pk);
    return;
  }

  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_sig_vec *v = t.n ? (const mops_sig_vec *)t.vecs : NULL;
  draw(msg, msg_len);
  put_hex("msg", msg, msg_len);
  if (vt->keygen) {
    if (vt->keygen(x->pk, x->sk) != MCORE_OK) {
      put_error(x, "keygen");
      return;
    }
    if (vt->sk_len <= FULL_PK_MAX)
      put_hex("sk", x->sk, vt->sk_len);
    else
      put_sha256("sk_sha256", x->sk, vt->sk_len);
  } else {
    /* No key generation (RSA-2048): the key of the first vector. */
    size_t sk_len = v && v[0].sk_len ? v[0].sk_len : vt->sk_len;
    if (!v || sk_len > MOPS_SK_MAX) {
      put_error(x, "no-key");
      return;
    }
    memcpy(x->sk, v[0].sk, sk_len);
    memcpy(x->pk, v[0].pk, vt->pk_len);
  }
  put_hex("pk", x->pk, vt->pk_len);
  if (vt->sign(sig, &sig_len, msg, msg_len, x->sk) != MCORE_OK ||
      sig_len == 0 || sig_len > vt->sig_len) {
    put_error(x, "sign");
    return;
  }
  put_hex("sig", sig, sig_len);
  sig_verify(x, vt, "verify", 1, sig, sig_len, msg, msg_len, x->pk);
  if (!vt->keygen || !v)
    return;
  /* The same message under the vector's key: deterministic (RFC 6979),
   * so it must be equal across backends. */
  if (vt->sign(sig, &sig_len, msg, msg_len, v[0].sk) != MCORE_OK ||
      sig_len == 0 || sig_len > vt->sig_len) {
    put_error(x, "fixed_sign");
    return;
  }
  put_hex("fixed_pk", v[0].pk, vt->pk_len);
  put_hex("fixed_sig", sig, sig_len);
  sig_verify(x, vt, "fixed_verify", 0, sig, sig_len, msg, msg_len, v[0].pk);
}

static void xc_kem(xc_state *x, const mcore_impl *impl) {
  const mcore_kem_vt *vt = impl->vt.kem;
  uint8_t *ct = x->big;
  if (vt->pk_len > MOPS_PK_MAX || vt->sk_len > MOPS_SK_MAX ||
      vt->ct_len > MOPS_CT_MAX || vt->ct_len == 0 || vt->ss_len > IN_MAX) {
    put_error(x, "sizes");
    return;
  }
  draw(x->in1, 64);
  draw(x->in2, 32);
  put_hex("keygen_coins", x->in1, 64);
  put_hex("encaps_coins", x->in2, 32);
  if (vt->keygen(x->pk, x->sk, x->in1) != MCORE_OK) {
    put_error(x, "keygen");
    return;
  }
  if (vt->encaps(ct, x->out1, x->pk, x->in2) != MCORE_OK) {
    put_error(x, "encaps");
    return;
  }
  put_sha256("pk_sha256", x->pk, vt->pk_len);
  put_sha256("sk_sha256", x->sk, vt->sk_len);
  put_sha256("ct_sha256", ct, vt->ct_len);
  put_hex("ss", x->out1, vt->ss_len);
  if (vt->decaps(x->out2, ct, x->sk) != MCORE_OK) {
    put_error(x, "decaps");
    return;
  }
  put_status(x, "decaps", memcmp(x->out1, x->out2, vt->ss_len) == 0, "ok");
  /* FIPS 203 Algorithm 18 (ML-KEM.Decaps_internal), implicit rejection: a
   * modified ciphertext yields K-bar = J(z || c), deterministic too. */
  ct[0] ^= 0x01u;
  int rc = vt->decaps(x->out2, ct, x->sk);
  ct[0] ^= 0x01u;
  if (rc != MCORE_OK) {
    put_error(x, "decaps_rejection");
    return;
  }
  put_hex("rej_ss", x->out2, vt->ss_len);
}

/* ---- driver ------------------------------------------------------------ */

static void xc_line(xc_state *x, const mcore_impl *impl, unsigned seed) {
  mcore_rng_seed((uint64_t)XCHECK_RNG_BASE + seed);
  x->line_failed = 0;
  put("xcheck");
  put_kv("alg", mcore_alg_id(impl->alg));
  put_kv("backend", mcore_backend_name(impl->backend));
  put_kv("variant", impl->variant);
  put(" seed=");
  put_u(seed);
  switch (mcore_alg_class(impl->alg)) {
  case MCORE_CLASS_HASH:
    xc_hash(x, impl, seed);
    break;
  case MCORE_CLASS_XOF:
    xc_xof(x, impl, seed);
    break;
  case MCORE_CLASS_MAC:
    xc_mac(x, impl, seed);
    break;
  case MCORE_CLASS_KDF:
    xc_kdf(x, impl, seed);
    break;
  case MCORE_CLASS_AEAD:
    xc_aead(x, impl, seed);
    break;
  case MCORE_CLASS_KA:
    xc_ka(x, impl);
    break;
  case MCORE_CLASS_SIG:
    xc_sig(x, impl, seed);
    break;
  case MCORE_CLASS_KEM:
    xc_kem(x, impl);
    break;
  default:
    put_error(x, "class");
    break;
  }
  put("\n");
  x->lines++;
  if (x->line_failed)
    x->errors++;
}

static void put_begin(void) {
  put("xcheck-begin v=1");
  put_kv("profile", MERLIN_PROFILE_NAME);
  put(" seeds=");
  put_u(XCHECK_SEEDS);
  put_kv("rng_base", "0x78636b00");
  for (size_t b = 0; b < mcore_n_backends; b++) {
    char key[48] = "lib.";
    size_t at = strlen(key);
    for (const char *s = mcore_backends[b]->library; *s && at + 1 < sizeof key;)
      key[at++] = *s++;
    key[at] = '\0';
    put_kv(key, mcore_backends[b]->version);
  }
  put("\n");
}

int mcore_xcheck_main(void) {
  xc_state x;
  memset(&x, 0, sizeof x);
  uint8_t **bufs[] = {&x.pk,  &x.sk,  &x.big, &x.peer_pk, &x.peer_sk, &x.in1,
                      &x.in2, &x.in3, &x.in4, &x.out1,    &x.out2,    NULL};
  const size_t sizes[] = {MOPS_PK_MAX, MOPS_SK_MAX, MOPS_CT_MAX, MOPS_PK_MAX,
                          MOPS_SK_MAX, IN_MAX,      IN_MAX,      IN_MAX,
                          IN_MAX,      IN_MAX,      IN_MAX};
  int ok = 1;

  put_begin();
  for (size_t i = 0; bufs[i]; i++) {
    *bufs[i] = mcore_calloc(1, sizes[i]);
    if (!*bufs[i])
      ok = 0;
  }
  /* mcore_malloc blocks are 8-byte aligned (16 on 64-bit hosts), as
   * mcore_aead_vt asks of the context. */
  x.ctx = mcore_calloc(1, MCORE_AEAD_CTX_MAX);
  if (!x.ctx)
    ok = 0;
  if (!ok) {
    put("xcheck-error msg=out-of-memory\n");
    x.errors++;
  }

  /* As in runner_main: backends may draw randomness while initialising. */
  mcore_rng_seed((uint64_t)XCHECK_RNG_BASE);
  for (size_t b = 0; ok && b < mcore_n_backends; b++) {
    if (mcore_backends[b]->init && mcore_backends[b]->init() != MCORE_OK) {
      put("xcheck-error msg=backend-init");
      put_kv("backend", mcore_backend_name(mcore_backends[b]->id));
      put("\n");
      x.errors++;
      ok = 0;
    }
  }

  for (size_t b = 0; ok && b < mcore_n_backends; b++) {
    const mcore_backend *be = mcore_backends[b];
    for (size_t i = 0; i < be->n_impls; i++)
      for (unsigned seed = 0; seed < XCHECK_SEEDS; seed++)
        xc_line(&x, &be->impls[i], seed);
  }

  for (size_t i = 0; bufs[i]; i++)
    mcore_free(*bufs[i]);
  mcore_free(x.ctx);

  put("xcheck-end lines=");
  put_u(x.lines);
  put(" errors=");
  put_u(x.errors);
  put_kv("status", x.errors ? "fail" : "ok");
  put("\n");
  return x.errors ? 1 : 0;
}
