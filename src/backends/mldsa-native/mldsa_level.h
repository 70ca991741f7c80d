/* SPDX-License-Identifier: Apache-2.0 */
/* One parameter set of the multi-level build (mldsa_native_lib.c, no
 * include guard: included once per level): the first level included
 * compiles the level-independent code (MLD_CONFIG_MULTILEVEL_WITH_SHARED),
 * the later ones reuse it (MLD_CONFIG_MULTILEVEL_NO_SHARED). */
#if defined(MLD_CONFIG_MULTILEVEL_WITH_SHARED)
#undef MLD_CONFIG_MULTILEVEL_WITH_SHARED
#define MLD_CONFIG_MULTILEVEL_NO_SHARED
#elif !defined(MLD_CONFIG_MULTILEVEL_NO_SHARED)
#define MLD_CONFIG_MULTILEVEL_WITH_SHARED
#endif
#include "mldsa_native_bcm.c"
#undef MLD_CONFIG_PARAMETER_SET
