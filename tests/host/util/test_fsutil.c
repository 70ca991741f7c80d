/* SPDX-License-Identifier: Apache-2.0 */
/* File helpers (host/util/fsutil.c): the build-directory lock that keeps two
 * merlin processes from configuring and building one directory at once, and
 * mkdir -p's failure on a path through a regular file. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "util/fsutil.h"

#include <fcntl.h>
#include <stdlib.h>
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

int main(void) {
  char dir[] = "/tmp/merlin-test-lock-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_lock_waits(dir);
  test_lock_bad_dir(dir);
  char lockfile[600];
  snprintf(lockfile, sizeof lockfile, "%s/.merlin-lock", dir);
  unlink(lockfile);
  rmdir(dir);
  return check_report();
}
