/* SPDX-License-Identifier: Apache-2.0 */
/* Forced into the translation units of PQClean's common/ code (-include,
 * cmake/MerlinImpl.cmake): its fips202.c, sha2.c and aes.c allocate
 * incremental hash states and AES key schedules with malloc/free, which
 * the build renames to the harness allocator so that heap use is
 * measured; they use malloc without seeing our prototype. */
#include <stddef.h>
void *mcore_malloc(size_t n);
void mcore_free(void *p);
