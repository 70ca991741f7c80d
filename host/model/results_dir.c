/* SPDX-License-Identifier: Apache-2.0 */
/* See results_dir.h. */
#include "model/results_dir.h"

#include "util/escape.h"
#include "util/fsutil.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

size_t mh_rdir_marker_text(long pid, char *buf, size_t len) {
  int n = snprintf(buf, len,
                   "merlin: results being written by process %ld; removed "
                   "with this directory when that process is gone\n",
                   pid);
  return n > 0 && (size_t)n < len ? (size_t)n : 0;
}

static int digits(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9')
      return 0;
  return 1;
}

/* "YYYYmmdd-HHMMSS" at s (15 characters). */
static int stamp15(const char *s) {
  return strlen(s) >= 15 && digits(s, 8) && s[8] == '-' && digits(s + 9, 6);
}

int mh_rdir_stamp(const char *name) {
  if (!stamp15(name))
    return 0;
  const char *t = name + 15;
  if (!*t)
    return 1;
  size_t n = strlen(t + 1);
  /* "-N": N 1..999, as move_into_place makes it (host/run/write.c) */
  return t[0] == '-' && n >= 1 && n <= 3 && t[1] != '0' && digits(t + 1, n);
}

/* A pid as merlin writes it: decimal, no sign, no leading zero, > 1. */
static long pid_of(const char *s) {
  size_t n = strlen(s);
  if (n < 1 || n > 10 || s[0] == '0' || !digits(s, n))
    return 0;
  long pid = strtol(s, NULL, 10);
  return pid > 1 && pid <= INT_MAX ? pid : 0; /* a pid_t, never wrapped */
}

long mh_rdir_tmp_pid(const char *name, int *dir) {
  if (strncmp(name, ".latest.tmp-", 12) == 0) {
    *dir = 0;
    return pid_of(name + 12);
  }
  *dir = 1;
  if (strncmp(name, ".tmp-", 5) != 0 || !stamp15(name + 5) || name[20] != '-')
    return 0;
  return pid_of(name + 21);
}

int mh_rdir_latest(const char *out, char *target, size_t tlen, char *err,
                   size_t errlen) {
  char *p = mh_path_join(out, "latest"), brief[MH_PATH_BRIEF], t[64];
  struct stat st;
  int rc = -1;
  if (!p) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  if (lstat(p, &st) != 0) {
    rc = 1; /* none, or OUT itself unusable: the writer says why */
  } else if (!S_ISLNK(st.st_mode)) {
    snprintf(err, errlen,
             "%s is not the symbolic link merlin makes (a %s): merlin "
             "neither reads through nor replaces it; move it away",
             mh_path_brief(p, brief, sizeof brief),
             S_ISDIR(st.st_mode)   ? "directory"
             : S_ISREG(st.st_mode) ? "regular file"
                                   : "special file");
  } else {
    ssize_t n = readlink(p, t, sizeof t - 1);
    t[n > 0 ? n : 0] = '\0';
    if (n <= 0 || (size_t)n >= sizeof t - 1 || !mh_rdir_stamp(t)) {
      char e[96];
      snprintf(err, errlen,
               "%s points at '%s', not at a results directory merlin names "
               "(YYYYmmdd-HHMMSS beside it): merlin neither reads through "
               "nor replaces it; move it away",
               mh_path_brief(p, brief, sizeof brief),
               n > 0 ? mh_esc_term_buf(t, e, sizeof e) : "?");
    } else {
      snprintf(target, tlen, "%s", t);
      rc = 0;
    }
  }
  free(p);
  return rc;
}

/* DIR/name is a directory of its own (not a link): 1, else 0. */
static int real_dir(const char *dir, const char *name) {
  char *p = mh_path_join(dir, name);
  struct stat st;
  int ok = p && lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
  free(p);
  return ok;
}

int mh_rdir_locate(const char *arg, char **dir, char **json, int *nofollow,
                   char *err, size_t errlen) {
  struct stat st;
  char t[64];
  *dir = *json = NULL;
  *nofollow = 1;
  if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)) { /* a file, as named */
    const char *slash = strrchr(arg, '/');
    *dir = slash ? strndup(arg, (size_t)(slash - arg + (slash == arg)))
                 : strdup(".");
    *json = strdup(arg);
    *nofollow = 0;
  } else if ((*json = mh_path_join(arg, "results.json")) &&
             lstat(*json, &st) == 0) { /* the directory, as named */
    *dir = strdup(arg);
  } else {
    free(*json);
    *json = NULL;
    int l = mh_rdir_latest(arg, t, sizeof t, err, errlen);
    if (l < 0)
      return -1;
    if (l == 1 || !real_dir(arg, t)) {
      snprintf(err, errlen,
               "%s holds no results.json (nor latest/results.json): give a "
               "results directory or a results.json file",
               arg);
      return -1;
    }
    *dir = mh_path_join(arg, t);
    *json = *dir ? mh_path_join(*dir, "results.json") : NULL;
  }
  if (*dir && *json)
    return 0;
  free(*dir);
  free(*json);
  *dir = *json = NULL;
  snprintf(err, errlen, "out of memory");
  return -1;
}
