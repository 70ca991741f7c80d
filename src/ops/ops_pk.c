/* SPDX-License-Identifier: Apache-2.0 */
/* Public-key operations: key agreement, signatures, KEMs. */
#include "digest.h"
#include "mops.h"
#include "vectors.h"

#include <string.h>

#define NO_VECTORS(detail, dn)                                                 \
  mops_kat_fail("-", "no known-answer vectors", detail, dn)

/* ---- key agreement (ECDH P-256) -------------------------------------- */

/* keygen: a pairwise consistency test (FIPS 140-3 IG 10.3.A style) against
 * a known key: shared(sk_new, pk_known) == shared(sk_known, pk_new). */
static int ka_keygen_kat(const mcore_impl *impl, const char *op, char *detail,
                         size_t dn) {
  const mcore_ka_vt *vt = impl->vt.ka;
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_ka_vec *v = t.vecs;
  uint8_t *pk = mops_spare_pk, *sk = mops_spare_sk;
  uint8_t a[MOPS_SS_MAX], b[MOPS_SS_MAX];
  if (vt->ss_len > MOPS_SS_MAX)
    return mops_kat_fail("-", "shared secret larger than MOPS_SS_MAX", detail,
                         dn);
  if (t.n == 0)
    return NO_VECTORS(detail, dn);
  if (vt->keygen(pk, sk) != MCORE_OK)
    return mops_kat_fail("pairwise consistency", "keygen error", detail, dn);
  if (vt->shared(a, sk, v[0].pk) != MCORE_OK ||
      vt->shared(b, v[0].sk, pk) != MCORE_OK)
    return mops_kat_fail("pairwise consistency", "shared error", detail, dn);
  return mops_kat_eq(impl, op, "pairwise consistency", "shared secret", a, b,
                     vt->ss_len, detail, dn);
}

static int ka_shared_kat(const mcore_impl *impl, const char *op, char *detail,
                         size_t dn) {
  const mcore_ka_vt *vt = impl->vt.ka;
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_ka_vec *v = t.vecs;
  uint8_t ss[MOPS_SS_MAX];
  if (vt->ss_len > MOPS_SS_MAX)
    return mops_kat_fail("-", "shared secret larger than MOPS_SS_MAX", detail,
                         dn);
  if (t.n == 0)
    return NO_VECTORS(detail, dn);
  for (size_t i = 0; i < t.n; i++) {
    if (vt->shared(ss, v[i].sk, v[i].peer_pk) != MCORE_OK)
      return mops_kat_fail(v[i].name, "shared returned an error", detail, dn);
    if (mops_kat_eq(impl, op, v[i].name, "shared secret", ss, v[i].ss,
                    vt->ss_len, detail, dn) != MCORE_OK)
      return MCORE_ERR;
  }
  return MCORE_OK;
}

static int ka_keygen_run(mops_ctx *c) {
  return c->impl->vt.ka->keygen(c->pk, c->sk);
}

/* The peer's public key lives in ct, its private key here. */
static MOPS_ALIGNED uint8_t ka_peer_sk[MOPS_SK_MAX];

static int ka_shared_prepare(mops_ctx *c) {
  const mcore_ka_vt *vt = c->impl->vt.ka;
  if (vt->keygen(c->ct, ka_peer_sk) != MCORE_OK)
    return MCORE_ERR;
  return vt->keygen(c->pk, c->sk);
}

static int ka_shared_run(mops_ctx *c) {
  return c->impl->vt.ka->shared(c->ss, c->sk, c->ct);
}

static int nothing(mops_ctx *c) {
  (void)c;
  return MCORE_OK;
}

/* A fresh own key pair; the peer's public key (in ct) stays. */
static int ka_shared_secret(mops_ctx *c, void (*poison)(const void *, size_t)) {
  const mcore_ka_vt *vt = c->impl->vt.ka;
  if (vt->keygen(c->pk, c->sk) != MCORE_OK)
    return MCORE_ERR;
  poison(c->sk, vt->sk_len);
  return MOPS_SECRET_FRESH;
}

/* keygen: the new key pair agrees with the first known-answer vector's
 * key, both ways: shared(sk_new, pk_vec) == shared(sk_vec, pk_new). */
