/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mlkem-native, built as its single compilation unit (mlkem_native_bcm.c,
 * AWS-LC's name for the library's mlkem_native.c), once per parameter set
 * the profile routes to this backend: mlkem-native's documented multi-level
 * monolithic build. The first level included also compiles the
 * level-independent code (MLK_CONFIG_MULTILEVEL_WITH_SHARED), the others
 * reuse it (MLK_CONFIG_MULTILEVEL_NO_SHARED); the shared headers are kept
 * between inclusions (MLK_CONFIG_MONOBUILD_KEEP_SHARED_HEADERS).
 *
 * Library code: compiled without Merlin's warning flags, like every
 * third-party source. The options are in merlin_mlkem_config.h.
 */
#include "merlin_profile.h"

#define MLK_CONFIG_FILE "merlin_mlkem_config.h"
#define MLK_CONFIG_MONOBUILD_KEEP_SHARED_HEADERS

#if MERLIN_ROUTE_ML_KEM_512_MLKEM_NATIVE
#define MLK_CONFIG_PARAMETER_SET 512
#include "mlkem_level.h"
#endif

#if MERLIN_ROUTE_ML_KEM_768_MLKEM_NATIVE
#define MLK_CONFIG_PARAMETER_SET 768
#include "mlkem_level.h"
#endif

#if MERLIN_ROUTE_ML_KEM_1024_MLKEM_NATIVE
#define MLK_CONFIG_PARAMETER_SET 1024
#include "mlkem_level.h"
#endif

#if !MERLIN_ROUTE_ML_KEM_512_MLKEM_NATIVE &&                                   \
    !MERLIN_ROUTE_ML_KEM_768_MLKEM_NATIVE &&                                   \
    !MERLIN_ROUTE_ML_KEM_1024_MLKEM_NATIVE
/* Nothing routed here: keep the unit non-empty (ISO C). */
typedef int merlin_mlkem_native_nothing_routed;
#endif
