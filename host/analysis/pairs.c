/* SPDX-License-Identifier: Apache-2.0 */
#include "analysis/pairs.h"

#include "model/cycles.h"

#include <stdlib.h>

const mh_an_cmp_op mh_an_cmp_ops[] = {
    {"ecdh-p256", "keygen", "ECDH P-256 keygen"},
    {"ecdh-p256", "shared", "ECDH P-256 shared secret"},
    {"ecdsa-p256", "sign", "ECDSA P-256 sign"},
    {"ecdsa-p256", "verify", "ECDSA P-256 verify"},
    {"x25519", "keygen", "X25519 keygen"},
    {"x25519", "shared", "X25519 shared secret"},
    {"ed25519", "sign", "Ed25519 sign"},
    {"ed25519", "verify", "Ed25519 verify"},
    {"ml-kem-512", "keygen", "ML-KEM-512 keygen"},
    {"ml-kem-512", "encaps", "ML-KEM-512 encaps"},
    {"ml-kem-512", "decaps", "ML-KEM-512 decaps"},
    {"ml-kem-768", "keygen", "ML-KEM-768 keygen"},
    {"ml-kem-768", "encaps", "ML-KEM-768 encaps"},
    {"ml-kem-768", "decaps", "ML-KEM-768 decaps"},
    {"ml-dsa-44", "sign", "ML-DSA-44 sign"},
    {"ml-dsa-44", "verify", "ML-DSA-44 verify"},
    {"ml-dsa-65", "sign", "ML-DSA-65 sign"},
    {"ml-dsa-65", "verify", "ML-DSA-65 verify"},
};
const size_t mh_an_n_cmp_ops = sizeof mh_an_cmp_ops / sizeof mh_an_cmp_ops[0];

int mh_an_cmp_index(const mh_op *op) {
  for (size_t c = 0; c < mh_an_n_cmp_ops; c++)
    if (mh_str_same(op->alg, mh_an_cmp_ops[c].alg) &&
        mh_str_same(op->op, mh_an_cmp_ops[c].op))
      return (int)c;
  return -1;
}

static const mh_an_job KE_REF[] = {
    {"ECDH P-256 keygen + shared", "ecdh-p256", "keygen", "shared"},
    {"X25519 keygen + shared", "x25519", "keygen", "shared"}};
static const mh_an_job KE_INIT[] = {
    {"ML-KEM-512 keygen + decaps", "ml-kem-512", "keygen", "decaps"},
    {"ML-KEM-768 keygen + decaps", "ml-kem-768", "keygen", "decaps"}};
static const mh_an_job KE_RESP[] = {
    {"ML-KEM-512 encaps", "ml-kem-512", "encaps", NULL},
    {"ML-KEM-768 encaps", "ml-kem-768", "encaps", NULL}};
static const mh_an_job VF_REF[] = {
    {"ECDSA P-256 verify", "ecdsa-p256", "verify", NULL},
    {"Ed25519 verify", "ed25519", "verify", NULL}};
static const mh_an_job VF_PQ[] = {
    {"ML-DSA-44 verify", "ml-dsa-44", "verify", NULL},
    {"ML-DSA-65 verify", "ml-dsa-65", "verify", NULL}};
static const mh_an_job SG_REF[] = {
    {"ECDSA P-256 sign", "ecdsa-p256", "sign", NULL},
    {"Ed25519 sign", "ed25519", "sign", NULL}};
static const mh_an_job SG_PQ[] = {
    {"ML-DSA-44 sign", "ml-dsa-44", "sign", NULL},
    {"ML-DSA-65 sign", "ml-dsa-65", "sign", NULL}};

#define JOBS(a) a, sizeof a / sizeof a[0]
const mh_an_contest mh_an_contests[MH_AN_N_CONTESTS] = {
    [MH_AN_KE_INIT] = {JOBS(KE_REF), JOBS(KE_INIT)},
    [MH_AN_KE_RESP] = {JOBS(KE_REF), JOBS(KE_RESP)},
    [MH_AN_VERIFY] = {JOBS(VF_REF), JOBS(VF_PQ)},
    [MH_AN_SIGN] = {JOBS(SG_REF), JOBS(SG_PQ)},
};
#undef JOBS