static int ka_keygen_check(mops_ctx *c, uint32_t sample, char *detail,
                           size_t dn) {
  const mcore_ka_vt *vt = c->impl->vt.ka;
  mops_kat_table t = mops_vectors((int)c->impl->alg);
  const mops_ka_vec *v = t.vecs;
  (void)sample;
  if (t.n == 0)
    return NO_VECTORS(detail, dn);
  if (vt->shared(c->ss, c->sk, v[0].pk) != MCORE_OK ||
      vt->shared(c->out, v[0].sk, c->pk) != MCORE_OK)
    return mops_kat_fail("key pair", "agreement with the new key failed",
                         detail, dn);
  if (memcmp(c->ss, c->out, vt->ss_len) != 0)
    return mops_kat_fail("key pair",
                         "the two sides of an agreement with the "
                         "new key differ",
                         detail, dn);
  return MCORE_OK;
}

/* shared: the peer, from its side, derives the same secret. */
static int ka_shared_check(mops_ctx *c, uint32_t sample, char *detail,
                           size_t dn) {
  const mcore_ka_vt *vt = c->impl->vt.ka;
  (void)sample;
  if (vt->shared(c->out, ka_peer_sk, c->pk) != MCORE_OK)
    return mops_kat_fail("peer", "the peer's side of the agreement failed",
                         detail, dn);
  if (memcmp(c->ss, c->out, vt->ss_len) != 0)
    return mops_kat_fail("shared secret", "differs from the peer's", detail,
                         dn);
  return MCORE_OK;
}

const mops_opdef mops_ka_ops[] = {
    {"keygen", 0, ka_keygen_kat, nothing, NULL, ka_keygen_run, NULL, NULL,
     ka_keygen_check, MOPS_OUT_PK | MOPS_OUT_SK},
    {"shared", 0, ka_shared_kat, ka_shared_prepare, NULL, ka_shared_run, NULL,
     ka_shared_secret, ka_shared_check, MOPS_OUT_SS},
};
const size_t mops_n_ka_ops = sizeof mops_ka_ops / sizeof mops_ka_ops[0];

/* ---- signatures ------------------------------------------------------ */

#define SIG_MSG_LEN 32 /* the signed message: one digest-sized value */

#define sig_pk mops_spare_pk
#define sig_sk mops_spare_sk
#define sig_buf mops_spare_ct

static int digest_eq(const mcore_impl *impl, const char *op, const char *vector,
                     const char *what, const uint8_t *got, size_t n,
                     const uint8_t *expected_sha256, char *detail, size_t dn) {
  uint8_t d[32];
  mcore_sha256(d, got, n);
  return mops_kat_eq(impl, op, vector, what, d, expected_sha256, 32, detail,
                     dn);
}

/* An implementation folder with signed messages only (vt->signed_message)
 * is held to the vectors' detached signatures through its scheme's
 * signed-message layout, signature || message (host/impl/impl.c admits
 * only schemes laid out so). The signature part of what sign wrote (its
 * length), or (size_t)-1 when the message is not at its end. */
static size_t sig_part(const mcore_sig_vt *vt, const uint8_t *sm, size_t len,
                       const uint8_t *msg, size_t msg_len) {
  if (!vt->signed_message)
    return len;
  if (len < msg_len || memcmp(sm + len - msg_len, msg, msg_len) != 0)
    return (size_t)-1;
  return len - msg_len;
}

/* What verify takes for the detached signature sig: sig itself, or for a
 * folder with signed messages only sig || msg; copied into buf, its
 * length. */
static size_t as_signed(const mcore_sig_vt *vt, uint8_t *buf,
                        const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                        size_t msg_len) {
  memmove(buf, sig, sig_len);
  if (!vt->signed_message)
    return sig_len;
  memcpy(buf + sig_len, msg, msg_len);
  return sig_len + msg_len;
}

#define NOT_SIG_MSG "the signed message is not signature || message"

/* Seeded vectors (ML-DSA, SLH-DSA): keys from the seed match their
 * digests; with want_sig, the deterministic signature matches too. */
