/* SPDX-License-Identifier: Apache-2.0 */
/* PQClean adapter, internal: the vtables each scheme family's adapter file
 * (adapter_mlkem.c, adapter_mldsa.c, adapter_sphincs.c) defines for the
 * backend table in adapter.c. Every parameter set of a scheme lives in the
 * library under its own namespace, but kem.h/sign.h/params.h of two sets
 * cannot share a translation unit (unprefixed macros such as KYBER_K, K, L,
 * SPX_N collide), so the adapters use only each set's api.h. */
#ifndef MERLIN_PQCLEAN_ADAPTER_H
#define MERLIN_PQCLEAN_ADAPTER_H

#include "mcore.h"
#include "merlin_profile.h"

#if MERLIN_ROUTE_ML_KEM_512_PQCLEAN
extern const mcore_kem_vt mbe_pqclean_mlkem512_vt;
#endif
#if MERLIN_ROUTE_ML_KEM_768_PQCLEAN
extern const mcore_kem_vt mbe_pqclean_mlkem768_vt;
#endif
#if MERLIN_ROUTE_ML_KEM_1024_PQCLEAN
extern const mcore_kem_vt mbe_pqclean_mlkem1024_vt;
#endif
#if MERLIN_ROUTE_ML_DSA_44_PQCLEAN
extern const mcore_sig_vt mbe_pqclean_mldsa44_vt;
#endif
#if MERLIN_ROUTE_ML_DSA_65_PQCLEAN
extern const mcore_sig_vt mbe_pqclean_mldsa65_vt;
#endif
#if MERLIN_ROUTE_ML_DSA_87_PQCLEAN
extern const mcore_sig_vt mbe_pqclean_mldsa87_vt;
#endif
#if MERLIN_ROUTE_SPHINCS_SHA2_128S_R3_PQCLEAN
extern const mcore_sig_vt mbe_pqclean_sphincs_sha2_128s_vt;
#endif
#if MERLIN_ROUTE_SPHINCS_SHA2_128F_R3_PQCLEAN
extern const mcore_sig_vt mbe_pqclean_sphincs_sha2_128f_vt;
#endif
#if MERLIN_ROUTE_SPHINCS_SHAKE_128S_R3_PQCLEAN
extern const mcore_sig_vt mbe_pqclean_sphincs_shake_128s_vt;
#endif
#if MERLIN_ROUTE_SPHINCS_SHAKE_128F_R3_PQCLEAN
extern const mcore_sig_vt mbe_pqclean_sphincs_shake_128f_vt;
#endif

#endif
