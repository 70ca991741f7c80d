/* SPDX-License-Identifier: Apache-2.0 */
#include "mops.h"

#include <string.h>

const uint32_t mops_payloads[MOPS_N_PAYLOADS] = {8, 64, 256};

static uint8_t buf_pk[MOPS_PK_MAX], buf_sk[MOPS_SK_MAX], buf_ct[MOPS_CT_MAX];
static uint8_t buf_ss[MOPS_SS_MAX], buf_msg[MOPS_MSG_MAX],
    buf_out[MOPS_OUT_MAX];
static uint8_t buf_key[64], buf_coins[64];

void mops_ctx_init(mops_ctx *c, const mcore_impl *impl, uint32_t bytes) {
  c->impl = impl;
  c->bytes = bytes;
  c->pk = memset(buf_pk, 0, sizeof buf_pk);
  c->sk = memset(buf_sk, 0, sizeof buf_sk);
  c->ct = memset(buf_ct, 0, sizeof buf_ct);
  c->ss = memset(buf_ss, 0, sizeof buf_ss);
  c->msg = memset(buf_msg, 0, sizeof buf_msg);
  c->out = memset(buf_out, 0, sizeof buf_out);
  c->key = memset(buf_key, 0, sizeof buf_key);
  c->coins = memset(buf_coins, 0, sizeof buf_coins);
  c->ct_len = 0;
}

/* Bounded copy into detail; the wire encoder escapes what needs it. */
static void put(char *detail, size_t cap, size_t *at, const char *s) {
  while (*s && *at + 1 < cap)
    detail[(*at)++] = *s++;
  detail[*at] = '\0';
}

int mops_kat_fail(const char *vector, const char *reason, char *detail,
                  size_t detail_len) {
  size_t at = 0;
  if (detail_len == 0)
    return MCORE_ERR;
  put(detail, detail_len, &at, vector);
  put(detail, detail_len, &at, ": ");
  put(detail, detail_len, &at, reason);
  return MCORE_ERR;
}

#ifdef MERLIN_KAT_CORRUPT
/* "alg/op" of the operation whose expected values are corrupted. */
static int corrupt_target(const mcore_impl *impl, const char *op) {
  const char *want = MERLIN_KAT_CORRUPT;
  const char *alg = mcore_alg_id(impl->alg);
  size_t n = strlen(alg);
  return strncmp(want, alg, n) == 0 && want[n] == '/' &&
         strcmp(want + n + 1, op) == 0;
}
#endif

int mops_kat_eq(const mcore_impl *impl, const char *op, const char *vector,
                const char *what, const uint8_t *got, const uint8_t *expected,
                size_t n, char *detail, size_t detail_len) {
  int differ;
#ifdef MERLIN_KAT_CORRUPT
  if (n && corrupt_target(impl, op)) {
    /* Test hook: compare against the expected value with one bit flipped,
     * exactly as if the vector table held a wrong value. */
    uint8_t first = (uint8_t)(expected[0] ^ 0x01u);
    differ = got[0] != first || memcmp(got + 1, expected + 1, n - 1) != 0;
  } else
#endif
  {
    (void)impl;
    (void)op;
    differ = memcmp(got, expected, n) != 0;
  }
  if (!differ)
    return MCORE_OK;
  size_t at = 0;
  if (detail_len) {
    put(detail, detail_len, &at, vector);
    put(detail, detail_len, &at, ": ");
    put(detail, detail_len, &at, what);
    put(detail, detail_len, &at, " mismatch");
  }
  return MCORE_ERR;
}

extern const mops_opdef mops_hash_ops[], mops_xof_ops[], mops_aead_ops[],
    mops_mac_ops[], mops_kdf_ops[], mops_ka_ops[], mops_sig_ops[],
    mops_kem_ops[];
extern const size_t mops_n_hash_ops, mops_n_xof_ops, mops_n_aead_ops,
    mops_n_mac_ops, mops_n_kdf_ops, mops_n_ka_ops, mops_n_sig_ops,
    mops_n_kem_ops;

const mops_opdef *mops_class_ops(mcore_class cls, size_t *n) {
  switch (cls) {
  case MCORE_CLASS_HASH:
    *n = mops_n_hash_ops;
    return mops_hash_ops;
  case MCORE_CLASS_XOF:
    *n = mops_n_xof_ops;
    return mops_xof_ops;
  case MCORE_CLASS_AEAD:
    *n = mops_n_aead_ops;
    return mops_aead_ops;
  case MCORE_CLASS_MAC:
    *n = mops_n_mac_ops;
    return mops_mac_ops;
  case MCORE_CLASS_KDF:
    *n = mops_n_kdf_ops;
    return mops_kdf_ops;
  case MCORE_CLASS_KA:
    *n = mops_n_ka_ops;
    return mops_ka_ops;
  case MCORE_CLASS_SIG:
    *n = mops_n_sig_ops;
    return mops_sig_ops;
  case MCORE_CLASS_KEM:
    *n = mops_n_kem_ops;
    return mops_kem_ops;
  }
  *n = 0;
  return NULL;
}

/* ---- the algorithm table (from algs.def) ---------------------------- */

static const struct {
  const char *id;
  mcore_class cls;
} algs[MCORE_ALG_COUNT] = {
#define X(e, id, cls) {id, MCORE_CLASS_##cls},
#include "algs.def"
#undef X
};

const char *mcore_alg_id(mcore_alg alg) {
  return (unsigned)alg < MCORE_ALG_COUNT ? algs[alg].id : "?";
}

mcore_class mcore_alg_class(mcore_alg alg) { return algs[alg].cls; }

static const char *const backend_names[MCORE_BACKEND_COUNT] = {
#define X(e, name, a) name,
#include "backends.def"
#undef X
};

const char *mcore_backend_name(mcore_backend_id id) {
  return (unsigned)id < MCORE_BACKEND_COUNT ? backend_names[id] : "?";
}