static int sig_seed_kat(const mcore_impl *impl, const char *op,
                        const mops_kat_table *t, int want_sig, char *detail,
                        size_t dn) {
  const mcore_sig_vt *vt = impl->vt.sig;
  for (size_t i = 0; i < t->n_seed; i++) {
    const mops_sig_seed_vec *v = &t->seed_vecs[i];
    size_t sig_len = 0;
    if (!vt->keygen_seed)
      return mops_kat_fail(v->name, "backend cannot derive keys from a seed",
                           detail, dn);
    if (vt->keygen_seed(sig_pk, sig_sk, v->seed) != MCORE_OK)
      return mops_kat_fail(v->name, "keygen from seed returned an error",
                           detail, dn);
    if (digest_eq(impl, op, v->name, "SHA-256(pk)", sig_pk, vt->pk_len,
                  v->pk_sha256, detail, dn) ||
        digest_eq(impl, op, v->name, "SHA-256(sk)", sig_sk, vt->sk_len,
                  v->sk_sha256, detail, dn))
      return MCORE_ERR;
    if (!want_sig)
      continue;
    if (vt->sign(sig_buf, &sig_len, v->msg, v->msg_len, sig_sk) != MCORE_OK)
      return mops_kat_fail(v->name, "sign returned an error", detail, dn);
    size_t sm_len = sig_len;
    if ((sig_len = sig_part(vt, sig_buf, sm_len, v->msg, v->msg_len)) ==
        (size_t)-1)
      return mops_kat_fail(v->name, NOT_SIG_MSG, detail, dn);
    if (sig_len != v->sig_len)
      return mops_kat_fail(v->name, "signature length differs", detail, dn);
    if (digest_eq(impl, op, v->name, "SHA-256(signature)", sig_buf, sig_len,
                  v->sig_sha256, detail, dn))
      return MCORE_ERR;
    if (strcmp(op, "verify") == 0) {
      if (vt->verify(sig_buf, sm_len, v->msg, v->msg_len, sig_pk) != MCORE_OK)
        return mops_kat_fail(v->name, "a known signature does not verify",
                             detail, dn);
      sig_buf[sig_len / 2] ^= 0x10u;
      if (vt->verify(sig_buf, sm_len, v->msg, v->msg_len, sig_pk) !=
          MCORE_BAD_SIGNATURE)
        return mops_kat_fail(v->name, "a corrupted signature was accepted",
                             detail, dn);
    }
  }
  return MCORE_OK;
}

static int sig_keygen_kat(const mcore_impl *impl, const char *op, char *detail,
                          size_t dn) {
  const mcore_sig_vt *vt = impl->vt.sig;
  mops_kat_table t = mops_vectors((int)impl->alg);
  static const uint8_t msg[] = "merlin pairwise consistency";
  size_t sig_len = 0;
  if (vt->keygen(sig_pk, sig_sk) != MCORE_OK)
    return mops_kat_fail("pairwise consistency", "keygen error", detail, dn);
  if (vt->sign(sig_buf, &sig_len, msg, sizeof msg, sig_sk) != MCORE_OK)
    return mops_kat_fail("pairwise consistency", "sign error", detail, dn);
  if (vt->verify(sig_buf, sig_len, msg, sizeof msg, sig_pk) != MCORE_OK)
    return mops_kat_fail("pairwise consistency",
                         "fresh signature does not verify", detail, dn);
  return sig_seed_kat(impl, op, &t, 0, detail, dn);
}

static int sig_sign_kat(const mcore_impl *impl, const char *op, char *detail,
                        size_t dn) {
  const mcore_sig_vt *vt = impl->vt.sig;
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_sig_vec *v = t.vecs;
  if (t.n == 0 && t.n_seed == 0)
    return NO_VECTORS(detail, dn);
  for (size_t i = 0; i < t.n; i++) {
    size_t sig_len = 0;
    if (vt->sign(sig_buf, &sig_len, v[i].msg, v[i].msg_len, v[i].sk) !=
        MCORE_OK)
      return mops_kat_fail(v[i].name, "sign returned an error", detail, dn);
    if ((sig_len = sig_part(vt, sig_buf, sig_len, v[i].msg, v[i].msg_len)) ==
        (size_t)-1)
      return mops_kat_fail(v[i].name, NOT_SIG_MSG, detail, dn);
    if (sig_len != v[i].sig_len)
      return mops_kat_fail(v[i].name, "signature length differs", detail, dn);
    if (mops_kat_eq(impl, op, v[i].name, "signature", sig_buf, v[i].sig,
                    sig_len, detail, dn) != MCORE_OK)
      return MCORE_ERR;
  }
  return sig_seed_kat(impl, op, &t, 1, detail, dn);
}

/* verify: every known signature verifies, and the same signature with one
 * flipped bit does not. */
