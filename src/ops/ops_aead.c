/* SPDX-License-Identifier: Apache-2.0 */
/* XOF and AEAD operations. */
#include "mops.h"
#include "vectors.h"

#include <string.h>

/* ---- XOF: SHAKE over a payload-sized message, 32 bytes out ------------ */

static int xof_kat(const mcore_impl *impl, const char *op, char *detail,
                   size_t dn) {
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_xof_vec *v = t.vecs;
  static MOPS_ALIGNED uint8_t out[512];
  if (t.n == 0)
    return mops_kat_fail("-", "no known-answer vectors", detail, dn);
  for (size_t i = 0; i < t.n; i++) {
    if (v[i].out_len > sizeof out)
      return mops_kat_fail(v[i].name, "vector too long", detail, dn);
    if (impl->vt.xof->xof(out, v[i].out_len, v[i].msg, v[i].msg_len) !=
        MCORE_OK)
      return mops_kat_fail(v[i].name, "xof returned an error", detail, dn);
    if (mops_kat_eq(impl, op, v[i].name, "output", out, v[i].out, v[i].out_len,
                    detail, dn) != MCORE_OK)
      return MCORE_ERR;
  }
  return MCORE_OK;
}

static int xof_prepare(mops_ctx *c) {
  mcore_rng_fill(c->msg, c->bytes);
  return MCORE_OK;
}

static int xof_run(mops_ctx *c) {
  return c->impl->vt.xof->xof(c->out, MOPS_XOF_OUT, c->msg, c->bytes);
}

static int xof_check(mops_ctx *c, uint32_t sample, char *detail, size_t dn) {
  (void)sample;
  return mops_same_output(c, c->out, MOPS_XOF_OUT, detail, dn);
}

const mops_opdef mops_xof_ops[] = {
    {"xof", 1, xof_kat, xof_prepare, NULL, xof_run, NULL, NULL, xof_check,
     MOPS_OUT_OUT},
};
const size_t mops_n_xof_ops = sizeof mops_xof_ops / sizeof mops_xof_ops[0];

/* ---- AEAD ------------------------------------------------------------- */

/* The backend's context, aligned for any type it holds. */
static MOPS_ALIGNED union {
  uint8_t bytes[MCORE_AEAD_CTX_MAX];
  uint64_t align64;
  void *alignp;
  long double alignld;
} aead_ctx;

static MOPS_ALIGNED uint8_t aead_buf[MOPS_MSG_MAX];

/* The context set up by the last prepare, released before the context is
 * set up again (a backend with a finite key store, PSA's, would otherwise
 * run out: one key per encrypt/decrypt/auth instance). */
static const mcore_aead_vt *aead_live;

static void release_live(void) {
  if (aead_live && aead_live->cleanup)
    aead_live->cleanup(aead_ctx.bytes);
  aead_live = NULL;
}

void mops_release(void) { release_live(); }

void mops_aead_unpoison(void (*unpoison)(const void *p, size_t n)) {
  unpoison(aead_ctx.bytes, sizeof aead_ctx.bytes);
  unpoison(aead_buf, sizeof aead_buf);
}

static int ctx_fits(const mcore_aead_vt *vt, char *detail, size_t dn) {
  if (vt->ctx_size > sizeof aead_ctx)
    return mops_kat_fail("-", "backend context larger than MCORE_AEAD_CTX_MAX",
                         detail, dn);
  return MCORE_OK;
}

/* Every op's KAT: each vector encrypts to its ciphertext and tag, decrypts
 * back, and the same ciphertext with one flipped tag bit is rejected. The
 * corruption hook names the op whose comparison it corrupts. */
