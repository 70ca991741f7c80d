/* SPDX-License-Identifier: Apache-2.0 */
/* Hash, MAC and KDF operations: payload-dependent, one timed call each. */
#include "mops.h"
#include "vectors.h"

/* ---- hash: digest of a payload-sized message ------------------------- */

static int hash_kat(const mcore_impl *impl, const char *op, char *detail,
                    size_t dn) {
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_hash_vec *v = t.vecs;
  uint8_t out[64];
  if (t.n == 0)
    return mops_kat_fail("-", "no known-answer vectors", detail, dn);
  for (size_t i = 0; i < t.n; i++) {
    if (impl->vt.hash->hash(out, v[i].msg, v[i].msg_len) != MCORE_OK)
      return mops_kat_fail(v[i].name, "hash returned an error", detail, dn);
    if (mops_kat_eq(impl, op, v[i].name, "digest", out, v[i].digest,
                    impl->vt.hash->digest_len, detail, dn) != MCORE_OK)
      return MCORE_ERR;
  }
  return MCORE_OK;
}

static int msg_prepare(mops_ctx *c) {
  mcore_rng_fill(c->msg, c->bytes);
  mcore_rng_fill(c->key, 32);
  return MCORE_OK;
}

static int hash_run(mops_ctx *c) {
  return c->impl->vt.hash->hash(c->out, c->msg, c->bytes);
}

/* The same message every sample: the same digest every sample. */
static int hash_check(mops_ctx *c, uint32_t sample, char *detail, size_t dn) {
  (void)sample;
  return mops_same_output(c, c->out, c->impl->vt.hash->digest_len, detail, dn);
}

const mops_opdef mops_hash_ops[] = {
    {"hash", 1, hash_kat, msg_prepare, NULL, hash_run, NULL, NULL, hash_check,
     MOPS_OUT_OUT},
};
const size_t mops_n_hash_ops = sizeof mops_hash_ops / sizeof mops_hash_ops[0];

/* ---- MAC: tag of a payload-sized message under a 32-byte key ---------- */

static int mac_kat(const mcore_impl *impl, const char *op, char *detail,
                   size_t dn) {
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_mac_vec *v = t.vecs;
  uint8_t tag[64];
  if (t.n == 0)
    return mops_kat_fail("-", "no known-answer vectors", detail, dn);
  for (size_t i = 0; i < t.n; i++) {
    if (impl->vt.mac->mac(tag, v[i].key, v[i].key_len, v[i].msg,
                          v[i].msg_len) != MCORE_OK)
      return mops_kat_fail(v[i].name, "mac returned an error", detail, dn);
    if (mops_kat_eq(impl, op, v[i].name, "tag", tag, v[i].tag, v[i].tag_len,
                    detail, dn) != MCORE_OK)
      return MCORE_ERR;
  }
  return MCORE_OK;
}

static int mac_run(mops_ctx *c) {
  return c->impl->vt.mac->mac(c->out, c->key, 32, c->msg, c->bytes);
}

/* The key is the secret; the message stays. */
static int key_secret(mops_ctx *c, void (*poison)(const void *, size_t)) {
  mcore_rng_fill(c->key, 32);
  poison(c->key, 32);
  return MOPS_SECRET_FRESH;
}

static int mac_check(mops_ctx *c, uint32_t sample, char *detail, size_t dn) {
  (void)sample;
  return mops_same_output(c, c->out, c->impl->vt.mac->tag_len, detail, dn);
}

const mops_opdef mops_mac_ops[] = {
    {"mac", 1, mac_kat, msg_prepare, NULL, mac_run, NULL, key_secret, mac_check,
     MOPS_OUT_OUT},
};
const size_t mops_n_mac_ops = sizeof mops_mac_ops / sizeof mops_mac_ops[0];

/* ---- KDF: HKDF with a 32-byte IKM and salt, 16-byte info; the payload
 * is the output length L (RFC 5869 section 2.3), the quantity a key
 * ladder varies. */

static int kdf_kat(const mcore_impl *impl, const char *op, char *detail,
                   size_t dn) {
  mops_kat_table t = mops_vectors((int)impl->alg);
  const mops_kdf_vec *v = t.vecs;
  uint8_t okm[128];
  if (t.n == 0)
    return mops_kat_fail("-", "no known-answer vectors", detail, dn);
  for (size_t i = 0; i < t.n; i++) {
    if (v[i].okm_len > sizeof okm)
      return mops_kat_fail(v[i].name, "vector too long", detail, dn);
    if (impl->vt.kdf->derive(okm, v[i].okm_len, v[i].salt, v[i].salt_len,
                             v[i].ikm, v[i].ikm_len, v[i].info,
                             v[i].info_len) != MCORE_OK)
      return mops_kat_fail(v[i].name, "derive returned an error", detail, dn);
    if (mops_kat_eq(impl, op, v[i].name, "okm", okm, v[i].okm, v[i].okm_len,
                    detail, dn) != MCORE_OK)
      return MCORE_ERR;
  }
  return MCORE_OK;
}

static int kdf_prepare(mops_ctx *c) {
  mcore_rng_fill(c->key, 64); /* ikm = key[0..31], salt = key[32..63] */
  mcore_rng_fill(c->msg, 16); /* info */
  return MCORE_OK;
}

static int kdf_run(mops_ctx *c) {
  return c->impl->vt.kdf->derive(c->out, c->bytes, c->key + 32, 32, c->key, 32,
                                 c->msg, 16);
}

static int kdf_check(mops_ctx *c, uint32_t sample, char *detail, size_t dn) {
  (void)sample;
  return mops_same_output(c, c->out, c->bytes, detail, dn);
}

const mops_opdef mops_kdf_ops[] = {
    {"derive", 1, kdf_kat, kdf_prepare, NULL, kdf_run, NULL, key_secret,
     kdf_check, MOPS_OUT_OUT},
};
const size_t mops_n_kdf_ops = sizeof mops_kdf_ops / sizeof mops_kdf_ops[0];
