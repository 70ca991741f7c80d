/* SPDX-License-Identifier: Apache-2.0 */
#include "run/ct.h"

#include "util/fsutil.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const KINDS[] = {"accepted", "known"};
static const char *const METHODS[] = {"instruction-count", "valgrind"};

const char *mh_ct_status_name(int status) {
  switch (status) {
  case MH_CT_NONE:
    return "none";
  case MH_CT_EXPECTED:
    return "expected";
  case MH_CT_FINDING:
    return "finding";
  default:
    return "unchecked";
  }
}

void mh_ct_list_free(mh_ct_list *l) {
  for (size_t i = 0; l && i < l->n; i++) {
    mh_ct_entry *e = &l->e[i];
    free(e->alg);
    free(e->backend);
    free(e->op);
    free(e->method);
    free(e->kind);
    free(e->reason);
  }
  if (l) {
    free(l->e);
    l->e = NULL;
    l->n = 0;
  }
}

static int one_of(const char *s, const char *const *set, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s, set[i]) == 0)
      return 1;
  return 0;
}

int mh_ct_list_parse(const char *file, const char *buf, size_t len,
                     mh_ct_list *l, char *err, size_t errlen) {
  memset(l, 0, sizeof *l);
  size_t line = 0;
  const char *p = buf, *end = buf + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    char text[1024];
    size_t n = (size_t)(e - p);
    line++;
    if (n >= sizeof text) {
      snprintf(err, errlen, "%s:%zu: line too long", file, line);
      goto fail;
    }
    memcpy(text, p, n);
    text[n] = '\0';
    p = nl ? nl + 1 : end;
    char *s = text;
    while (*s == ' ' || *s == '\t')
      s++;
    if (*s == '\0' || *s == '#' || *s == '\r')
      continue;
    char *f[5], *save = NULL;
    for (int k = 0; k < 5; k++) {
      f[k] = strtok_r(k ? NULL : s, " \t", &save);
      if (!f[k]) {
        snprintf(err, errlen,
                 "%s:%zu: expected ALG BACKEND OP METHOD KIND REASON", file,
                 line);
        goto fail;
      }
    }
    char *reason = save;
    while (reason && (*reason == ' ' || *reason == '\t'))
      reason++;
    if (!reason || !*reason) {
      snprintf(err, errlen, "%s:%zu: a reason is required", file, line);
      goto fail;
    }
    reason[strcspn(reason, "\r")] = '\0';
    if (!one_of(f[3], METHODS, 2)) {
      snprintf(err, errlen,
               "%s:%zu: method '%s'; valid: instruction-count, valgrind", file,
               line, f[3]);
      goto fail;
    }
    if (!one_of(f[4], KINDS, 2)) {
      snprintf(err, errlen, "%s:%zu: kind '%s'; valid: accepted, known", file,
               line, f[4]);
      goto fail;
    }
    mh_ct_entry *g = realloc(l->e, (l->n + 1) * sizeof *g);
    if (!g) {
      snprintf(err, errlen, "out of memory");
      goto fail;
    }
    l->e = g;
    mh_ct_entry *x = &l->e[l->n++];
    memset(x, 0, sizeof *x);
    x->line = line;
    x->alg = strdup(f[0]);
    x->backend = strdup(f[1]);
    x->op = strdup(f[2]);
    x->method = strdup(f[3]);
    x->kind = strdup(f[4]);
    x->reason = strdup(reason);
    if (!x->alg || !x->backend || !x->op || !x->method || !x->kind ||
        !x->reason) {
      snprintf(err, errlen, "out of memory");
      goto fail;
    }
  }
  return 0;
fail:
  mh_ct_list_free(l);
  return -1;
}

int mh_ct_list_load(const char *root, mh_ct_list *l, char *err, size_t errlen) {
  memset(l, 0, sizeof *l);
  char *path = mh_path_join(root, "constant-time/expected-findings.txt");
  char *buf = NULL;
  size_t len = 0;
  if (!path) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int rc = mh_read_file(path, 1 << 20, &buf, &len, err, errlen);
  if (rc == 0)
    rc = mh_ct_list_parse("constant-time/expected-findings.txt", buf, len, l,
                          err, errlen);
  free(buf);
  free(path);
  return rc;
}

static int matches(const char *pat, const char *s) {
  return strcmp(pat, "*") == 0 || (s && strcmp(pat, s) == 0);
}