static int aead_kat(const mcore_impl *impl, const char *op, char *detail,
                    size_t dn) {
  const mcore_aead_vt *vt = impl->vt.aead;
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_aead_vec *v = t.vecs;
  static MOPS_ALIGNED uint8_t ct[MOPS_CAT_CT_MAX];
  static MOPS_ALIGNED uint8_t pt[MOPS_CAT_CT_MAX];
  uint8_t tag[32];
  if (t.n == 0)
    return mops_kat_fail("-", "no known-answer vectors", detail, dn);
  if (ctx_fits(vt, detail, dn) != MCORE_OK)
    return MCORE_ERR;
  release_live();
  for (size_t i = 0; i < t.n; i++) {
    const mops_aead_vec *x = &v[i];
    int rc = MCORE_OK;
    if (x->pt_len > sizeof ct)
      return mops_kat_fail(x->name, "vector too long", detail, dn);
    if (vt->setup(aead_ctx.bytes, x->key) != MCORE_OK)
      return mops_kat_fail(x->name, "setup returned an error", detail, dn);
    if (vt->encrypt(aead_ctx.bytes, ct, tag, x->nonce, x->aad, x->aad_len,
                    x->pt, x->pt_len) != MCORE_OK)
      rc = mops_kat_fail(x->name, "encrypt returned an error", detail, dn);
    else if (mops_kat_eq(impl, op, x->name, "ciphertext", ct, x->ct, x->pt_len,
                         detail, dn) ||
             mops_kat_eq(impl, op, x->name, "tag", tag, x->tag, vt->tag_len,
                         detail, dn))
      rc = MCORE_ERR;
    else if (vt->decrypt(aead_ctx.bytes, pt, x->nonce, x->aad, x->aad_len,
                         x->ct, x->pt_len, x->tag) != MCORE_OK)
      rc = mops_kat_fail(x->name, "decrypt rejected a valid tag", detail, dn);
    else if (x->pt_len && mops_kat_eq(impl, op, x->name, "decrypted text", pt,
                                      x->pt, x->pt_len, detail, dn))
      rc = MCORE_ERR;
    else {
      memcpy(tag, x->tag, vt->tag_len);
      tag[0] ^= 0x01u;
      if (vt->decrypt(aead_ctx.bytes, pt, x->nonce, x->aad, x->aad_len, x->ct,
                      x->pt_len, tag) != MCORE_BAD_SIGNATURE)
        rc = mops_kat_fail(x->name, "a corrupted tag was accepted", detail, dn);
    }
    if (vt->cleanup)
      vt->cleanup(aead_ctx.bytes);
    if (rc != MCORE_OK)
      return rc;
  }
  return MCORE_OK;
}

/* key in c->key, nonce in c->coins, message in c->msg, ciphertext in c->ct,
 * tag in c->ss. */
static int aead_prepare(mops_ctx *c) {
  const mcore_aead_vt *vt = c->impl->vt.aead;
  if (vt->ctx_size > sizeof aead_ctx)
    return MCORE_ERR;
  mcore_rng_fill(c->key, vt->key_len);
  mcore_rng_fill(c->coins, vt->nonce_len);
  mcore_rng_fill(c->msg, c->bytes);
  release_live();
  if (vt->setup(aead_ctx.bytes, c->key) != MCORE_OK)
    return MCORE_ERR;
  aead_live = vt;
  return vt->encrypt(aead_ctx.bytes, c->ct, c->ss, c->coins, NULL, 0, c->msg,
                     c->bytes);
}

static int aead_setup_prepare(mops_ctx *c) {
  const mcore_aead_vt *vt = c->impl->vt.aead;
  if (vt->ctx_size > sizeof aead_ctx)
    return MCORE_ERR;
  mcore_rng_fill(c->key, vt->key_len);
  release_live();
  return MCORE_OK;
}

/* setup: the key schedule (and GHASH table), released again so that
 * repeated runs do not accumulate state. */
static int aead_setup_run(mops_ctx *c) {
  const mcore_aead_vt *vt = c->impl->vt.aead;
  int rc = vt->setup(aead_ctx.bytes, c->key);
  if (vt->cleanup)
    vt->cleanup(aead_ctx.bytes);
  return rc;
}

static int aead_encrypt_run(mops_ctx *c) {
  return c->impl->vt.aead->encrypt(aead_ctx.bytes, c->ct, c->ss, c->coins, NULL,
                                   0, c->msg, c->bytes);
}

