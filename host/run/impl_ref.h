/* SPDX-License-Identifier: Apache-2.0 */
/* The NIST KAT records each implementation folder of a run must reproduce
 * on its target (docs/bring-your-own.md, "Known answers"). */
#ifndef MERLIN_HOST_IMPL_REF_H
#define MERLIN_HOST_IMPL_REF_H

#include "config/impl.h"

#include <stddef.h>

/* Fill set->expect and set->expect_from of every folder that is not a
 * library backend's: the records of its reference implementation built
 * and run on the host (the clean folder beside it, else a ref folder,
 * else the pinned PQClean tree's clean folder of its scheme, else itself;
 * a reference with assembly is none), whose SHA-256 must equal META.yml's
 * nistkat-sha256 where the folder has one; META.yml's alone without a
 * reference. Returns 0, or -1 with err (a reference that does not build or
 * run, records that contradict META.yml, a folder with neither). */
int mh_impl_expectations(const char *root, mh_impl_set *set, int quiet,
                         char *err, size_t errlen);

#endif
