/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checks the output of `merlin-image --xcheck` (format: src/core/xcheck.c,
 * tests/xcheck/README.md) on the host:
 *
 *  1. structure: an xcheck-begin and an xcheck-end line whose count matches,
 *     every (algorithm, backend, variant) with each seed exactly once, no
 *     error= field, every status field at its good value (decrypt=ok,
 *     forgery=rejected, agree=ok, verify=ok, fixed_verify=ok, decaps=ok);
 *  2. backends agree: lines are grouped by (algorithm, seed) and every
 *     deterministic field (inputs, digests, tags, ciphertexts, KEM and
 *     seeded-signature digests, RFC 6979 / PKCS#1 v1.5 / Ed25519
 *     signatures) must be equal across backends;
 *  3. OpenSSL (libcrypto 3.0) recomputes: SHA-256, SHA3-256, SHAKE128/256,
 *     HMAC-SHA256, HKDF-SHA256, AES-GCM, AES-CCM outputs; ECDH P-256,
 *     X25519 and FFDHE-2048 public keys from the secret and the shared
 *     secret from (sk, peer_pk); ECDSA P-256, Ed25519 and RSASSA-PKCS1-v1_5
 *     signatures verify under the printed public key, Ed25519 keys and
 *     signatures are recomputed from the seed, and printed values agree
 *     with their printed SHA-256 digests. Algorithms OpenSSL 3.0 lacks
 *     (Ascon, ML-KEM, ML-DSA, SLH-DSA, SPHINCS+) are left to
 *     check_noble.mjs.
 *
 *   check_xcheck FILE
 *
 * Prints one FAIL line per failure naming algorithm, backend and seed, a
 * coverage note per algorithm, and "N passed, N failed". Exit status 0 when
 * nothing failed, 1 otherwise, 2 on a usage or I/O error.
 */
#define _POSIX_C_SOURCE 200809L
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/dh.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the algorithm catalogue (src/ops/algs.def) ---------------------- */

enum { C_HASH, C_XOF, C_AEAD, C_MAC, C_KDF, C_KA, C_SIG, C_KEM };

static const struct {
  const char *id;
  int cls;
} algs[] = {
#define X(e, id, cls) {id, C_##cls},
#include "algs.def"
#undef X
};
#define N_ALGS (sizeof algs / sizeof algs[0])

static int alg_class(const char *id) {
  for (size_t i = 0; i < N_ALGS; i++)
    if (strcmp(algs[i].id, id) == 0)
      return algs[i].cls;
  return -1;
}

/* ---- records ----------------------------------------------------------- */

typedef struct {
  char *key, *val;
} field;

typedef struct {
  const char *alg, *backend, *variant; /* point into fields */
  unsigned long seed;
  long line_no;
  int cls;
  field *f;
  size_t nf;
} record;

typedef struct {
  record *r;
  size_t n, cap;
  int have_begin, have_end;
  unsigned long end_lines, seeds;
} xfile;

static unsigned n_passed, n_failed;

static void fail(const record *r, const char *fmt, ...) {
  va_list ap;
  if (r)
    printf("FAIL alg=%s backend=%s seed=%lu: ", r->alg, r->backend, r->seed);
  else
    printf("FAIL ");
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  n_failed++;
}

static void check(int ok, const record *r, const char *fmt, ...) {
  va_list ap;
  if (ok) {
    n_passed++;
    return;
  }
  if (r)
    printf("FAIL alg=%s backend=%s seed=%lu: ", r->alg, r->backend, r->seed);
  else
    printf("FAIL ");
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
  n_failed++;
}

static const char *get(const record *r, const char *key) {
  for (size_t i = 0; i < r->nf; i++)
    if (strcmp(r->f[i].key, key) == 0)
      return r->f[i].val;
  return NULL;
}

static int hexval(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

/* A hex field as bytes. b->p is malloc'd (at least 1 byte, so an empty
 * value is a valid pointer); 0 when present and well-formed. */
typedef struct {
  uint8_t *p;
  size_t n;
} bytes;

static int get_hex(const record *r, const char *key, bytes *b) {
  const char *s = get(r, key);
  size_t len;
  b->p = NULL;
  b->n = 0;
  if (!s)
    return -1;
  len = strlen(s);
  if (len % 2)
    return -1;
  b->p = malloc(len / 2 + 1);
  if (!b->p)
    return -1;
  for (size_t i = 0; i < len / 2; i++) {
    int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      free(b->p);
      b->p = NULL;
      return -1;
    }
    b->p[i] = (uint8_t)(hi * 16 + lo);
  }
  b->n = len / 2;
  return 0;
}

/* Several hex fields at once: all present and well-formed, or a FAIL line
 * naming the first that is not (and every buffer freed). */
static int need_hex(const record *r, const char *const *keys, bytes *out,
                    size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (get_hex(r, keys[i], &out[i]) != 0) {
      fail(r, "field %s is missing or not hex", keys[i]);
      for (size_t j = 0; j < i; j++)
        free(out[j].p);
      return -1;
    }
  }
  return 0;
}

static void free_bytes(bytes *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(b[i].p);
}

static void free_file(xfile *x) {
  for (size_t i = 0; i < x->n; i++) {
    for (size_t j = 0; j < x->r[i].nf; j++) {
      free(x->r[i].f[j].key);
      free(x->r[i].f[j].val);
    }
    free(x->r[i].f);
  }
  free(x->r);
}

