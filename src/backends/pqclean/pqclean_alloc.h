/* SPDX-License-Identifier: Apache-2.0 */
/* Forced into PQClean's translation units (-include): PQClean's fips202.c
 * and sha2.c allocate incremental Keccak and SHA-2 states with malloc/free,
 * which the build renames to the harness allocator so heap use is
 * measured. */
#include <stddef.h>
void *mcore_malloc(size_t n);
void mcore_free(void *p);
