/* SPDX-License-Identifier: Apache-2.0 */
/* The implementation folders of a `merlin run` (docs/bring-your-own.md):
 * from the profile, --impl and --impl-tree. */
#include "impl/impls.h"

#include "config/targets.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

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

/* A comma list with an empty element: ",,", or a comma at either end. */
static int empty_element(const char *list) {
  size_t n = strlen(list);
  return !n || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,");
}

int mh_run_impl_usage(const mh_impl_opts *o, char *err, size_t errlen) {
  const struct {
    const char *opt;
    const mh_impl_list *l;
  } lists[] = {{"--impl", &o->impls},
               {"--impl-common", &o->common},
               {"--impl-host-common", &o->host_common}};
  for (size_t k = 0; k < 3; k++)
    for (size_t i = 0; i < lists[k].l->n; i++) {
      const char *v = lists[k].l->v[i];
      if (empty_element(v) && !is_dir(v)) {
        snprintf(err, errlen,
                 "%s '%.200s': an empty folder name (a comma at either end, "
                 "or two together); a folder whose name has a comma is "
                 "given on its own (%s DIR, repeatable)",
                 lists[k].opt, v, lists[k].opt);
        return -1;
      }
    }
  if (o->hash && strcmp(o->hash, "thumb2-asm") == 0)
    for (size_t i = 0; i < o->n_targets; i++) {
      const mh_target *t = mh_target_find(o->targets[i]);
      if (t && !mh_target_has_thumb2(t)) {
        snprintf(err, errlen,
                 "--impl-hash thumb2-asm needs a core with Thumb-2 "
                 "(Cortex-M3, M4, M7, M33, M55); %s has none: use c, or "
                 "run that target apart",
                 t->id);
        return -1;
      }
    }
  return 0;
}

/* --impl a,b,c: each comma-separated folder; a value that is a directory
 * as it stands is one folder, commas and all. */
static int add_list(mh_impl_set *out, const char *list, const char *common,
                    char *err, size_t errlen) {
  char *copy = strdup(list), *save = NULL;
  if (!copy) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int rc = 0;
  if (is_dir(list))
    rc = mh_impl_set_add(out, list, NULL, NULL, common, err, errlen);
  else
    for (char *d = strtok_r(copy, ",", &save); d && rc == 0;
         d = strtok_r(NULL, ",", &save))
      rc = mh_impl_set_add(out, d, NULL, NULL, common, err, errlen);
  free(copy);
  return rc;
}

/* The reason of an error of mh_impl_set_add, without its leading
 * "implementation folder <path>: " (the report names the folder). */
static const char *folder_reason(const char *err) {
  static const char lead[] = "implementation folder ";
  const char *r =
      strncmp(err, lead, sizeof lead - 1) == 0 ? strstr(err, ": ") : NULL;
  return r ? r + 2 : err;
}

static int add_tree(mh_impl_set *out, const mh_impl_opts *o, const char *root,
                    const char *common, char *err, size_t errlen) {
  char **dirs = NULL;
  size_t n = 0, skipped = 0;
  if (mh_impl_discover(root, (char *const *)o->skips.v, o->skips.n, &dirs, &n,
                       &skipped, err, errlen) != 0)
    return -1;
  int rc = 0;
  size_t unread = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    char why[2048];
    rc = mh_impl_set_add(out, dirs[i], NULL, NULL, common, why, sizeof why);
    if (rc == 0) {
      out->v[out->n - 1].from_tree = 1;
      continue;
    }
    if (rc == -2) { /* not the folder's: the run stops */
      snprintf(err, errlen, "%s", why);
      break;
    }
    /* One folder never ends a tree run: left out of every image, named. */
    char w[2100];
    snprintf(w, sizeof w, "not read: %s", folder_reason(why));
    rc = mh_impl_set_add_unread(out, dirs[i], w);
    if (rc != 0) {
      snprintf(err, errlen, "out of memory");
      break;
    }
    unread++;
    fprintf(stderr, "merlin: %s left out: %s\n", out->v[out->n - 1].backend, w);
  }
  if (rc == 0 && !o->quiet)
    fprintf(stderr,
            "merlin: --impl-tree %s: %zu implementation folder(s), %zu "
            "skipped (host-only or --impl-skip)%s\n",
            root, n, skipped, unread ? ", some left out (above)" : "");
  mh_impl_dirs_free(dirs, n);
  return rc;
}

/* --impl-common DIR[,DIR] (repeatable), or none, into *dirs (*n) and
 * *none: before any folder. opt names the option in messages. */
static int take_common(const char *opt, const mh_impl_list *l, char ***dirs,
                       size_t *n, int *none, char *err, size_t errlen) {
  for (size_t i = 0; i < l->n; i++) {
    char *copy = strdup(l->v[i]), *save = NULL;
    if (!copy)
      break;
    int whole = is_dir(copy); /* a directory whose name has a comma */
    for (char *d = whole ? copy : strtok_r(copy, ",", &save); d;
         d = whole ? NULL : strtok_r(NULL, ",", &save)) {
      if (strcmp(d, "none") == 0) {
        *none = 1;
        continue;
      }
      char **nv = realloc(*dirs, (*n + 1) * sizeof *nv);
      if (!nv || !(nv[*n] = strdup(d))) {
        if (nv)
          *dirs = nv;
        free(copy);
        snprintf(err, errlen, "out of memory");
        return -1;
      }
      *dirs = nv;
      (*n)++;
    }
    free(copy);
  }
  if (*none && *n) {
    snprintf(err, errlen, "%s: none and a directory (%s) cannot go together",
             opt, (*dirs)[0]);
    return -1;
  }
  return 0;
}

int mh_run_impls(const char *root, const char *profile_path,
                 const mh_profile *p, const mh_impl_opts *o, mh_impl_set *out,
                 char *err, size_t errlen) {
  char *common = common_dir(root);
  int rc = common ? 0 : -1;
  if (!common)
    snprintf(err, errlen, "out of memory");
  out->root = root;
  if (rc == 0)
    rc = take_common("--impl-common", &o->common, &out->explicit_common,
                     &out->n_explicit_common, &out->common_none, err, errlen);
  if (rc == 0)
    rc = take_common("--impl-host-common", &o->host_common,
                     &out->explicit_common_host, &out->n_explicit_common_host,
                     &out->common_none_host, err, errlen);
  out->hash_thumb2 = p->impl_hash == MH_IMPL_HASH_THUMB2;
  if (rc == 0 && o->hash) {
    mh_impl_hash h = MH_IMPL_HASH_C;
    mh_profile_impl_hash(o->hash, strlen(o->hash), &h);
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
  for (size_t i = 0; rc == 0 && i < o->trees.n; i++)
    rc = add_tree(out, o, o->trees.v[i], common, err, errlen);
  free(common);
  if (rc != 0)
    mh_impl_set_free(out);
  return rc;
}
