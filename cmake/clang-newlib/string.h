/* SPDX-License-Identifier: Apache-2.0 */
/* clang + newlib workaround (cmake/toolchain-arm-clang.cmake): with
 * -std=c11, newlib's <string.h> declares strcasecmp and strncasecmp only
 * for BSD visibility, which clang leaves off (gcc's newlib build gets it);
 * wolfSSL calls strcasecmp after including <string.h> alone. clang 14
 * warns about the implicit declaration, clang 16 and later refuse it.
 * Declare the two (newlib's libc has them), then go on down the search
 * path unchanged. */
#include_next <string.h>

#ifndef MERLIN_CLANG_NEWLIB_STRCASE
#define MERLIN_CLANG_NEWLIB_STRCASE
int strcasecmp(const char *, const char *);
int strncasecmp(const char *, const char *, size_t);
#endif
