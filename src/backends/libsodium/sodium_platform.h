/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Forced into every libsodium source file (backend.cmake: -include), before
 * anything else: the two C library services libsodium uses that an image
 * must route to the harness. The library is configured, not patched.
 *
 * Allocation: every library allocation goes through the harness allocator
 * so heap use is accounted (mcore.h). Only sodium_malloc/sodium_free
 * (sodium/utils.c) allocate, and none of the compiled algorithms calls
 * them; the mapping keeps it so should that change. These are
 * function-like macros, not -Dmalloc=mcore_malloc, because utils.c also
 * writes __attribute__((malloc)), which an object-like macro would turn
 * into an unknown attribute. The C library's own prototypes of malloc and
 * free, seen later, become (compatible) prototypes of mcore_malloc and
 * mcore_free.
 *
 * abort: sodium_misuse() (sodium/core.c), reachable from
 * crypto_auth_hmacsha256_init, ends in abort(). newlib's abort() raises
 * SIGABRT through _kill/_getpid, which the Cortex-M ports do not provide,
 * so an image would not link. merlin_sodium_abort (adapter.c) ends the run
 * through _Exit instead, which the ports turn into a fault record.
 */
#ifndef MERLIN_SODIUM_PLATFORM_H
#define MERLIN_SODIUM_PLATFORM_H

#include <stddef.h>

void *mcore_malloc(size_t n);
void mcore_free(void *p);
_Noreturn void merlin_sodium_abort(void);

#define malloc(n) mcore_malloc(n)
#define free(p) mcore_free(p)
#define abort merlin_sodium_abort

#endif
