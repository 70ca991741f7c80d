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

void mops_ctx_unpoison(void (*unpoison)(const void *p, size_t n)) {
  unpoison(buf_pk, sizeof buf_pk);
  unpoison(buf_sk, sizeof buf_sk);
  unpoison(buf_ct, sizeof buf_ct);
  unpoison(buf_ss, sizeof buf_ss);
  unpoison(buf_msg, sizeof buf_msg);
  unpoison(buf_out, sizeof buf_out);
  unpoison(buf_key, sizeof buf_key);
  unpoison(buf_coins, sizeof buf_coins);
  mops_aead_unpoison(unpoison);
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
#ifdef MERLIN_TEST_CT_PLANT
    "ct-plant",
#endif
};

const char *mcore_backend_name(mcore_backend_id id) {
  return (unsigned)id < MCORE_BACKEND_COUNT ? backend_names[id] : "?";
}

/* ---- object sizes (sizes.def) ----------------------------------------- */

/* Every algorithm has its line in sizes.def. */
enum {
#define X(e, a, b, c, d) SIZES_DEF_##e,
#include "sizes.def"
#undef X
  SIZES_DEF_COUNT
};
_Static_assert((int)SIZES_DEF_COUNT == (int)MCORE_ALG_COUNT,
               "src/ops/sizes.def needs one line per algs.def entry");

static const size_t std_sizes[MCORE_ALG_COUNT][4] = {
#define X(e, a, b, c, d) [MCORE_ALG_##e] = {a, b, c, d},
#include "sizes.def"
#undef X
};

/* The declared sizes of impl in sizes.def's slot order, with their names;
 * returns the number of slots of its class. */
static size_t declared_sizes(const mcore_impl *impl, size_t v[4],
                             const char *name[4]) {
  switch (mcore_alg_class(impl->alg)) {
  case MCORE_CLASS_HASH:
    v[0] = impl->vt.hash->digest_len, name[0] = "digest";
    return 1;
  case MCORE_CLASS_MAC:
    v[0] = impl->vt.mac->tag_len, name[0] = "tag";
    return 1;
  case MCORE_CLASS_AEAD:
    v[0] = impl->vt.aead->key_len, name[0] = "key";
    v[1] = impl->vt.aead->nonce_len, name[1] = "nonce";
    v[2] = impl->vt.aead->tag_len, name[2] = "tag";
    return 3;
  case MCORE_CLASS_KA:
    v[0] = impl->vt.ka->pk_len, name[0] = "pk";
    v[1] = impl->vt.ka->sk_len, name[1] = "sk";
    v[2] = impl->vt.ka->ss_len, name[2] = "ss";
    return 3;
  case MCORE_CLASS_SIG:
    v[0] = impl->vt.sig->pk_len, name[0] = "pk";
    v[1] = impl->vt.sig->sk_len, name[1] = "sk";
    v[2] = impl->vt.sig->sig_len, name[2] = "sig";
    return 3;
  case MCORE_CLASS_KEM:
    v[0] = impl->vt.kem->pk_len, name[0] = "pk";
    v[1] = impl->vt.kem->sk_len, name[1] = "sk";
    v[2] = impl->vt.kem->ct_len, name[2] = "ct";
    v[3] = impl->vt.kem->ss_len, name[3] = "ss";
    return 4;
  case MCORE_CLASS_XOF:
  case MCORE_CLASS_KDF:
    break;
  }
  return 0;
}

static void put_str(char *buf, size_t len, size_t *at, const char *s) {
  while (*s && *at + 1 < len)
    buf[(*at)++] = *s++;
  buf[*at] = '\0';
}

static void put_num(char *buf, size_t len, size_t *at, size_t v) {
  char digits[24];
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v && n < sizeof digits);
  while (n && *at + 1 < len)
    buf[(*at)++] = digits[--n];
  buf[*at] = '\0';
}

int mops_check_sizes(const mcore_impl *impl, char *detail, size_t dn) {
  size_t v[4];
  const char *name[4];
  size_t n = declared_sizes(impl, v, name);
  for (size_t i = 0; i < n; i++) {
    size_t want = std_sizes[impl->alg][i];
    if (want == 0 || v[i] == want)
      continue;
    size_t at = 0;
    put_str(detail, dn, &at, "object sizes: the backend declares ");
    put_str(detail, dn, &at, name[i]);
    put_str(detail, dn, &at, " = ");
    put_num(detail, dn, &at, v[i]);
    put_str(detail, dn, &at, " bytes, the standard's is ");
    put_num(detail, dn, &at, want);
    put_str(detail, dn, &at, " (src/ops/sizes.def)");
    return MCORE_ERR;
  }
  return MCORE_OK;
}

void mops_object_sizes(const mcore_impl *impl, char *buf, size_t len) {
  size_t v[4], at = 0;
  const char *name[4];
  size_t n = declared_sizes(impl, v, name);
  buf[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    if (std_sizes[impl->alg][i] == 0)
      continue; /* not fixed by the standard (an RSA private key's DER) */
    if (at)
      put_str(buf, len, &at, ",");
    put_str(buf, len, &at, name[i]);
    put_str(buf, len, &at, ":");
    put_num(buf, len, &at, v[i]);
  }
}
