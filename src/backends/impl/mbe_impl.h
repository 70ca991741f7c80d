/* SPDX-License-Identifier: Apache-2.0 */
/* Implementation folders as backends (docs/bring-your-own.md): what the
 * per-folder adapter (adapter.c, compiled once per folder) shares with the
 * code compiled once per image (nistkat.c: the NIST PQC known-answer
 * procedure, and the randomness every folder draws through its
 * randombytes()). */
#ifndef MERLIN_MBE_IMPL_H
#define MERLIN_MBE_IMPL_H

#include <stddef.h>
#include <stdint.h>

/* How a folder's randomness is scripted where a standard fixes it
 * (MBI_FAMILY of adapter.c, chosen by the host from the algorithm id):
 * ML-KEM key generation draws d || z and encapsulation m (FIPS 203
 * Algorithms 19 and 20), ML-DSA key generation xi and signing rnd = 0^32
 * (FIPS 204 Algorithms 1 and 2, the deterministic variant), SLH-DSA and
 * SPHINCS+ key generation SK.seed || SK.prf || PK.seed and signing
 * opt_rand = PK.seed (FIPS 205 Algorithms 21 and 22, deterministic). Any
 * other scheme draws from the harness generator as it likes. */
#define MBI_FAMILY_OTHER 0
#define MBI_FAMILY_MLKEM 1
#define MBI_FAMILY_MLDSA 2
#define MBI_FAMILY_SLHDSA 3

/* The entry points of one folder (NULL when its api.h does not declare
 * them) and the sizes its api.h declares. A KEM has keypair, enc, dec; a
 * signature scheme keypair and signature/verify (detached, PQClean),
 * sign/open (signed messages, SUPERCOP and pqm4), or both. */
typedef struct {
  int (*keypair)(uint8_t *pk, uint8_t *sk);
  int (*enc)(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
  int (*dec)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);
  int (*signature)(uint8_t *sig, size_t *siglen, const uint8_t *m, size_t mlen,
                   const uint8_t *sk);
  int (*verify)(const uint8_t *sig, size_t siglen, const uint8_t *m,
                size_t mlen, const uint8_t *pk);
  int (*sign)(uint8_t *sm, size_t *smlen, const uint8_t *m, size_t mlen,
              const uint8_t *sk);
  int (*open)(uint8_t *m, size_t *mlen, const uint8_t *sm, size_t smlen,
              const uint8_t *pk);
  /* CRYPTO_PUBLICKEYBYTES, CRYPTO_SECRETKEYBYTES, CRYPTO_CIPHERTEXTBYTES
   * (a KEM) or CRYPTO_BYTES (a signature's largest size), and the KEM's
   * CRYPTO_BYTES (its shared secret; 0 for a signature scheme). */
  size_t pk_len, sk_len, ct_len, ss_len;
  /* The expected records ("seed=...,pk=...,sha256=..."; "" when unknown,
   * the reference run itself) and where they come from. */
  const char *expect, *expect_from;
  /* The prefix of its api.h names ("PQCLEAN_MLDSA44_CLEAN_", or ""), so
   * that a message names the folder's own function. */
  const char *ns;
} mbe_impl_api;

/* The NIST PQC KAT procedure for count 0, as the NIST submission
 * package's PQCgenKAT programs and PQClean's test/crypto_kem/nistkat.c and
 * test/crypto_sign/nistkat.c run it. The records are hashed as they are
 * produced, and their digests written into record ("seed=<16 hex>,pk=...,
 * sha256=<64 hex>": the first 8 bytes of SHA-256 of each field's bytes,
 * then SHA-256 of the whole .rsp text, the value PQClean's META.yml calls
 * nistkat-sha256). It also checks what the records cannot: the outputs fill
 * exactly the sizes api.h declares (guard bytes after them, and, when an
 * output ends in the byte its buffer was filled with, a second key pair
 * from the same seed over differently filled buffers), the KEM's
 * two secrets agree, and every verifier the folder has (crypto_sign_open,
 * crypto_sign_verify) accepts the signature and rejects it with one bit of
 * its signature part flipped. MCORE_OK, or MCORE_ERR with the first
 * problem in detail, naming the folder's own function. */
int mbe_impl_nistkat(const mbe_impl_api *api, char *record, size_t rlen,
                     char *detail, size_t dn);

/* What every folder's randombytes() and PQCLEAN_randombytes() become
 * (renamed in its objects, cmake/MerlinImpl.cmake): the harness generator,
 * or during mbe_impl_nistkat the AES-256 CTR DRBG of the NIST procedure. */
int mbe_impl_randombytes(uint8_t *out, size_t n);
int mbe_impl_randombytes_pqclean(uint8_t *out, size_t n);

#endif
