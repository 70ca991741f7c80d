/* SPDX-License-Identifier: Apache-2.0 */
/* The write stage (see stages.h): a results directory, whole or not at
 * all. */
#include "model/results_json.h"
#include "report/html_page.h"
#include "report/report_html.h"
#include "report/report_md.h"
#include "report/results_csv.h"
#include "run/stages.h"
#include "util/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef MERLIN_VERSION
#define MERLIN_VERSION "0.0.0"
#endif

static int write_file(const char *dir, const char *name, const char *data,
                      size_t len) {
  char err[1024];
  char *p = mh_path_join(dir, name);
  int rc = p ? mh_write_atomic(p, data, len, err, sizeof err) : -1;
  if (!p)
    snprintf(err, sizeof err, "out of memory");
  if (rc != 0)
    fprintf(stderr, "merlin: %s\n", err);
  free(p);
  return rc;
}

/* console-<target>-<profile>[-<cc>-<opt>].log; -1 (and a message) when it
 * does not fit in len, never a silently shortened name. */
static int console_name(const mh_job *tr, char *buf, size_t len) {
  int n;
  if (tr->cc)
    n = snprintf(buf, len, "console-%s-%s-%s-%s.log", tr->t->id,
                 tr->res.profile, tr->cc, tr->opt);
  else
    n = snprintf(buf, len, "console-%s-%s.log", tr->t->id, tr->res.profile);
  if (n >= 0 && (size_t)n < len)
    return 0;
  fprintf(stderr, "merlin: %s: console log name longer than %zu bytes\n",
          tr->label, len - 1);
  return -1;
}

static void remove_tree(const char *dir, const mh_job *trs, size_t n) {
  static const char *const files[] = {"results.json", "results.csv",
                                      "report.md", "report.html"};
  for (size_t i = 0; i < 4; i++) {
    char *p = mh_path_join(dir, files[i]);
    if (p)
      unlink(p);
    free(p);
  }
  for (size_t i = 0; i < n; i++) {
    char name[256];
    if (console_name(&trs[i], name, sizeof name) != 0)
      continue;
    char *p = mh_path_join(dir, name);
    if (p)
      unlink(p);
    free(p);
  }
  rmdir(dir);
}

/* The pid in a temporary name of write_results: ".tmp-<stamp>-<pid>"
 * (a results directory being written) or ".latest.tmp-<pid>" (the
 * symbolic link being swapped in); 0 for any other name. */
static long tmp_owner(const char *name) {
  const char *dash = strrchr(name, '-');
  int ours =
      strncmp(name, ".tmp-", 5) == 0 || strncmp(name, ".latest.tmp-", 12) == 0;
  if (!ours || !dash || !dash[1])
    return 0;
  char *end = NULL;
  errno = 0;
  long pid = strtol(dash + 1, &end, 10);
  return errno || *end || pid <= 1 ? 0 : pid;
}

/* Remove what a killed run (SIGKILL, SIGXFSZ, a power cut) left in OUT:
 * temporary entries whose owning process no longer exists. One of a live
 * run (another merlin writing into OUT right now) is never touched; inside
 * a directory only regular files are removed, and a directory holding
 * anything else stays. */
static void remove_stale_tmp(const char *out) {
  DIR *d = opendir(out);
  if (!d)
    return;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    long pid = tmp_owner(de->d_name);
    if (pid == 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 ||
        errno != ESRCH)
      continue;
    char *p = mh_path_join(out, de->d_name);
    struct stat st;
    if (p && lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
      DIR *sub = opendir(p);
      struct dirent *se;
      while (sub && (se = readdir(sub)) != NULL) {
        char *f = mh_path_join(p, se->d_name);
        struct stat fst;
        if (f && lstat(f, &fst) == 0 && S_ISREG(fst.st_mode))
          unlink(f);
        free(f);
      }
      if (sub)
        closedir(sub);
      rmdir(p);
    } else if (p && lstat(p, &st) == 0 && S_ISLNK(st.st_mode)) {
      unlink(p);
    }
    free(p);
  }
  closedir(d);
}

