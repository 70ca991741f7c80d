/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin run --alg A[,A...] --backend B[,B...]` without a profile file
 * (docs/cli.md, "Profiles"): the profile those options make, written once
 * under the build tree as build/profiles/adhoc-<hash>.profile, where the
 * run then finds it like any other (so its images are built once and
 * found again). */
#ifndef MERLIN_HOST_RUN_ADHOC_H
#define MERLIN_HOST_RUN_ADHOC_H

#include <stddef.h>

/* Check algs and backends (comma lists), route every algorithm to each
 * given backend that offers it (the control primitives come with every
 * profile), and write the profile. Returns its malloc'd path, or NULL with
 * a message for the user in err; *usage 1 when the values are at fault
 * (an unknown name, an algorithm no given backend offers). */
char *mh_adhoc_profile(const char *algs, const char *backends, int *usage,
                       char *err, size_t errlen);

#endif
