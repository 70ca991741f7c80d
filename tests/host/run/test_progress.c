/* SPDX-License-Identifier: Apache-2.0 */
/* The progress of a running target (host/run/progress.c): operations done
 * of those announced, the one running, and the time left from the
 * recorded run of the image; the job board's note (host/run/jobs.c). */
#include "check.h"
#include "run/jobs.h"
#include "run/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void feed(mh_progress *p, const char *line) {
  mh_progress_console(p, line, strlen(line));
}

/* Two operations announced, the first running, then done. */
static void announce_two(mh_progress *p) {
  feed(p, "@M1 1 op id=1 alg=sha256 op=hash bytes=64 backend=wolfcrypt");
  feed(p, "@M1 2 op id=2 alg=ml-kem-512 op=keygen bytes=- backend=wolfcrypt");
  feed(p, "@M1 3 overhead ticks=1");
  feed(p, "@M1 4 kat id=1 result=pass");
  feed(p, "@M1 5 plan id=1 batch=1 warmup=1 n=3");
}

static void test_status(void) {
  char s[512];
  mh_progress *p = mh_progress_new("qemu-m4", 0, 1);
  CHECK(p != NULL);
  announce_two(p);
  mh_progress_status(p, s, sizeof s);
  CHECK_CONTAINS(s, "0/2 operations, now sha256 hash 64 B (wolfcrypt)");
  feed(p, "@M1 6 opend id=1");
  mh_progress_status(p, s, sizeof s);
  CHECK_CONTAINS(s, "1/2 operations, now ml-kem-512 keygen (wolfcrypt)");
  feed(p, "@M1 7 opend id=2");
  feed(p, "@M1 8 wfcheck id=1 result=pass");
  mh_progress_status(p, s, sizeof s);
  CHECK_CONTAINS(s, "2/2 operations, now end-to-end workflows");
  mh_progress_free(p);
}

/* With a record of these options: the time left is the recorded time of
 * the operations still to run. */
static void test_left(void) {
  char dir[] = "/tmp/merlin-progress-XXXXXX", path[64], s[512];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/durations.txt", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  fputs("merlin-durations 1\nkey runs=3\ntotal 1000.000\n"
        "op 200.000 sha256 hash 64 B (wolfcrypt)\n"
        "op 700.000 ml-kem-512 keygen (wolfcrypt)\n",
        f);
  fclose(f);
  mh_progress *p = mh_progress_new("qemu-m4", 0, 1);
  CHECK(mh_progress_record(p, path, "runs=3") == 0);
  announce_two(p);
  mh_progress_status(p, s, sizeof s);
  /* 900 s of operations less the second or so this test has taken */
  CHECK_CONTAINS(s, "0/2 operations, now sha256 hash 64 B (wolfcrypt); "
                    "about 9");
  mh_progress_free(p);
  /* Other options: no expectation. */
  p = mh_progress_new("qemu-m4", 0, 1);
  CHECK(mh_progress_record(p, path, "runs=4") == 0);
  announce_two(p);
  mh_progress_status(p, s, sizeof s);
  CHECK(strstr(s, "left") == NULL);
  mh_progress_free(p);
  unlink(path);
  rmdir(dir);
}

/* The constant-time pass says so. */
static void test_ct_pass(void) {
  char s[512];
  mh_progress *p = mh_progress_new("qemu-m4", 0, 1);
  mh_progress_ct_pass(p);
  announce_two(p);
  mh_progress_status(p, s, sizeof s);
  CHECK_CONTAINS(s, "constant-time pass, 0/2 operations, now sha256");
  mh_progress_free(p);
}

static void test_note(void) {
  const char *labels[] = {"qemu-m4 default", "host default"};
  mh_jobboard *b = mh_jobboard_new(2, labels, 0, 1);
  CHECK(b != NULL);
  mh_jobboard_set(b, 0, MH_JOB_RUNNING);
  mh_jobboard_note(b, 0, "1/2 operations");
  mh_jobboard_note(b, 0, NULL);
  mh_jobboard_note(b, 0, "2/2 operations");
  mh_jobboard_note(b, 7, "out of range: ignored");
  mh_jobboard_set(b, 0, MH_JOB_DONE); /* the note goes with the state */
  mh_jobboard_free(b);
}

int main(void) {
  test_status();
  test_left();
  test_ct_pass();
  test_note();
  return check_report();
}
