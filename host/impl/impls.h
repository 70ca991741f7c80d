/* SPDX-License-Identifier: Apache-2.0 */
#ifndef MERLIN_HOST_RUN_IMPLS_H
#define MERLIN_HOST_RUN_IMPLS_H

#include "config/profile.h"
#include "impl/impl.h"
#include "run/run_opts.h"

#include <stddef.h>

/* The implementation folders of a run (docs/bring-your-own.md): the
 * profile's "impl:PATH" items (relative to the profile file's folder), the
 * --impl folders and every folder of the --impl-tree roots (less
 * --impl-skip), read into out, with the profile's impl.hash unless
 * --impl-hash says otherwise. A thumb2-asm hash on a target without
 * Thumb-2 is an error. Returns 0, or -1 with err (the first bad folder).
 * Prints how many folders a tree gave unless quiet. */
int mh_run_impls(const char *root, const char *profile_path,
                 const mh_profile *p, const mh_run_opts *o, mh_impl_set *out,
                 char *err, size_t errlen);

/* The usage errors of the run's folder options, before anything is read
 * or built (docs/cli.md): an empty folder in a --impl or --impl-common list
 * (",,", a leading or trailing comma), and --impl-hash thumb2-asm with a
 * target whose core has no Thumb-2. 0, or -1 with the message in err. */
int mh_run_impl_usage(const mh_run_opts *o, char *err, size_t errlen);

#endif
