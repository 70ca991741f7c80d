/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin compare OLD NEW`: per-operation change in median between two
 * results, with a regression gate (docs/cli.md). */
#include "cli/cli.h"
#include "cli/cli_parse.h"
#include "run/job.h"

#include "analysis/noise.h"
#include "model/build.h"
#include "model/results_json.h"
#include "report/format.h"
#include "report/headline.h"
#include "report/html_charts.h"
#include "report/report_compare.h"
#include "run/matrix.h"
#include "util/escape.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A results directory (its results.json) or a results.json file. */
static int load(const char *arg, mh_results *r) {
  char err[2048];
  int rc = mh_results_load_arg(arg, r, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "merlin: compare: %s\n", err);
  return rc != 0;
}

static int same(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The operations of run x that run y has too (same algorithm, operation,
 * size and library; mh_run_find_op). */
static size_t shared_ops(const mh_result *x, const mh_result *y) {
  size_t n = 0;
  for (size_t k = 0; k < y->run.n_ops; k++)
    n += mh_run_find_op(&x->run, &y->run.ops[k]) != NULL;
  return n;
}

/* The same compiler and -O level. */
static int same_build(const mh_result *a, const mh_result *b) {
  char ca[64], cb[64], oa[32], ob[32];
  mh_result_cc(a, ca, sizeof ca);
  mh_result_cc(b, cb, sizeof cb);
  mh_result_opt(a, oa, sizeof oa);
  mh_result_opt(b, ob, sizeof ob);
  return strcmp(ca, cb) == 0 && strcmp(oa, ob) == 0;
}

/* The run of r that x is compared with: the same target, profile, compiler
 * and -O level; failing that, of the runs with x's target and build (any
 * profile), the one sharing the most operations with x (docs/cli.md,
 * "merlin compare"). With --force (loose), failing both, the one run of r
 * with x's target and profile whatever its build (none when there are
 * several: which would be a guess), else, when r has none of x's profile,
 * the run of x's target sharing the most operations. */
static const mh_result *find_result(const mh_results *r, const mh_result *x,
                                    int loose) {
  const mh_result *only = NULL, *best = NULL, *any = NULL;
  size_t n = 0, most = 0, most_any = 0;
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *c = &r->runs[i];
    if (mh_result_same_row(c, x)) /* target, profile, cc, opt */
      return c;
    if (!same(c->target, x->target))
      continue;
    size_t k = shared_ops(c, x);
    if (same_build(c, x) && k > most) {
      best = c;
      most = k;
    }
    if (k > most_any) {
      any = c;
      most_any = k;
    }
    if (same(c->profile, x->profile)) {
      only = c;
      n++;
    }
  }
  if (best || !loose)
    return best;
  return n == 1 ? only : n == 0 ? any : NULL; /* several builds: no guess */
}

/* "gcc -O2" of a run, for the --force notes. */
static void build_name(const mh_result *x, char *buf, size_t len) {
  char cc[64], opt[32];
  mh_result_cc(x, cc, sizeof cc);
  mh_result_opt(x, opt, sizeof opt);
  snprintf(buf, len, "%s %s", cc, opt);
}

/* "  TARGET KEY: OLD -> NEW", every string as a terminal shows it. */
static void prov_line(mh_sb *out, const char *target, const char *key,
                      const char *old, const char *new) {
  const char *w[] = {target, key, old ? old : "(none)", new ? new : "(none)"};
  static const char *const sep[] = {"  ", " ", ": ", " -> "};
  for (size_t i = 0; i < 4; i++) {
    mh_sb_puts(out, sep[i]);
    mh_esc_term(out, w[i]);
  }
  mh_sb_putc(out, '\n');
}

/* Provenance that must agree for a fair comparison: the build, the
 * libraries, the routes, the unit. Between two profiles the routes differ
 * by design (each operation is matched with its library), and a library
 * only one of them uses is no difference: there only the libraries both
 * name must agree. Prints each difference; returns their number. */
static int provenance_diffs(const mh_result *a, const mh_result *b,
                            mh_sb *out) {
  int cross = !same(a->profile, b->profile);
  static const char *const keys[] = {"compiler", "cflags", "unit", "counter",
                                     "core"};
  int n = 0;
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
    const char *va = mh_run_prov(&a->run, keys[k]);
    const char *vb = mh_run_prov(&b->run, keys[k]);
    if (!same(va, vb)) {
      prov_line(out, a->target, keys[k], va, vb);
      n++;
    }
  }
  /* lib.* and route.* in either run. */
  for (int side = 0; side < 2; side++) {
    const mh_result *x = side ? b : a, *y = side ? a : b;
    for (size_t i = 0; i < x->run.n_prov; i++) {
      const char *key = x->run.prov[i].key;
      if (strncmp(key, "lib.", 4) != 0 && strncmp(key, "route.", 6) != 0)
        continue;
      const char *vy = mh_run_prov(&y->run, key);
      if (side && vy)
        continue; /* both have it: printed from the first side */
      if (cross && (!vy || strncmp(key, "route.", 6) == 0))
        continue;
      if (!same(x->run.prov[i].value, vy)) {
        const char *old = side ? vy : x->run.prov[i].value;
        const char *new = side ? x->run.prov[i].value : vy;
        prov_line(out, a->target, key, old, new);
        n++;
      }
    }
  }
  return n;
}

/* "alg op [N B] (backend)", raw (each output escapes it for its format). */
static void label(mh_sb *b, const mh_op *o) {
  mh_sb_printf(b, "%s %s", o->alg, o->op);
  if (o->bytes >= 0)
    mh_sb_printf(b, " %ld B", o->bytes);
  mh_sb_printf(b, " (%s)", o->backend);
}

/* One comparison under way: the page's counts, groups and rows. */
typedef struct {
  mh_cmp_page page;
  json_t *groups, *rows;
  size_t group; /* the group of the runs being compared */
  double noise; /* its noise figure (a fraction), < 0: none */
} cmp;

/* The row of operation o of run y, with its verdict. */
static json_t *op_row(cmp *c, const mh_result *y, const mh_op *o,
                      mh_cmp_verdict v) {
  mh_sb l = {0};
  label(&l, o);
  char what[96];
  if (o->bytes >= 0)
    snprintf(what, sizeof what, "%s %ld B", o->op, o->bytes);
  else
    snprintf(what, sizeof what, "%s", o->op);
  json_t *row =
      json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o}", "group",
                (json_int_t)c->group, "target", y->target, "label",
                l.s ? l.s : "", "unit", y->run.unit ? y->run.unit : "",
                "verdict", mh_cmp_verdict_names[v], "alg", o->alg, "backend",
                o->backend, "what", what, "_f",
                mh_html_filter(y, json_pack("[s]", o->backend),
                               json_pack("[s]", o->alg)));
  mh_sb_free(&l);
  c->page.count[v]++;
  if (!row || json_array_append(c->rows, row) != 0)
    c->page.count[v] = -1000000; /* out of memory: said by the caller */
  return row;
}

/* The verdict of old median om against new nm: the same; within the sum of
 * the runs' IQRs; within the machine's noise (the larger control spread of
 * the two runs, docs/host.md "Host timing"); beyond the threshold
 * (REGRESSED or improved); else changed. */
static mh_cmp_verdict verdict(const mh_op *p, const mh_op *q, double change,
                              double noise, double threshold) {
  double om = p->stats.median, nm = q->stats.median;
  if (nm == om)
    return MH_CMP_SAME;
  if (fabs(nm - om) <= p->stats.iqr + q->stats.iqr)
    return MH_CMP_WITHIN_SPREAD;
  if (noise >= 0 && fabs(change) <= noise)
    return MH_CMP_WITHIN_NOISE;
  return change > threshold    ? MH_CMP_REGRESSED
         : change < -threshold ? MH_CMP_IMPROVED
                               : MH_CMP_CHANGED;
}

/* Old operation p against new q of run y. From a median of 0 any rise is
 * an infinite relative change: above every threshold and every noise. */
static void compare_op(cmp *c, const mh_result *y, const mh_op *p,
                       const mh_op *q) {
  double om = p->stats.median, nm = q->stats.median;
  double change = om != 0 ? nm / om - 1.0 : nm > 0 ? INFINITY : 0.0;
  json_t *row =
      op_row(c, y, q, verdict(p, q, change, c->noise, c->page.threshold));
  char o1[64], n1[64];
  mh_format_number(om, o1, sizeof o1);
  mh_format_number(nm, n1, sizeof n1);
  double op = p->stats.p99, np = q->stats.p99;
  json_object_set_new(row, "old_median", json_real(om));
  json_object_set_new(row, "new_median", json_real(nm));
  json_object_set_new(row, "old_p99", json_real(op));
  json_object_set_new(row, "new_p99", json_real(np));
  json_object_set_new(row, "old_t", json_string(o1));
  json_object_set_new(row, "new_t", json_string(n1));
  json_object_set_new(row, "change",
                      isinf(change) ? json_null() : json_real(change));
  json_object_set_new(row, "p99_change",
                      op != 0  ? json_real(np / op - 1.0)
                      : np > 0 ? json_null()
                               : json_real(0));
  json_decref(row);
}

/* The noise figure of run x (the control's p95/p5 - 1), or null. */
static json_t *noise_json(const mh_result *x, double *v) {
  mh_noise z;
  if (mh_noise_of(&x->run, &z) != 0)
    return json_null();
  *v = z.spread > *v ? z.spread : *v;
  return json_real(z.spread);
}

/* A group's name: "qemu-m4 (profile default, gcc -O2)", with "OLD -> NEW"
 * for the profile when x's differs (x NULL: y alone). */
static void group_name(mh_sb *name, const mh_result *x, const mh_result *y) {
  char cc[64], opt[32], build[100];
  mh_html_build(y, cc, sizeof cc, opt, sizeof opt, build, sizeof build);
  mh_sb_printf(name, "%s (profile ", y->target);
  if (x && !same(x->profile, y->profile))
    mh_sb_printf(name, "%s -> ", x->profile ? x->profile : "?");
  mh_sb_printf(name, "%s%s%s)", y->profile ? y->profile : "?",
               *build ? ", " : "", build);
}

/* A new group for run y against x (x NULL: y has no counterpart, and is
 * OLD's when old). */
static void add_group(cmp *c, const mh_result *x, const mh_result *y, int old) {
  mh_sb name = {0};
  group_name(&name, x, y);
  c->noise = -1;
  json_t *no = x ? noise_json(x, &c->noise) : json_null();
  json_t *nn = noise_json(y, &c->noise);
  if (old) {
    json_t *t = no;
    no = nn;
    nn = t;
  }
  c->group = json_array_size(c->groups);
  json_array_append_new(
      c->groups,
      json_pack("{s:s, s:s, s:o, s:o, s:b}", "name", name.s ? name.s : "",
                "unit", y->run.unit ? y->run.unit : "", "noise_old", no,
                "noise_new", nn, "cross", !x || !same(x->profile, y->profile)));
  mh_sb_free(&name);
}

/* Every operation of new run y against old run x: a group. The operations
 * of one side only are "new operation" and "removed" between runs of one
 * profile, "only in NEW" and "only in OLD" between two profiles. */
static void compare_run(cmp *c, const mh_result *x, const mh_result *y) {
  int cross = !same(x->profile, y->profile);
  add_group(c, x, y, 0);
  for (size_t k = 0; k < y->run.n_ops; k++) {
    const mh_op *q = &y->run.ops[k], *p = mh_run_find_op(&x->run, q);
    if (p)
      compare_op(c, y, p, q);
    else
      json_decref(op_row(c, y, q, cross ? MH_CMP_NEW_ONLY : MH_CMP_NEW));
  }
  for (size_t k = 0; k < x->run.n_ops; k++)
    if (!mh_run_find_op(&y->run, &x->run.ops[k]))
      json_decref(op_row(c, y, &x->run.ops[k],
                         cross ? MH_CMP_OLD_ONLY : MH_CMP_REMOVED));
}

/* Run x of a is compared with some run of b. */
static int paired(const mh_result *x, const mh_results *a, const mh_results *b,
                  int force) {
  for (size_t i = 0; i < b->n_runs; i++)
    if (find_result(a, &b->runs[i], force) == x)
      return 1;
  return 0;
}

/* A run of one side that nothing of the other is paired with: a group of
 * its operations, each only in that side. */
static void one_side_run(cmp *c, const mh_result *y, mh_cmp_verdict v) {
  add_group(c, NULL, y, v == MH_CMP_OLD_ONLY);
  for (size_t k = 0; k < y->run.n_ops; k++)
    json_decref(op_row(c, y, &y->run.ops[k], v));
}

/* "host (profile default, 79 operations), ..." : what r holds. */
static void holdings(mh_sb *b, const mh_results *r) {
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    char cc[64], opt[32], build[100], t[128], p[128];
    mh_html_build(x, cc, sizeof cc, opt, sizeof opt, build, sizeof build);
    mh_sb_printf(b, "%s%s (profile %s%s%s, %zu operations)", i ? ", " : "",
                 mh_esc_term_buf(x->target, t, sizeof t),
                 mh_esc_term_buf(x->profile ? x->profile : "?", p, sizeof p),
                 *build ? ", " : "", build, x->run.n_ops);
  }
  if (!r->n_runs)
    mh_sb_puts(b, "no run");
}

/* Pair the runs of b with those of a; collect their provenance
 * differences in prov. Returns 0, or 2 (no pair; reported with what each
 * side holds). */
static int pair_runs(const mh_results *a, const mh_results *b, int force,
                     mh_sb *prov, mh_sb *notes) {
  int pairs = 0, loose_pairs = 0;
  for (size_t i = 0; i < b->n_runs; i++) {
    const mh_result *y = &b->runs[i], *x = find_result(a, y, force);
    if (x) {
      pairs++;
      provenance_diffs(x, y, prov);
      if (!same_build(x, y)) {
        char bx[100], by[100], t[128], p[128], ex[128], ey[128];
        build_name(x, bx, sizeof bx);
        build_name(y, by, sizeof by);
        mh_sb_printf(notes,
                     "merlin: compare: --force: %s (profile %s): comparing "
                     "the %s build with the %s build\n",
                     mh_esc_term_buf(y->target, t, sizeof t),
                     mh_esc_term_buf(y->profile, p, sizeof p),
                     mh_esc_term_buf(bx, ex, sizeof ex),
                     mh_esc_term_buf(by, ey, sizeof ey));
      }
    } else if (find_result(a, y, 1)) {
      loose_pairs++;
    }
  }
  if (pairs)
    return 0;
  mh_sb h = {0};
  mh_sb_puts(&h, "merlin: compare: OLD holds ");
  holdings(&h, a);
  mh_sb_puts(&h, "; NEW holds ");
  holdings(&h, b);
  if (loose_pairs)
    fprintf(stderr,
            "merlin: compare: no run of a target in common with the same "
            "compiler and -O level; --force pairs the runs by target and "
            "profile alone, whatever their build\n");
  else
    fprintf(stderr, "merlin: compare: no operation in common (the same "
                    "target, algorithm, operation, size and library)\n");
  fprintf(stderr, "%s\n", h.s ? h.s : "");
  mh_sb_free(&h);
  return 2;
}

/* The --html page of a finished comparison. Returns 0, or -1 (said). */
static int write_html(const char *path, const mh_html_assets *assets,
                      const mh_cmp_page *page) {
  char err[1024];
  char *html = mh_report_compare_html(page, assets);
  if (!html ||
      mh_write_atomic(path, html, strlen(html), err, sizeof err) != 0) {
    fprintf(stderr, "merlin: compare: %s\n", html ? err : "out of memory");
    free(html);
    return -1;
  }
  free(html);
  printf("merlin: compare: page written to %s\n", path);
  return 0;
}

static int write_md(const char *path, const mh_sb *md) {
  char err[1024];
  if (md->failed ||
      mh_write_atomic(path, md->s, md->len, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: compare: %s\n",
            md->failed ? "out of memory" : err);
    return -1;
  }
  printf("merlin: compare: summary written to %s\n", path);
  return 0;
}

int mh_cli_compare(const char *old_arg, const char *new_arg, double threshold,
                   int force, const char *md_path, const char *html_path) {
  mh_results a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  mh_sb prov = {0}, notes = {0}, md = {0}, text = {0};
  cmp c = {0};
  int rc = 2;
  c.groups = json_array();
  c.rows = json_array();
  mh_html_assets assets = {0};
  char err[1024];
  if (html_path && mh_run_html_assets(&assets, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: compare: %s\n", err);
    goto out;
  }
  if (!c.groups || !c.rows || load(old_arg, &a) != 0 || load(new_arg, &b) != 0)
    goto out;
  if (pair_runs(&a, &b, force, &prov, &notes) != 0)
    goto out;
  if (prov.len) {
    fprintf(stderr, "merlin: compare: the runs differ in provenance:\n%s",
            prov.s);
    if (!force) {
      fprintf(stderr, "merlin: compare: not comparing runs built "
                      "differently; --force compares them anyway\n");
      goto out;
    }
  }
  c.page.old_name = old_arg;
  c.page.new_name = new_arg;
  c.page.threshold = threshold;
  c.page.prov = prov.s ? prov.s : "";
  c.page.notes = notes.s ? notes.s : "";
  c.page.forced = force;
  size_t *order = calloc(b.n_runs ? b.n_runs : 1, sizeof *order);
  if (!order) {
    fprintf(stderr, "merlin: compare: out of memory\n");
    goto out;
  }
  mh_report_device_order(&b, order); /* devices first, as the reports */
  for (size_t i = 0; i < b.n_runs; i++) {
    const mh_result *y = &b.runs[order[i]], *x = find_result(&a, y, force);
    if (x)
      compare_run(&c, x, y);
    else
      one_side_run(&c, y, MH_CMP_NEW_ONLY);
  }
  free(order);
  order = calloc(a.n_runs ? a.n_runs : 1, sizeof *order);
  if (!order) {
    fprintf(stderr, "merlin: compare: out of memory\n");
    goto out;
  }
  mh_report_device_order(&a, order);
  for (size_t i = 0; i < a.n_runs; i++)
    if (!paired(&a.runs[order[i]], &a, &b, force))
      one_side_run(&c, &a.runs[order[i]], MH_CMP_OLD_ONLY);
  free(order);
  c.page.groups = c.groups;
  c.page.rows = c.rows;
  for (int v = 0; v < MH_CMP_N_VERDICTS; v++)
    if (c.page.count[v] < 0) {
      fprintf(stderr, "merlin: compare: out of memory\n");
      goto out;
    }
  /* The verdict first, on stdout; then the groups. */
  mh_report_compare_text(&text, &c.page, 0);
  if (md_path)
    mh_report_compare_text(&md, &c.page, 1);
  if (text.failed) {
    fprintf(stderr, "merlin: compare: out of memory\n");
    goto out;
  }
  fputs(text.s, stdout);
  if ((md_path && write_md(md_path, &md) != 0) ||
      (html_path && write_html(html_path, &assets, &c.page) != 0))
    goto out;
  rc = c.page.count[MH_CMP_REGRESSED] ? 1 : 0;
out:
  mh_sb_free(&prov);
  mh_sb_free(&notes);
  mh_sb_free(&md);
  mh_sb_free(&text);
  json_decref(c.groups);
  json_decref(c.rows);
  mh_html_assets_free(&assets);
  mh_results_free(&a);
  mh_results_free(&b);
  return rc;
}

/* ---- `merlin compare`: its command line (cli_parse.h) ---- */

typedef struct {
  const char *threshold, *md, *html;
  int force;
} compare_args;

static const mh_opt_def COMPARE_OPTS[] = {
    {"--threshold", NULL, "PCT", "regression threshold in percent (default: 2)",
     offsetof(compare_args, threshold), 0, 0, 0, 0, NULL},
    {"--force", NULL, NULL, "compare runs whose provenance differs",
     offsetof(compare_args, force), 0, 0, 0, 0, NULL},
    {"--md", NULL, "FILE",
     "also write a Markdown summary (pull-request comment)",
     offsetof(compare_args, md), 0, 0, 0, 0, NULL},
    {"--html", NULL, "FILE",
     "also write the comparison as one self-contained page\n(charts, "
     "regressions highlighted)",
     offsetof(compare_args, html), 0, 0, 0, 0, NULL},
};

static int cmd_compare(const mh_cmd_def *cmd, int argc, char **argv) {
  compare_args a = {0};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  int rc = mh_cli_parse_cmd(&s, argc, argv, 1, NULL, NULL, NULL);
  double t = 0.02;
  if (rc == 0 && s.n_pos != 2)
    rc = mh_cli_usage_error(&s, "expects two results: OLD NEW");
  if (rc == 0 && a.threshold) {
    char *end = NULL;
    t = strtod(a.threshold, &end) / 100.0;
    if (!end || *end || end == a.threshold || !(t >= 0.0) || t > 10.0)
      rc = mh_cli_usage_error(&s,
                              "--threshold takes a percentage from 0 to 1000, "
                              "not '%s'",
                              a.threshold);
  }
  if (rc == 0)
    rc = mh_cli_parse_only
             ? 0
             : mh_cli_compare(s.pos[0], s.pos[1], t, a.force, a.md, a.html);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_compare = {
    "compare",
    "usage: merlin compare OLD NEW [--threshold PCT] [--force] [--md FILE]\n"
    "                      [--html FILE]\n"
    "\n"
    "Compare two results (directories or results.json files) operation by\n"
    "operation, grouped by run, the verdict on the first line: old and new\n"
    "median, the change, and whether it lies outside both runs' spread (the\n"
    "sum of their IQRs) and beyond the machine's noise (the control's\n"
    "p95/p5 in either run). Exits 1 when an operation got slower by more\n"
    "than the threshold beyond both (REGRESSED), 0 otherwise, 2 on bad\n"
    "input or nothing in common. Runs of one target are paired by profile\n"
    "and build, failing that by build alone (another profile: the\n"
    "operations both have are compared, the rest listed as only in OLD or\n"
    "NEW). Runs built differently (compiler, flags, libraries, unit; the\n"
    "routes within a profile) are compared only with --force, which also\n"
    "pairs the runs of a target built with another compiler or -O level;\n"
    "the differences are printed first.\n",
    MH_OPTS(COMPARE_OPTS),
    NULL,
    0,
    cmd_compare};
