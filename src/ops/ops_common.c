/* SPDX-License-Identifier: Apache-2.0 */
#include "mops.h"

#include <stddef.h>
#include <string.h>

const uint32_t mops_payloads[MOPS_N_PAYLOADS] = {8, 64, 256};

/* Each scratch area has MOPS_GUARD bytes before it and MOPS_GUARD beyond
 * its largest size, so that the guard after a declared length always lies
 * inside the array. */
#define AREA(n) ((n) + 2 * MOPS_GUARD)
static MOPS_ALIGNED uint8_t buf_pk[AREA(MOPS_PK_MAX)];
static MOPS_ALIGNED uint8_t buf_sk[AREA(MOPS_SK_MAX)];
static MOPS_ALIGNED uint8_t buf_ct[AREA(MOPS_CT_MAX)];
static MOPS_ALIGNED uint8_t buf_ss[AREA(MOPS_SS_MAX)];
static MOPS_ALIGNED uint8_t buf_msg[MOPS_MSG_MAX];
static MOPS_ALIGNED uint8_t buf_out[AREA(MOPS_OUT_MAX)];
static MOPS_ALIGNED uint8_t buf_key[64];
static MOPS_ALIGNED uint8_t buf_coins[64];
static MOPS_ALIGNED uint8_t buf_ref[MOPS_OUT_MAX];
MOPS_ALIGNED uint8_t mops_spare_pk[MOPS_PK_MAX];
MOPS_ALIGNED uint8_t mops_spare_sk[MOPS_SK_MAX];
MOPS_ALIGNED uint8_t mops_spare_ct[MOPS_CT_MAX];

/* The guard pattern: not a constant byte, so that a library's memset of a
 * whole buffer does not pass for untouched. */
static uint8_t guard_byte(size_t i) { return (uint8_t)(0xa5u ^ (i * 29u)); }

static uint8_t *area(uint8_t *buf, size_t size) {
  memset(buf, 0, size);
  for (size_t i = 0; i < MOPS_GUARD; i++)
    buf[i] = guard_byte(i);
  return buf + MOPS_GUARD;
}

void mops_ctx_init(mops_ctx *c, const mcore_impl *impl, uint32_t bytes) {
  c->impl = impl;
  c->bytes = bytes;
  c->pk = area(buf_pk, sizeof buf_pk);
  c->sk = area(buf_sk, sizeof buf_sk);
  c->ct = area(buf_ct, sizeof buf_ct);
  c->ss = area(buf_ss, sizeof buf_ss);
  c->msg = memset(buf_msg, 0, sizeof buf_msg);
  c->out = area(buf_out, sizeof buf_out);
  c->key = memset(buf_key, 0, sizeof buf_key);
  c->coins = memset(buf_coins, 0, sizeof buf_coins);
  c->ref = memset(buf_ref, 0, sizeof buf_ref);
  c->ref_set = 0;
  c->ct_len = 0;
}

/* ---- guard bytes around the outputs ----------------------------------- */

/* The length the backend declares for output buffer `which` of c's
 * algorithm (0: the class has no such output). */
static size_t declared_len(const mops_ctx *c, unsigned which) {
  const mcore_impl *im = c->impl;
  switch (mcore_alg_class(im->alg)) {
  case MCORE_CLASS_HASH:
    return which == MOPS_OUT_OUT ? im->vt.hash->digest_len : 0;
  case MCORE_CLASS_XOF:
    return which == MOPS_OUT_OUT ? MOPS_XOF_OUT : 0;
  case MCORE_CLASS_MAC:
    return which == MOPS_OUT_OUT ? im->vt.mac->tag_len : 0;
  case MCORE_CLASS_KDF:
    return which == MOPS_OUT_OUT ? c->bytes : 0;
  case MCORE_CLASS_AEAD:
    return which == MOPS_OUT_CT   ? c->bytes
           : which == MOPS_OUT_SS ? im->vt.aead->tag_len
                                  : 0;
  case MCORE_CLASS_KA:
    return which == MOPS_OUT_PK   ? im->vt.ka->pk_len
           : which == MOPS_OUT_SK ? im->vt.ka->sk_len
           : which == MOPS_OUT_SS ? im->vt.ka->ss_len
                                  : 0;
  case MCORE_CLASS_SIG:
    return which == MOPS_OUT_PK   ? im->vt.sig->pk_len
           : which == MOPS_OUT_SK ? im->vt.sig->sk_len
           : which == MOPS_OUT_CT ? im->vt.sig->sig_len
                                  : 0;
  case MCORE_CLASS_KEM:
    return which == MOPS_OUT_PK   ? im->vt.kem->pk_len
           : which == MOPS_OUT_SK ? im->vt.kem->sk_len
           : which == MOPS_OUT_CT ? im->vt.kem->ct_len
           : (which == MOPS_OUT_SS || which == MOPS_OUT_OUT)
               ? im->vt.kem->ss_len
               : 0;
  }
  return 0;
}

static const struct {
  unsigned which;
  const char *name;
  size_t max;
} outputs[] = {
    {MOPS_OUT_PK, "public key", MOPS_PK_MAX},
    {MOPS_OUT_SK, "private key", MOPS_SK_MAX},
    {MOPS_OUT_CT, "ciphertext/signature", MOPS_CT_MAX},
    {MOPS_OUT_SS, "shared secret/tag", MOPS_SS_MAX},
    {MOPS_OUT_OUT, "output", MOPS_OUT_MAX},
};

