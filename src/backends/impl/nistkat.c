/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The NIST PQC known-answer procedure for implementation folders, and the
 * randomness every folder draws (docs/bring-your-own.md, "Known answers").
 *
 * The records are those of the NIST submission package's PQCgenKAT_kem.c /
 * PQCgenKAT_sign.c for count = 0, which is what PQClean's
 * test/crypto_kem/nistkat.c and test/crypto_sign/nistkat.c print and what
 * its META.yml's nistkat-sha256 is the SHA-256 of: an AES-256 CTR_DRBG
 * (NIST SP 800-90A Rev. 1, 10.2.1, without a derivation function; seedlen
 * 384 bits) instantiated with the bytes 0, 1, ..., 47 draws the 48-byte seed
 * (and, for signatures, the 33-byte message); the DRBG is instantiated
 * again with that seed, and the scheme's own randombytes() calls draw from
 * it. The AES-256 block cipher is PQClean's common/aes.c (pinned).
 */
#include "mbe_impl.h"

#include "digest.h"
#include "mcore.h"
#include "mops.h"

#include "aes.h"

#include <string.h>

/* ---- AES-256 CTR_DRBG (SP 800-90A 10.2.1) ------------------------------ */

static struct {
  uint8_t key[32], v[16];
  int active; /* randombytes() draws from it (during the procedure) */
} drbg;

static void aes256_block(const uint8_t key[32], const uint8_t in[16],
                         uint8_t out[16]) {
  aes256ctx ctx;
  aes256_ecb_keyexp(&ctx, key);
  aes256_ecb(out, in, 1, &ctx);
  aes256_ctx_release(&ctx);
}

/* V = (V + 1) mod 2^128, V big-endian. */
static void drbg_increment(void) {
  for (int j = 15; j >= 0; j--) {
    if (drbg.v[j] != 0xff) {
      drbg.v[j]++;
      return;
    }
    drbg.v[j] = 0;
  }
}

/* CTR_DRBG_Update (10.2.1.2): three blocks of keystream, XORed with the
 * provided data (NULL: none), become the new Key || V. */
static void drbg_update(const uint8_t provided[48]) {
  uint8_t temp[48];
  for (size_t i = 0; i < 3; i++) {
    drbg_increment();
    aes256_block(drbg.key, drbg.v, temp + 16 * i);
  }
  if (provided)
    for (size_t i = 0; i < 48; i++)
      temp[i] ^= provided[i];
  memcpy(drbg.key, temp, 32);
  memcpy(drbg.v, temp + 32, 16);
}

/* CTR_DRBG_Instantiate without a derivation function (10.2.1.3.1), no
 * personalization string: Key = 0, V = 0, Update(entropy_input). */
static void drbg_instantiate(const uint8_t entropy[48]) {
  memset(drbg.key, 0, sizeof drbg.key);
  memset(drbg.v, 0, sizeof drbg.v);
  drbg_update(entropy);
}

/* CTR_DRBG_Generate without additional input (10.2.1.5.1). */
static void drbg_generate(uint8_t *out, size_t n) {
  uint8_t block[16];
  while (n) {
    drbg_increment();
    aes256_block(drbg.key, drbg.v, block);
    size_t take = n < 16 ? n : 16;
    memcpy(out, block, take);
    out += take;
    n -= take;
  }
  drbg_update(NULL);
}

int mbe_impl_randombytes(uint8_t *out, size_t n) {
  if (drbg.active)
    drbg_generate(out, n);
  else
    mcore_rng_fill(out, n);
  return 0;
}

/* What a folder's PQCLEAN_randombytes becomes (objcopy takes one name to
 * one name): the same function under a second name. */
int mbe_impl_randombytes_pqclean(uint8_t *out, size_t n)
    __attribute__((alias("mbe_impl_randombytes")));

/* ---- the records ----------------------------------------------------- */