static int aead_decrypt_run(mops_ctx *c) {
  return c->impl->vt.aead->decrypt(aead_ctx.bytes, aead_buf, c->coins, NULL, 0,
                                   c->ct, c->bytes, c->ss);
}

/* authenticate-only: the payload is associated data, no plaintext (GMAC for
 * GCM). */
static int aead_auth_run(mops_ctx *c) {
  return c->impl->vt.aead->encrypt(aead_ctx.bytes, c->ct, c->ss, c->coins,
                                   c->msg, c->bytes, NULL, 0);
}

/* A fresh key: poisoned before the key schedule derives from it. setup
 * times the schedule itself; the others get a context set up with the new
 * key and, so that decrypt takes its success path, the same message
 * encrypted under it (nonce and message unchanged). */
static int aead_setup_secret(mops_ctx *c,
                             void (*poison)(const void *, size_t)) {
  const mcore_aead_vt *vt = c->impl->vt.aead;
  mcore_rng_fill(c->key, vt->key_len);
  poison(c->key, vt->key_len);
  return MOPS_SECRET_FRESH;
}

static int aead_secret(mops_ctx *c, void (*poison)(const void *, size_t)) {
  const mcore_aead_vt *vt = c->impl->vt.aead;
  aead_setup_secret(c, poison);
  release_live();
  if (vt->setup(aead_ctx.bytes, c->key) != MCORE_OK)
    return MCORE_ERR;
  aead_live = vt;
  if (vt->encrypt(aead_ctx.bytes, c->ct, c->ss, c->coins, NULL, 0, c->msg,
                  c->bytes) != MCORE_OK)
    return MCORE_ERR;
  return MOPS_SECRET_FRESH;
}

/* encrypt: the ciphertext and tag of the sample decrypt to the message. */
static int aead_encrypt_check(mops_ctx *c, uint32_t sample, char *detail,
                              size_t dn) {
  (void)sample;
  int rc = c->impl->vt.aead->decrypt(aead_ctx.bytes, aead_buf, c->coins, NULL,
                                     0, c->ct, c->bytes, c->ss);
  if (rc == MCORE_BAD_SIGNATURE)
    return mops_kat_fail("tag", "the sample's tag does not verify", detail, dn);
  if (rc != MCORE_OK)
    return mops_kat_fail("decrypt", "decrypting the sample's output failed",
                         detail, dn);
  if (c->bytes && memcmp(aead_buf, c->msg, c->bytes) != 0)
    return mops_kat_fail("ciphertext", "does not decrypt to the message",
                         detail, dn);
  return MCORE_OK;
}

/* decrypt: the sample recovered the message. */
static int aead_decrypt_check(mops_ctx *c, uint32_t sample, char *detail,
                              size_t dn) {
  (void)sample;
  if (c->bytes && memcmp(aead_buf, c->msg, c->bytes) != 0)
    return mops_kat_fail("plaintext", "differs from the encrypted message",
                         detail, dn);
  return MCORE_OK;
}

/* auth: the same associated data every sample, the same tag. */
static int aead_auth_check(mops_ctx *c, uint32_t sample, char *detail,
                           size_t dn) {
  (void)sample;
  return mops_same_output(c, c->ss, c->impl->vt.aead->tag_len, detail, dn);
}

const mops_opdef mops_aead_ops[] = {
    {"setup", 0, aead_kat, aead_setup_prepare, NULL, aead_setup_run, NULL,
     aead_setup_secret, NULL, 0},
    {"encrypt", 1, aead_kat, aead_prepare, NULL, aead_encrypt_run, NULL,
     aead_secret, aead_encrypt_check, MOPS_OUT_CT | MOPS_OUT_SS},
    {"decrypt", 1, aead_kat, aead_prepare, NULL, aead_decrypt_run, NULL,
     aead_secret, aead_decrypt_check, 0},
    {"auth", 1, aead_kat, aead_prepare, NULL, aead_auth_run, NULL, aead_secret,
     aead_auth_check, MOPS_OUT_SS},
};
const size_t mops_n_aead_ops = sizeof mops_aead_ops / sizeof mops_aead_ops[0];
