/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler x optimisation matrix (host/run/matrix.c) and the job pool of
 * merlin run -j (host/run/jobs.c). */
#include "check.h"
#include "model/build.h"
#include "run/jobs.h"
#include "run/matrix.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void test_split(void) {
  char **v = NULL, err[256];
  size_t n = 0;
  CHECK(mh_matrix_split("--cc", "gcc,clang", &v, &n, err, sizeof err) == 0);
  CHECK(n == 2 && strcmp(v[0], "gcc") == 0 && strcmp(v[1], "clang") == 0);
  mh_matrix_free(v, n);
  /* --opt values lose a leading '-'. */
  CHECK(mh_matrix_split("--opt", "Os,-O2,O3", &v, &n, err, sizeof err) == 0);
  CHECK(n == 3 && strcmp(v[0], "Os") == 0 && strcmp(v[1], "O2") == 0 &&
        strcmp(v[2], "O3") == 0);
  mh_matrix_free(v, n);
  CHECK(mh_matrix_split("--cc", "gcc,icc", &v, &n, err, sizeof err) == -1);
  CHECK(v == NULL && n == 0);
  CHECK_CONTAINS(err, "unknown compiler 'icc'; valid: gcc, clang");
  CHECK(mh_matrix_split("--opt", "O9", &v, &n, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "unknown optimisation level 'O9'; valid: O0, O1");
  CHECK(mh_matrix_split("--opt", "O2,,Os", &v, &n, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "empty entry");
  CHECK(mh_matrix_split("--cc", "gcc,gcc", &v, &n, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "lists 'gcc' twice");
  /* A '-' only goes for --opt: "-gcc" is no compiler. */
  CHECK(mh_matrix_split("--cc", "-gcc", &v, &n, err, sizeof err) == -1);
  /* a driver by its path: kept as given when absolute, made absolute when
   * relative; a character the image's provenance cannot carry refused */
  CHECK(mh_matrix_split("--cc", "gcc,/opt/tc/bin/arm-none-eabi-gcc", &v, &n,
                        err, sizeof err) == 0);
  CHECK(n == 2 && strcmp(v[1], "/opt/tc/bin/arm-none-eabi-gcc") == 0);
  mh_matrix_free(v, n);
  CHECK(mh_matrix_split("--cc", "tc/bin/gcc", &v, &n, err, sizeof err) == 0);
  CHECK(n == 1 && v[0][0] == '/' && strstr(v[0], "/tc/bin/gcc") != NULL);
  mh_matrix_free(v, n);
  CHECK(mh_matrix_split("--cc", "/opt/a b/gcc", &v, &n, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "a compiler path may hold only letters, digits");
  CHECK(mh_matrix_split("--cc", "/opt/x\"/gcc", &v, &n, err, sizeof err) == -1);
}

static void test_check_cc(void) {
  char err[256];
  const char *old = getenv("PATH");
  char *saved = old ? strdup(old) : NULL;
  CHECK(mh_matrix_check_cc("gcc", err, sizeof err) == 0);
  setenv("PATH", "/nonexistent-merlin-test", 1);
  CHECK(mh_matrix_check_cc("clang", err, sizeof err) == -1);
  CHECK_CONTAINS(err, "clang-19 is not on PATH");
  CHECK_CONTAINS(err, "scripts/setup");
  /* a path needs no PATH, but must name an executable */
  CHECK(mh_matrix_check_cc("/bin/sh", err, sizeof err) == 0);
  CHECK(mh_matrix_check_cc("/nonexistent-merlin-test/gcc", err, sizeof err) ==
        -1);
  CHECK_CONTAINS(err, "not an executable compiler driver");
  if (saved)
    setenv("PATH", saved, 1);
  free(saved);
}

static mh_result result(const char *target, const char *profile, char *compiler,
                        char *cflags, mh_kv kv[2]) {
  mh_result x;
  memset(&x, 0, sizeof x);
  x.target = (char *)target;
  x.profile = (char *)profile;
  kv[0] = (mh_kv){.key = "compiler", .value = compiler};
  kv[1] = (mh_kv){.key = "cflags", .value = cflags};
  x.run.prov = kv;
  x.run.n_prov = 2;
  return x;
}

static void test_rows(void) {
  mh_kv k1[2], k2[2], k3[2], k4[2];
  mh_result a = result("qemu-m4", "p", "arm-none-eabi-gcc GNU 12.2.1",
                       "-mcpu=cortex-m4 -O2 -g -Os -ffunction-sections", k1);
  mh_result b = result("qemu-m4", "p", "clang Clang 14.0.6",
                       "-mcpu=cortex-m4 -fshort-enums -Os -g", k2);
  mh_result c = result("qemu-m4", "p", "cc GNU 12.2.0", "-Os -g", k3);
  mh_result d = result("qemu-m4", "q", "cc GNU 12.2.0", "-Os -g", k4);
  char buf[64];
  mh_result_cc(&a, buf, sizeof buf);
  CHECK(strcmp(buf, "gcc") == 0);
  mh_result_opt(&a, buf, sizeof buf);
  CHECK(strcmp(buf, "-Os") == 0); /* the last -O wins, as in the compiler */
  mh_result_cc(&b, buf, sizeof buf);
  CHECK(strcmp(buf, "clang") == 0);
  CHECK(!mh_result_same_row(&a, &b));
  /* a driver given by its path: its file name and a hash of the path */
  mh_kv k5[2], k6[2];
  mh_result e = result("qemu-m4", "p",
                       "/opt/a/bin/arm-none-eabi-gcc GNU 14.3.1", "-Os", k5);
  mh_result f = result("qemu-m4", "p",
                       "/opt/b/bin/arm-none-eabi-gcc GNU 14.3.1", "-Os", k6);
  char buf2[64];
  mh_result_cc(&e, buf, sizeof buf);
  mh_result_cc(&f, buf2, sizeof buf2);
  CHECK(strncmp(buf, "arm-none-eabi-gcc-", 18) == 0 && strlen(buf) == 26);
  CHECK(strcmp(buf, buf2) != 0);
  CHECK(!mh_result_same_row(&e, &f));
  CHECK(mh_result_same_row(&a, &c));  /* gcc -Os both: one row */
  CHECK(!mh_result_same_row(&c, &d)); /* other profile */
  mh_result runs[2] = {a, d};
  mh_results r = {.runs = runs, .n_runs = 2};
  CHECK(!mh_results_is_matrix(&r));
  runs[1] = b;
  CHECK(mh_results_is_matrix(&r));
}

/* Jobs: every index once, never more than `workers` at a time. */
typedef struct {
  pthread_mutex_t mu;
  int calls[16];
  int active, peak, fail_at;
} pool_state;

static int job(void *ctx, size_t i) {
  pool_state *s = ctx;
  pthread_mutex_lock(&s->mu);
  s->calls[i]++;
  if (++s->active > s->peak)
    s->peak = s->active;
  pthread_mutex_unlock(&s->mu);
  struct timespec ts = {0, 20000000};
  nanosleep(&ts, NULL);
  pthread_mutex_lock(&s->mu);
  s->active--;
  pthread_mutex_unlock(&s->mu);
  return (int)i == s->fail_at ? 1 : 0;
}

static void test_pool(void) {
  size_t idx[8];
  for (size_t i = 0; i < 8; i++)
    idx[i] = 7 - i;
  pool_state s;
  memset(&s, 0, sizeof s);
  pthread_mutex_init(&s.mu, NULL);
  s.fail_at = -1;
  CHECK(mh_jobs_run(idx, 8, 3, job, &s) == 0);
  for (size_t i = 0; i < 8; i++)
    CHECK(s.calls[i] == 1);
  CHECK(s.peak >= 2 && s.peak <= 3);
  /* One worker: strictly one at a time. */
  memset(s.calls, 0, sizeof s.calls);
  s.peak = 0;
  CHECK(mh_jobs_run(idx, 8, 1, job, &s) == 0);
  CHECK(s.peak == 1);
  /* A failure stops new jobs: job 7 is first in idx and fails. */
  memset(s.calls, 0, sizeof s.calls);
  s.fail_at = 7;
  CHECK(mh_jobs_run(idx, 8, 1, job, &s) == 1);
  CHECK(s.calls[7] == 1 && s.calls[6] == 0 && s.calls[0] == 0);
  pthread_mutex_destroy(&s.mu);
  CHECK(mh_jobs_default() >= 1);
}

static void test_board(void) {
  /* Quiet: no output, and state changes are safe from any thread. */
  const char *labels[] = {"a", "b"};
  mh_jobboard *b = mh_jobboard_new(2, labels, 0, 1);
  CHECK(b != NULL);
  mh_jobboard_set(b, 0, MH_JOB_BUILDING);
  mh_jobboard_set(b, 5, MH_JOB_DONE); /* out of range: ignored */
  mh_jobboard_free(b);
}

int main(void) {
  test_split();
  test_check_cc();
  test_rows();
  test_pool();
  test_board();
  return check_report();
}
