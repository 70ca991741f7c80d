/* SPDX-License-Identifier: Apache-2.0 */
/* See rundir.h. */
#define _GNU_SOURCE /* O_CLOEXEC for the copy, nftw's FTW_DEPTH */
#include "run/rundir.h"

#include "util/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw) {
  (void)st;
  (void)ftw;
  return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tree(const char *dir) {
  nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* This machine's name, as a run directory carries it ("?" when unknown;
 * a '/' or a space would not make one file name). */
static void host_name(char *buf, size_t len) {
  if (gethostname(buf, len) != 0 || !buf[0])
    snprintf(buf, len, "?");
  buf[len - 1] = '\0';
  for (char *p = buf; *p; p++)
    if (*p == '/' || *p == ' ')
      *p = '_';
}

/* Run directories of merlin processes of this machine that are gone
 * (killed, or crashed) are removed: "run-HOST-PID-N" whose PID no longer
 * exists here. Another machine's (a build tree shared between nodes) are
 * left to that machine. */
static void remove_stale(const char *bdir) {
  char host[256], prefix[300];
  host_name(host, sizeof host);
  snprintf(prefix, sizeof prefix, "run-%s-", host);
  DIR *d = opendir(bdir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    long pid;
    unsigned long n;
    char tail;
    size_t pl = strlen(prefix);
    if (strncmp(e->d_name, prefix, pl) != 0 ||
        sscanf(e->d_name + pl, "%ld-%lu%c", &pid, &n, &tail) != 2 || pid <= 0)
      continue;
    if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
      continue;
    char *p = mh_path_join(bdir, e->d_name);
    if (p)
      remove_tree(p);
    free(p);
  }
  if (d)
    closedir(d);
}

int mh_rundir_open(mh_rundir *rd, const char *bdir, char *err, size_t errlen) {
  static unsigned long seq;
  if (rd->dir)
    return 0;
  remove_stale(bdir);
  char name[320], host[256];
  host_name(host, sizeof host);
  for (int tries = 0; tries < 100; tries++) {
    snprintf(name, sizeof name, "run-%s-%ld-%lu", host, (long)getpid(),
             __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
    char *dir = mh_path_join(bdir, name);
    if (!dir)
      break;
    if (mkdir(dir, 0700) == 0) {
      rd->bdir = strdup(bdir);
      rd->dir = dir;
      if (rd->bdir)
        return 0;
      break;
    }
    int e = errno;
    free(dir);
    if (e != EEXIST) {
      char brief[MH_PATH_BRIEF];
      snprintf(err, errlen, "cannot make the run's directory in %s: %s",
               mh_path_brief(bdir, brief, sizeof brief), strerror(e));
      return -1;
    }
  }
  mh_rundir_close(rd);
  snprintf(err, errlen, "out of memory");
  return -1;
}

char *mh_rundir_file(const mh_rundir *rd, const char *name) {
  return rd->dir ? mh_path_join(rd->dir, name) : NULL;
}

static int copy_file(const char *from, const char *to) {
  int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;
  struct stat st;
  if (in >= 0 && fstat(in, &st) == 0)
    out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 0777);
  char buf[1 << 16];
  ssize_t n = out >= 0 ? 1 : -1;
  while (n > 0) {
    n = read(in, buf, sizeof buf);
    for (ssize_t w = 0, k; n > 0 && w < n; w += k)
      if ((k = write(out, buf + w, (size_t)(n - w))) <= 0)
        n = -1;
  }
  rc = n == 0 ? 0 : -1;
  if (in >= 0)
    close(in);
  if (out >= 0 && close(out) != 0)
    rc = -1;
  return rc;
}

char *mh_rundir_image(const mh_rundir *rd, const char *image, char *err,
                      size_t errlen) {
  const char *base = strrchr(image, '/');
  char *own = mh_rundir_file(rd, base ? base + 1 : image);
  if (!own) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  unlink(own); /* the previous build's, in this run */
  /* A hard link is free and enough: the linker writes a new file, it does
   * not rewrite the old one in place; a copy where links cannot be made. */
  if (link(image, own) != 0 && copy_file(image, own) != 0) {
    snprintf(err, errlen, "cannot copy %s into the run's directory: %s", image,
             strerror(errno));
    free(own);
    return NULL;
  }
  return own;
}

char *mh_rundir_publish(const mh_rundir *rd, const char *name) {
  char *from = mh_rundir_file(rd, name);
  char *to = rd->bdir ? mh_path_join(rd->bdir, name) : NULL;
  int ok = from && to && rename(from, to) == 0;
  free(from);
  if (!ok) {
    free(to);
    return NULL;
  }
  return to;
}

void mh_rundir_close(mh_rundir *rd) {
  if (rd->dir)
    remove_tree(rd->dir);
  free(rd->dir);
  free(rd->bdir);
  rd->dir = rd->bdir = NULL;
}