/* The .rsp text as it is produced, hashed whole (sha256=), and the digest
 * of each field's bytes (the first 8 bytes of their SHA-256), written into
 * the record string in order. */
typedef struct {
  mcore_sha256_ctx text;
  char *rec;
  size_t cap, at;
} records;

static void rec_put(records *r, const char *s) {
  while (*s && r->at + 1 < r->cap)
    r->rec[r->at++] = *s++;
  r->rec[r->at] = '\0';
}

static const char hexdigits[] = "0123456789ABCDEF";

static void rec_hex(records *r, const uint8_t *b, size_t n, int lower) {
  char pair[3] = {0};
  for (size_t i = 0; i < n; i++) {
    pair[0] = hexdigits[b[i] >> 4];
    pair[1] = hexdigits[b[i] & 15];
    if (lower) {
      pair[0] = (char)(pair[0] >= 'A' ? pair[0] + 32 : pair[0]);
      pair[1] = (char)(pair[1] >= 'A' ? pair[1] + 32 : pair[1]);
    }
    rec_put(r, pair);
  }
}

static void text(records *r, const char *s) {
  mcore_sha256_update(&r->text, (const uint8_t *)s, strlen(s));
}

/* "<label> = <HEX>\n" (PQClean's fprintBstr: "00" for no bytes), and the
 * field's digest into the record string. */
static void field(records *r, const char *name, const uint8_t *b, size_t n) {
  char pair[2];
  text(r, name);
  text(r, " = ");
  for (size_t i = 0; i < n; i++) {
    pair[0] = hexdigits[b[i] >> 4];
    pair[1] = hexdigits[b[i] & 15];
    mcore_sha256_update(&r->text, (const uint8_t *)pair, 2);
  }
  if (n == 0)
    text(r, "00");
  text(r, "\n");
  uint8_t d[32];
  mcore_sha256(d, b, n);
  if (r->at)
    rec_put(r, ",");
  rec_put(r, name);
  rec_put(r, "=");
  rec_hex(r, d, 8, 1);
}

static void finish(records *r) {
  uint8_t d[32];
  mcore_sha256_final(&r->text, d);
  rec_put(r, ",sha256=");
  rec_hex(r, d, 32, 1);
}

static void text_num(records *r, const char *label, size_t v) {
  char line[48];
  size_t at = 0;
  mops_put_str(line, sizeof line, &at, label);
  mops_put_num(line, sizeof line, &at, v);
  mops_put_str(line, sizeof line, &at, "\n");
  text(r, line);
}

/* ---- output sizes ----------------------------------------------------- */

static uint8_t guard_byte(size_t i) { return (uint8_t)(0x5au ^ (i * 37u)); }

/* Fill buf[0, len) with fill and MOPS_GUARD guard bytes after it. */
static void prime(uint8_t *buf, size_t len, uint8_t fill) {
  memset(buf, fill, len);
  for (size_t i = 0; i < MOPS_GUARD; i++)
    buf[len + i] = guard_byte(i);
}

static int fail(char *detail, size_t dn, const char *what, const char *why) {
  return mops_kat_fail(what, why, detail, dn);
}

/* The folder's own name of api.h function fn ("PQCLEAN_X_crypto_sign_open",
 * "crypto_sign_verify"), so that a message names a function it has. */
static int fail_fn(const mbe_impl_api *api, char *detail, size_t dn,
                   const char *fn, const char *why) {
  char name[160];
  size_t at = 0;
  mops_put_str(name, sizeof name, &at, api->ns ? api->ns : "");
  mops_put_str(name, sizeof name, &at, fn);
  return fail(detail, dn, name, why);
}

/* The guard bytes after an output of len declared bytes are untouched. */
static int guarded(const uint8_t *buf, size_t len, const char *what,
                   char *detail, size_t dn) {
  for (size_t i = 0; i < MOPS_GUARD; i++)
    if (buf[len + i] != guard_byte(i))
      return fail(detail, dn, what,
                  "written past the size its api.h declares (guard bytes "
                  "changed)");
  return MCORE_OK;
}

