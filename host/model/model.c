/* SPDX-License-Identifier: Apache-2.0 */
#include "model/model.h"
#include "model/ct.h"
#include "model/cycles.h"
#include "model/workflow.h"

#include <stdlib.h>
#include <string.h>

const char *mh_run_prov(const mh_run *run, const char *key) {
  if (!run || !key)
    return NULL;
  for (size_t i = 0; i < run->n_prov; i++)
    if (run->prov[i].key && strcmp(run->prov[i].key, key) == 0)
      return run->prov[i].value;
  return NULL;
}

int mh_obj_valid(const char *s) {
  if (!s || !*s)
    return 0;
  for (;;) {
    size_t n = 0;
    while (s[n] >= 'a' && s[n] <= 'z')
      n++;
    if (n == 0 || n > 15 || s[n] != ':')
      return 0;
    s += n + 1;
    n = 0;
    while (s[n] >= '0' && s[n] <= '9')
      n++;
    if (n == 0 || n > 9)
      return 0;
    s += n;
    if (*s == '\0')
      return 1;
    if (*s++ != ',')
      return 0;
  }
}

int mh_obj_get(const char *s, size_t i, char *name, size_t namelen,
               unsigned long long *value) {
  for (size_t k = 0; s && *s; k++) {
    const char *colon = strchr(s, ':');
    if (!colon)
      return -1;
    if (k == i) {
      size_t n = (size_t)(colon - s);
      if (n >= namelen)
        n = namelen ? namelen - 1 : 0;
      if (namelen) {
        memcpy(name, s, n);
        name[n] = '\0';
      }
      *value = strtoull(colon + 1, NULL, 10);
      return 0;
    }
    const char *comma = strchr(colon, ',');
    if (!comma)
      return -1;
    s = comma + 1;
  }
  return -1;
}

/* Tolerates a partly built run (the wire reader frees its state this way on
 * every error path), so every pointer may be NULL. */
void mh_run_free(mh_run *run) {
  if (!run)
    return;
  for (size_t i = 0; i < run->n_prov; i++) {
    free(run->prov[i].key);
    free(run->prov[i].value);
  }
  free(run->prov);
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_op *op = &run->ops[i];
    free(op->alg);
    free(op->op);
    free(op->backend);
    free(op->variant);
    free(op->obj);
    free(op->ct_methods);
    free(op->ct_detail);
    free(op->kat_detail);
    free(op->raw);
    free(op->error_msg);
    free(op->samples);
    mh_cyc_op_free(op->cyc);
    free(op->cyc);
    mh_ct_trace_free(op->ct_trace);
    free(op->ct_trace);
  }
  free(run->ops);
  free(run->ctl);
  free(run->ctl_cycles);
  mh_cyc_run_free(run->cyc);
  free(run->cyc);
  free(run->error_msg);
  mh_wf_free_all(run);
  free(run->unit);
  memset(run, 0, sizeof *run);
}

int mh_str_same(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

const mh_op *mh_run_find_op(const mh_run *run, const mh_op *like) {
  const mh_op *first = NULL;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *o = &run->ops[i];
    if (mh_str_same(o->alg, like->alg) && mh_str_same(o->op, like->op) &&
        mh_str_same(o->backend, like->backend) && o->bytes == like->bytes) {
      if (!o->variant || !like->variant ||
          strcmp(o->variant, like->variant) == 0)
        return o;
      if (!first)
        first = o;
    }
  }
  return first;
}

static int cmp_str(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "");
}

/* Order of operations by (alg, op, backend, variant, bytes), then index. */
static int cmp_op_key(const void *x, const void *y) {
  const mh_op *a = *(const mh_op *const *)x, *b = *(const mh_op *const *)y;
  int c;
  if ((c = cmp_str(a->alg, b->alg)) || (c = cmp_str(a->op, b->op)) ||
      (c = cmp_str(a->backend, b->backend)) ||
      (c = cmp_str(a->variant, b->variant)))
    return c;
  if (a->bytes != b->bytes)
    return a->bytes < b->bytes ? -1 : 1;
  return (a > b) - (a < b);
}

int mh_run_dup_op(const mh_run *run, size_t *first, size_t *second) {
  if (run->n_ops < 2)
    return 0;
  const mh_op **v = malloc(run->n_ops * sizeof *v);
  if (!v)
    return -1;
  for (size_t i = 0; i < run->n_ops; i++)
    v[i] = &run->ops[i];
  qsort(v, run->n_ops, sizeof *v, cmp_op_key);
  int found = 0;
  for (size_t i = 1; i < run->n_ops; i++) {
    const mh_op *a = v[i - 1], *b = v[i];
    if (!cmp_str(a->alg, b->alg) && !cmp_str(a->op, b->op) &&
        !cmp_str(a->backend, b->backend) && !cmp_str(a->variant, b->variant) &&
        a->bytes == b->bytes) {
      size_t ia = (size_t)(a - run->ops), ib = (size_t)(b - run->ops);
      /* the pair whose second member comes earliest in the run */
      if (!found || ib < *second) {
        *first = ia;
        *second = ib;
      }
      found = 1;
    }
  }
  free(v);
  return found;
}