static int sig_verify_kat(const mcore_impl *impl, const char *op, char *detail,
                          size_t dn) {
  const mcore_sig_vt *vt = impl->vt.sig;
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_sig_vec *v = t.vecs;
  uint8_t ok = 1, expect = 1;
  if (t.n == 0 && t.n_seed == 0)
    return NO_VECTORS(detail, dn);
  for (size_t i = 0; i < t.n; i++) {
    size_t len =
        as_signed(vt, sig_buf, v[i].sig, v[i].sig_len, v[i].msg, v[i].msg_len);
    if (vt->verify(sig_buf, len, v[i].msg, v[i].msg_len, v[i].pk) != MCORE_OK)
      ok = 0;
    /* Reported through mops_kat_eq so the corruption hook reaches it. */
    if (mops_kat_eq(impl, op, v[i].name, "verification result", &ok, &expect, 1,
                    detail, dn) != MCORE_OK)
      return MCORE_ERR;
    sig_buf[v[i].sig_len / 2] ^= 0x10u;
    if (vt->verify(sig_buf, len, v[i].msg, v[i].msg_len, v[i].pk) !=
        MCORE_BAD_SIGNATURE)
      return mops_kat_fail(v[i].name, "a corrupted signature was accepted",
                           detail, dn);
  }
  return sig_seed_kat(impl, op, &t, 1, detail, dn);
}

static int sig_has_keygen(const mcore_impl *impl) {
  return impl->vt.sig->keygen != NULL;
}

static int sig_keygen_run(mops_ctx *c) {
  return c->impl->vt.sig->keygen(c->pk, c->sk);
}

/* A key pair for sign/verify: generated, or (without keygen, RSA-2048)
 * the key of the first known-answer vector. */
static int sig_prepare(mops_ctx *c) {
  const mcore_sig_vt *vt = c->impl->vt.sig;
  mcore_rng_fill(c->msg, SIG_MSG_LEN);
  if (vt->keygen)
    return vt->keygen(c->pk, c->sk);
  mops_kat_table t = mops_vectors((int)c->impl->alg);
  const mops_sig_vec *v = t.vecs;
  if (t.n == 0)
    return MCORE_ERR;
  size_t sk_len = v[0].sk_len ? v[0].sk_len : vt->sk_len;
  if (sk_len > MOPS_SK_MAX || vt->pk_len > MOPS_PK_MAX)
    return MCORE_ERR;
  memcpy(c->sk, v[0].sk, sk_len);
  memcpy(c->pk, v[0].pk, vt->pk_len);
  return MCORE_OK;
}

/* A new message for every sample, so the distribution of signing time over
 * messages is what is measured (rejection sampling in ML-DSA, for one). */
static void sig_vary(mops_ctx *c) { mcore_rng_fill(c->msg, SIG_MSG_LEN); }

static int sig_sign_run(mops_ctx *c) {
  return c->impl->vt.sig->sign(c->ct, &c->ct_len, c->msg, SIG_MSG_LEN, c->sk);
}

static int sig_verify_prepare(mops_ctx *c) {
  if (sig_prepare(c) != MCORE_OK)
    return MCORE_ERR;
  return c->impl->vt.sig->sign(c->ct, &c->ct_len, c->msg, SIG_MSG_LEN, c->sk);
}

static int sig_verify_run(mops_ctx *c) {
  return c->impl->vt.sig->verify(c->ct, c->ct_len, c->msg, SIG_MSG_LEN, c->pk);
}

/* The secret bytes of a private key in its standard encoding, as up to two
 * (offset, length) spans; the public parts (the seed of the public matrix,
 * hashes of the public key, PK.seed and PK.root) are not secret, and a
 * constant-time check keeps them fixed, since code may rightly branch on
 * them (rejection sampling of the public matrix, for one).
 *   ML-DSA (FIPS 204 7.2): rho(32) K(32) tr(64) s1 s2 t0: K, and s1 s2 t0.
 *   SLH-DSA / SPHINCS+ (FIPS 205 9.1): SK.seed SK.prf PK.seed PK.root
 *   (n = 16): the first 32 bytes.
 *   ML-KEM (FIPS 203 7.1): dk_PKE ek H(ek) z: dk_PKE and z.
 *   Ed25519 (RFC 8032 5.1.5, stored as private key || A): the first 32.
 *   Others (EC scalars, FFDHE exponents, RSA DER): all. */
typedef struct {
  size_t off, len;
} span;