/* 1 + the last index of buf[0, len) that differs from fill (0: none). */
static size_t written(const uint8_t *buf, size_t len, uint8_t fill) {
  while (len && buf[len - 1] == fill)
    len--;
  return len;
}

/* The runs of one output, over buffers filled with 0x00 and (when needed,
 * short_output) with 0xff: the bytes the function wrote reach to the
 * declared size, and are the same (the same DRBG seed). */
typedef struct {
  size_t reach;
  uint8_t digest[32];
} out_run;

static void note_run(out_run *o, const uint8_t *buf, size_t len, uint8_t fill) {
  size_t w = written(buf, len, fill);
  if (w > o->reach)
    o->reach = w;
  mcore_sha256(o->digest, buf, len);
}

static int same_runs(const out_run *a, const out_run *b, size_t len,
                     const char *what, char *detail, size_t dn) {
  if (a->reach < len && b->reach < len)
    return fail(detail, dn, what,
                "shorter than the size its api.h declares (the last bytes "
                "are never written)");
  if (memcmp(a->digest, b->digest, 32) != 0)
    return fail(detail, dn, what,
                "differs between two runs from the same DRBG seed");
  return MCORE_OK;
}

/* Whether an output of the first run (buffers filled with 0x00) ends in
 * that fill: only then is a second run, over buffers filled with 0xff,
 * needed to tell a 0 the scheme wrote from bytes it never wrote (a slow
 * scheme's key generation is not run twice for nothing). */
static int short_output(const out_run *a, const size_t *lens, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i].reach < lens[i])
      return 1;
  return 0;
}

/* ---- the procedure ---------------------------------------------------- */

static int kem_records(const mbe_impl_api *api, mops_ctx *c, records *r,
                       const uint8_t seed[48], out_run run[4], uint8_t fill,
                       char *detail, size_t dn) {
  drbg_instantiate(seed);
  prime(c->pk, api->pk_len, fill);
  prime(c->sk, api->sk_len, fill);
  prime(c->ct, api->ct_len, fill);
  prime(c->ss, api->ss_len, fill);
  if (api->keypair(c->pk, c->sk) != 0)
    return fail_fn(api, detail, dn, "crypto_kem_keypair", "returned an error");
  if (guarded(c->pk, api->pk_len, "public key", detail, dn) ||
      guarded(c->sk, api->sk_len, "secret key", detail, dn))
    return MCORE_ERR;
  if (api->enc(c->ct, c->ss, c->pk) != 0)
    return fail_fn(api, detail, dn, "crypto_kem_enc", "returned an error");
  if (guarded(c->ct, api->ct_len, "ciphertext", detail, dn) ||
      guarded(c->ss, api->ss_len, "shared secret", detail, dn))
    return MCORE_ERR;
  note_run(&run[0], c->pk, api->pk_len, fill);
  note_run(&run[1], c->sk, api->sk_len, fill);
  note_run(&run[2], c->ct, api->ct_len, fill);
  note_run(&run[3], c->ss, api->ss_len, fill);
  if (!r)
    return MCORE_OK;
  field(r, "pk", c->pk, api->pk_len);
  field(r, "sk", c->sk, api->sk_len);
  field(r, "ct", c->ct, api->ct_len);
  field(r, "ss", c->ss, api->ss_len);
  prime(c->out, api->ss_len, (uint8_t)~fill);
  if (api->dec(c->out, c->ct, c->sk) != 0)
    return fail_fn(api, detail, dn, "crypto_kem_dec", "returned an error");
  if (guarded(c->out, api->ss_len, "shared secret", detail, dn))
    return MCORE_ERR;
  if (memcmp(c->out, c->ss, api->ss_len) != 0)
    return fail_fn(api, detail, dn, "crypto_kem_dec",
                   "returned a different shared secret than crypto_kem_enc");
  return MCORE_OK;
}

