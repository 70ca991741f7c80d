/* SPDX-License-Identifier: Apache-2.0 */
/*
 * FIPS 202 for mlkem-native and mldsa-native: AWS-LC's own SHA-3 / SHAKE
 * (crypto/fipsmodule/sha/sha3.c over keccak1600.c, portable C with
 * OPENSSL_NO_ASM), the implementation the glue headers next to mlkem/ and
 * mldsa/ were written for. One unit, shared by both backends (CMake target
 * merlin_awslc_fips202).
 *
 * Workarounds, kept here rather than in the library (nothing is patched):
 *   - AWS-LC compiles sha3.c inside its FIPS module unit (bcm.c), after the
 *     service indicator header; alone, sha3.c calls
 *     FIPS_service_indicator_*() undeclared. The header is included first,
 *     as bcm.c does; outside FIPS mode it makes them empty inline functions.
 *   - OPENSSL_cleanse lives in AWS-LC's crypto/mem.c with its allocator,
 *     locking and error queue, none of which FIPS 202 needs: it is defined
 *     below the way mem.c defines it (memset and a compiler barrier).
 */
#include "fipsmodule/service_indicator/internal.h"

#include "fipsmodule/sha/keccak1600.c"
#include "fipsmodule/sha/sha3.c"

#include <string.h>

void OPENSSL_cleanse(void *ptr, size_t len) {
  if (ptr == NULL || len == 0) {
    return;
  }
  memset(ptr, 0, len);
  /* As in AWS-LC's mem.c (there skipped under OPENSSL_NO_ASM, which is set
   * here only to keep the Keccak in portable C): the asm takes ptr as input
   * and clobbers memory, so the memset cannot be removed as a dead store. */
  __asm__ __volatile__("" : : "r"(ptr) : "memory");
}
