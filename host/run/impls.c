/* SPDX-License-Identifier: Apache-2.0 */
/* The implementation folders of a `merlin run` (docs/bring-your-own.md):
 * from the profile, --impl and --impl-tree. */
#include "run/impls.h"

#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PQClean's common/ of the pinned tree: the headers folders may include. */
static char *common_dir(const char *root) {
  return mh_path_join(root, "third_party/pqclean/deps/PQClean/common");
}

/* A profile's impl:PATH, relative to the profile file's folder. */
static char *profile_relative(const char *profile_path, const char *path) {
  if (path[0] == '/')
    return strdup(path);
  const char *slash = strrchr(profile_path, '/');
  if (!slash)
    return strdup(path);
  char *dir = strndup(profile_path, (size_t)(slash - profile_path));
  char *full = dir ? mh_path_join(dir, path) : NULL;
  free(dir);
  return full;
}

/* --impl a,b,c: each comma-separated folder. */
static int add_list(mh_impl_set *out, const char *list, const char *common,
                    char *err, size_t errlen) {
  char *copy = strdup(list), *save = NULL;
  if (!copy) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int rc = 0;
  for (char *d = strtok_r(copy, ",", &save); d && rc == 0;
       d = strtok_r(NULL, ",", &save))
    rc = mh_impl_set_add(out, d, NULL, NULL, common, err, errlen);
  free(copy);
  return rc;
}

static int add_tree(mh_impl_set *out, const mh_run_opts *o, const char *root,
                    const char *common, char *err, size_t errlen) {
  char **dirs = NULL;
  size_t n = 0, skipped = 0;
  if (mh_impl_discover(root, (char *const *)o->impl_skips.v, o->impl_skips.n,
                       &dirs, &n, &skipped, err, errlen) != 0)
    return -1;
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = mh_impl_set_add(out, dirs[i], NULL, NULL, common, err, errlen);
  if (rc == 0 && !o->quiet)
    fprintf(stderr,
            "merlin: --impl-tree %s: %zu implementation folder(s), %zu "
            "skipped (host-only or --impl-skip)\n",
            root, n, skipped);
  mh_impl_dirs_free(dirs, n);
  return rc;
}

int mh_run_impls(const char *root, const char *profile_path,
                 const mh_profile *p, const mh_run_opts *o, mh_impl_set *out,
                 char *err, size_t errlen) {
  char *common = common_dir(root);
  int rc = common ? 0 : -1;
  if (!common)
    snprintf(err, errlen, "out of memory");
  out->hash_thumb2 = p->impl_hash == MH_IMPL_HASH_THUMB2;
  if (rc == 0 && o->impl_hash) {
    mh_impl_hash h = MH_IMPL_HASH_C;
    mh_profile_impl_hash(o->impl_hash, strlen(o->impl_hash), &h);
    out->hash_thumb2 = h == MH_IMPL_HASH_THUMB2;
  }
  for (size_t i = 0; rc == 0 && i < p->n_impls; i++) {
    char *dir = profile_relative(profile_path, p->impls[i].path);
    if (!dir) {
      snprintf(err, errlen, "out of memory");
      rc = -1;
      break;
    }
    rc = mh_impl_set_add(out, dir, p->impls[i].alg, NULL, common, err, errlen);
    if (rc != 0 && p->impls[i].line) {
      char inner[1536];
      snprintf(inner, sizeof inner, "%s", err);
      snprintf(err, errlen, "%s:%zu: %s", mh_path_display(root, profile_path),
               p->impls[i].line, inner);
    }
    free(dir);
  }
  for (size_t i = 0; rc == 0 && i < o->impls.n; i++)
    rc = add_list(out, o->impls.v[i], common, err, errlen);
  for (size_t i = 0; rc == 0 && i < o->impl_trees.n; i++)
    rc = add_tree(out, o, o->impl_trees.v[i], common, err, errlen);
  free(common);
  if (rc != 0)
    mh_impl_set_free(out);
  return rc;
}
