/* SPDX-License-Identifier: Apache-2.0 */
/* The write stage (see stages.h): a results directory, whole or not at
 * all. */
#include "model/results_dir.h"
#include "model/results_json.h"
#include "report/html_page.h"
#include "report/report_html.h"
#include "report/report_md.h"
#include "report/results_csv.h"
#include "run/stages.h"
#include "util/exec.h"
#include "util/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

/* What write_results put in a temporary directory: the reports, the
 * files and the marker. */
static void remove_tree(const char *dir, const mh_out_file *files, size_t n) {
  for (size_t i = 0; i < 5 + n; i++) {
    char *p = mh_path_join(dir, i < 4    ? REPORTS[i]
                                : i == 4 ? MH_RDIR_MARKER
                                         : files[i - 5].name);
    if (p)
      unlink(p);
    free(p);
  }
  rmdir(dir);
}

/* The marker in the directory dfd says that process pid of merlin wrote
 * it: 1 (read through dfd, never through a link). */
static int marked(int dfd, long pid) {
  char want[160], text[161];
  size_t wl = mh_rdir_marker_text(pid, want, sizeof want);
  int fd = openat(dfd, MH_RDIR_MARKER,
                  O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  ssize_t n = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
                  ? read(fd, text, sizeof text)
                  : -1;
  if (fd >= 0)
    close(fd);
  return wl && n == (ssize_t)wl && memcmp(text, want, wl) == 0;
}

/* A killed run's temporary directory p, open as dfd (no link): removed
 * when it holds regular files alone (the marker last: it is the claim to
 * the directory); one holding anything else stays as it is. Every name is
 * taken relative to dfd, so a directory swapped for a link meanwhile
 * leads nowhere else. */
static void remove_stale_dir(int dfd, const char *p) {
  for (int pass = 0; pass < 2; pass++) {
    int fd = dup(dfd);
    DIR *sub = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *se;
    int other = 0;
    if (!sub && fd >= 0)
      close(fd);
    if (sub) /* a dup shares the offset the first pass left at the end */
      rewinddir(sub);
    while (sub && !other && (se = readdir(sub)) != NULL) {
      struct stat fst;
      if (!strcmp(se->d_name, ".") || !strcmp(se->d_name, ".."))
        continue;
      if (fstatat(dfd, se->d_name, &fst, AT_SYMLINK_NOFOLLOW) != 0 ||
          !S_ISREG(fst.st_mode))
        other = 1;
      else if (pass == 1 && strcmp(se->d_name, MH_RDIR_MARKER) != 0)
        unlinkat(dfd, se->d_name, 0);
    }
    if (sub)
      closedir(sub);
    if (!sub || other)
      return;
  }
  if (unlinkat(dfd, MH_RDIR_MARKER, 0) == 0)
    rmdir(p);
}

/* p is a link to a name merlin gives a results directory: 1. */
static int link_to_stamp(const char *p) {
  char t[64];
  struct stat st;
  ssize_t n = lstat(p, &st) == 0 && S_ISLNK(st.st_mode)
                  ? readlink(p, t, sizeof t - 1)
                  : -1;
  if (n <= 0)
    return 0;
  t[n] = '\0';
  return mh_rdir_stamp(t);
}

/* Remove what a killed run (SIGKILL, SIGXFSZ, a power cut) left in OUT:
 * the temporaries merlin names (model/results_dir.h: the name checked in
 * full, a directory only with the marker it wrote, a link only to a name
 * merlin gives) whose owning process no longer exists. One of a live run
 * (another merlin writing into OUT right now) is never touched, nor is
 * anything else. */
static void remove_stale_tmp(const char *out) {
  DIR *d = opendir(out);
  if (!d)
    return;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    int is_dir;
    long pid = mh_rdir_tmp_pid(de->d_name, &is_dir);
    if (pid == 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 ||
        errno != ESRCH)
      continue;
    char *p = mh_path_join(out, de->d_name);
    int dfd = p && is_dir
                  ? open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                  : -1;
    if (dfd >= 0 && marked(dfd, pid))
      remove_stale_dir(dfd, p);
    else if (p && !is_dir && link_to_stamp(p))
      unlink(p);
    if (dfd >= 0)
      close(dfd);
    free(p);
  }
  closedir(d);
}

/* OUT/latest -> final, replaced atomically when it is merlin's link
 * (checked again here: mh_results_dir_write checked it before writing);
 * a warning when it cannot be. */
static void point_latest(const char *out, const char *final) {
  char lname[64], t[64], err[1024];
  snprintf(lname, sizeof lname, ".latest.tmp-%ld", (long)getpid());
  char *ltmp = mh_path_join(out, lname);
  char *latest = mh_path_join(out, "latest");
  if (mh_rdir_latest(out, t, sizeof t, err, sizeof err) < 0) {
    fprintf(stderr, "merlin: warning: %s\n", err);
  } else if (ltmp && latest) {
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
  char tmpname[64], final[64], mark[160], t[64];
  char *tmp = NULL, *dst = NULL;
  if (mh_mkdir_p(out, err, sizeof err) != 0 ||
      mh_rdir_latest(out, t, sizeof t, err, sizeof err) < 0) {
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
  /* first the marker: what a later run may remove is what this one wrote */
  int bad = write_file(tmp, MH_RDIR_MARKER, mark,
                       mh_rdir_marker_text((long)getpid(), mark, sizeof mark));
  for (size_t i = 0; i < 4 && !bad; i++)
    bad = write_file(tmp, REPORTS[i], text[i], strlen(text[i])) ||
          mh_exec_signal_received();
  for (size_t i = 0; i < n_files && !bad; i++)
    bad = write_file(tmp, files[i].name, files[i].data, files[i].len) ||
          mh_exec_signal_received();
  if (bad || !(dst = move_into_place(out, tmp, stamp, final, sizeof final))) {
    remove_tree(tmp, files, n_files);
    rc = mh_exec_signal_received() ? 130 : 1;
    goto out;
  }
  char *m = mh_path_join(dst, MH_RDIR_MARKER);
  if (m)
    unlink(m);
  free(m);
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