static const mh_op *op_of(const mh_run *run, const char *alg, const char *op,
                          const char *backend) {
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (mh_str_same(o->alg, alg) && mh_str_same(o->op, op) &&
        mh_str_same(o->backend, backend) && o->n_samples)
      return o;
  }
  return NULL;
}

int mh_an_job_cost(const mh_run *run, const mh_an_job *j, const char *backend,
                   double *median, double *p99) {
  const mh_op *a = op_of(run, j->alg, j->op1, backend);
  const mh_op *b = j->op2 ? op_of(run, j->alg, j->op2, backend) : NULL;
  if (!a || (j->op2 && !b))
    return 0;
  *median = a->stats.median + (b ? b->stats.median : 0);
  *p99 = a->stats.p99 + (b ? b->stats.p99 : 0);
  return 1;
}

/* The backends job j has in run, one per operation of its first kind, in
 * run order: op i when it starts job j with a cost; its cost. */
static int job_at(const mh_run *run, const mh_an_job *j, size_t i, double *m,
                  double *p) {
  const mh_op *o = &run->ops[i];
  return mh_str_same(o->alg, j->alg) && mh_str_same(o->op, j->op1) &&
         mh_an_job_cost(run, j, o->backend, m, p);
}

typedef struct {
  mh_an_ratio *v;
  size_t n, cap;
  int failed;
} ratios;

static void add(ratios *r, const mh_an_job *pq, const char *pqb, double pm,
                double pp, const mh_an_job *ref, const char *refb, double rm,
                double rp) {
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 8;
    mh_an_ratio *v = realloc(r->v, cap * sizeof *v);
    if (!v) {
      r->failed = 1;
      return;
    }
    r->v = v;
    r->cap = cap;
  }
  r->v[r->n++] =
      (mh_an_ratio){pq, ref, pqb, refb, pm / rm, rp > 0 ? pp / rp : 0};
}

static void every(const mh_run *run, const mh_an_contest *c, ratios *out) {
  for (size_t r = 0; r < c->n_ref; r++)
    for (size_t i = 0; i < run->n_ops; i++) {
      double rm, rp, pm, pp;
      if (!job_at(run, &c->ref[r], i, &rm, &rp) || rm <= 0)
        continue;
      for (size_t q = 0; q < c->n_pq; q++)
        for (size_t k = 0; k < run->n_ops; k++)
          if (job_at(run, &c->pq[q], k, &pm, &pp))
            add(out, &c->pq[q], run->ops[k].backend, pm, pp, &c->ref[r],
                run->ops[i].backend, rm, rp);
    }
}

static void same_backend(const mh_run *run, const mh_an_contest *c,
                         ratios *out) {
  for (size_t q = 0; q < c->n_pq; q++)
    for (size_t r = 0; r < c->n_ref; r++)
      for (size_t k = 0; k < run->n_ops; k++) {
        double rm, rp, pm, pp;
        const char *pqb = run->ops[k].backend, *refb = pqb;
        if (!job_at(run, &c->pq[q], k, &pm, &pp))
          continue;
        if (!mh_an_job_cost(run, &c->ref[r], pqb, &rm, &rp)) {
          refb = NULL;
          for (size_t i = 0; i < run->n_ops && !refb; i++)
            if (job_at(run, &c->ref[r], i, &rm, &rp))
              refb = run->ops[i].backend;
        }
        if (refb && rm > 0)
          add(out, &c->pq[q], pqb, pm, pp, &c->ref[r], refb, rm, rp);
      }
}

