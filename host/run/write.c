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
  char cc[64];
  if (tr->cc)
    mh_path_tag(tr->cc, cc, sizeof cc);
  if (tr->cc)
    n = snprintf(buf, len, "console-%s-%s-%s-%s.log", tr->t->id,
                 tr->res.profile, cc, tr->opt);
  else
    n = snprintf(buf, len, "console-%s-%s.log", tr->t->id, tr->res.profile);
  if (n >= 0 && (size_t)n < len)
    return 0;
  fprintf(stderr, "merlin: %s: console log name longer than %zu bytes\n",
          tr->label, len - 1);
  return -1;
}

static const char *const REPORTS[] = {"results.json", "results.csv",
                                      "report.md", "report.html"};

static void remove_tree(const char *dir, const mh_out_file *files, size_t n) {
  for (size_t i = 0; i < 4 + n; i++) {
    char *p = mh_path_join(dir, i < 4 ? REPORTS[i] : files[i - 4].name);
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

/* OUT/latest -> final, replaced atomically; a warning when it cannot be. */
static void point_latest(const char *out, const char *final) {
  char lname[64];
  snprintf(lname, sizeof lname, ".latest.tmp-%ld", (long)getpid());
  char *ltmp = mh_path_join(out, lname);
  char *latest = mh_path_join(out, "latest");
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
}

/* Rename tmp into place as OUT/<stamp>[-N]; the path, or NULL (reported). */
static char *move_into_place(const char *out, const char *tmp,
                             const char *stamp, char *final, size_t flen) {
  char *dst = NULL;
  /* rename() fails on a non-empty directory of that name: next suffix. */
  for (int k = 0; k < 1000; k++) {
    if (k)
      snprintf(final, flen, "%s-%d", stamp, k);
    else
      snprintf(final, flen, "%s", stamp);
    free(dst);
    dst = mh_path_join(out, final);
    if (!dst || rename(tmp, dst) == 0)
      return dst;
    if (errno != EEXIST && errno != ENOTEMPTY && errno != ENOTDIR)
      break;
  }
  char brief[MH_PATH_BRIEF];
  fprintf(stderr, "merlin: cannot move results into %s: %s\n",
          mh_path_brief(out, brief, sizeof brief), strerror(errno));
  free(dst);
  return NULL;
}

/* The four reports of r, rendered; 0, or -1 (reported, *text freed). */
static int render(const mh_results *r, char *text[4]) {
  char err[1024];
  text[0] = mh_results_to_json(r, err, sizeof err);
  text[1] = mh_results_to_csv(r);
  text[2] = mh_report_md(r);
  text[3] = NULL;
  mh_html_assets assets; /* the charting library (report/html_assets.c) */
  if (text[0] && mh_run_html_assets(&assets, err, sizeof err) == 0) {
    text[3] = mh_report_html(r, &assets);
    mh_html_assets_free(&assets);
  }
  if (text[0] && text[1] && text[2] && text[3])
    return 0;
  fprintf(stderr, "merlin: cannot serialise the results: %s\n",
          text[0] ? (text[3] ? "out of memory" : err) : err);
  for (int i = 0; i < 4; i++)
    free(text[i]);
  return -1;
}

int mh_results_dir_write(const char *out, mh_results *r,
                         const mh_out_file *files, size_t n_files) {
  char err[1024], stamp[32], created[32];
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
  char *was_merlin = r->merlin, *was_created = r->created;
  r->merlin = (char *)MERLIN_VERSION;
  r->created = created;
  char *text[4];
  int rc = render(r, text);
  r->merlin = was_merlin;
  r->created = was_created;
  if (rc != 0)
    return 1;
  rc = 1;
  char tmpname[64], final[64];
  char *tmp = NULL, *dst = NULL;
  if (mh_mkdir_p(out, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    goto out;
  }
  remove_stale_tmp(out);
  snprintf(tmpname, sizeof tmpname, ".tmp-%s-%ld", stamp, (long)getpid());
  tmp = mh_path_join(out, tmpname);
  char brief[MH_PATH_BRIEF];
  if (!tmp || mkdir(tmp, 0755) != 0) {
    int e = errno;
    fprintf(stderr, "merlin: cannot create %s: %s\n",
            tmp ? mh_path_brief(tmp, brief, sizeof brief) : tmpname,
            strerror(e));
    goto out;
  }
  int bad = 0;
  for (size_t i = 0; i < 4 && !bad; i++)
    bad = write_file(tmp, REPORTS[i], text[i], strlen(text[i]));
  for (size_t i = 0; i < n_files && !bad; i++)
    bad = write_file(tmp, files[i].name, files[i].data, files[i].len);
  if (bad || !(dst = move_into_place(out, tmp, stamp, final, sizeof final))) {
    remove_tree(tmp, files, n_files);
    goto out;
  }
  point_latest(out, final);
  printf("merlin: results written to %s (results.json, results.csv, "
         "report.md, report.html)\n",
         dst);
  rc = 0;
out:
  for (int i = 0; i < 4; i++)
    free(text[i]);
  free(tmp);
  free(dst);
  return rc;
}

int mh_stage_write(const mh_run_opts *o, mh_job *const *jobs, size_t n,
                   const mh_plan_ref *plan) {
  mh_results r = {.n_runs = n, .plan = *plan};
  mh_result *runs = calloc(n ? n : 1, sizeof *runs);
  mh_out_file *files = calloc(n ? n : 1, sizeof *files);
  char(*names)[256] = calloc(n ? n : 1, sizeof *names);
  int rc = 1;
  if (!runs || !files || !names) {
    fprintf(stderr, "merlin: out of memory\n");
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    runs[i] = jobs[i]->res;
    if (console_name(jobs[i], names[i], sizeof names[i]) != 0)
      goto out;
    files[i] = (mh_out_file){names[i], jobs[i]->console, jobs[i]->console_len};
  }
  r.runs = runs;
  rc = mh_results_dir_write(o->out, &r, files, n);
out:
  free(runs);
  free(files);
  free(names);
  return rc;
}