/* Split "key=value key=value ..." (after the first word) into fields. */
static int parse_fields(char *rest, field **out, size_t *n_out) {
  field *f = NULL;
  size_t n = 0, cap = 0;
  char *save = NULL;
  for (char *tok = strtok_r(rest, " \t\r\n", &save); tok;
       tok = strtok_r(NULL, " \t\r\n", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq || eq == tok)
      goto bad;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 16;
      field *nf = realloc(f, ncap * sizeof *nf);
      if (!nf)
        goto bad;
      f = nf;
      cap = ncap;
    }
    *eq = '\0';
    for (size_t i = 0; i < n; i++)
      if (strcmp(f[i].key, tok) == 0)
        goto bad; /* a key twice: which one would count? */
    f[n].key = strdup(tok);
    f[n].val = strdup(eq + 1);
    if (!f[n].key || !f[n].val) {
      free(f[n].key);
      free(f[n].val);
      goto bad;
    }
    n++;
  }
  *out = f;
  *n_out = n;
  return 0;
bad:
  for (size_t i = 0; i < n; i++) {
    free(f[i].key);
    free(f[i].val);
  }
  free(f);
  return -1;
}

static int read_file(const char *path, xfile *x) {
  FILE *fp = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0;
  long no = 0;
  if (!fp) {
    perror(path);
    return -1;
  }
  while (getline(&line, &cap, fp) != -1) {
    no++;
    char *rest = line + strcspn(line, " \n");
    char save = *rest;
    field *f = NULL;
    size_t nf = 0;
    *rest = '\0';
    if (save)
      rest++;
    const char *word = line;
    if (*word == '\0' && !save)
      continue; /* blank final line */
    if (strcmp(word, "xcheck") != 0 && strcmp(word, "xcheck-begin") != 0 &&
        strcmp(word, "xcheck-end") != 0 && strcmp(word, "xcheck-error") != 0) {
      fail(NULL, "line %ld: not an xcheck line: '%.60s'", no, word);
      continue;
    }
    if (parse_fields(rest, &f, &nf) != 0) {
      fail(NULL, "line %ld: malformed fields", no);
      continue;
    }
    record tmp = {.f = f, .nf = nf, .line_no = no};
    if (strcmp(word, "xcheck-error") == 0) {
      const char *msg = get(&tmp, "msg"), *be = get(&tmp, "backend");
      fail(NULL, "line %ld: the image reported an error: %s%s%s", no,
           msg ? msg : "?", be ? " backend=" : "", be ? be : "");
    } else if (strcmp(word, "xcheck-begin") == 0) {
      const char *s = get(&tmp, "seeds");
      x->have_begin++;
      x->seeds = s ? strtoul(s, NULL, 10) : 0;
    } else if (strcmp(word, "xcheck-end") == 0) {
      const char *s = get(&tmp, "lines"), *st = get(&tmp, "status");
      x->have_end++;
      x->end_lines = s ? strtoul(s, NULL, 10) : (unsigned long)-1;
      check(st && strcmp(st, "ok") == 0, NULL,
            "line %ld: the image ended with status=%s", no, st ? st : "?");
    } else {
      const char *seed = get(&tmp, "seed");
      char *endp = NULL;
      tmp.alg = get(&tmp, "alg");
      tmp.backend = get(&tmp, "backend");
      tmp.variant = get(&tmp, "variant");
      if (!tmp.variant)
        tmp.variant = "-";
      if (seed)
        tmp.seed = strtoul(seed, &endp, 10);
      if (!tmp.alg || !tmp.backend || !seed || !*seed || *endp) {
        fail(NULL, "line %ld: alg, backend or seed missing", no);
      } else if ((tmp.cls = alg_class(tmp.alg)) < 0) {
        fail(NULL, "line %ld: unknown algorithm '%s'", no, tmp.alg);
      } else {
        if (x->n == x->cap) {
          size_t ncap = x->cap ? x->cap * 2 : 64;
          record *nr = realloc(x->r, ncap * sizeof *nr);
          if (!nr) {
            fprintf(stderr, "out of memory\n");
            exit(2);
          }
          x->r = nr;
          x->cap = ncap;
        }
        x->r[x->n++] = tmp;
        continue; /* the record owns the fields now */
      }
    }
    for (size_t i = 0; i < nf; i++) {
      free(f[i].key);
      free(f[i].val);
    }
    free(f);
  }
  free(line);
  fclose(fp);
  return 0;
}

/* ---- 1. structure and status fields ------------------------------------ */

static const struct {
  const char *key, *good;
} statuses[] = {{"decrypt", "ok"}, {"forgery", "rejected"}, {"agree", "ok"},
                {"verify", "ok"},  {"fixed_verify", "ok"},  {"decaps", "ok"}};

/* Fields every complete line of a class carries (SIG: per mode below). */
static const char *const required[][9] = {
    [C_HASH] = {"msg", "digest"},
    [C_XOF] = {"msg", "out"},
    [C_AEAD] = {"key", "nonce", "aad", "pt", "ct", "tag", "decrypt", "forgery"},
    [C_MAC] = {"key", "msg", "tag"},
    [C_KDF] = {"salt", "ikm", "info", "okm"},
    [C_KA] = {"sk", "pk", "peer_pk", "ss", "agree"},
    [C_SIG] = {"msg", "verify", "forgery"},
    [C_KEM] = {"keygen_coins", "encaps_coins", "pk_sha256", "sk_sha256",
               "ct_sha256", "ss", "decaps", "rej_ss"},
};

