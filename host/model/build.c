/* SPDX-License-Identifier: Apache-2.0 */
/* See build.h. */
#include "model/build.h"

#include "util/fsutil.h"

#include <stdio.h>
#include <string.h>

void mh_result_cc(const mh_result *x, char *buf, size_t len) {
  const char *c = mh_run_prov(&x->run, "compiler");
  /* "<driver> <CMake compiler id> <version>" (cmake/MerlinImage.cmake) */
  if (!c || !*c) {
    snprintf(buf, len, "?");
    return;
  }
  const char *id = strchr(c, ' ');
  if (*c == '/') { /* --cc PATH: the driver's path */
    char path[4096];
    snprintf(path, sizeof path, "%.*s", (int)strcspn(c, " "), c);
    mh_path_tag(path, buf, len);
  } else if (id && strncmp(id + 1, "GNU ", 4) == 0)
    snprintf(buf, len, "gcc");
  else if (id && (strncmp(id + 1, "Clang ", 6) == 0 ||
                  strncmp(id + 1, "AppleClang ", 11) == 0))
    snprintf(buf, len, "clang");
  else
    snprintf(buf, len, "%.*s", (int)strcspn(c, " "), c);
}

void mh_result_opt(const mh_result *x, char *buf, size_t len) {
  const char *f = mh_run_prov(&x->run, "cflags");
  const char *last = NULL;
  size_t last_len = 0;
  for (const char *s = f; s && *s;) {
    s += strspn(s, " ");
    size_t n = strcspn(s, " ");
    if (n >= 2 && s[0] == '-' && s[1] == 'O') {
      last = s;
      last_len = n;
    }
    s += n;
  }
  snprintf(buf, len, "%.*s", (int)last_len, last ? last : "");
}

static int same(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int mh_result_same_row(const mh_result *a, const mh_result *b) {
  char ca[64], cb[64], oa[32], ob[32];
  if (!same(a->target, b->target) || !same(a->profile, b->profile))
    return 0;
  mh_result_cc(a, ca, sizeof ca);
  mh_result_cc(b, cb, sizeof cb);
  mh_result_opt(a, oa, sizeof oa);
  mh_result_opt(b, ob, sizeof ob);
  return strcmp(ca, cb) == 0 && strcmp(oa, ob) == 0;
}

int mh_results_is_matrix(const mh_results *r) {
  for (size_t i = 0; i < r->n_runs; i++)
    for (size_t k = 0; k < i; k++)
      if (same(r->runs[i].target, r->runs[k].target) &&
          same(r->runs[i].profile, r->runs[k].profile))
        return 1;
  return 0;
}
