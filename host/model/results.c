/* SPDX-License-Identifier: Apache-2.0 */
#include "model/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const mh_alg_cost *mh_result_alg(const mh_result *x, const char *alg,
                                 const char *backend) {
  for (size_t i = 0; i < x->n_algs; i++)
    if (mh_str_same(x->algs[i].alg, alg) &&
        mh_str_same(x->algs[i].backend, backend))
      return &x->algs[i];
  return NULL;
}

static void alg_info_free(mh_alg_cost *a) {
  free(a->alg);
  free(a->backend);
  free(a->variant);
  free(a->obj);
  for (size_t i = 0; i < a->n_libs; i++)
    free(a->libs[i].library);
  free(a->libs);
  for (size_t i = 0; i < a->n_fits; i++) {
    free(a->fit_board[i]);
    free(a->fit_reason[i]);
  }
  free(a->fit_board);
  free(a->fit_reason);
  free(a->fit);
}

int mh_alg_cost_add_fit(mh_alg_cost *a, const char *board, int fit,
                        const char *reason) {
  size_t n = a->n_fits + 1;
  char **b = realloc(a->fit_board, n * sizeof *b);
  if (b)
    a->fit_board = b;
  char **r = realloc(a->fit_reason, n * sizeof *r);
  if (r)
    a->fit_reason = r;
  int *f = realloc(a->fit, n * sizeof *f);
  if (f)
    a->fit = f;
  if (!b || !r || !f)
    return -1;
  a->fit_board[a->n_fits] = strdup(board);
  a->fit_reason[a->n_fits] = strdup(reason ? reason : "");
  a->fit[a->n_fits] = fit;
  a->n_fits++;
  return a->fit_board[n - 1] && a->fit_reason[n - 1] ? 0 : -1;
}

int mh_result_index_algs(mh_result *x) {
  for (size_t k = 0; k < x->run.n_ops; k++) {
    const mh_op *op = &x->run.ops[k];
    if (mh_result_alg(x, op->alg, op->backend))
      continue;
    mh_alg_cost *g = realloc(x->algs, (x->n_algs + 1) * sizeof *g);
    if (!g)
      return -1;
    x->algs = g;
    mh_alg_cost *a = &x->algs[x->n_algs];
    memset(a, 0, sizeof *a);
    a->alg = strdup(op->alg ? op->alg : "");
    a->backend = strdup(op->backend ? op->backend : "");
    a->variant = strdup(op->variant ? op->variant : "");
    a->obj = op->obj ? strdup(op->obj) : NULL;
    x->n_algs++;
    if (!a->alg || !a->backend || !a->variant || (op->obj && !a->obj))
      return -1;
  }
  return 0;
}

static void impl_rec_free(mh_impl_rec *r) {
  free(r->backend);
  free(r->alg);
  free(r->path);
  free(r->sha256);
  free(r->hash);
  free(r->kat_reference);
  free(r->left_out);
  free(r->compiler_workaround);
  free(r->common);
  free(r->flags);
}

int mh_result_add_impl(mh_result *x, const mh_impl_rec *r) {
  mh_impl_rec *g = realloc(x->impls, (x->n_impls + 1) * sizeof *g);
  if (!g)
    return -1;
  x->impls = g;
  mh_impl_rec c = {0};
  const char *const src[] = {
      r->backend, r->alg,           r->path,     r->sha256,
      r->hash,    r->kat_reference, r->left_out, r->compiler_workaround,
      r->common,  r->flags};
  char **const dst[] = {
      &c.backend, &c.alg,           &c.path,     &c.sha256,
      &c.hash,    &c.kat_reference, &c.left_out, &c.compiler_workaround,
      &c.common,  &c.flags};
  for (size_t i = 0; i < sizeof src / sizeof src[0]; i++)
    if (src[i] && !(*dst[i] = strdup(src[i]))) {
      impl_rec_free(&c);
      return -1;
    }
  x->impls[x->n_impls++] = c;
  return 0;
}

void mh_result_free(mh_result *x) {
  for (size_t i = 0; i < x->n_impls; i++)
    impl_rec_free(&x->impls[i]);
  free(x->impls);
  x->impls = NULL;
  x->n_impls = 0;
  free(x->target);
  free(x->profile);
  free(x->qemu_version);
  free(x->host);
  mh_run_free(&x->run);
  for (size_t i = 0; i < x->n_algs; i++)
    alg_info_free(&x->algs[i]);
  free(x->algs);
  x->algs = NULL;
  x->n_algs = 0;
}

void mh_results_free(mh_results *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->n_runs; i++)
    mh_result_free(&r->runs[i]);
  free(r->runs);
  free(r->merlin);
  free(r->created);
  free(r->plan.hash);
  memset(r, 0, sizeof *r);
}

const char *mh_op_bytes_str(const mh_op *op, char buf[24]) {
  if (op->bytes < 0)
    buf[0] = '\0';
  else
    snprintf(buf, 24, "%ld", op->bytes);
  return buf;
}
