/* SPDX-License-Identifier: Apache-2.0 */
/* The analysis the reports format (host/analysis/): groups, rows, fastest
 * backend, spread, cost versus payload and the post-quantum/classical
 * ratios, on small runs built here with values worked out by hand. */
#include "analysis/groups.h"
#include "analysis/pairs.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define TOL 1e-12

/* Appends an operation with n_samples 1 and the given median and p99. */
static mh_op *add(mh_run *run, const char *alg, const char *op,
                  const char *backend, long bytes, double median, double p99) {
  mh_op *v = realloc(run->ops, (run->n_ops + 1) * sizeof *v);
  if (!v)
    abort();
  run->ops = v;
  mh_op *o = &run->ops[run->n_ops++];
  memset(o, 0, sizeof *o);
  o->alg = strdup(alg);
  o->op = strdup(op);
  o->backend = strdup(backend);
  o->bytes = bytes;
  o->n_samples = 1;
  o->n = 1;
  o->samples = malloc(sizeof *o->samples);
  o->samples[0] = median;
  o->stats.median = median;
  o->stats.p99 = p99;
  return o;
}

static void test_rows_and_groups(void) {
  mh_run run = {0};
  add(&run, "sha256", "hash", "a", 64, 10, 11);
  add(&run, "sha256", "hash", "b", 64, 5, 6);
  add(&run, "sha256", "hash", "a", 1024, 100, 110);
  mh_op *v = add(&run, "sha256", "hash", "b", 64, 7, 8);
  v->variant = strdup("asm");
  mh_an_group g[4];
  /* b has two variants (none, asm): its columns split; a keeps one. */
  CHECK(mh_an_groups(&run, g) == 3);
  CHECK(strcmp(g[0].backend, "a") == 0 && !g[0].variant);
  CHECK(strcmp(g[1].backend, "b") == 0 && !g[1].variant);
  CHECK(strcmp(g[2].backend, "b") == 0 && strcmp(g[2].variant, "asm") == 0);
  CHECK(mh_an_first_of_row(&run, 0) && !mh_an_first_of_row(&run, 1));
  CHECK(mh_an_first_of_row(&run, 2) && !mh_an_first_of_row(&run, 3));
  CHECK(mh_an_row_cell(&run, 0, &g[1]) == &run.ops[1]);
  CHECK(mh_an_row_cell(&run, 0, &g[2]) == &run.ops[3]);
  CHECK(mh_an_row_cell(&run, 2, &g[1]) == NULL);
  size_t nb;
  CHECK(mh_an_fastest(&run, 0, &nb) == &run.ops[1] && nb == 3);
  CHECK(mh_an_fastest(&run, 2, &nb) == &run.ops[2] && nb == 1);
  mh_run_free(&run);
}

static void test_spread(void) {
  mh_run run = {0};
  mh_op *o = add(&run, "ml-dsa-44", "sign", "a", -1, 100, 300);
  o->n_samples = 2;
  o->stats.cv = MH_AN_WIDE_CV; /* at the limit: not spread */
  CHECK(!mh_an_spread(o));
  o->stats.cv = 0.2;
  CHECK(mh_an_spread(o));
  o->n_samples = 1; /* one sample has no spread */
  CHECK(!mh_an_spread(o));
  mh_run_free(&run);
}

static void test_payload_fit(void) {
  mh_run run = {0};
  /* The least-squares line through (0, 50), (100, 250), (200, 470): rate
   * (3 * 119000 - 300 * 770) / (3 * 50000 - 300^2) = 2.1, fixed
   * (770 - 2.1 * 300) / 3 = 46.67; the worst residual is at 0 B,
   * |50 - 46.67| / 50. Backend b's payload is another operation. */
  add(&run, "sha256", "hash", "a", 0, 50, 50);
  add(&run, "sha256", "hash", "b", 0, 1, 1);
  add(&run, "sha256", "hash", "a", 100, 250, 250);
  add(&run, "sha256", "hash", "a", 200, 470, 470);
  mh_an_fit f;
  CHECK(mh_an_first_payload(&run, 0) && mh_an_first_payload(&run, 1));
  CHECK(!mh_an_first_payload(&run, 2));
  CHECK(mh_an_payload_fit(&run, 0, &f) == 1);
  CHECK_EQ_DBL(f.rate, 2.1, 1e-9);
  CHECK_EQ_DBL(f.fixed, 140.0 / 3.0, 1e-9);
  CHECK(f.n_points == 3);
  CHECK_EQ_DBL(f.worst, (50 - 140.0 / 3.0) / 50, 1e-9);
  CHECK(mh_an_payload_fit(&run, 1, &f) == 0); /* one payload: no line */
  CHECK(mh_an_payload_fit(&run, 2, &f) == 0); /* not the first */
  mh_run_free(&run);
}