static int kem(const mbe_impl_api *api, mops_ctx *c, records *r,
               const uint8_t seed[48], char *detail, size_t dn) {
  out_run a[4] = {0}, b[4] = {0};
  static const char *const names[4] = {"public key", "secret key", "ciphertext",
                                       "shared secret"};
  static const uint8_t fills[2] = {0x00, 0xff};
  const size_t lens[4] = {api->pk_len, api->sk_len, api->ct_len, api->ss_len};
  field(r, "seed", seed, 48);
  if (kem_records(api, c, r, seed, a, fills[0], detail, dn))
    return MCORE_ERR;
  if (!short_output(a, lens, 4))
    return MCORE_OK;
  /* An output whose last byte is the fill: written as 0, or never? */
  if (kem_records(api, c, NULL, seed, b, fills[1], detail, dn))
    return MCORE_ERR;
  for (size_t i = 0; i < 4; i++)
    if (same_runs(&a[i], &b[i], lens[i], names[i], detail, dn))
      return MCORE_ERR;
  return MCORE_OK;
}

#define KAT_MLEN 33 /* PQCgenKAT_sign's first message length */

/* The signed message of the records: crypto_sign's, or (detached API only)
 * signature || message, as PQClean's crypto_sign lays it out. */
static int sign_message(const mbe_impl_api *api, uint8_t *sm, size_t *smlen,
                        const uint8_t *m, const uint8_t *sk) {
  if (api->sign)
    return api->sign(sm, smlen, m, KAT_MLEN, sk);
  size_t siglen = 0;
  if (api->signature(sm, &siglen, m, KAT_MLEN, sk) != 0)
    return -1;
  memcpy(sm + siglen, m, KAT_MLEN);
  *smlen = siglen + KAT_MLEN;
  return 0;
}

/* crypto_sign_open opens sm (into a buffer of its own, as PQCgenKAT_sign
 * does), returns the message, and rejects sm with one bit of its signature
 * part flipped (mops_sig_flip_at: never a bit of the message, which any
 * open would reject by returning another message). */
static int check_open(const mbe_impl_api *api, uint8_t *sm, size_t smlen,
                      const uint8_t m[KAT_MLEN], const uint8_t *pk,
                      char *detail, size_t dn) {
  uint8_t *out = mops_spare_ct; /* MOPS_CT_MAX >= CRYPTO_BYTES + mlen */
  size_t mlen = 0;
  if (api->open(out, &mlen, sm, smlen, pk) != 0)
    return fail_fn(api, detail, dn, "crypto_sign_open",
                   "rejected the signed message of crypto_sign");
  if (mlen != KAT_MLEN || memcmp(out, m, KAT_MLEN) != 0)
    return fail_fn(api, detail, dn, "crypto_sign_open",
                   "did not return the signed message");
  size_t at = mops_sig_flip_at(sm, smlen, m, KAT_MLEN, 1);
  sm[at] ^= 0x10u;
  int rc = api->open(out, &mlen, sm, smlen, pk);
  sm[at] ^= 0x10u;
  if (rc == 0)
    return fail_fn(api, detail, dn, "crypto_sign_open",
                   "accepted a signed message whose signature part has a "
                   "flipped bit");
  return MCORE_OK;
}

/* crypto_sign_verify accepts sig (siglen bytes) of m and rejects it with
 * one bit flipped. */
static int check_verify(const mbe_impl_api *api, uint8_t *sig, size_t siglen,
                        const uint8_t m[KAT_MLEN], const uint8_t *pk,
                        char *detail, size_t dn) {
  if (siglen == 0 || api->verify(sig, siglen, m, KAT_MLEN, pk) != 0)
    return fail_fn(api, detail, dn, "crypto_sign_verify",
                   "rejected the signature of crypto_sign_signature");
  sig[siglen / 2] ^= 0x10u;
  int rc = api->verify(sig, siglen, m, KAT_MLEN, pk);
  sig[siglen / 2] ^= 0x10u;
  if (rc == 0)
    return fail_fn(api, detail, dn, "crypto_sign_verify",
                   "accepted a signature with a flipped bit");
  return MCORE_OK;
}

