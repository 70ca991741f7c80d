/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Computes the SPHINCS+ round 3.1 known answers of src/ops/vectors_pq.c
 * (sphincs-{sha2,shake}-128{s,f}-simple-r3) with PQClean's clean
 * implementation on the host and prints them as "<C array name> <hex>"
 * lines, what tests/vectors/check_pq_vectors.sh compares with the C file.
 *
 * No second implementation of round 3.1 signing is at hand (FIPS 205, which
 * @noble/post-quantum implements, signs 0 || |ctx| || ctx || M and reads
 * the FORS indices in another bit order), so the signature digests are
 * regression values of PQClean itself; the key digests are also checked
 * against @noble/post-quantum (gen_slhdsa_vectors.mjs), since round 3.1
 * crypto_sign_seed_keypair is FIPS 205 slh_keygen_internal for these sets.
 *
 * Seed rule, vector i = 0 (as for SLH-DSA):
 *   seed[j] = (uint8_t)(i*101 + j),       j = 0..47 (SK.seed || SK.prf ||
 *                                                    PK.seed)
 *   msg[j]  = (uint8_t)(i*101 + 200 + j), j = 0..31
 * Signing is made deterministic the way the SPHINCS+ 3.1 specification
 * defines it (spx_sign: opt = PK.seed unless RANDOMIZE): PQClean draws
 * optrand with randombytes(), and this program's randombytes() returns
 * PK.seed. A backend adapter must do the same for these vectors to hold.
 *
 * Exit status 0, or 1 when PQClean fails or its signature does not verify.
 */
#include <openssl/evp.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPX_N 16
#define SPX_SEED_BYTES (3 * SPX_N)
#define SPX_PK_BYTES (2 * SPX_N)
#define SPX_SK_BYTES (4 * SPX_N)
#define SPX_SIG_MAX 17088
#define MSG_LEN 32

/* PQClean's API, one namespace per parameter set (api.h of each set is not
 * included: the four headers share one file name). */
#define SPX_DECLARE(ns)                                                        \
  int ns##_crypto_sign_seed_keypair(uint8_t *pk, uint8_t *sk,                  \
                                    const uint8_t *seed);                      \
  int ns##_crypto_sign_signature(uint8_t *sig, size_t *siglen,                 \
                                 const uint8_t *m, size_t mlen,                \
                                 const uint8_t *sk);                           \
  int ns##_crypto_sign_verify(const uint8_t *sig, size_t siglen,               \
                              const uint8_t *m, size_t mlen,                   \
                              const uint8_t *pk);
SPX_DECLARE(PQCLEAN_SPHINCSSHA2128SSIMPLE_CLEAN)
SPX_DECLARE(PQCLEAN_SPHINCSSHA2128FSIMPLE_CLEAN)
SPX_DECLARE(PQCLEAN_SPHINCSSHAKE128SSIMPLE_CLEAN)
SPX_DECLARE(PQCLEAN_SPHINCSSHAKE128FSIMPLE_CLEAN)

typedef struct {
  const char *c_name; /* array name prefix in vectors_pq.c */
  size_t sig_len;
  int (*seed_keypair)(uint8_t *, uint8_t *, const uint8_t *);
  int (*sign)(uint8_t *, size_t *, const uint8_t *, size_t, const uint8_t *);
  int (*verify)(const uint8_t *, size_t, const uint8_t *, size_t,
                const uint8_t *);
} spx_set;

#define SPX_SET(name, len, ns)                                                 \
  {                                                                            \
    .c_name = name, .sig_len = len,                                            \
    .seed_keypair = ns##_crypto_sign_seed_keypair,                             \
    .sign = ns##_crypto_sign_signature, .verify = ns##_crypto_sign_verify      \
  }

static const spx_set sets[] = {
    SPX_SET("sphincs_sha2_128s_r3", 7856, PQCLEAN_SPHINCSSHA2128SSIMPLE_CLEAN),
    SPX_SET("sphincs_sha2_128f_r3", 17088, PQCLEAN_SPHINCSSHA2128FSIMPLE_CLEAN),
    SPX_SET("sphincs_shake_128s_r3", 7856,
            PQCLEAN_SPHINCSSHAKE128SSIMPLE_CLEAN),
    SPX_SET("sphincs_shake_128f_r3", 17088,
            PQCLEAN_SPHINCSSHAKE128FSIMPLE_CLEAN),
};

/* The bytes the next randombytes() calls return: PK.seed (optrand). */
static const uint8_t *scripted;
static size_t scripted_len;

int PQCLEAN_randombytes(uint8_t *output, size_t n);
int PQCLEAN_randombytes(uint8_t *output, size_t n) {
  if (scripted == NULL || n > scripted_len) {
    fprintf(stderr, "gen_sphincs_vectors: unexpected randombytes(%zu)\n", n);
    exit(1);
  }
  memcpy(output, scripted, n);
  scripted += n;
  scripted_len -= n;
  return 0;
}

static void print_digest(const char *prefix, const char *field,
                         const uint8_t *b, size_t n) {
  uint8_t md[32];
  unsigned int md_len = 0;
  if (EVP_Digest(b, n, md, &md_len, EVP_sha256(), NULL) != 1 || md_len != 32) {
    fprintf(stderr, "gen_sphincs_vectors: SHA-256 failed\n");
    exit(1);
  }
  printf("%s_v0_%s ", prefix, field);
  for (unsigned int i = 0; i < md_len; i++)
    printf("%02x", md[i]);
  printf("\n");
}

int main(void) {
  static uint8_t sig[SPX_SIG_MAX];
  for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
    const spx_set *set = &sets[s];
    uint8_t seed[SPX_SEED_BYTES], msg[MSG_LEN];
    uint8_t pk[SPX_PK_BYTES], sk[SPX_SK_BYTES];
    size_t sig_len = 0;
    const unsigned i = 0; /* vector index of the seed rule */

    for (size_t j = 0; j < sizeof seed; j++)
      seed[j] = (uint8_t)(i * 101 + j);
    for (size_t j = 0; j < sizeof msg; j++)
      msg[j] = (uint8_t)(i * 101 + 200 + j);

    if (set->seed_keypair(pk, sk, seed) != 0) {
      fprintf(stderr, "%s: crypto_sign_seed_keypair failed\n", set->c_name);
      return 1;
    }
    scripted = sk + 2 * SPX_N; /* PK.seed, the deterministic optrand */
    scripted_len = SPX_N;
    if (set->sign(sig, &sig_len, msg, sizeof msg, sk) != 0 ||
        sig_len != set->sig_len || scripted_len != 0) {
      fprintf(stderr, "%s: crypto_sign_signature failed\n", set->c_name);
      return 1;
    }
    scripted = NULL;
    if (set->verify(sig, sig_len, msg, sizeof msg, pk) != 0) {
      fprintf(stderr, "%s: the signature does not verify\n", set->c_name);
      return 1;
    }
    print_digest(set->c_name, "pk_sha256", pk, sizeof pk);
    print_digest(set->c_name, "sk_sha256", sk, sizeof sk);
    print_digest(set->c_name, "sig_sha256", sig, sig_len);
  }
  return 0;
}
