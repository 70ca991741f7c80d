/* SPDX-License-Identifier: Apache-2.0 */
/* The CI formats (see report_ci.h). */
#include "report/report_ci.h"

#include "model/workflow.h"
#include "report/html_charts.h"
#include "util/escape.h"
#include "util/strbuf.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "qemu-m4 default gcc -O2" (the build when the run records one). */
static void run_name(mh_sb *b, const mh_result *x) {
  char cc[64], opt[32], label[100];
  mh_html_build(x, cc, sizeof cc, opt, sizeof opt, label, sizeof label);
  mh_sb_printf(b, "%s %s%s%s", x->target, x->profile ? x->profile : "",
               *label ? " " : "", label);
}

/* "qemu-m4.default.gcc_-O2": the run as a JUnit class name (dots part
 * it, as CI viewers expect). */
static void class_name(mh_sb *b, const mh_result *x) {
  char cc[64], opt[32], label[100];
  mh_html_build(x, cc, sizeof cc, opt, sizeof opt, label, sizeof label);
  for (char *p = label; *p; p++)
    *p = *p == ' ' || *p == '.' ? '_' : *p;
  mh_sb_printf(b, "%s.%s%s%s", x->target, x->profile ? x->profile : "",
               *label ? "." : "", label);
}

static void op_name(mh_sb *b, const mh_op *o, int bytes) {
  mh_sb_printf(b, "%s %s", o->alg, o->op);
  if (bytes && o->bytes >= 0)
    mh_sb_printf(b, " %ld B", o->bytes);
  mh_sb_printf(b, " (%s%s%s)", o->backend, o->variant ? " " : "",
               o->variant ? o->variant : "");
}

/* One entry: "<run>: <what>", the median as the value, the rest in
 * extra. */
static json_t *bench_entry(const mh_result *x, const char *what,
                           const mh_stats *st, size_t n) {
  mh_sb name = {0}, extra = {0};
  run_name(&name, x);
  mh_sb_puts(&name, ": ");
  mh_sb_puts(&name, what);
  mh_sb_puts(&extra, "p99: ");
  mh_sb_double(&extra, st->p99);
  mh_sb_printf(&extra, "\nn: %zu", n);
  mh_sb_puts(&extra, "\niqr: ");
  mh_sb_double(&extra, st->iqr);
  mh_sb_puts(&extra, "\nmin: ");
  mh_sb_double(&extra, st->min);
  mh_sb_puts(&extra, "\nmax: ");
  mh_sb_double(&extra, st->max);
  json_t *e = name.failed || extra.failed
                  ? NULL
                  : json_pack("{s:s, s:s, s:f, s:s}", "name", name.s, "unit",
                              x->run.unit ? x->run.unit : "", "value",
                              st->median, "extra", extra.s);
  mh_sb_free(&name);
  mh_sb_free(&extra);
  return e;
}

/* Every timed operation, then every checked workflow (its total time per
 * run of the whole exchange), of every run. */
char *mh_report_benchmark_action(const mh_results *r) {
  json_t *a = json_array();
  int failed = !a;
  for (size_t i = 0; i < r->n_runs && !failed; i++) {
    const mh_result *x = &r->runs[i];
    const mh_run *run = &x->run;
    for (size_t k = 0; k < run->n_ops + run->n_wfs && !failed; k++) {
      mh_sb what = {0};
      const mh_op *o = k < run->n_ops ? &run->ops[k] : NULL;
      const mh_wf *w = o ? NULL : &run->wfs[k - run->n_ops];
      if (o && !o->n_samples)
        continue;
      if (w && (w->check != 1 || !w->n_samples))
        continue;
      if (o)
        op_name(&what, o, 1);
      else
        mh_sb_printf(&what, "workflow %s %s (%s)", w->workflow, w->variant,
                     w->backend);
      json_t *e = what.failed ? NULL
                  : o         ? bench_entry(x, what.s, &o->stats, o->n_samples)
                              : bench_entry(x, what.s, &w->stats, w->n_samples);
      mh_sb_free(&what);
      failed = !e || json_array_append_new(a, e) != 0;
    }
  }
  char *s = failed ? NULL
                   : json_dumps(a, JSON_INDENT(2) | JSON_ENSURE_ASCII |
                                       JSON_REAL_PRECISION(17));
  json_decref(a);
  if (!s)
    return NULL;
  size_t n = strlen(s);
  char *t = realloc(s, n + 2);
  if (!t) {
    free(s);
    return NULL;
  }
  memcpy(t + n, "\n", 2);
  return t;
}

/* XML attribute text. */
static void xml(mh_sb *b, const char *s) { mh_esc_xml(b, s ? s : ""); }

/* Operation k is the first of its (alg, op, backend, variant): one KAT. */
static int first_kat(const mh_run *run, size_t k) {
  const mh_op *o = &run->ops[k];
  for (size_t j = 0; j < k; j++) {
    const mh_op *p = &run->ops[j];
    if (mh_str_same(p->alg, o->alg) && mh_str_same(p->op, o->op) &&
        mh_str_same(p->backend, o->backend) &&
        mh_str_same(p->variant, o->variant))
      return 0;
  }
  return 1;
}

static void suite(mh_sb *b, const mh_result *x) {
  const mh_run *run = &x->run;
  size_t n = 0;
  for (size_t k = 0; k < run->n_ops; k++)
    n += first_kat(run, k);
  for (size_t k = 0; k < run->n_wfs; k++)
    n += run->wfs[k].check == 1 && run->wfs[k].n_samples;
  mh_sb name = {0}, cls = {0};
  run_name(&name, x);
  class_name(&cls, x);
  mh_sb_puts(b, "  <testsuite name=\"");
  xml(b, name.s);
  mh_sb_printf(b,
               "\" tests=\"%zu\" failures=\"0\" errors=\"0\" "
               "skipped=\"0\">\n",
               n);
  for (size_t k = 0; k < run->n_ops; k++) {
    if (!first_kat(run, k))
      continue;
    mh_sb t = {0};
    op_name(&t, &run->ops[k], 0);
    mh_sb_puts(b, "    <testcase classname=\"");
    xml(b, cls.s);
    mh_sb_puts(b, ".kat\" name=\"");
    xml(b, t.s);
    mh_sb_puts(b, "\"/>\n");
    b->failed |= t.failed;
    mh_sb_free(&t);
  }
  for (size_t k = 0; k < run->n_wfs; k++) {
    const mh_wf *w = &run->wfs[k];
    if (w->check != 1 || !w->n_samples)
      continue;
    mh_sb_puts(b, "    <testcase classname=\"");
    xml(b, cls.s);
    mh_sb_puts(b, ".workflow\" name=\"");
    xml(b, w->workflow);
    mh_sb_putc(b, ' ');
    xml(b, w->variant);
    mh_sb_puts(b, " (");
    xml(b, w->backend);
    mh_sb_puts(b, ")\"/>\n");
  }
  mh_sb_puts(b, "  </testsuite>\n");
  b->failed |= name.failed | cls.failed;
  mh_sb_free(&name);
  mh_sb_free(&cls);
}

char *mh_report_junit(const mh_results *r) {
  mh_sb b = {0};
  mh_sb_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- merlin: "
                 "known-answer tests that passed on each target before "
                 "anything was timed (results.json holds only those), and "
                 "the end-to-end workflows whose check passed -->\n"
                 "<testsuites name=\"merlin ");
  xml(&b, r->created);
  mh_sb_puts(&b, "\">\n");
  for (size_t i = 0; i < r->n_runs; i++)
    suite(&b, &r->runs[i]);
  mh_sb_puts(&b, "</testsuites>\n");
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}