static size_t secret_spans(const mcore_impl *impl, size_t sk_len, span out[2]) {
  switch (impl->alg) {
  case MCORE_ALG_ML_DSA_44:
  case MCORE_ALG_ML_DSA_65:
  case MCORE_ALG_ML_DSA_87:
    out[0] = (span){32, 32};
    out[1] = (span){128, sk_len - 128};
    return 2;
  case MCORE_ALG_SLH_DSA_SHA2_128S:
  case MCORE_ALG_SLH_DSA_SHA2_128F:
  case MCORE_ALG_SLH_DSA_SHAKE_128S:
  case MCORE_ALG_SLH_DSA_SHAKE_128F:
  case MCORE_ALG_SPHINCS_SHA2_128S_R3:
  case MCORE_ALG_SPHINCS_SHA2_128F_R3:
  case MCORE_ALG_SPHINCS_SHAKE_128S_R3:
  case MCORE_ALG_SPHINCS_SHAKE_128F_R3:
  case MCORE_ALG_ED25519:
    out[0] = (span){0, 32};
    return 1;
  case MCORE_ALG_ML_KEM_512:
  case MCORE_ALG_ML_KEM_768:
  case MCORE_ALG_ML_KEM_1024:
    out[0] = (span){0, sk_len - impl->vt.kem->pk_len - 64};
    out[1] = (span){sk_len - 32, 32};
    return 2;
  default:
    out[0] = (span){0, sk_len};
    return 1;
  }
}

/* Copy the secret spans of a fresh private key (from; NULL: keep the key)
 * into sk, whose public parts stay as they were, and poison them. */
#define fresh_pk mops_spare_pk
#define fresh_sk mops_spare_sk

static void take_secret(const mcore_impl *impl, uint8_t *sk, size_t sk_len,
                        const uint8_t *from,
                        void (*poison)(const void *, size_t)) {
  span sp[2];
  size_t n = secret_spans(impl, sk_len, sp);
  for (size_t i = 0; i < n; i++) {
    if (from)
      memcpy(sk + sp[i].off, from + sp[i].off, sp[i].len);
    poison(sk + sp[i].off, sp[i].len);
  }
}

/* The secret parts of a fresh key pair, the public parts and the message
 * unchanged; without key generation (RSA-2048) the one key, poisoned all
 * the same. */
static int sig_sign_secret(mops_ctx *c, void (*poison)(const void *, size_t)) {
  const mcore_sig_vt *vt = c->impl->vt.sig;
  if (!vt->keygen) {
    mops_kat_table t = mops_vectors((int)c->impl->alg);
    const mops_sig_vec *v = t.vecs;
    size_t sk_len = t.n && v[0].sk_len ? v[0].sk_len : vt->sk_len;
    take_secret(c->impl, c->sk, sk_len, NULL, poison);
    return MOPS_SECRET_FIXED;
  }
  if (vt->keygen(fresh_pk, fresh_sk) != MCORE_OK)
    return MCORE_ERR;
  take_secret(c->impl, c->sk, vt->sk_len, fresh_sk, poison);
  return MOPS_SECRET_FRESH;
}

/* sign: the sample's signature verifies under the key pair's public key. */
static int sig_sign_check(mops_ctx *c, uint32_t sample, char *detail,
                          size_t dn) {
  const mcore_sig_vt *vt = c->impl->vt.sig;
  (void)sample;
  if (c->ct_len == 0 || c->ct_len > vt->sig_len)
    return mops_kat_fail("signature",
                         "length outside 1..the declared "
                         "maximum",
                         detail, dn);
  int rc = vt->verify(c->ct, c->ct_len, c->msg, SIG_MSG_LEN, c->pk);
  if (rc == MCORE_BAD_SIGNATURE && vt->verify_name)
    return mops_kat_fail(vt->verify_name, "rejected the sample's signature",
                         detail, dn);
  if (rc == MCORE_BAD_SIGNATURE)
    return mops_kat_fail("signature",
                         "the sample's signature does not "
                         "verify",
                         detail, dn);
  return rc == MCORE_OK ? MCORE_OK
                        : mops_kat_fail("verify",
                                        "verifying the sample's "
                                        "signature returned an error",
                                        detail, dn);
}