/* Signature lines come in modes: keys from a seed, from keygen, or the
 * known-answer key (no keygen). */
enum { M_OTHER, M_SEEDED, M_KEYGEN, M_FIXED, M_SKIPPED };

static int sig_mode(const record *r) {
  if (r->cls != C_SIG)
    return M_OTHER;
  if (get(r, "skipped"))
    return M_SKIPPED;
  if (get(r, "key_seed"))
    return M_SEEDED;
  if (get(r, "sk") || get(r, "sk_sha256"))
    return M_KEYGEN;
  return M_FIXED;
}

static void check_record_structure(const record *r) {
  const char *err = get(r, "error");
  if (err) {
    fail(r, "the image reported error=%s", err);
    return;
  }
  if (sig_mode(r) == M_SKIPPED)
    return;
  for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
    const char *v = get(r, statuses[i].key);
    if (v)
      check(strcmp(v, statuses[i].good) == 0, r, "%s=%s (expected %s)",
            statuses[i].key, v, statuses[i].good);
  }
  for (size_t i = 0; i < 9 && required[r->cls][i]; i++)
    if (!get(r, required[r->cls][i]))
      fail(r, "field %s missing", required[r->cls][i]);
  static const char *const seeded[] = {"pk_sha256", "sk_sha256", "sig_sha256",
                                       NULL};
  static const char *const keyed[] = {"pk", "sig", NULL};
  int mode = sig_mode(r);
  const char *const *more =
      mode == M_SEEDED ? seeded
                       : (mode == M_KEYGEN || mode == M_FIXED ? keyed : NULL);
  for (; more && *more; more++)
    if (!get(r, *more))
      fail(r, "field %s missing", *more);
}

static int same_impl(const record *a, const record *b) {
  return strcmp(a->alg, b->alg) == 0 && strcmp(a->backend, b->backend) == 0 &&
         strcmp(a->variant, b->variant) == 0;
}

/* Every (alg, backend, variant) has seeds 0..seeds-1 exactly once. */
static void check_seeds(const xfile *x) {
  for (size_t i = 0; i < x->n; i++) {
    int first = 1;
    for (size_t j = 0; j < i && first; j++)
      if (same_impl(&x->r[i], &x->r[j]))
        first = 0;
    if (!first)
      continue;
    unsigned char *seen = calloc(x->seeds ? x->seeds : 1, 1);
    int ok = seen != NULL;
    for (size_t j = i; j < x->n && ok; j++) {
      if (!same_impl(&x->r[i], &x->r[j]))
        continue;
      if (x->r[j].seed >= x->seeds || seen[x->r[j].seed]) {
        fail(&x->r[j], "seed out of range or repeated (line %ld)",
             x->r[j].line_no);
        ok = 0;
      } else {
        seen[x->r[j].seed] = 1;
      }
    }
    for (unsigned long s = 0; s < x->seeds && ok; s++)
      if (!seen[s]) {
        record missing = x->r[i];
        missing.seed = s;
        fail(&missing, "no line for this seed");
        ok = 0;
      }
    if (ok)
      n_passed++; /* a failure was printed above */
    free(seen);
  }
}

/* ---- 2. backends agree ------------------------------------------------- */

/* Fields that are the same for every backend, given the seed. KA has none:
 * both key pairs come from each library's own key generation. */
static const char *const same_fields[][8] = {
    [C_HASH] = {"msg", "digest"},
    [C_XOF] = {"msg", "out"},
    [C_AEAD] = {"key", "nonce", "aad", "pt", "ct", "tag"},
    [C_MAC] = {"key", "msg", "tag"},
    [C_KDF] = {"salt", "ikm", "info", "okm"},
    [C_KA] = {NULL},
    [C_SIG] = {NULL}, /* by mode, below */
    [C_KEM] = {"keygen_coins", "encaps_coins", "pk_sha256", "sk_sha256",
               "ct_sha256", "ss", "rej_ss"},
};
static const char *const sig_same[][8] = {
    [M_SEEDED] = {"key_seed", "msg", "pk_sha256", "sk_sha256", "sig_sha256",
                  "pk", "sig"},
    [M_KEYGEN] = {"msg", "fixed_pk", "fixed_sig"},
    [M_FIXED] = {"msg", "pk", "sig"},
};

/* Lines without outputs to compare: failed (reported already) or skipped. */
static int comparable(const record *r) {
  return !get(r, "error") && sig_mode(r) != M_SKIPPED;
}

static void compare_pair(const record *ref, const record *r) {
  int mode = sig_mode(r);
  const char *const *keys;
  if (mode != sig_mode(ref)) {
    fail(r,
         "keys come from %s here but from %s on backend %s: the outputs "
         "cannot be compared (does one adapter lack keygen_seed?)",
         mode == M_SEEDED ? "a seed" : "key generation",
         sig_mode(ref) == M_SEEDED ? "a seed" : "key generation", ref->backend);
    return;
  }
  keys = r->cls == C_SIG ? sig_same[mode] : same_fields[r->cls];
  for (size_t k = 0; k < 8 && keys[k]; k++) {
    const char *a = get(ref, keys[k]), *b = get(r, keys[k]);
    if (!a && !b)
      continue;
    check(a && b && strcmp(a, b) == 0, r,
          "%s differs from backend %s (variant %s): %.40s%s vs %.40s%s",
          keys[k], ref->backend, ref->variant, b ? b : "(missing)",
          b && strlen(b) > 40 ? "..." : "", a ? a : "(missing)",
          a && strlen(a) > 40 ? "..." : "");
  }
}