int mh_an_ratios(const mh_run *run, mh_an_contest_id c, mh_an_pairing how,
                 mh_an_ratio **out, size_t *n) {
  ratios r = {0};
  if (how == MH_AN_EVERY)
    every(run, &mh_an_contests[c], &r);
  else
    same_backend(run, &mh_an_contests[c], &r);
  if (r.failed) {
    free(r.v);
    return -1;
  }
  *out = r.v;
  *n = r.n;
  return 0;
}

/* The cheapest of jobs j[0..n) in run by cost: the job, its backend and
 * cost; 0 when none has a cost. */
static int cheapest(const mh_run *run, const mh_an_job *j, size_t n,
                    mh_an_cost_fn cost, const mh_an_job **job,
                    const char **backend, double *c) {
  int any = 0;
  for (size_t q = 0; q < n; q++)
    for (size_t k = 0; k < run->n_ops; k++) {
      const mh_op *o = &run->ops[k];
      if (!mh_str_same(o->alg, j[q].alg) || !mh_str_same(o->op, j[q].op1))
        continue;
      double v = cost(run, &j[q], o->backend);
      if (v < 0 || (any && v >= *c))
        continue;
      *job = &j[q];
      *backend = o->backend;
      *c = v;
      any = 1;
    }
  return any;
}

int mh_an_best_pair(const mh_run *run, mh_an_contest_id c, mh_an_cost_fn cost,
                    mh_an_best *out) {
  const mh_an_contest *ct = &mh_an_contests[c];
  return cheapest(run, ct->pq, ct->n_pq, cost, &out->pq, &out->pq_backend,
                  &out->pq_cost) &&
         cheapest(run, ct->ref, ct->n_ref, cost, &out->ref, &out->ref_backend,
                  &out->ref_cost) &&
         out->ref_cost > 0;
}

double mh_an_cost_median(const mh_run *run, const mh_an_job *j,
                         const char *backend) {
  double m, p;
  return mh_an_job_cost(run, j, backend, &m, &p) ? m : -1;
}

/* The sum over job j's operations on backend of field(op), a value the
 * cycle model gives (< 0: none); < 0 when an operation has none. */
static double job_sum(const mh_run *run, const mh_an_job *j,
                      const char *backend, double (*field)(const mh_op *)) {
  double sum = 0;
  for (int k = 0; k < 1 + (j->op2 != NULL); k++) {
    const mh_op *o = op_of(run, j->alg, k ? j->op2 : j->op1, backend);
    double v = o && o->cyc ? field(o) : -1;
    if (v < 0)
      return -1;
    sum += v;
  }
  return sum;
}

static double est_of(const mh_op *o) {
  return o->cyc->has_est ? o->cyc->est.median : -1;
}

static double energy_of(const mh_op *o) {
  return o->cyc->est_energy_uj > 0 ? o->cyc->est_energy_uj : -1;
}

double mh_an_cost_est(const mh_run *run, const mh_an_job *j,
                      const char *backend) {
  return job_sum(run, j, backend, est_of);
}

double mh_an_energy(const mh_run *run, const mh_an_job *j,
                    const char *backend) {
  return job_sum(run, j, backend, energy_of);
}

int mh_an_run_has_est(const mh_run *run) {
  return run->cyc && run->cyc->model && !run->cyc->absent;
}

int mh_an_answer_of(const mh_run *run, mh_an_contest_id c, int use_est,
                    mh_an_answer *out) {
  mh_an_answer a = {0};
  a.est = use_est && mh_an_best_pair(run, c, mh_an_cost_est, &a.best);
  if (!a.est && !mh_an_best_pair(run, c, mh_an_cost_median, &a.best))
    return 0;
  mh_an_ratio *v = NULL;
  if (mh_an_ratios(run, c, MH_AN_SAME_BACKEND, &v, &a.n) != 0)
    return -1;
  for (size_t i = 0; i < a.n; i++)
    a.cheaper += v[i].median < 1;
  free(v);
  a.pq_uj = mh_an_energy(run, a.best.pq, a.best.pq_backend);
  a.ref_uj = mh_an_energy(run, a.best.ref, a.best.ref_backend);
  *out = a;
  return 1;
}