/* keygen: the new key pair signs and verifies. */
static int sig_keygen_check(mops_ctx *c, uint32_t sample, char *detail,
                            size_t dn) {
  const mcore_sig_vt *vt = c->impl->vt.sig;
  static const uint8_t msg[SIG_MSG_LEN] = "merlin: check of a new key pair";
  memcpy(c->msg, msg, SIG_MSG_LEN);
  if (vt->sign(c->ct, &c->ct_len, c->msg, SIG_MSG_LEN, c->sk) != MCORE_OK)
    return mops_kat_fail("key pair", "signing with the new key failed", detail,
                         dn);
  return sig_sign_check(c, sample, detail, dn);
}

/* verify: the run accepted the valid signature (or it returned an error);
 * once per operation, the same signature with one flipped bit must be
 * rejected. */
static int sig_verify_check(mops_ctx *c, uint32_t sample, char *detail,
                            size_t dn) {
  const mcore_sig_vt *vt = c->impl->vt.sig;
  if (sample != 0 || c->ct_len == 0)
    return MCORE_OK;
  size_t at = mops_sig_flip_at(c->ct, c->ct_len, c->msg, SIG_MSG_LEN,
                               vt->signed_message);
  c->ct[at] ^= 0x10u;
  int rc = vt->verify(c->ct, c->ct_len, c->msg, SIG_MSG_LEN, c->pk);
  c->ct[at] ^= 0x10u;
  if (rc == MCORE_BAD_SIGNATURE)
    return MCORE_OK;
  if (vt->verify_name)
    return mops_kat_fail(vt->verify_name,
                         vt->signed_message
                             ? "accepted a signed message whose signature "
                               "part has a flipped bit"
                             : "accepted a signature with a flipped bit",
                         detail, dn);
  return mops_kat_fail("signature",
                       "a signature with a flipped bit was "
                       "not rejected",
                       detail, dn);
}

const mops_opdef mops_sig_ops[] = {
    {"keygen", 0, sig_keygen_kat, nothing, NULL, sig_keygen_run, sig_has_keygen,
     NULL, sig_keygen_check, MOPS_OUT_PK | MOPS_OUT_SK},
    {"sign", 0, sig_sign_kat, sig_prepare, sig_vary, sig_sign_run, NULL,
     sig_sign_secret, sig_sign_check, MOPS_OUT_CT},
    {"verify", 0, sig_verify_kat, sig_verify_prepare, NULL, sig_verify_run,
     NULL, NULL, sig_verify_check, 0},
};
const size_t mops_n_sig_ops = sizeof mops_sig_ops / sizeof mops_sig_ops[0];

/* ---- KEM (FIPS 203, derandomised) ----------------------------------- */

#define kat_pk mops_spare_pk
#define kat_sk mops_spare_sk
#define kat_ct mops_spare_ct

static int kem_kat(const mcore_impl *impl, const char *op, char *detail,
                   size_t dn) {
  const mcore_kem_vt *vt = impl->vt.kem;
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_kem_vec *v = t.vecs;
  uint8_t ss[32], ss2[32];
  int is_keygen = strcmp(op, "keygen") == 0;
  int is_encaps = strcmp(op, "encaps") == 0;
  if (t.n == 0)
    return NO_VECTORS(detail, dn);
  for (size_t i = 0; i < t.n; i++) {
    const char *name = v[i].name;
    if (vt->keygen(kat_pk, kat_sk, v[i].keygen_coins) != MCORE_OK)
      return mops_kat_fail(name, "keygen returned an error", detail, dn);
    if (is_keygen) {
      if (digest_eq(impl, op, name, "SHA-256(ek)", kat_pk, vt->pk_len,
                    v[i].pk_sha256, detail, dn) ||
          digest_eq(impl, op, name, "SHA-256(dk)", kat_sk, vt->sk_len,
                    v[i].sk_sha256, detail, dn))
        return MCORE_ERR;
      continue;
    }
    if (vt->encaps(kat_ct, ss, kat_pk, v[i].encaps_coins) != MCORE_OK)
      return mops_kat_fail(name, "encaps returned an error", detail, dn);
    if (is_encaps) {
      if (digest_eq(impl, op, name, "SHA-256(c)", kat_ct, vt->ct_len,
                    v[i].ct_sha256, detail, dn) ||
          mops_kat_eq(impl, op, name, "K", ss, v[i].ss, 32, detail, dn))
        return MCORE_ERR;
      continue;
    }
    if (vt->decaps(ss2, kat_ct, kat_sk) != MCORE_OK)
      return mops_kat_fail(name, "decaps returned an error", detail, dn);
    if (mops_kat_eq(impl, op, name, "K", ss2, v[i].ss, 32, detail, dn))
      return MCORE_ERR;
  }
  return MCORE_OK;
}

