/* SPDX-License-Identifier: Apache-2.0 */
/* The common code of implementation folders (docs/bring-your-own.md, "From
 * a pqm4 checkout"): a folder of a pqm4 or mupq checkout builds against the
 * checkout's own common/ (fips202, keccakf1600, sha2, aes, ...), or against
 * the directories of --impl-common; a folder that calls mupq's fips202 API
 * (contexts on the stack, never released) without such common code builds
 * against Merlin's heap-free sponge. */
#ifndef MERLIN_HOST_IMPL_COMMON_H
#define MERLIN_HOST_IMPL_COMMON_H

#include "impl/impl.h"

#include <stddef.h>

/* The common code of the checkout folder dir (<root>/crypto_kem/<scheme>/
 * <impl>) is in, for the target (host 0) or for the host reference build
 * (host 1): a pqm4 checkout (<root>/mupq/common holds mupq's hal.h): for
 * the target <root>/common and <root>/mupq/common, for the host
 * <root>/mupq/common and the files of mupq's mk/host-crypto.mk (portable
 * C, as pqm4's host build); mupq (or pqm4's mupq/): its common/ (and
 * pqm4's common/ before it, for the target). Returns 1 with out filled, 0
 * when dir is in no such checkout, -1 (memory) or -2 (a checkout whose
 * mupq/ or mupq's pqclean/ is empty: err says so and how to fill it). */
int mh_impl_common_find(const char *dir, int host, mh_impl_common *out,
                        char *err, size_t errlen);
void mh_impl_common_free(mh_impl_common *c);

/* The common code folder dir of set s builds against, on s's side (the
 * target's, or s->host_side: the host reference build's): s's explicit
 * --impl-common (--impl-host-common), else its checkout's, else none
 * (s->common_none, s->common_none_host: none).
 * *ci: 1 + its index in s->commons (added once), or 0. Returns 0, or -1
 * with err (an --impl-common that is not a directory, memory). */
int mh_impl_common_for(mh_impl_set *s, const char *dir, size_t *ci, char *err,
                       size_t errlen);

/* 1 when the sources of folder dir call fips202.h's context functions
 * (SHAKE absorb, the incremental API) but never a *_ctx_release: mupq's
 * API, whose contexts live on the caller's stack. */
int mh_impl_stack_fips(const char *dir);

#endif
