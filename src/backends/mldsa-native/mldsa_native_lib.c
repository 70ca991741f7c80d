/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mldsa-native, built as its single compilation unit (mldsa_native_bcm.c,
 * AWS-LC's name for the library's mldsa_native.c), once per parameter set
 * the profile routes to this backend: mldsa-native's documented multi-level
 * monolithic build. The first level included also compiles the
 * level-independent code (MLD_CONFIG_MULTILEVEL_WITH_SHARED), the others
 * reuse it (MLD_CONFIG_MULTILEVEL_NO_SHARED); the shared headers are kept
 * between inclusions (MLD_CONFIG_MONOBUILD_KEEP_SHARED_HEADERS).
 *
 * Library code: compiled without Merlin's warning flags, like every
 * third-party source. The options are in merlin_mldsa_config.h.
 */
#include "merlin_profile.h"

#define MLD_CONFIG_FILE "merlin_mldsa_config.h"
#define MLD_CONFIG_MONOBUILD_KEEP_SHARED_HEADERS

#if MERLIN_ROUTE_ML_DSA_44_MLDSA_NATIVE
#define MLD_CONFIG_PARAMETER_SET 44
#include "mldsa_level.h"
#endif

#if MERLIN_ROUTE_ML_DSA_65_MLDSA_NATIVE
#define MLD_CONFIG_PARAMETER_SET 65
#include "mldsa_level.h"
#endif

#if MERLIN_ROUTE_ML_DSA_87_MLDSA_NATIVE
#define MLD_CONFIG_PARAMETER_SET 87
#include "mldsa_level.h"
#endif

#if !MERLIN_ROUTE_ML_DSA_44_MLDSA_NATIVE &&                                    \
    !MERLIN_ROUTE_ML_DSA_65_MLDSA_NATIVE &&                                    \
    !MERLIN_ROUTE_ML_DSA_87_MLDSA_NATIVE
/* Nothing routed here: keep the unit non-empty (ISO C). */
typedef int merlin_mldsa_native_nothing_routed;
#endif
