/* SPDX-License-Identifier: Apache-2.0 */
/* One parameter set of the multi-level build (mlkem_native_lib.c, no
 * include guard: included once per level): the first level included
 * compiles the level-independent code (MLK_CONFIG_MULTILEVEL_WITH_SHARED),
 * the later ones reuse it (MLK_CONFIG_MULTILEVEL_NO_SHARED). */
#if defined(MLK_CONFIG_MULTILEVEL_WITH_SHARED)
#undef MLK_CONFIG_MULTILEVEL_WITH_SHARED
#define MLK_CONFIG_MULTILEVEL_NO_SHARED
#elif !defined(MLK_CONFIG_MULTILEVEL_NO_SHARED)
#define MLK_CONFIG_MULTILEVEL_WITH_SHARED
#endif
#include "mlkem_native_bcm.c"
#undef MLK_CONFIG_PARAMETER_SET
