/* SPDX-License-Identifier: Apache-2.0 */
/* Which folders may serve a folder as its reference (docs/bring-your-own.md,
 * "Known answers"): any sibling that builds on the host, portable C first,
 * as pqm4's own test-vector check takes whatever host build it has. */
/* realpath (X/Open) */
#define _XOPEN_SOURCE 700

#include "impl/impl_ref.h"

#include "util/fsutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_dir(const char *p) {
  struct stat st;
  return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int mh_impl_has_asm(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = 0;
  while (d && !found && (e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    found = n > 2 && e->d_name[n - 2] == '.' &&
            (e->d_name[n - 1] == 's' || e->d_name[n - 1] == 'S');
  }
  if (d)
    closedir(d);
  return found;
}

/* p without its last `levels` elements (malloc'd), or NULL. */
static char *up(const char *p, int levels) {
  char *r = strdup(p);
  for (int i = 0; r && i < levels; i++) {
    char *s = strrchr(r, '/');
    if (!s || s == r) {
      free(r);
      return NULL;
    }
    *s = '\0';
  }
  return r;
}

typedef struct {
  char **v;
  size_t n;
  const char *self; /* the folder: never its own candidate here */
  int oom;
} cands;

/* dir, when it is a folder (not the folder itself, nor one with
 * assembly, nor one already listed), at the end of c. */
static void take(cands *c, const char *dir) {
  char *r = is_dir(dir) ? realpath(dir, NULL) : NULL;
  if (!r)
    return;
  int skip = strcmp(r, c->self) == 0 || mh_impl_has_asm(r);
  for (size_t i = 0; !skip && i < c->n; i++)
    skip = strcmp(c->v[i], r) == 0;
  char **nv = skip ? NULL : realloc(c->v, (c->n + 2) * sizeof *nv);
  if (!skip && !nv)
    c->oom = 1;
  if (!nv) {
    free(r);
    return;
  }
  c->v = nv;
  c->v[c->n++] = r;
  c->v[c->n] = NULL;
}

static int cmp_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

/* The implementation folders of scheme folder sdir: the named ones first
 * (first[], in that order), then the others by name, but host-only ones
 * (avx2, aarch64, ...) and pqm4's M4 folders (m4*). */
static void take_scheme(cands *c, const char *sdir, const char *const *first,
                        int others) {
  char p[4096];
  for (size_t i = 0; first[i]; i++) {
    snprintf(p, sizeof p, "%s/%s", sdir, first[i]);
    take(c, p);
  }
  struct dirent **names = NULL;
  int n = others && is_dir(sdir) ? scandir(sdir, &names, NULL, cmp_name) : 0;
  for (int i = 0; i < n; i++) {
    const char *name = names[i]->d_name;
    /* pqm4's folders for the M4 (m4, m4f, m4fspeed, ...) are written for
     * the target, never a host reference, assembly or not */
    if (name[0] != '.' && !mh_impl_host_only(name) &&
        strncmp(name, "m4", 2) != 0) {
      snprintf(p, sizeof p, "%s/%s", sdir, name);
      char *api = mh_path_join(p, "api.h");
      struct stat st;
      if (api && stat(api, &st) == 0)
        take(c, p);
      free(api);
    }
    free(names[i]);
  }
  free(names);
}

char **mh_impl_ref_candidates(const char *root, const mh_impl *m, int *self) {
  static const char *const clean_ref[] = {"clean", "ref", NULL};
  static const char *const ref_clean[] = {"ref", "clean", NULL};
  cands c = {.self = m->dir};
  char *scheme_dir = up(m->dir, 1), *tree = up(m->dir, 3), p[4096];
  const char *kind = m->kem ? "crypto_kem" : "crypto_sign";
  /* a clean or ref folder is its scheme's portable reference: its other
   * siblings (opt, ...) are not its reference */
  int portable = strcmp(m->name ? m->name : "", "clean") == 0 ||
                 strcmp(m->name ? m->name : "", "ref") == 0;
  if (scheme_dir)
    take_scheme(&c, scheme_dir, clean_ref, !portable);
  if (tree) { /* a pqm4 checkout: mupq's folders, then mupq's PQClean's */
    snprintf(p, sizeof p, "%s/mupq/%s/%s", tree, kind, m->scheme);
    take_scheme(&c, p, ref_clean, 1);
    snprintf(p, sizeof p, "%s/mupq/pqclean/%s/%s", tree, kind, m->scheme);
    take_scheme(&c, p, clean_ref, 1);
  }
  const char *ids[] = {m->alg, m->scheme};
  for (size_t i = 0; i < 2; i++) {
    snprintf(p, sizeof p, "%s/third_party/pqclean/deps/PQClean/%s/%s/clean",
             root, kind, ids[i]);
    take(&c, p);
  }
  free(scheme_dir);
  free(tree);
  /* the folder itself, last, when it has no assembly */
  *self = !c.oom && !mh_impl_has_asm(m->dir);
  if (*self) {
    char **nv = realloc(c.v, (c.n + 2) * sizeof *nv);
    char *d = nv ? strdup(m->dir) : NULL;
    if (nv)
      c.v = nv;
    if (!d) {
      c.oom = 1;
    } else {
      c.v[c.n++] = d;
      c.v[c.n] = NULL;
    }
  }
  if (c.oom) {
    mh_impl_dirs_free(c.v, c.n);
    return NULL;
  }
  if (!c.v) /* none: an empty list */
    c.v = calloc(1, sizeof *c.v);
  return c.v;
}