static void kem_vary(mops_ctx *c) { mcore_rng_fill(c->coins, 64); }

static int kem_keygen_run(mops_ctx *c) {
  return c->impl->vt.kem->keygen(c->pk, c->sk, c->coins);
}

static int kem_prepare(mops_ctx *c) {
  mcore_rng_fill(c->coins, 64);
  if (c->impl->vt.kem->keygen(c->pk, c->sk, c->coins) != MCORE_OK)
    return MCORE_ERR;
  mcore_rng_fill(c->coins, 64);
  return c->impl->vt.kem->encaps(c->ct, c->ss, c->pk, c->coins);
}

static int kem_encaps_run(mops_ctx *c) {
  return c->impl->vt.kem->encaps(c->ct, c->ss, c->pk, c->coins);
}

static int kem_decaps_run(mops_ctx *c) {
  return c->impl->vt.kem->decaps(c->out, c->ct, c->sk);
}

static int kem_keygen_prepare(mops_ctx *c) {
  mcore_rng_fill(c->coins, 64);
  return MCORE_OK;
}

/* The secret parts of a fresh key pair (dk_PKE and z); ek, H(ek) and the
 * ciphertext unchanged, so the re-encryption of the FO transform sees the
 * same public matrix. The ciphertext no longer matches the key, so
 * decapsulation takes its implicit-rejection path (FIPS 203 Algorithm 18),
 * which must cost the same. */
static int kem_decaps_secret(mops_ctx *c,
                             void (*poison)(const void *, size_t)) {
  const mcore_kem_vt *vt = c->impl->vt.kem;
  uint8_t coins[64];
  mcore_rng_fill(coins, sizeof coins);
  if (vt->keygen(fresh_pk, fresh_sk, coins) != MCORE_OK)
    return MCORE_ERR;
  take_secret(c->impl, c->sk, vt->sk_len, fresh_sk, poison);
  return MOPS_SECRET_FRESH;
}

/* decaps: the sample returned the secret encapsulation produced (in ss,
 * since prepare). */
static int kem_decaps_check(mops_ctx *c, uint32_t sample, char *detail,
                            size_t dn) {
  (void)sample;
  if (memcmp(c->out, c->ss, c->impl->vt.kem->ss_len) != 0)
    return mops_kat_fail("shared secret",
                         "decapsulation returned a different "
                         "secret than encapsulation produced",
                         detail, dn);
  return MCORE_OK;
}

/* encaps: decapsulating the sample's ciphertext gives its secret. */
static int kem_encaps_check(mops_ctx *c, uint32_t sample, char *detail,
                            size_t dn) {
  if (c->impl->vt.kem->decaps(c->out, c->ct, c->sk) != MCORE_OK)
    return mops_kat_fail("decaps",
                         "decapsulating the sample's ciphertext "
                         "returned an error",
                         detail, dn);
  return kem_decaps_check(c, sample, detail, dn);
}

/* keygen: the new key pair encapsulates and decapsulates one secret (fixed
 * coins: the check draws nothing from the generator). */
static int kem_keygen_check(mops_ctx *c, uint32_t sample, char *detail,
                            size_t dn) {
  static const uint8_t coins[64] = "merlin: check of a new key pair";
  if (c->impl->vt.kem->encaps(c->ct, c->ss, c->pk, coins) != MCORE_OK)
    return mops_kat_fail("key pair", "encapsulating to the new key failed",
                         detail, dn);
  return kem_encaps_check(c, sample, detail, dn);
}

const mops_opdef mops_kem_ops[] = {
    {"keygen", 0, kem_kat, kem_keygen_prepare, kem_vary, kem_keygen_run, NULL,
     NULL, kem_keygen_check, MOPS_OUT_PK | MOPS_OUT_SK},
    {"encaps", 0, kem_kat, kem_prepare, kem_vary, kem_encaps_run, NULL, NULL,
     kem_encaps_check, MOPS_OUT_CT | MOPS_OUT_SS},
    {"decaps", 0, kem_kat, kem_prepare, NULL, kem_decaps_run, NULL,
     kem_decaps_secret, kem_decaps_check, MOPS_OUT_OUT},
};
const size_t mops_n_kem_ops = sizeof mops_kem_ops / sizeof mops_kem_ops[0];