/* Write everything into a hidden directory, then rename it into place as
 * OUT/<UTC timestamp>[-N] and repoint OUT/latest. */
int mh_stage_write(const mh_run_opts *o, mh_job *trs, size_t n) {
  char err[1024], stamp[32], created[32];
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
  mh_results r = {.merlin = MERLIN_VERSION, .created = created, .n_runs = n};
  mh_result *runs = calloc(n, sizeof *runs);
  if (!runs) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < n; i++)
    runs[i] = trs[i].res;
  r.runs = runs;
  char *json = mh_results_to_json(&r, err, sizeof err);
  char *csv = mh_results_to_csv(&r);
  char *md = mh_report_md(&r);
  mh_html_assets assets; /* the charting library (report/html_assets.c) */
  char *html = NULL;
  if (mh_run_html_assets(&assets, err, sizeof err) == 0) {
    html = mh_report_html(&r, &assets);
    mh_html_assets_free(&assets);
  }
  free(runs);
  int rc = 1;
  char tmpname[64], final[64];
  char *tmp = NULL, *dst = NULL;
  if (!json || !csv || !md || !html) {
    fprintf(stderr, "merlin: cannot serialise the results: %s\n",
            json ? "out of memory" : err);
    goto out;
  }
  if (mh_mkdir_p(o->out, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    goto out;
  }
  remove_stale_tmp(o->out);
  snprintf(tmpname, sizeof tmpname, ".tmp-%s-%ld", stamp, (long)getpid());
  tmp = mh_path_join(o->out, tmpname);
  char brief[MH_PATH_BRIEF];
  if (!tmp || mkdir(tmp, 0755) != 0) {
    int e = errno;
    fprintf(stderr, "merlin: cannot create %s: %s\n",
            tmp ? mh_path_brief(tmp, brief, sizeof brief) : tmpname,
            strerror(e));
    goto out;
  }
  int bad = write_file(tmp, "results.json", json, strlen(json)) ||
            write_file(tmp, "results.csv", csv, strlen(csv)) ||
            write_file(tmp, "report.md", md, strlen(md)) ||
            write_file(tmp, "report.html", html, strlen(html));
  for (size_t i = 0; i < n && !bad; i++) {
    char name[256];
    bad = console_name(&trs[i], name, sizeof name) != 0 ||
          write_file(tmp, name, trs[i].console, trs[i].console_len);
  }
  if (bad) {
    remove_tree(tmp, trs, n);
    goto out;
  }
  /* rename() fails on a non-empty directory of that name: next suffix. */
  for (int k = 0; k < 1000; k++) {
    if (k)
      snprintf(final, sizeof final, "%s-%d", stamp, k);
    else
      snprintf(final, sizeof final, "%s", stamp);
    free(dst);
    dst = mh_path_join(o->out, final);
    if (!dst)
      break;
    if (rename(tmp, dst) == 0) {
      rc = 0;
      break;
    }
    if (errno != EEXIST && errno != ENOTEMPTY && errno != ENOTDIR)
      break;
  }
  if (rc != 0) {
    int e = errno;
    fprintf(stderr, "merlin: cannot move results into %s: %s\n",
            mh_path_brief(o->out, brief, sizeof brief), strerror(e));
    remove_tree(tmp, trs, n);
    goto out;
  }
  /* OUT/latest -> <final>, replaced atomically. */
  char lname[64];
  snprintf(lname, sizeof lname, ".latest.tmp-%ld", (long)getpid());
  char *ltmp = mh_path_join(o->out, lname);
  char *latest = mh_path_join(o->out, "latest");
  if (ltmp && latest) {
    unlink(ltmp);
    if (symlink(final, ltmp) != 0 || rename(ltmp, latest) != 0) {
      fprintf(stderr, "merlin: warning: cannot point %s at %s: %s\n", latest,
              final, strerror(errno));
      unlink(ltmp);
    }
  }
  free(ltmp);
  free(latest);
  printf("merlin: results written to %s (results.json, results.csv, "
         "report.md, report.html)\n",
         dst);
out:
  free(json);
  free(csv);
  free(md);
  free(html);
  free(tmp);
  free(dst);
  return rc;
}