static void check_agreement(const xfile *x) {
  for (size_t i = 0; i < x->n; i++) {
    const record *r = &x->r[i];
    if (!comparable(r))
      continue;
    /* The reference of the group (alg, seed) is its first comparable
     * line. */
    for (size_t j = 0; j < i; j++) {
      const record *ref = &x->r[j];
      if (strcmp(ref->alg, r->alg) == 0 && ref->seed == r->seed &&
          comparable(ref)) {
        compare_pair(ref, r);
        break;
      }
    }
  }
}

/* ---- 3. OpenSSL ---------------------------------------------------------- */

static void check_eq(const record *r, const char *what, const uint8_t *got,
                     size_t got_n, const uint8_t *want, size_t want_n) {
  check(got_n == want_n && memcmp(got, want, want_n) == 0, r,
        "%s differs from OpenSSL", what);
}

static void check_digest_of(const record *r, const char *field_name,
                            const char *digest_name) {
  bytes v = {NULL, 0}, d = {NULL, 0};
  uint8_t md[32];
  unsigned md_len = 0;
  if (!get(r, field_name) || !get(r, digest_name))
    return;
  if (get_hex(r, field_name, &v) | get_hex(r, digest_name, &d)) {
    fail(r, "%s or %s is not hex", field_name, digest_name);
  } else {
    int ok = EVP_Digest(v.p, v.n, md, &md_len, EVP_sha256(), NULL) == 1;
    check(ok && d.n == 32 && memcmp(md, d.p, 32) == 0, r,
          "%s is not SHA-256 of the printed %s", digest_name, field_name);
  }
  free(v.p);
  free(d.p);
}

static void os_hash(const record *r, const EVP_MD *md) {
  bytes b[2];
  uint8_t out[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  if (need_hex(r, (const char *const[]){"msg", "digest"}, b, 2))
    return;
  if (EVP_Digest(b[0].p, b[0].n, out, &n, md, NULL) != 1)
    fail(r, "OpenSSL EVP_Digest failed");
  else
    check_eq(r, "digest", b[1].p, b[1].n, out, n);
  free_bytes(b, 2);
}

static void os_xof(const record *r, const EVP_MD *md) {
  bytes b[2];
  if (need_hex(r, (const char *const[]){"msg", "out"}, b, 2))
    return;
  uint8_t *out = malloc(b[1].n + 1);
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (!out || !ctx || EVP_DigestInit_ex(ctx, md, NULL) != 1 ||
      EVP_DigestUpdate(ctx, b[0].p, b[0].n) != 1 ||
      EVP_DigestFinalXOF(ctx, out, b[1].n) != 1)
    fail(r, "OpenSSL SHAKE failed");
  else
    check_eq(r, "out", b[1].p, b[1].n, out, b[1].n);
  EVP_MD_CTX_free(ctx);
  free(out);
  free_bytes(b, 2);
}

static void os_hmac(const record *r) {
  bytes b[3];
  uint8_t out[EVP_MAX_MD_SIZE];
  size_t n = 0;
  if (need_hex(r, (const char *const[]){"key", "msg", "tag"}, b, 3))
    return;
  /* RFC 2104: the empty key is padded to the block like any short key,
   * i.e. it is the one-byte key 0x00 (OpenSSL 3.0 refuses length 0). */
  static const uint8_t zero = 0;
  const uint8_t *key = b[0].n ? b[0].p : &zero;
  size_t key_n = b[0].n ? b[0].n : 1;
  if (!EVP_Q_mac(NULL, "HMAC", NULL, "SHA256", NULL, key, key_n, b[1].p, b[1].n,
                 out, sizeof out, &n))
    fail(r, "OpenSSL HMAC failed");
  else
    check_eq(r, "tag", b[2].p, b[2].n, out, n);
  free_bytes(b, 3);
}

static void os_hkdf(const record *r) {
  bytes b[4];
  if (need_hex(r, (const char *const[]){"salt", "ikm", "info", "okm"}, b, 4))
    return;
  EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
  EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
  uint8_t *okm = malloc(b[3].n + 1);
  OSSL_PARAM params[5], *p = params;
  char digest[] = "SHA256";
  *p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0);
  *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, b[1].p, b[1].n);
  /* RFC 5869 section 2.2: no salt is HashLen zeros; OpenSSL applies that
   * when the parameter is absent. */
  if (b[0].n)
    *p++ =
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, b[0].p, b[0].n);
  *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, b[2].p, b[2].n);
  *p = OSSL_PARAM_construct_end();
  if (!ctx || !okm || EVP_KDF_derive(ctx, okm, b[3].n, params) != 1)
    fail(r, "OpenSSL HKDF failed");
  else
    check_eq(r, "okm", b[3].p, b[3].n, okm, b[3].n);
  free(okm);
  EVP_KDF_CTX_free(ctx);
  EVP_KDF_free(kdf);
  free_bytes(b, 4);
}

