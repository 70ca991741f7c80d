/* SPDX-License-Identifier: Apache-2.0 */
/* File helpers (host/util/fsutil.c): the build-directory lock that keeps two
 * merlin processes from configuring and building one directory at once,
 * mkdir -p's failure on a path through a regular file, and the one output
 * writer: regular files replaced, links followed, special files refused. */
#define _DEFAULT_SOURCE /* mknod, makedev */
#include "check.h"
#include "util/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A child holds the lock for HOLD_S; the parent's lock waits for it and
 * says so on stderr, naming the directory. */
#define HOLD_S 0.4
static void test_lock_waits(const char *dir) {
  char err[512] = "";
  int ready[2];
  CHECK(pipe(ready) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = mh_dir_lock(dir, err, sizeof err);
    (void)!write(ready[1], fd >= 0 ? "1" : "0", 1);
    struct timespec hold = {0, (long)(HOLD_S * 1e9)};
    nanosleep(&hold, NULL);
    _exit(fd >= 0 ? 0 : 1);
  }
  char c = 0;
  CHECK(read(ready[0], &c, 1) == 1 && c == '1');
  char log[] = "/tmp/merlin-test-fsutil-XXXXXX";
  int logfd = mkstemp(log);
  int saved = dup(2);
  CHECK(logfd >= 0 && saved >= 0 && dup2(logfd, 2) == 2);
  double t0 = now_s();
  int fd = mh_dir_lock(dir, err, sizeof err);
  double waited = now_s() - t0;
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  CHECK(fd >= 0);
  CHECK(waited > HOLD_S / 2);
  char buf[1024] = "";
  CHECK(pread(logfd, buf, sizeof buf - 1, 0) > 0);
  CHECK_CONTAINS(buf, "waiting for another merlin, which is building in ");
  CHECK_CONTAINS(buf, dir);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
        WEXITSTATUS(status) == 0);
  /* Held by this process, a second lock from it is a second open file: it
   * would wait too, so the test releases first and then locks quietly. */
  mh_dir_unlock(fd);
  CHECK(ftruncate(logfd, 0) == 0);
  fd = mh_dir_lock(dir, err, sizeof err);
  CHECK(fd >= 0);
  mh_dir_unlock(fd);
  close(logfd);
  unlink(log);
  close(ready[0]);
  close(ready[1]);
}

/* A directory that cannot be made is an error with the reason, not a
 * wait. */
static void test_lock_bad_dir(const char *dir) {
  char file[600], under[700], err[512] = "";
  snprintf(file, sizeof file, "%s/a-file", dir);
  int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(fd >= 0);
  close(fd);
  snprintf(under, sizeof under, "%s/build", file);
  CHECK(mh_dir_lock(under, err, sizeof err) < 0);
  CHECK_CONTAINS(err, "cannot create directory");
  CHECK_CONTAINS(err, "a-file");
  unlink(file);
}

static int holds(const char *path, const char *text) {
  char *buf = NULL, err[256];
  size_t n;
  int ok = mh_read_file(path, 1 << 16, &buf, &n, err, sizeof err) == 0 &&
           strcmp(buf, text) == 0;
  free(buf);
  return ok;
}

/* What the writer does to each kind of name (issue 30): a regular file is
 * replaced and keeps its mode; a symbolic link (also a dangling one, and a
 * chain) is kept and the file it names written; a FIFO, a character
 * device made by the test (as root) and a directory are refused, named,
 * and left as they were. */
static void test_write_kinds(const char *dir) {
  char p[8][700], err[1024];
  static const char *const name[] = {"plain", "link", "target", "dangling",
                                     "new",   "fifo", "chr",    "sub"};
  for (int i = 0; i < 8; i++)
    snprintf(p[i], sizeof p[i], "%s/%s", dir, name[i]);
  CHECK(mh_write_atomic(p[0], "one", 3, err, sizeof err) == 0);
  CHECK(chmod(p[0], 0600) == 0);
  CHECK(mh_write_atomic(p[0], "two", 3, err, sizeof err) == 0);
  struct stat st;
  CHECK(holds(p[0], "two") && stat(p[0], &st) == 0 &&
        (st.st_mode & 0777) == 0600);
  CHECK(mh_write_atomic(p[2], "old", 3, err, sizeof err) == 0);
  CHECK(symlink("target", p[1]) == 0);
  CHECK(mh_write_atomic(p[1], "via link", 8, err, sizeof err) == 0);
  CHECK(lstat(p[1], &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(holds(p[2], "via link"));
  CHECK(symlink("link", p[3]) == 0 && unlink(p[2]) == 0);
  CHECK(mh_write_atomic(p[3], "chain", 5, err, sizeof err) == 0);
  CHECK(lstat(p[3], &st) == 0 && S_ISLNK(st.st_mode) && holds(p[2], "chain"));
  CHECK(mkfifo(p[5], 0600) == 0);
  CHECK(mh_write_atomic(p[5], "x", 1, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "fifo");
  CHECK_CONTAINS(err, "is a FIFO");
  CHECK(lstat(p[5], &st) == 0 && S_ISFIFO(st.st_mode));
  CHECK(symlink("fifo", p[4]) == 0);
  CHECK(mh_write_atomic(p[4], "x", 1, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "is a FIFO");
  if (mknod(p[6], S_IFCHR | 0600, makedev(1, 3)) == 0) { /* as /dev/null */
    CHECK(mh_write_atomic(p[6], "x", 1, err, sizeof err) != 0);
    CHECK_CONTAINS(err, "is a character device");
    CHECK(lstat(p[6], &st) == 0 && S_ISCHR(st.st_mode));
    unlink(p[6]);
  } else {
    CHECK(errno == EPERM); /* not root: that case is for CI */
  }
  CHECK(mkdir(p[7], 0700) == 0);
  CHECK(mh_write_atomic(p[7], "x", 1, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "is a directory");
  rmdir(p[7]);
  for (int i = 0; i < 6; i++)
    unlink(p[i]);
}

int main(void) {
  char dir[] = "/tmp/merlin-test-lock-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_lock_waits(dir);
  test_lock_bad_dir(dir);
  test_write_kinds(dir);
  char lockfile[600];
  snprintf(lockfile, sizeof lockfile, "%s/.merlin-lock", dir);
  unlink(lockfile);
  rmdir(dir);
  return check_report();
}
