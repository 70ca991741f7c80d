/* SPDX-License-Identifier: Apache-2.0 */
/* PQClean adapter, internal: the vtables each scheme family's adapter file
 * (adapter_mlkem.c, adapter_mldsa.c, adapter_sphincs.c) defines for the
 * backend table in adapter.c. Every parameter set of a scheme lives in the
 * library under its own namespace, but kem.h/sign.h/params.h of two sets
 * cannot share a translation unit (unprefixed macros such as KYBER_K, K, L,
 * SPX_N collide), so the adapters use only each set's api.h. */
#ifndef MERLIN_PQCLEAN_ADAPTER_H
#define MERLIN_PQCLEAN_ADAPTER_H

#include "mbe_route.h"
#include "mcore.h"
#include "merlin_profile.h"

/* Every (algorithm, implementation) pair of this backend, written once:
 * algorithm (MCORE_ALG_<ALG>), variant label, interface (mcore_<IFACE>_vt)
 * and vtable name (mbe_pqclean_<STEM>_vt, defined by the family's adapter
 * file). The declarations below, the routing checks and impls[] of
 * adapter.c are derived from it (src/backends/mbe_route.h). */
#define PQCLEAN_IMPLS(X)                                                       \
  X(ML_KEM_512, PQC_VARIANT, kem, mlkem512)                                    \
  X(ML_KEM_768, PQC_VARIANT, kem, mlkem768)                                    \
  X(ML_KEM_1024, PQC_VARIANT, kem, mlkem1024)                                  \
  X(ML_DSA_44, PQC_VARIANT, sig, mldsa44)                                      \
  X(ML_DSA_65, PQC_VARIANT, sig, mldsa65)                                      \
  X(ML_DSA_87, PQC_VARIANT, sig, mldsa87)                                      \
  X(SPHINCS_SHA2_128S_R3, SPX_VARIANT, sig, sphincs_sha2_128s)                 \
  X(SPHINCS_SHA2_128F_R3, SPX_VARIANT, sig, sphincs_sha2_128f)                 \
  X(SPHINCS_SHAKE_128S_R3, SPX_VARIANT, sig, sphincs_shake_128s)               \
  X(SPHINCS_SHAKE_128F_R3, SPX_VARIANT, sig, sphincs_shake_128f)

/* Variant labels: ML-KEM and ML-DSA are the final standards; the SPHINCS+
 * label says plainly that it is not SLH-DSA. */
#define PQC_VARIANT "clean"
#define SPX_VARIANT "clean-r3.1-pre-fips205"

#define PQCLEAN_ROUTED(ALG) MBE_ROUTED(MERLIN_ROUTE_##ALG##_PQCLEAN)

#define PQCLEAN_DECLARE(ALG, VARIANT, IFACE, STEM)                             \
  MBE_WHEN(PQCLEAN_ROUTED(ALG))                                                \
  (extern const mcore_##IFACE##_vt mbe_pqclean_##STEM##_vt;)
PQCLEAN_IMPLS(PQCLEAN_DECLARE)

#endif