/* Every verifier the folder has, on the signed message sm of the records.
 * Detached only: sm is signature || message. Both forms: a signature of
 * crypto_sign_signature of its own (the records are complete: the DRBG
 * draws it may take change none of them). */
static int check_verifiers(const mbe_impl_api *api, mops_ctx *c, size_t smlen,
                           const uint8_t m[KAT_MLEN], char *detail, size_t dn) {
  if (api->verify && !api->sign &&
      check_verify(api, c->ct, smlen - KAT_MLEN, m, c->pk, detail, dn))
    return MCORE_ERR;
  if (api->verify && api->sign) {
    uint8_t *sig = mops_spare_ct;
    size_t siglen = 0;
    prime(sig, api->ct_len, 0x00);
    if (api->signature(sig, &siglen, m, KAT_MLEN, c->sk) != 0)
      return fail_fn(api, detail, dn, "crypto_sign_signature",
                     "returned an error");
    if (guarded(sig, api->ct_len, "signature", detail, dn))
      return MCORE_ERR;
    if (siglen > api->ct_len)
      return fail_fn(api, detail, dn, "crypto_sign_signature",
                     "signature longer than CRYPTO_BYTES");
    if (check_verify(api, sig, siglen, m, c->pk, detail, dn))
      return MCORE_ERR;
  }
  if (api->open && check_open(api, c->ct, smlen, m, c->pk, detail, dn))
    return MCORE_ERR;
  return MCORE_OK;
}

static int sig(const mbe_impl_api *api, mops_ctx *c, records *r,
               const uint8_t seed[48], const uint8_t m[KAT_MLEN], char *detail,
               size_t dn) {
  out_run a[2] = {0}, b[2] = {0};
  int second = 0;
  const char *signer = api->sign ? "crypto_sign" : "crypto_sign_signature";
  field(r, "seed", seed, 48);
  text(r, "mlen = 33\n");
  field(r, "msg", m, KAT_MLEN);
  for (int pass = 0; pass < 1 + second; pass++) {
    uint8_t fill = pass ? 0xff : 0x00;
    drbg_instantiate(seed);
    prime(c->pk, api->pk_len, fill);
    prime(c->sk, api->sk_len, fill);
    if (api->keypair(c->pk, c->sk) != 0)
      return fail_fn(api, detail, dn, "crypto_sign_keypair",
                     "returned an error");
    if (guarded(c->pk, api->pk_len, "public key", detail, dn) ||
        guarded(c->sk, api->sk_len, "secret key", detail, dn))
      return MCORE_ERR;
    note_run(pass ? &b[0] : &a[0], c->pk, api->pk_len, fill);
    note_run(pass ? &b[1] : &a[1], c->sk, api->sk_len, fill);
    if (pass)
      break;
    const size_t lens[2] = {api->pk_len, api->sk_len};
    second = short_output(a, lens, 2);
    field(r, "pk", c->pk, api->pk_len);
    field(r, "sk", c->sk, api->sk_len);
    size_t smlen = 0, cap = api->ct_len + KAT_MLEN;
    prime(c->ct, cap, 0x00);
    if (sign_message(api, c->ct, &smlen, m, c->sk) != 0)
      return fail_fn(api, detail, dn, signer, "returned an error");
    if (guarded(c->ct, cap, "signed message", detail, dn))
      return MCORE_ERR;
    if (smlen > cap || smlen < KAT_MLEN)
      return fail_fn(api, detail, dn, signer,
                     api->sign ? "signed message longer than CRYPTO_BYTES + "
                                 "mlen, or shorter than the message"
                               : "signature longer than CRYPTO_BYTES");
    text_num(r, "smlen = ", smlen);
    field(r, "sm", c->ct, smlen);
    if (check_verifiers(api, c, smlen, m, detail, dn))
      return MCORE_ERR;
  }
  if (second &&
      (same_runs(&a[0], &b[0], api->pk_len, "public key", detail, dn) ||
       same_runs(&a[1], &b[1], api->sk_len, "secret key", detail, dn)))
    return MCORE_ERR;
  return MCORE_OK;
}

