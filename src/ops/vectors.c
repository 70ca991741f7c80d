/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mops_vectors(): the known-answer table of each algorithm. The tables live
 * in src/ops/vectors_<class>.c: hash (SHA-256, SHA3-256, Ascon-Hash256), xof,
 * mac, kdf, aead, ka, sig (ECDSA, Ed25519, RSA), kem (ML-KEM) and pq (the
 * seeded ML-DSA, SLH-DSA and SPHINCS+ vectors).
 */
#include "vectors.h"

#include "mops.h"

#include "mcore.h"

/* Defined in vectors_<class>.c, one table per algorithm of the catalogue,
 * named after its entry in src/ops/algs.def (mops_kat_ML_KEM_768): a new
 * algorithm adds its table there and nothing here. The algorithms of an
 * image's implementation folders (impl_algs.def) have no table here: their
 * known answers are the folders' own NIST KAT records. */
#undef MERLIN_IMPL_DEFS
#define X(e, id, cls) extern const mops_kat_table mops_kat_##e;
#include "algs.def"
#undef X

mops_kat_table mops_vectors(int alg) {
  static const mops_kat_table none = {.vecs = NULL, .n = 0};

  if (alg < 0 || alg >= (int)MCORE_ALG_COUNT)
    return none;
  switch ((mcore_alg)alg) {
#define X(e, id, cls)                                                          \
  case MCORE_ALG_##e:                                                          \
    return mops_kat_##e;
#include "algs.def"
#undef X
  default:
    /* An algorithm without vectors: n == 0 fails its KAT, so it is never
     * timed. */
    return none;
  }
}

int mops_has_vectors(mcore_alg alg) {
  mops_kat_table t = mops_vectors((int)alg);
  return t.n > 0 || t.n_seed > 0;
}
