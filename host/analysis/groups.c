/* SPDX-License-Identifier: Apache-2.0 */
#include "analysis/groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int in_group(const mh_op *op, const mh_an_group *g) {
  return mh_str_same(op->backend, g->backend) &&
         (!g->variant || mh_str_same(op->variant, g->variant));
}

size_t mh_an_groups(const mh_run *run, mh_an_group *g) {
  size_t n = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    int seen = 0, other_variant = 0;
    for (size_t k = 0; k < run->n_ops; k++)
      if (mh_str_same(run->ops[k].backend, op->backend) &&
          !mh_str_same(run->ops[k].variant, op->variant))
        other_variant = 1;
    mh_an_group cand = {op->backend, other_variant ? op->variant : NULL};
    for (size_t k = 0; k < n; k++)
      if (mh_str_same(g[k].backend, cand.backend) &&
          mh_str_same(g[k].variant, cand.variant))
        seen = 1;
    if (!seen)
      g[n++] = cand;
  }
  return n;
}

int mh_an_same_row(const mh_op *a, const mh_op *b) {
  return mh_str_same(a->alg, b->alg) && mh_str_same(a->op, b->op) &&
         a->bytes == b->bytes;
}

int mh_an_first_of_row(const mh_run *run, size_t i) {
  for (size_t j = 0; j < i; j++)
    if (mh_an_same_row(&run->ops[j], &run->ops[i]))
      return 0;
  return 1;
}

const mh_op *mh_an_row_cell(const mh_run *run, size_t i, const mh_an_group *g) {
  for (size_t j = i; j < run->n_ops; j++)
    if (mh_an_same_row(&run->ops[j], &run->ops[i]) && in_group(&run->ops[j], g))
      return &run->ops[j];
  return NULL;
}

const mh_op *mh_an_fastest(const mh_run *run, size_t i, size_t *n_backends) {
  const mh_op *o = &run->ops[i], *best = o;
  *n_backends = 0;
  for (size_t k = 0; k < run->n_ops; k++) {
    const mh_op *p = &run->ops[k];
    if (mh_an_same_row(p, o) && p->n_samples) {
      ++*n_backends;
      if (p->stats.median < best->stats.median)
        best = p;
    }
  }
  return best;
}

int mh_an_spread(const mh_op *o) {
  return o->n_samples >= 2 && o->stats.cv > MH_AN_WIDE_CV &&
         o->stats.median > 0;
}

int mh_an_payload_of(const mh_op *p, const mh_op *o) {
  return mh_str_same(p->alg, o->alg) && mh_str_same(p->op, o->op) &&
         mh_str_same(p->backend, o->backend) && p->bytes >= 0 && p->n_samples;
}

int mh_an_first_payload(const mh_run *run, size_t i) {
  const mh_op *o = &run->ops[i];
  if (o->bytes < 0 || o->n_samples == 0)
    return 0;
  for (size_t j = 0; j < i; j++)
    if (mh_an_payload_of(&run->ops[j], o))
      return 0;
  return 1;
}

int mh_an_payload_fit(const mh_run *run, size_t i, mh_an_fit *fit) {
  const mh_op *o = &run->ops[i];
  if (!mh_an_first_payload(run, i))
    return 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  size_t n = 0;
  for (size_t j = i; j < run->n_ops; j++) {
    const mh_op *p = &run->ops[j];
    if (!mh_an_payload_of(p, o))
      continue;
    double xv = (double)p->bytes, yv = p->stats.median;
    sx += xv, sy += yv, sxx += xv * xv, sxy += xv * yv, n++;
  }
  double den = (double)n * sxx - sx * sx;
  if (n < 2 || den == 0.0)
    return 0;
  fit->rate = ((double)n * sxy - sx * sy) / den;
  fit->fixed = (sy - fit->rate * sx) / (double)n;
  fit->worst = 0;
  for (size_t j = i; j < run->n_ops; j++) {
    const mh_op *p = &run->ops[j];
    if (!mh_an_payload_of(p, o) || p->stats.median == 0)
      continue;
    double r =
        fabs(p->stats.median - (fit->fixed + fit->rate * (double)p->bytes)) /
        p->stats.median;
    fit->worst = r > fit->worst ? r : fit->worst;
  }
  fit->n_points = n;
  return 1;
}

int mh_an_first_alg(const mh_results *r, size_t ri, size_t oi) {
  const mh_op *me = &r->runs[ri].run.ops[oi];
  for (size_t i = 0; i <= ri; i++)
    for (size_t k = 0; k < (i == ri ? oi : r->runs[i].run.n_ops); k++) {
      const mh_op *o = &r->runs[i].run.ops[k];
      if (mh_str_same(o->alg, me->alg) && mh_str_same(o->backend, me->backend))
        return 0;
    }
  return 1;
}

int mh_an_alg_ops(const mh_results *r, const char *alg, const char *backend,
                  const mh_op ***cols, size_t *n) {
  const mh_op **v = NULL;
  size_t nc = 0, cap = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    for (size_t k = 0; k < r->runs[i].run.n_ops; k++) {
      const mh_op *o = &r->runs[i].run.ops[k];
      if (!mh_str_same(o->alg, alg) || !mh_str_same(o->backend, backend))
        continue;
      int dup = 0;
      for (size_t c = 0; c < nc && !dup; c++)
        dup = mh_str_same(v[c]->op, o->op) && v[c]->bytes == o->bytes;
      if (dup)
        continue;
      if (nc == cap) {
        size_t ncap = cap ? cap * 2 : 8;
        const mh_op **g = realloc(v, ncap * sizeof *g);
        if (!g) {
          free(v);
          return -1;
        }
        v = g;
        cap = ncap;
      }
      v[nc++] = o;
    }
  *cols = v;
  *n = nc;
  return 0;
}

int mh_an_comparable_runs(const mh_results *r, size_t i, size_t j) {
  const mh_result *x = &r->runs[i], *y = &r->runs[j];
  if (!x->run.unit || !y->run.unit || strcmp(x->run.unit, y->run.unit) != 0)
    return 0;
  return !(strcmp(x->target, y->target) == 0 &&
           strcmp(x->profile, y->profile) == 0);
}