/* AES-GCM (SP 800-38D) or AES-CCM (SP 800-38C, 16-byte tag): encrypt the
 * printed inputs and compare ciphertext and tag. */
static void os_aead(const record *r, const EVP_CIPHER *cipher, int ccm) {
  bytes b[6];
  if (need_hex(r,
               (const char *const[]){"key", "nonce", "aad", "pt", "ct", "tag"},
               b, 6))
    return;
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  uint8_t *ct = malloc(b[3].n + 16), tag[16];
  int len = 0, ok = ctx && ct && b[5].n == 16 && b[3].n < (size_t)INT32_MAX &&
                    b[2].n < (size_t)INT32_MAX;
  ok = ok && EVP_EncryptInit_ex(ctx, cipher, NULL, NULL, NULL) == 1;
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)b[1].n,
                                 NULL) == 1;
  if (ccm)
    ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, NULL) == 1;
  ok = ok && EVP_EncryptInit_ex(ctx, NULL, NULL, b[0].p, b[1].p) == 1;
  /* CCM needs the message length before the associated data. */
  if (ccm)
    ok = ok && EVP_EncryptUpdate(ctx, NULL, &len, NULL, (int)b[3].n) == 1;
  if (b[2].n)
    ok = ok && EVP_EncryptUpdate(ctx, NULL, &len, b[2].p, (int)b[2].n) == 1;
  len = 0;
  if (b[3].n || ccm)
    ok = ok && EVP_EncryptUpdate(ctx, ct, &len, b[3].p, (int)b[3].n) == 1;
  int fin = 0;
  ok = ok && EVP_EncryptFinal_ex(ctx, ct + len, &fin) == 1;
  ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
  if (!ok) {
    fail(r, "OpenSSL %s encryption failed", ccm ? "CCM" : "GCM");
  } else {
    check_eq(r, "ct", b[4].p, b[4].n, ct, (size_t)(len + fin));
    check_eq(r, "tag", b[5].p, b[5].n, tag, 16);
  }
  EVP_CIPHER_CTX_free(ctx);
  free(ct);
  free_bytes(b, 6);
}

/* ---- P-256 -------------------------------------------------------------- */

#define P256_PK 65

static int p256_pub_from_priv(uint8_t out[P256_PK], const uint8_t *sk,
                              size_t sk_n) {
  EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  EC_POINT *pt = g ? EC_POINT_new(g) : NULL;
  BIGNUM *d = BN_bin2bn(sk, (int)sk_n, NULL);
  int ok = g && pt && d && !BN_is_zero(d) &&
           EC_POINT_mul(g, pt, d, NULL, NULL, NULL) == 1 &&
           EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, out,
                              P256_PK, NULL) == P256_PK;
  BN_free(d);
  EC_POINT_free(pt);
  EC_GROUP_free(g);
  return ok;
}

static EVP_PKEY *pkey_from_params(const char *type, OSSL_PARAM_BLD *bld,
                                  int selection) {
  OSSL_PARAM *params = bld ? OSSL_PARAM_BLD_to_param(bld) : NULL;
  EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
  EVP_PKEY *pkey = NULL;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) != 1 ||
      EVP_PKEY_fromdata(ctx, &pkey, selection, params) != 1) {
    EVP_PKEY_free(pkey);
    pkey = NULL;
  }
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  return pkey;
}

/* A P-256 key from the SEC1 point and, when sk is not NULL, the scalar. */
static EVP_PKEY *p256_pkey(const bytes *pk, const bytes *sk) {
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  BIGNUM *d = sk ? BN_bin2bn(sk->p, (int)sk->n, NULL) : NULL;
  EVP_PKEY *pkey = NULL;
  if (bld && (!sk || d) &&
      OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
                                      "prime256v1", 0) == 1 &&
      OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pk->p,
                                       pk->n) == 1 &&
      (!sk || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d) == 1))
    pkey = pkey_from_params("EC", bld,
                            sk ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY);
  OSSL_PARAM_BLD_free(bld);
  BN_clear_free(d);
  return pkey;
}

/* ss = derive(own, peer); pad: left-pad to the prime size (FFDHE). */
static int derive(uint8_t *ss, size_t *ss_n, EVP_PKEY *own, EVP_PKEY *peer,
                  int pad) {
  EVP_PKEY_CTX *ctx = own ? EVP_PKEY_CTX_new_from_pkey(NULL, own, NULL) : NULL;
  int ok = ctx && peer && EVP_PKEY_derive_init(ctx) == 1 &&
           (!pad || EVP_PKEY_CTX_set_dh_pad(ctx, 1) == 1) &&
           EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
           EVP_PKEY_derive(ctx, ss, ss_n) == 1;
  EVP_PKEY_CTX_free(ctx);
  return ok;
}

static void os_ecdh_p256(const record *r) {
  bytes b[4];
  uint8_t pk[P256_PK], ss[64];
  size_t ss_n = sizeof ss;
  if (need_hex(r, (const char *const[]){"sk", "pk", "peer_pk", "ss"}, b, 4))
    return;
  if (!p256_pub_from_priv(pk, b[0].p, b[0].n))
    fail(r, "sk is not a valid P-256 scalar for OpenSSL");
  else
    check_eq(r, "pk (sk * G)", b[1].p, b[1].n, pk, sizeof pk);
  EVP_PKEY *own = p256_pkey(&b[1], &b[0]), *peer = p256_pkey(&b[2], NULL);
  if (!own || !peer || !derive(ss, &ss_n, own, peer, 0))
    fail(r, "OpenSSL cannot import the keys or derive (peer_pk off-curve?)");
  else
    check_eq(r, "ss", b[3].p, b[3].n, ss, ss_n);
  EVP_PKEY_free(own);
  EVP_PKEY_free(peer);
  free_bytes(b, 4);
}

