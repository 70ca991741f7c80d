/* SPDX-License-Identifier: Apache-2.0 */
/* The values of the test hooks of `merlin run` and `merlin build`
 * (--kat-corrupt, --inject-fault; docs/cli.md), checked once for both. */
#ifndef MERLIN_HOST_HOOKS_H
#define MERLIN_HOST_HOOKS_H

#include "config/profile.h"

#include <stddef.h>

/* Check a --kat-corrupt value: "alg/op" with a known algorithm id and an
 * operation name; when p is given, the algorithm must be routed by it.
 * Returns 0, or -1 with a message. */
/* Fault kinds the --inject-fault test hook can build into an image. */
#define MH_FAULT_KINDS "busfault, usagefault, hang, stackoverflow, heap"
int mh_inject_fault_check(const char *kind, char *err, size_t errlen);
int mh_kat_corrupt_check(const char *v, const mh_profile *p, char *err,
                         size_t errlen);

#endif
