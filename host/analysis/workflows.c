/* SPDX-License-Identifier: Apache-2.0 */
#include "analysis/workflows.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int is_provision(const mh_wf *w) {
  return strcmp(w->workflow, "provision") == 0;
}

const mh_wf *mh_an_wf_reference(const mh_run *run, const mh_wf *w) {
  const mh_wf *first = NULL;
  if (!is_provision(w))
    return NULL;
  for (size_t i = 0; i < run->n_wfs; i++) {
    const mh_wf *c = &run->wfs[i];
    if (!is_provision(c) || strcmp(c->variant, "classical-p256") != 0 ||
        !c->n_samples)
      continue;
    if (strcmp(c->backend, w->backend) == 0)
      return c;
    if (!first)
      first = c;
  }
  return first;
}

void mh_an_wf_bytes(const mh_wf *w, uint64_t *sent, uint64_t *recv) {
  *sent = *recv = 0;
  for (size_t k = 0; k < w->n_msgs; k++)
    *(w->msgs[k].tx ? sent : recv) += w->msgs[k].bytes;
}

/* One compared value: keep the extremes and their labels. */
typedef struct {
  size_t n;
  double largest;
  char *what;
  size_t what_len;
} fair_acc;

static void fair_group(fair_acc *a, const double *v, const char *const *label,
                       size_t n, const char *name) {
  if (n < 2)
    return;
  size_t lo = 0, hi = 0;
  for (size_t i = 1; i < n; i++) {
    if (v[i] < v[lo])
      lo = i;
    if (v[i] > v[hi])
      hi = i;
  }
  a->n += n;
  double d = v[lo] > 0 ? v[hi] / v[lo] - 1.0 : (v[hi] > 0 ? INFINITY : 0);
  if (d > a->largest || !a->what[0]) {
    a->largest = d;
    snprintf(a->what, a->what_len, "%s: %s vs %s", name, label[hi], label[lo]);
  }
}

#define FAIR_MAX 256

size_t mh_an_wf_fairness(const mh_results *r, const char *target,
                         double *largest, char *what, size_t what_len) {
  fair_acc a = {0, 0, what, what_len};
  what[0] = '\0';
  double v[FAIR_MAX];
  char labels[FAIR_MAX][96];
  const char *lp[FAIR_MAX];
  /* Within the images: the control after every workflow. */
  for (int k = 0; k < 2; k++) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_runs; i++) {
      const mh_result *x = &r->runs[i];
      if (strcmp(x->target, target) != 0)
        continue;
      for (size_t j = 0; j < x->run.n_wfs && n < FAIR_MAX; j++) {
        const mh_wf *w = &x->run.wfs[j];
        if (!w->has_ctl[k])
          continue;
        v[n] = w->ctl[k];
        snprintf(labels[n], sizeof labels[n], "after %s %s (%s)", w->workflow,
                 w->variant, w->backend);
        lp[n] = labels[n];
        n++;
      }
    }
    char name[64];
    snprintf(name, sizeof name, "%s control", mh_wf_ctl_alg[k]);
    fair_group(&a, v, lp, n, name);
  }
  /* Across the images: each control operation, backend and payload. */
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    if (strcmp(x->target, target) != 0)
      continue;
    for (size_t o = 0; o < x->run.n_ops; o++) {
      const mh_op *op = &x->run.ops[o];
      if ((strcmp(op->alg, "hkdf-sha256") != 0 &&
           strcmp(op->alg, "hmac-sha256") != 0) ||
          !op->n_samples)
        continue;
      /* Only the first run holding this op gathers the group. */
      int seen = 0;
      for (size_t p = 0; p < i && !seen; p++)
        if (strcmp(r->runs[p].target, target) == 0)
          for (size_t q = 0; q < r->runs[p].run.n_ops && !seen; q++) {
            const mh_op *z = &r->runs[p].run.ops[q];
            seen = strcmp(z->alg, op->alg) == 0 &&
                   strcmp(z->backend, op->backend) == 0 &&
                   z->bytes == op->bytes && z->n_samples;
          }
      if (seen)
        continue;
      size_t n = 0;
      for (size_t p = i; p < r->n_runs && n < FAIR_MAX; p++) {
        const mh_result *y = &r->runs[p];
        if (strcmp(y->target, target) != 0)
          continue;
        for (size_t q = 0; q < y->run.n_ops; q++) {
          const mh_op *z = &y->run.ops[q];
          if (strcmp(z->alg, op->alg) == 0 &&
              strcmp(z->backend, op->backend) == 0 && z->bytes == op->bytes &&
              z->n_samples) {
            v[n] = z->stats.median;
            snprintf(labels[n], sizeof labels[n], "image %s", y->profile);
            lp[n] = labels[n];
            n++;
            break;
          }
        }
      }
      char name[96];
      snprintf(name, sizeof name, "%s %s on %s (%ld B)", op->alg, op->op,
               op->backend, op->bytes);
      fair_group(&a, v, lp, n, name);
    }
  }
  *largest = a.largest;
  return a.n;
}