static mh_ct_entry *lookup(mh_ct_list *l, const mh_op *op, const char *method) {
  for (size_t i = 0; l && i < l->n; i++) {
    mh_ct_entry *e = &l->e[i];
    if (matches(e->alg, op->alg) && matches(e->backend, op->backend) &&
        matches(e->op, op->op) && strcmp(e->method, method) == 0)
      return e;
  }
  return NULL;
}

/* One instruction count as the samples get it (host/run/run.c): readings
 * rounded to whole instructions, the counter overhead subtracted. */
static double exact_count(uint64_t raw, uint64_t overhead, double t2u) {
  return nearbyint((double)raw * t2u) - nearbyint((double)overhead * t2u);
}

/* A finding of method with text: classify it against the list. */
static void finding(mh_sb *d, mh_ct_list *l, const mh_op *op,
                    const char *method, const char *text, int *any_bad,
                    int *any_ok, int *unlisted) {
  mh_ct_entry *e = lookup(l, op, method);
  if (d->len)
    mh_sb_puts(d, "; ");
  mh_sb_printf(d, "%s: %s", method, text);
  if (!e) {
    mh_sb_puts(d, " (new: not in constant-time/expected-findings.txt)");
    *any_bad = 1;
    *unlisted = 1;
    return;
  }
  e->seen = 1;
  if (strcmp(e->kind, "accepted") == 0) {
    mh_sb_printf(d, " (accepted: %s)", e->reason);
    *any_ok = 1;
  } else {
    mh_sb_printf(d, " (known: %s)", e->reason);
    *any_bad = 1;
  }
}

int mh_ct_judge(const mh_run *run, mh_op *op, mh_ct_list *l) {
  if (!op->has_ct)
    return 0;
  mh_sb d = {0}, m = {0};
  int any_bad = 0, any_ok = 0, unlisted = 0, methods = 0;
  char text[256];
  if (run->icount_shift >= 0 && op->ct_n >= 2 && op->ct_fresh) {
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < op->ct_n; i++) {
      double v =
          exact_count(op->ct_raw[i], run->overhead_ticks, run->ticks_to_unit);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    mh_sb_puts(&m, "instruction-count");
    methods++;
    if (hi != lo) {
      snprintf(text, sizeof text,
               "instruction counts vary over %u fresh secrets: %.0f to %.0f "
               "(spread %.0f)",
               op->ct_n, lo, hi, hi - lo);
      finding(&d, l, op, "instruction-count", text, &any_bad, &any_ok,
              &unlisted);
    }
  }
  if (op->ct_vg >= 0) {
    mh_sb_puts(&m, methods ? ",valgrind" : "valgrind");
    methods++;
    if (op->ct_vg > 0) {
      snprintf(text, sizeof text,
               "memcheck reported %ld uses of secret data in branches or "
               "memory indices over %u runs",
               op->ct_vg, op->ct_n);
      finding(&d, l, op, "valgrind", text, &any_bad, &any_ok, &unlisted);
    }
  }
  /* What was not applied, and why. */
  const char *why = NULL;
  if (run->icount_shift >= 0 && op->ct_n < 2)
    why = "instruction counts: the run budget left fewer than 2 secrets";
  else if (run->icount_shift >= 0 && !op->ct_fresh)
    why = "instruction counts: one key only (no key generation here)";
  else if (run->icount_shift < 0 && op->ct_vg < 0 && op->ct_asan)
    why = "memcheck cannot run on an ASan image (make test-sanitize)";
  else if (run->icount_shift < 0 && op->ct_vg < 0)
    why = "this target's timing is not exact and memcheck did not run "
          "(merlin run --ct)";
  if (why) {
    if (d.len)
      mh_sb_puts(&d, "; ");
    mh_sb_printf(&d, "not checked: %s", why);
  }
  op->ct_status = any_bad   ? MH_CT_FINDING
                  : any_ok  ? MH_CT_EXPECTED
                  : methods ? MH_CT_NONE
                            : MH_CT_UNCHECKED;
  op->ct_listed = !unlisted;
  free(op->ct_methods);
  free(op->ct_detail);
  op->ct_methods = m.s ? m.s : strdup("");
  op->ct_detail = d.s ? d.s : strdup("");
  op->has_ct_verdict = 1;
  if (m.failed || d.failed || !op->ct_methods || !op->ct_detail)
    return -1;
  return 0;
}
