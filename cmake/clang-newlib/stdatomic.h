/* SPDX-License-Identifier: Apache-2.0 */
/* clang + newlib workaround (cmake/toolchain-arm-clang.cmake): clang's
 * <stdatomic.h> defers to newlib's in a hosted build, and newlib's uses
 * int_least8_t and friends without including <stdint.h> (gcc never reads it:
 * gcc's own header comes first). Include <stdint.h> first, then go on down
 * the search path unchanged. */
#include <stdint.h>
/* (first: a separate include block, so clang-format keeps the order) */
#include_next <stdatomic.h>