/* The first field of expect ("k=v,...") whose value differs from the same
 * field of got; NULL when all that expect names agree. name receives it. */
static int differs(const char *expect, const char *got, char *name, size_t nn) {
  while (*expect) {
    const char *eq = strchr(expect, '=');
    const char *end = strchr(expect, ',');
    if (!eq)
      return 1;
    if (!end)
      end = expect + strlen(expect);
    size_t kl = (size_t)(eq - expect), vl = (size_t)(end - eq - 1);
    const char *g = got;
    int found = 0;
    while (*g) {
      const char *ge = strchr(g, '=');
      const char *gend = strchr(g, ',');
      if (!ge)
        break;
      if (!gend)
        gend = g + strlen(g);
      if ((size_t)(ge - g) == kl && memcmp(g, expect, kl) == 0) {
        found =
            (size_t)(gend - ge - 1) == vl && memcmp(ge + 1, eq + 1, vl) == 0;
        break;
      }
      g = *gend ? gend + 1 : gend;
    }
    if (!found) {
      size_t n = kl < nn - 1 ? kl : nn - 1;
      memcpy(name, expect, n);
      name[n] = '\0';
      return 1;
    }
    expect = *end ? end + 1 : end;
  }
  return 0;
}

int mbe_impl_nistkat(const mbe_impl_api *api, char *record, size_t rlen,
                     char *detail, size_t dn) {
  static const mcore_impl none = {0};
  mops_ctx c;
  records r = {.rec = record, .cap = rlen, .at = 0};
  uint8_t entropy[48], seed[48], m[KAT_MLEN];
  record[0] = '\0';
  if (api->pk_len > MOPS_PK_MAX || api->sk_len > MOPS_SK_MAX ||
      api->ct_len + KAT_MLEN > MOPS_CT_MAX || api->ss_len > MOPS_OUT_MAX)
    return fail(detail, dn, "sizes", "larger than the image's buffers");
  mops_ctx_init(&c, &none, 0);
  for (size_t i = 0; i < sizeof entropy; i++)
    entropy[i] = (uint8_t)i;
  mcore_sha256_init(&r.text);
  text(&r, "count = 0\n");
  drbg.active = 1;
  drbg_instantiate(entropy);
  drbg_generate(seed, sizeof seed);
  int rc;
  if (api->enc) {
    rc = kem(api, &c, &r, seed, detail, dn);
  } else {
    drbg_generate(m, sizeof m);
    rc = sig(api, &c, &r, seed, m, detail, dn);
  }
  drbg.active = 0;
  if (rc != MCORE_OK)
    return rc;
  finish(&r);
  char name[16];
  if (api->expect[0] && differs(api->expect, record, name, sizeof name)) {
    size_t at = 0;
    const char *parts[] = {
        "NIST KAT (count 0) record ", name,
        strcmp(name, "sha256") == 0 ? " (SHA-256 of all records)" : "",
        " differs from ", api->expect_from};
    detail[0] = '\0';
    for (size_t i = 0; i < 5; i++)
      for (const char *p = parts[i]; *p && at + 1 < dn; p++)
        detail[at++] = *p;
    if (dn)
      detail[at < dn ? at : dn - 1] = '\0';
    return MCORE_ERR;
  }
  return MCORE_OK;
}
