/* SPDX-License-Identifier: Apache-2.0 */
/* The names merlin gives in OUT (host/model/results_dir.c): results
 * directories, temporaries checked whole (a pid that would wrap a pid_t
 * is none), OUT/latest only as merlin's own link. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "model/results_dir.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_names(void) {
  CHECK(mh_rdir_stamp("20261207-191235"));
  CHECK(mh_rdir_stamp("20261207-191235-1"));
  CHECK(mh_rdir_stamp("20261207-191235-999"));
  CHECK(!mh_rdir_stamp("20261207-191235-0"));
  CHECK(!mh_rdir_stamp("20261207-191235-1000"));
  CHECK(!mh_rdir_stamp("20261207-191235-01"));
  CHECK(!mh_rdir_stamp("20261207-19123"));
  CHECK(!mh_rdir_stamp("../20261207-191235"));
  CHECK(!mh_rdir_stamp("20261207-191235/x"));
  CHECK(!mh_rdir_stamp("/etc"));
  int dir = -1;
  CHECK(mh_rdir_tmp_pid(".tmp-20261207-191235-4242", &dir) == 4242 && dir);
  CHECK(mh_rdir_tmp_pid(".latest.tmp-4242", &dir) == 4242 && !dir);
  CHECK(mh_rdir_tmp_pid(".tmp-mynotes-999999", &dir) == 0);
  CHECK(mh_rdir_tmp_pid(".tmp-20261207-191235-4242x", &dir) == 0);
  CHECK(mh_rdir_tmp_pid(".tmp-20261207-191235-04242", &dir) == 0);
  CHECK(mh_rdir_tmp_pid(".tmp-20261207-191235--1", &dir) == 0);
  CHECK(mh_rdir_tmp_pid(".tmp-20261207-191235-1", &dir) == 0);
  CHECK(mh_rdir_tmp_pid(".tmp-20261207-191235-4294967297", &dir) == 0);
  CHECK(mh_rdir_tmp_pid(".latest.tmp-", &dir) == 0);
  char m[160];
  size_t n = mh_rdir_marker_text(4242, m, sizeof m);
  CHECK(n > 0 && strstr(m, "process 4242;") != NULL);
}

static void test_latest(void) {
  char out[] = "/tmp/merlin-test-rdir-XXXXXX", t[64], err[512], p[600];
  if (!mkdtemp(out))
    return;
  snprintf(p, sizeof p, "%s/latest", out);
  CHECK(mh_rdir_latest(out, t, sizeof t, err, sizeof err) == 1);
  CHECK(symlink("20261207-191235", p) == 0);
  CHECK(mh_rdir_latest(out, t, sizeof t, err, sizeof err) == 0);
  CHECK(strcmp(t, "20261207-191235") == 0);
  unlink(p);
  CHECK(symlink("/etc", p) == 0);
  CHECK(mh_rdir_latest(out, t, sizeof t, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "points at '/etc'");
  unlink(p);
  CHECK(mkdir(p, 0755) == 0);
  CHECK(mh_rdir_latest(out, t, sizeof t, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "(a directory)");
  rmdir(p);
  rmdir(out);
}

int main(void) {
  test_names();
  test_latest();
  return check_report();
}