static void os_x25519(const record *r) {
  bytes b[4];
  uint8_t pk[32], ss[32];
  size_t pk_n = sizeof pk, ss_n = sizeof ss;
  if (need_hex(r, (const char *const[]){"sk", "pk", "peer_pk", "ss"}, b, 4))
    return;
  /* RFC 7748 section 5/6.1: pk = X25519(sk, 9); OpenSSL clamps sk. */
  EVP_PKEY *own = b[0].n == 32 ? EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519,
                                                              NULL, b[0].p, 32)
                               : NULL;
  EVP_PKEY *peer = b[2].n == 32 ? EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519,
                                                              NULL, b[2].p, 32)
                                : NULL;
  if (!own || EVP_PKEY_get_raw_public_key(own, pk, &pk_n) != 1)
    fail(r, "OpenSSL cannot import sk");
  else
    check_eq(r, "pk (X25519(sk, 9))", b[1].p, b[1].n, pk, pk_n);
  if (!own || !peer || !derive(ss, &ss_n, own, peer, 0))
    fail(r, "OpenSSL X25519 derive failed");
  else
    check_eq(r, "ss", b[3].p, b[3].n, ss, ss_n);
  EVP_PKEY_free(own);
  EVP_PKEY_free(peer);
  free_bytes(b, 4);
}

/* FFDHE-2048 (RFC 7919): pk = 2^sk mod p, ss = peer_pk^sk mod p, both as
 * 256-byte big-endian strings. p comes from OpenSSL's named group. */
static EVP_PKEY *ffdhe_pkey(const bytes *pub, const bytes *priv) {
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  BIGNUM *y = pub ? BN_bin2bn(pub->p, (int)pub->n, NULL) : NULL;
  BIGNUM *x = priv ? BN_bin2bn(priv->p, (int)priv->n, NULL) : NULL;
  EVP_PKEY *pkey = NULL;
  int sel = priv ? EVP_PKEY_KEYPAIR
                 : (pub ? EVP_PKEY_PUBLIC_KEY : EVP_PKEY_KEY_PARAMETERS);
  if (bld && (!pub || y) && (!priv || x) &&
      OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME,
                                      "ffdhe2048", 0) == 1 &&
      (!pub || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PUB_KEY, y) == 1) &&
      (!priv || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, x) == 1))
    pkey = pkey_from_params("DH", bld, sel);
  OSSL_PARAM_BLD_free(bld);
  BN_free(y);
  BN_clear_free(x);
  return pkey;
}

static void os_ffdhe2048(const record *r) {
  bytes b[4];
  uint8_t pk[256], ss[256];
  size_t ss_n = sizeof ss;
  if (need_hex(r, (const char *const[]){"sk", "pk", "peer_pk", "ss"}, b, 4))
    return;
  EVP_PKEY *params = ffdhe_pkey(NULL, NULL);
  BIGNUM *p = NULL, *g = BN_new(), *y = BN_new();
  BIGNUM *x = BN_bin2bn(b[0].p, (int)b[0].n, NULL);
  BN_CTX *bn = BN_CTX_new();
  if (!params || !g || !y || !x || !bn ||
      EVP_PKEY_get_bn_param(params, OSSL_PKEY_PARAM_FFC_P, &p) != 1 ||
      BN_set_word(g, 2) != 1 || BN_mod_exp(y, g, x, p, bn) != 1 ||
      BN_bn2binpad(y, pk, sizeof pk) != (int)sizeof pk)
    fail(r, "OpenSSL cannot compute 2^sk mod p");
  else
    check_eq(r, "pk (2^sk mod p)", b[1].p, b[1].n, pk, sizeof pk);
  EVP_PKEY *own = ffdhe_pkey(&b[1], &b[0]), *peer = ffdhe_pkey(&b[2], NULL);
  if (!own || !peer || !derive(ss, &ss_n, own, peer, 1))
    fail(r, "OpenSSL cannot import the keys or derive");
  else
    check_eq(r, "ss", b[3].p, b[3].n, ss, ss_n);
  EVP_PKEY_free(own);
  EVP_PKEY_free(peer);
  EVP_PKEY_free(params);
  BN_free(p);
  BN_free(g);
  BN_free(y);
  BN_clear_free(x);
  BN_CTX_free(bn);
  free_bytes(b, 4);
}

