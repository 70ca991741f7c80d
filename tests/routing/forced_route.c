/* SPDX-License-Identifier: Apache-2.0 */
/* Compiled by tests/routing/check_routing.sh: an adapter table entry for a
 * route the profile header does not grant must not compile. */
#include "mcore.h"

#define MERLIN_ROUTE_SHA256_MBEDTLS 1 /* the profile gave sha256 to mbedtls */
#ifdef FORCE_ROUTE_ZERO
#define MERLIN_ROUTE_SHA256_WOLFCRYPT 0
#endif

static int h(uint8_t *out, const uint8_t *msg, size_t len) {
  (void)out;
  (void)msg;
  (void)len;
  return MCORE_OK;
}
static const mcore_hash_vt vt = {.digest_len = 32, .hash = h};

#ifdef GRANTED
const mcore_impl entry = MCORE_IMPL(SHA256, MBEDTLS, "x", hash, &vt);
#else
/* wolfcrypt registering sha256 although the profile routes it elsewhere */
const mcore_impl entry = MCORE_IMPL(SHA256, WOLFCRYPT, "x", hash, &vt);
#endif