static void test_ratios(void) {
  mh_run run = {0};
  add(&run, "ecdh-p256", "keygen", "w", -1, 100, 200);
  add(&run, "ecdh-p256", "shared", "w", -1, 300, 400);
  add(&run, "ml-kem-512", "keygen", "w", -1, 40, 60);
  add(&run, "ml-kem-512", "decaps", "w", -1, 60, 90);
  add(&run, "ml-kem-512", "keygen", "p", -1, 80, 100);
  add(&run, "ml-kem-512", "decaps", "p", -1, 120, 200);
  add(&run, "ml-kem-512", "encaps", "p", -1, 50, 0);
  CHECK(mh_an_cmp_index(&run.ops[0]) == 0);
  CHECK(mh_an_cmp_index(&run.ops[2]) >= 0);
  double m, p;
  CHECK(mh_an_job_cost(&run, &mh_an_contests[MH_AN_KE_INIT].pq[0], "p", &m,
                       &p) == 1);
  CHECK_EQ_DBL(m, 200, TOL);
  CHECK_EQ_DBL(p, 300, TOL);
  CHECK(mh_an_job_cost(&run, &mh_an_contests[MH_AN_KE_RESP].pq[0], "w", &m,
                       &p) == 0); /* no encaps on w */
  mh_an_ratio *v;
  size_t n;
  /* Every pairing: ECDH on w against ML-KEM-512 on w and on p. */
  CHECK(mh_an_ratios(&run, MH_AN_KE_INIT, MH_AN_EVERY, &v, &n) == 0);
  CHECK(n == 2);
  if (n == 2) {
    CHECK(strcmp(v[0].pq_backend, "w") == 0 &&
          strcmp(v[0].ref_backend, "w") == 0);
    CHECK_EQ_DBL(v[0].median, 100.0 / 400.0, TOL);
    CHECK_EQ_DBL(v[0].p99, 150.0 / 600.0, TOL);
    CHECK(strcmp(v[1].pq_backend, "p") == 0);
    CHECK_EQ_DBL(v[1].median, 200.0 / 400.0, TOL);
  }
  free(v);
  /* Same backend: p has no ECDH, so it falls back to the first measured. */
  CHECK(mh_an_ratios(&run, MH_AN_KE_INIT, MH_AN_SAME_BACKEND, &v, &n) == 0);
  CHECK(n == 2);
  if (n == 2)
    CHECK(strcmp(v[1].pq_backend, "p") == 0 &&
          strcmp(v[1].ref_backend, "w") == 0);
  free(v);
  /* The answering side: encaps against keygen + shared; p99 of the job
   * is 0, the ratio of p99s is 0. */
  CHECK(mh_an_ratios(&run, MH_AN_KE_RESP, MH_AN_EVERY, &v, &n) == 0);
  CHECK(n == 1);
  if (n == 1)
    CHECK_EQ_DBL(v[0].median, 50.0 / 400.0, TOL);
  free(v);
  CHECK(mh_an_ratios(&run, MH_AN_SIGN, MH_AN_EVERY, &v, &n) == 0 && n == 0);
  free(v);
  mh_run_free(&run);
}

static void test_across_runs(void) {
  mh_result x[3] = {0};
  char t1[] = "qemu-m4", t2[] = "qemu-m0plus", pr[] = "default";
  char u1[] = "instructions", u2[] = "ns";
  x[0].target = t1, x[1].target = t2, x[2].target = t1;
  x[0].profile = x[1].profile = x[2].profile = pr;
  x[0].run.unit = u1, x[1].run.unit = u1, x[2].run.unit = u2;
  add(&x[0].run, "x25519", "keygen", "w", -1, 1, 1);
  add(&x[1].run, "x25519", "shared", "w", -1, 1, 1);
  add(&x[1].run, "x25519", "keygen", "w", -1, 1, 1);
  add(&x[1].run, "x25519", "keygen", "c", -1, 1, 1);
  mh_results r = {.runs = x, .n_runs = 2};
  CHECK(mh_an_first_alg(&r, 0, 0));
  CHECK(!mh_an_first_alg(&r, 1, 0) && !mh_an_first_alg(&r, 1, 1));
  CHECK(mh_an_first_alg(&r, 1, 2)); /* another backend */
  const mh_op **cols;
  size_t n;
  CHECK(mh_an_alg_ops(&r, "x25519", "w", &cols, &n) == 0);
  CHECK(n == 2 && cols[0] == &x[0].run.ops[0] && cols[1] == &x[1].run.ops[0]);
  free(cols);
  r.n_runs = 3;
  CHECK(mh_an_comparable_runs(&r, 0, 1));  /* two targets, one unit */
  CHECK(!mh_an_comparable_runs(&r, 0, 2)); /* two units */
  for (size_t i = 0; i < 3; i++) {
    x[i].run.unit = NULL; /* not malloc'd here */
    mh_run_free(&x[i].run);
  }
}

int main(void) {
  test_rows_and_groups();
  test_spread();
  test_payload_fit();
  test_ratios();
  test_across_runs();
  return check_report();
}