static uint8_t *output_buf(const mops_ctx *c, unsigned which) {
  return which == MOPS_OUT_PK   ? c->pk
         : which == MOPS_OUT_SK ? c->sk
         : which == MOPS_OUT_CT ? c->ct
         : which == MOPS_OUT_SS ? c->ss
                                : c->out;
}

void mops_guard_arm(const mops_ctx *c, const mops_opdef *def) {
  for (size_t k = 0; k < sizeof outputs / sizeof outputs[0]; k++) {
    if (!(def->outputs & outputs[k].which))
      continue;
    size_t len = declared_len(c, outputs[k].which);
    uint8_t *b = output_buf(c, outputs[k].which);
    if (len > outputs[k].max)
      continue; /* the KAT's size check has failed already */
    for (size_t i = 0; i < MOPS_GUARD; i++)
      b[len + i] = guard_byte(i);
  }
}

void mops_outputs_reset(const mops_ctx *c, const mops_opdef *def) {
  for (size_t k = 0; k < sizeof outputs / sizeof outputs[0]; k++) {
    size_t len = declared_len(c, outputs[k].which);
    if ((def->outputs & outputs[k].which) && len <= outputs[k].max)
      memset(output_buf(c, outputs[k].which), 0xc3, len);
  }
  mops_guard_arm(c, def);
}

int mops_guard_check(const mops_ctx *c, const mops_opdef *def, char *detail,
                     size_t dn) {
  for (size_t k = 0; k < sizeof outputs / sizeof outputs[0]; k++) {
    if (!(def->outputs & outputs[k].which))
      continue;
    size_t len = declared_len(c, outputs[k].which);
    const uint8_t *b = output_buf(c, outputs[k].which);
    if (len > outputs[k].max)
      continue;
    for (size_t i = 0; i < MOPS_GUARD; i++) {
      if (b[len + i] != guard_byte(i))
        return mops_kat_fail(outputs[k].name,
                             "written past the length the backend declares "
                             "(guard bytes changed)",
                             detail, dn);
      if (b[(ptrdiff_t)i - MOPS_GUARD] != guard_byte(i))
        return mops_kat_fail(outputs[k].name,
                             "written before the start of its buffer (guard "
                             "bytes changed)",
                             detail, dn);
    }
  }
  return MCORE_OK;
}

int mops_same_output(mops_ctx *c, const uint8_t *got, size_t n, char *detail,
                     size_t dn) {
  if (n > MOPS_OUT_MAX)
    n = MOPS_OUT_MAX;
  if (!c->ref_set) {
    memcpy(c->ref, got, n);
    c->ref_set = 1;
    return MCORE_OK;
  }
  if (memcmp(c->ref, got, n) != 0)
    return mops_kat_fail("output",
                         "differs from the first call's with the "
                         "same inputs",
                         detail, dn);
  return MCORE_OK;
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
  unpoison(buf_ref, sizeof buf_ref);
  mops_aead_unpoison(unpoison);
}

/* Bounded copy into detail; the wire encoder escapes what needs it. */
static void put(char *detail, size_t cap, size_t *at, const char *s) {
  while (*s && *at + 1 < cap)
    detail[(*at)++] = *s++;
  detail[*at] = '\0';
}

size_t mops_sig_flip_at(const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                        size_t msg_len, int signed_message) {
  if (!signed_message || sig_len <= msg_len)
    return sig_len / 2;
  size_t part = sig_len - msg_len;
  if (memcmp(sig + part, msg, msg_len) == 0)
    return part / 2; /* signature || message (most schemes) */
  if (memcmp(sig, msg, msg_len) == 0)
    return msg_len + part / 2; /* message || signature */
  return sig_len / 2;
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
    /* A signed message (an implementation folder with crypto_sign only)
     * is the signature and up to MOPS_MSG_MAX bytes of message. */
    v[2] = impl->vt.sig->sig_len, name[2] = "sig";
    if (impl->vt.sig->signed_message && v[2] >= MOPS_MSG_MAX)
      v[2] -= MOPS_MSG_MAX;
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

void mops_put_str(char *buf, size_t len, size_t *at, const char *s) {
  while (*s && *at + 1 < len)
    buf[(*at)++] = *s++;
  buf[*at] = '\0';
}

void mops_put_num(char *buf, size_t len, size_t *at, size_t v) {
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
    mops_put_str(detail, dn, &at, "object sizes: the backend declares ");
    mops_put_str(detail, dn, &at, name[i]);
    mops_put_str(detail, dn, &at, " = ");
    mops_put_num(detail, dn, &at, v[i]);
    mops_put_str(detail, dn, &at, " bytes, the standard's is ");
    mops_put_num(detail, dn, &at, want);
    mops_put_str(detail, dn, &at, " (src/ops/sizes.def)");
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
      mops_put_str(buf, len, &at, ",");
    mops_put_str(buf, len, &at, name[i]);
    mops_put_str(buf, len, &at, ":");
    mops_put_num(buf, len, &at, v[i]);
  }
}
