/* SPDX-License-Identifier: Apache-2.0 */
#ifndef MERLIN_HOST_IMPL_IMPLS_H
#define MERLIN_HOST_IMPL_IMPLS_H

#include "config/profile.h"
#include "impl/impl.h"

#include <stddef.h>

/* The values of a repeatable option, in order. */
typedef struct {
  const char **v;
  size_t n;
} mh_impl_list;

/* The folder options of a run (docs/cli.md, merlin run): --impl values
 * (comma lists), --impl-tree roots, --impl-skip patterns, --impl-common,
 * --impl-host-common, --impl-hash (NULL: the profile's impl.hash), and
 * the run's targets. */
typedef struct {
  mh_impl_list impls, trees, skips, common, host_common;
  const char *hash;
  const char *const *targets;
  size_t n_targets;
  int quiet;
} mh_impl_opts;

/* The implementation folders of a run (docs/bring-your-own.md): the
 * profile's "impl:PATH" items (relative to the profile file's folder), the
 * --impl folders and every folder of the --impl-tree roots (less
 * --impl-skip), read into out, with the profile's impl.hash unless
 * --impl-hash says otherwise. A tree's folder that cannot be read is kept,
 * left out of every image with why (no folder ends a tree run). Returns
 * 0, or -1 with err (the first bad folder given otherwise; a broken
 * checkout). Prints how many folders a tree gave unless quiet. */
int mh_run_impls(const char *root, const char *profile_path,
                 const mh_profile *p, const mh_impl_opts *o, mh_impl_set *out,
                 char *err, size_t errlen);

/* The usage errors of the run's folder options, before anything is read
 * or built (docs/cli.md): an empty folder in a --impl, --impl-common or
 * --impl-host-common list (",,", a leading or trailing comma), and
 * --impl-hash thumb2-asm with a target whose core has no Thumb-2. 0, or -1
 * with the message in err. */
int mh_run_impl_usage(const mh_impl_opts *o, char *err, size_t errlen);

#endif