/* EVP_DigestVerify with md (NULL for Ed25519): 1 valid, 0 not. */
static int verify_sig(EVP_PKEY *pub, const EVP_MD *md, const uint8_t *sig,
                      size_t sig_n, const uint8_t *msg, size_t msg_n) {
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  int ok = ctx && EVP_DigestVerifyInit(ctx, NULL, md, NULL, pub) == 1 &&
           EVP_DigestVerify(ctx, sig, sig_n, msg, msg_n) == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

/* ECDSA r || s (64 bytes) as the DER SEQUENCE OpenSSL verifies. */
static int ecdsa_verify(const bytes *pk, const bytes *sig, const bytes *msg) {
  EVP_PKEY *pub = p256_pkey(pk, NULL);
  ECDSA_SIG *s = ECDSA_SIG_new();
  BIGNUM *br = NULL, *bs = NULL;
  uint8_t *der = NULL;
  int der_n = -1, ok = 0;
  if (pub && s && sig->n == 64) {
    br = BN_bin2bn(sig->p, 32, NULL);
    bs = BN_bin2bn(sig->p + 32, 32, NULL);
    if (br && bs && ECDSA_SIG_set0(s, br, bs) == 1) {
      br = bs = NULL; /* owned by s */
      der_n = i2d_ECDSA_SIG(s, &der);
    }
  }
  if (der_n > 0)
    ok = verify_sig(pub, EVP_sha256(), der, (size_t)der_n, msg->p, msg->n);
  OPENSSL_free(der);
  BN_free(br);
  BN_free(bs);
  ECDSA_SIG_free(s);
  EVP_PKEY_free(pub);
  return ok;
}

static void os_ecdsa_p256(const record *r) {
  bytes b[3], sk = {NULL, 0}, fpk = {NULL, 0}, fsig = {NULL, 0};
  uint8_t pk[P256_PK];
  if (need_hex(r, (const char *const[]){"msg", "pk", "sig"}, b, 3))
    return;
  if (get_hex(r, "sk", &sk) == 0) {
    if (!p256_pub_from_priv(pk, sk.p, sk.n))
      fail(r, "sk is not a valid P-256 scalar for OpenSSL");
    else
      check_eq(r, "pk (sk * G)", b[1].p, b[1].n, pk, sizeof pk);
  }
  free(sk.p);
  check(ecdsa_verify(&b[1], &b[2], &b[0]), r,
        "OpenSSL does not accept sig (ECDSA P-256, SHA-256) under pk");
  if (get_hex(r, "fixed_pk", &fpk) == 0 && get_hex(r, "fixed_sig", &fsig) == 0)
    check(ecdsa_verify(&fpk, &fsig, &b[0]), r,
          "OpenSSL does not accept fixed_sig under fixed_pk");
  free(fpk.p);
  free(fsig.p);
  free_bytes(b, 3);
}

/* Ed25519 (RFC 8032, pure): the key from the 32-byte seed, the signature
 * recomputed (it is deterministic) and verified. */
static void os_ed25519(const record *r) {
  bytes msg, seed = {NULL, 0}, pk = {NULL, 0}, sig = {NULL, 0};
  uint8_t my_pk[32], my_sig[64];
  size_t pk_n = sizeof my_pk, sig_n = sizeof my_sig;
  if (need_hex(r, (const char *const[]){"msg"}, &msg, 1))
    return;
  if (get_hex(r, "key_seed", &seed) != 0 && get_hex(r, "sk", &seed) != 0) {
    fail(r, "neither key_seed nor sk printed");
    free(msg.p);
    return;
  }
  get_hex(r, "pk", &pk);
  get_hex(r, "sig", &sig);
  /* An RFC 8032 private key printed as seed || pk (libsodium's 64-byte
   * form) is the seed in its first half. */
  if (seed.n == 64)
    seed.n = 32;
  EVP_PKEY *key = seed.n == 32 ? EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519,
                                                              NULL, seed.p, 32)
                               : NULL;
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  if (!key || EVP_PKEY_get_raw_public_key(key, my_pk, &pk_n) != 1 || !ctx ||
      EVP_DigestSignInit(ctx, NULL, NULL, NULL, key) != 1 ||
      EVP_DigestSign(ctx, my_sig, &sig_n, msg.p, msg.n) != 1) {
    fail(r, "OpenSSL Ed25519 key or signature failed");
  } else {
    if (pk.p)
      check_eq(r, "pk", pk.p, pk.n, my_pk, pk_n);
    else
      fail(r, "pk missing");
    if (sig.p) {
      check_eq(r, "sig (RFC 8032 is deterministic)", sig.p, sig.n, my_sig,
               sig_n);
      check(verify_sig(key, NULL, sig.p, sig.n, msg.p, msg.n), r,
            "OpenSSL does not accept sig under pk");
    } else {
      fail(r, "sig missing");
    }
  }
  EVP_MD_CTX_free(ctx);
  EVP_PKEY_free(key);
  free(msg.p);
  free(seed.p);
  free(pk.p);
  free(sig.p);
}

/* RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017 section 8.2.2): pk is n, e is
 * 65537. */
static void os_rsa2048(const record *r) {
  bytes b[3];
  if (need_hex(r, (const char *const[]){"msg", "pk", "sig"}, b, 3))
    return;
  OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
  BIGNUM *n = BN_bin2bn(b[1].p, (int)b[1].n, NULL), *e = BN_new();
  EVP_PKEY *pub = NULL;
  if (bld && n && e && BN_set_word(e, 65537) == 1 &&
      OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) == 1 &&
      OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e) == 1)
    pub = pkey_from_params("RSA", bld, EVP_PKEY_PUBLIC_KEY);
  if (!pub)
    fail(r, "OpenSSL cannot import the RSA public key");
  else
    check(verify_sig(pub, EVP_sha256(), b[2].p, b[2].n, b[0].p, b[0].n), r,
          "OpenSSL does not accept sig (PKCS#1 v1.5, SHA-256) under n, e");
  EVP_PKEY_free(pub);
  BN_free(n);
  BN_free(e);
  OSSL_PARAM_BLD_free(bld);
  free_bytes(b, 3);
}

