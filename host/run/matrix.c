/* SPDX-License-Identifier: Apache-2.0 */
#include "run/matrix.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CCS[] = {"gcc", "clang"};
static const char *const OPTS[] = {"O0", "O1", "O2", "O3", "Os", "Oz"};

static int known(const char *v, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(v, list[i]) == 0)
      return 1;
  return 0;
}

/* A --cc value with a '/': the driver's path, absolute (not resolved:
 * a symlink's own path is what the user named). */
static char *cc_path(const char *w, size_t wlen) {
  if (*w == '/')
    return strndup(w, wlen);
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd))
    return strndup(w, wlen); /* refused by mh_matrix_check_cc */
  size_t n = strlen(cwd) + wlen + 2;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, "%s/%.*s", cwd, (int)wlen, w);
  return p;
}

void mh_matrix_free(char **vals, size_t n) {
  for (size_t i = 0; vals && i < n; i++)
    free(vals[i]);
  free(vals);
}

int mh_matrix_split(const char *what, const char *arg, char ***vals, size_t *n,
                    char *err, size_t errlen) {
  int is_cc = strcmp(what, "--cc") == 0;
  size_t cap = 1;
  for (const char *s = arg; *s; s++)
    cap += *s == ',';
  char **v = calloc(cap, sizeof *v);
  *vals = NULL;
  *n = 0;
  if (!v) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  size_t k = 0;
  for (const char *s = arg;;) {
    size_t len = strcspn(s, ","), wlen = len;
    const char *w = s;
    if (!is_cc && wlen && *w == '-') {
      w++;
      wlen--;
    }
    char *item =
        is_cc && memchr(w, '/', wlen) ? cc_path(w, wlen) : strndup(w, wlen);
    if (!item) {
      snprintf(err, errlen, "out of memory");
      goto fail;
    }
    v[k++] = item;
    if (!*item) {
      snprintf(err, errlen, "%s '%s' has an empty entry; valid: %s", what, arg,
               is_cc ? MH_CC_VALID : MH_OPT_VALID);
      goto fail;
    }
    /* a path goes into the image (its provenance) and build files as is */
    size_t ok = strspn(item, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstu"
                             "vwxyz0123456789/._+-");
    if (is_cc && strchr(item, '/') && item[ok]) {
      snprintf(err, errlen,
               "--cc %s: a compiler path may hold only letters, digits and "
               "/ . _ + - (character %zu is not one)",
               item, ok + 1);
      goto fail;
    }
    if (is_cc ? !known(item, CCS, 2) && !strchr(item, '/')
              : !known(item, OPTS, 6)) {
      snprintf(err, errlen, "%s: unknown %s '%s'; valid: %s", what,
               is_cc ? "compiler" : "optimisation level", item,
               is_cc ? MH_CC_VALID : MH_OPT_VALID);
      goto fail;
    }
    for (size_t i = 0; i + 1 < k; i++)
      if (strcmp(v[i], item) == 0) {
        snprintf(err, errlen, "%s lists '%s' twice", what, item);
        goto fail;
      }
    if (!s[len])
      break;
    s += len + 1;
  }
  *vals = v;
  *n = k;
  return 0;
fail:
  mh_matrix_free(v, k);
  return -1;
}

/* Whether an executable named name is in a directory of $PATH. */
static int on_path(const char *name) {
  const char *path = getenv("PATH");
  if (!path || !*path)
    return 0;
  for (const char *s = path;;) {
    size_t len = strcspn(s, ":");
    char buf[4096];
    if (len && len + strlen(name) + 2 < sizeof buf) {
      snprintf(buf, sizeof buf, "%.*s/%s", (int)len, s, name);
      if (access(buf, X_OK) == 0)
        return 1;
    }
    if (!s[len])
      return 0;
    s += len + 1;
  }
}

int mh_matrix_check_cc(const char *cc, char *err, size_t errlen) {
  if (strcmp(cc, "clang") == 0 && !on_path(MH_CLANG)) {
    snprintf(err, errlen,
             "--cc clang: " MH_CLANG " is not on PATH; install it with "
             "scripts/setup test (Debian package " MH_CLANG
             "), or drop clang from --cc");
    return -1;
  }
  if (!strchr(cc, '/'))
    return 0;
  if (access(cc, X_OK) != 0) {
    snprintf(err, errlen, "--cc %s: not an executable compiler driver (%s)", cc,
             strerror(errno));
    return -1;
  }
  return 0;
}
