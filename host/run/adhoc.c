/* SPDX-License-Identifier: Apache-2.0 */
/* See adhoc.h. */
#include "run/adhoc.h"

#include "config/catalog.h"
#include "digest.h"
#include "util/fsutil.h"
#include "util/strbuf.h"
#include "util/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names of a comma list, each checked against the catalogue (what
 * "algorithm" or "backend"); index of each into idx. 0, or -1 with err. */
static int names(const char *list, const char *what, int alg, int *idx,
                 size_t max, size_t *n, char *err, size_t errlen) {
  const char *ids[(size_t)MH_N_ALGS + (size_t)MH_N_BACKENDS];
  size_t nid = alg ? MH_N_ALGS : MH_N_BACKENDS;
  for (size_t i = 0; i < nid; i++)
    ids[i] = alg ? mh_algs[i].id : mh_backends[i].name;
  *n = 0;
  size_t ll = strlen(list);
  if (!ll || list[0] == ',' || list[ll - 1] == ',' || strstr(list, ",,")) {
    snprintf(err, errlen,
             "--%s '%.200s': an empty %s name (a comma at either end, or "
             "two together)",
             alg ? "alg" : "backend", list, what);
    return -1;
  }
  for (const char *p = list; *p;) {
    size_t k = strcspn(p, ",");
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(k < 63 ? k : 63), p);
    int i =
        k && k < 63 ? (alg ? mh_alg_find(name) : mh_backend_find(name)) : -1;
    if (i < 0 || *n == max) {
      const char *near = mh_suggest(name, ids, nid);
      snprintf(err, errlen, "unknown %s '%s'%s%s%s (merlin list %ss)", what,
               name, near ? "; did you mean " : "", near ? near : "",
               near ? "?" : "", alg ? "algorithm" : "backend");
      return -1;
    }
    for (size_t j = 0; j < *n; j++)
      if (idx[j] == i) {
        snprintf(err, errlen, "%s '%s' given twice", what, name);
        return -1;
      }
    idx[(*n)++] = i;
    p += k + (p[k] == ',');
  }
  return 0;
}

/* "alg = b1, b2" lines of the profile; 0, or -1 with err naming an
 * algorithm no given backend offers, and the backends that do. */
static int routes(mh_sb *b, const int *a, size_t na, const int *be, size_t nb,
                  char *err, size_t errlen) {
  for (size_t i = 0; i < na; i++) {
    size_t any = 0;
    mh_sb_printf(b, "%s =", mh_algs[a[i]].id);
    for (size_t k = 0; k < nb; k++)
      if (mh_backend_offers((size_t)be[k], (size_t)a[i]))
        mh_sb_printf(b, "%s %s", any++ ? "," : "", mh_backends[be[k]].name);
    mh_sb_putc(b, '\n');
    if (any)
      continue;
    size_t used = (size_t)snprintf(
        err, errlen,
        "no backend of --backend offers %s; those that do:", mh_algs[a[i]].id);
    for (size_t k = 0, first = 1; k < MH_N_BACKENDS && used < errlen; k++)
      if (mh_backend_offers(k, (size_t)a[i])) {
        used += (size_t)snprintf(err + used, errlen - used, "%s %s",
                                 first ? "" : ",", mh_backends[k].name);
        first = 0;
      }
    return -1;
  }
  return 0;
}

char *mh_adhoc_profile(const char *algs, const char *backends, int *usage,
                       char *err, size_t errlen) {
  int a[MH_N_ALGS], be[MH_N_BACKENDS];
  size_t na, nb;
  *usage = 1;
  if (names(algs, "algorithm", 1, a, MH_N_ALGS, &na, err, errlen) != 0 ||
      names(backends, "backend", 0, be, MH_N_BACKENDS, &nb, err, errlen) != 0)
    return NULL;
  mh_sb b = {0};
  mh_sb_printf(&b,
               "# SPDX-License-Identifier: Apache-2.0\n"
               "# Made by merlin run --alg %s --backend %s (docs/cli.md, "
               "\"Profiles\").\ndescription = --alg %s --backend %s\n\n",
               algs, backends, algs, backends);
  if (routes(&b, a, na, be, nb, err, errlen) != 0 || b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  *usage = 0;
  uint8_t d[32];
  mcore_sha256(d, (const uint8_t *)b.s, b.len);
  char *root = mh_source_root(err, errlen), rel[64], *dir = NULL, *path = NULL;
  snprintf(rel, sizeof rel, "adhoc-%02x%02x%02x%02x.profile", d[0], d[1], d[2],
           d[3]);
  int changed;
  if (root && (dir = mh_path_join(root, "build/profiles")) &&
      mh_mkdir_p(dir, err, errlen) == 0 && (path = mh_path_join(dir, rel)) &&
      mh_write_if_changed(path, b.s, b.len, &changed, err, errlen) != 0) {
    free(path);
    path = NULL;
  }
  free(root);
  free(dir);
  mh_sb_free(&b);
  return path;
}