/* What check_openssl did with a line. */
enum { OS_NOT_RUN, OS_MISSING, OS_CHECKED };

/* OS_MISSING when OpenSSL 3.0 has no implementation of the algorithm,
 * OS_NOT_RUN for a line with an error or skipped=slow. */
static int check_openssl(const record *r) {
  const char *a = r->alg;
  if (get(r, "error") || sig_mode(r) == M_SKIPPED)
    return OS_NOT_RUN;
  /* Printed values agree with their printed digests. */
  check_digest_of(r, "pk", "pk_sha256");
  check_digest_of(r, "sig", "sig_sha256");
  if (strcmp(a, "sha256") == 0)
    os_hash(r, EVP_sha256());
  else if (strcmp(a, "sha3-256") == 0)
    os_hash(r, EVP_sha3_256());
  else if (strcmp(a, "shake128") == 0)
    os_xof(r, EVP_shake128());
  else if (strcmp(a, "shake256") == 0)
    os_xof(r, EVP_shake256());
  else if (strcmp(a, "hmac-sha256") == 0)
    os_hmac(r);
  else if (strcmp(a, "hkdf-sha256") == 0)
    os_hkdf(r);
  else if (strcmp(a, "aes-128-gcm") == 0)
    os_aead(r, EVP_aes_128_gcm(), 0);
  else if (strcmp(a, "aes-256-gcm") == 0)
    os_aead(r, EVP_aes_256_gcm(), 0);
  else if (strcmp(a, "aes-128-ccm") == 0)
    os_aead(r, EVP_aes_128_ccm(), 1);
  else if (strcmp(a, "ecdh-p256") == 0)
    os_ecdh_p256(r);
  else if (strcmp(a, "x25519") == 0)
    os_x25519(r);
  else if (strcmp(a, "ffdhe-2048") == 0)
    os_ffdhe2048(r);
  else if (strcmp(a, "ecdsa-p256") == 0)
    os_ecdsa_p256(r);
  else if (strcmp(a, "ed25519") == 0)
    os_ed25519(r);
  else if (strcmp(a, "rsa-2048") == 0)
    os_rsa2048(r);
  else
    return OS_MISSING;
  return OS_CHECKED;
}

/* ---- coverage notes ----------------------------------------------------- */

static void note_coverage(const xfile *x, const unsigned char *by_openssl) {
  for (size_t a = 0; a < N_ALGS; a++) {
    char names[256] = "";
    size_t n_impl = 0, n_lines = 0;
    int openssl = OS_NOT_RUN;
    for (size_t i = 0; i < x->n; i++) {
      if (strcmp(x->r[i].alg, algs[a].id) != 0)
        continue;
      n_lines++;
      if (by_openssl[i] > openssl)
        openssl = by_openssl[i];
      int first = 1;
      for (size_t j = 0; j < i && first; j++)
        if (same_impl(&x->r[i], &x->r[j]))
          first = 0;
      if (!first)
        continue;
      n_impl++;
      size_t at = strlen(names);
      snprintf(names + at, sizeof names - at, "%s%s", at ? "," : "",
               x->r[i].backend);
    }
    if (!n_lines)
      continue;
    printf("note: %-28s lines=%-3zu backends=%s cross-backend=%s openssl=%s\n",
           algs[a].id, n_lines, names, n_impl > 1 ? "yes" : "no (one backend)",
           openssl == OS_CHECKED   ? "yes"
           : openssl == OS_MISSING ? "no (not in OpenSSL 3.0)"
                                   : "no (every line skipped or failed)");
  }
}

int main(int argc, char **argv) {
  xfile x;
  memset(&x, 0, sizeof x);
  if (argc != 2) {
    fprintf(stderr, "usage: check_xcheck FILE (output of merlin-image "
                    "--xcheck)\n");
    return 2;
  }
  if (read_file(argv[1], &x) != 0)
    return 2;

  check(x.have_begin == 1, NULL, "expected one xcheck-begin line, found %d",
        x.have_begin);
  check(x.have_end == 1, NULL,
        "expected one xcheck-end line, found %d (output truncated?)",
        x.have_end);
  if (x.have_end == 1)
    check(x.end_lines == x.n, NULL,
          "xcheck-end says lines=%lu but %zu lines were read", x.end_lines,
          x.n);
  check(x.n > 0, NULL, "no xcheck lines");
  check(x.seeds >= 10, NULL, "only %lu seeds (at least 10 required)", x.seeds);

  unsigned char *by_openssl = calloc(x.n + 1, 1);
  if (!by_openssl) {
    fprintf(stderr, "out of memory\n");
    free_file(&x);
    return 2;
  }
  for (size_t i = 0; i < x.n; i++)
    check_record_structure(&x.r[i]);
  check_seeds(&x);
  check_agreement(&x);
  for (size_t i = 0; i < x.n; i++)
    by_openssl[i] = (unsigned char)check_openssl(&x.r[i]);

  note_coverage(&x, by_openssl);
  printf("%u passed, %u failed\n", n_passed, n_failed);
  free(by_openssl);
  free_file(&x);
  return n_failed ? 1 : 0;
}
