/* SPDX-License-Identifier: Apache-2.0 */
/* The site's index (every run and its provenance), a page per core or
 * board with pqm4's tables of every scheme and implementation, and
 * pqm4's benchmarks.md per core (report/report_pqm4.h). */
#include "site/site_int.h"

#include "model/cycles.h"
#include "report/format.h"
#include "report/report_pqm4.h"
#include "util/escape.h"

#include <stdlib.h>
#include <string.h>

/* A scheme of a group: (algorithm, backend, variant), first seen first. */
typedef struct {
  const mh_op *first; /* an operation of it (its names) */
  int cls;            /* 0 KEM, 1 signature, 2 other */
} scheme;

static const char *const CLS_OPS[2][3] = {{"keygen", "encaps", "decaps"},
                                          {"keygen", "sign", "verify"}};
static const char *const CLS_TITLE[3] = {
    "Key encapsulation schemes", "Signature schemes", "Other operations"};

static int same_scheme(const mh_op *a, const mh_op *b, int with_op) {
  return strcmp(a->alg, b->alg) == 0 && strcmp(a->backend, b->backend) == 0 &&
         strcmp(a->variant ? a->variant : "", b->variant ? b->variant : "") ==
             0 &&
         (!with_op || (strcmp(a->op, b->op) == 0 && a->bytes == b->bytes));
}

/* The schemes of group g (other: one per operation and payload). */
static scheme *schemes_of(const site_ctx *c, const site_group *g, size_t *n) {
  scheme *v = NULL;
  *n = 0;
  for (size_t k = 0; k < g->n_runs; k++) {
    const mh_run *r = &c->db->runs[g->runs[k]].x->run;
    for (size_t i = 0; i < r->n_ops; i++) {
      const mh_op *o = &r->ops[i];
      int cls = 2;
      for (size_t j = 0; j < r->n_ops; j++)
        if (same_scheme(o, &r->ops[j], 0))
          cls = strcmp(r->ops[j].op, "encaps") == 0 ? 0
                : strcmp(r->ops[j].op, "sign") == 0 ? 1
                                                    : cls;
      size_t s = 0;
      while (s < *n &&
             !(v[s].cls == cls && same_scheme(v[s].first, o, cls == 2)))
        s++;
      if (s < *n)
        continue;
      scheme *w = realloc(v, (*n + 1) * sizeof *w);
      if (!w) {
        free(v);
        *n = 0;
        return NULL;
      }
      v = w;
      v[(*n)++] = (scheme){o, cls};
    }
  }
  return v;
}

static void impl_name(mh_sb *b, const mh_op *o) {
  mh_esc_html(b, o->backend);
  if (o->variant && o->variant[0]) {
    mh_sb_puts(b, " ");
    mh_esc_html(b, o->variant);
  }
}

static void table_head(mh_sb *b, const char *title, const char *first,
                       const char *const cols[], size_t n, const char *unit) {
  mh_sb_puts(b, "<h3>");
  mh_esc_html(b, title);
  mh_sb_puts(b, "</h3>\n<div class='scroll'><table class='sortable "
                "site'><thead><tr><th>");
  mh_esc_html(b, first);
  mh_sb_puts(b, "</th><th>implementation</th>");
  for (size_t i = 0; i < n; i++) {
    mh_sb_puts(b, "<th>");
    mh_esc_html(b, cols[i]);
    if (unit) {
      mh_sb_puts(b, " [");
      mh_esc_html(b, unit);
      mh_sb_puts(b, "]");
    }
    mh_sb_puts(b, "</th>");
  }
  mh_sb_puts(b, "</tr></thead><tbody>\n");
}

/* What a table of a class shows per operation. */
enum { F_MEDIAN, F_EST, F_STACK, F_HEAP, F_HASH, F_CODE, F_RAM };

static double field_of(const site_ctx *c, size_t run, const mh_op *o, int f,
                       int *has) {
  const mh_cyc_op *cy = o->cyc;
  const mh_alg_cost *a = mh_result_alg(c->db->runs[run].x, o->alg, o->backend);
  *has = 1;
  switch (f) {
  case F_MEDIAN:
    return o->stats.median;
  case F_EST:
    *has = cy && cy->has_est;
    return *has ? cy->est.median : 0;
  case F_STACK:
  case F_HEAP:
    *has = o->has_mem;
    return (double)(f == F_STACK ? o->stack_bytes : o->heap_bytes);
  case F_HASH:
    *has = cy != NULL;
    return cy ? 100.0 * cy->hash_share : 0;
  default:
    *has = a && a->has_size;
    return !*has ? 0 : (double)(f == F_CODE ? a->flash_bytes : a->ram_bytes);
  }
}

/* The table of field f of the schemes of class cls (KEM, signature). */
static void class_table(mh_sb *b, const site_ctx *c, const site_group *g,
                        const scheme *s, size_t n, int cls, int f,
                        const char *what, const char *unit) {
  size_t rows = 0;
  for (size_t i = 0; i < n; i++)
    rows += s[i].cls == cls;
  if (!rows)
    return;
  char title[192];
  snprintf(title, sizeof title, "%s: %s [%s]", CLS_TITLE[cls], what, unit);
  table_head(b, title, "scheme", CLS_OPS[cls], 3, NULL);
  for (size_t i = 0; i < n; i++) {
    if (s[i].cls != cls)
      continue;
    const mh_op *h = s[i].first;
    mh_sb_puts(b, "<tr><td>");
    mh_esc_html(b, h->alg);
    mh_sb_puts(b, "</td><td>");
    impl_name(b, h);
    mh_sb_puts(b, "</td>");
    for (size_t k = 0; k < 3; k++) {
      size_t run = 0;
      const mh_op *o = mh_site_find(c, g, h->alg, CLS_OPS[cls][k], -1,
                                    h->backend, h->variant, &run);
      int has = 0;
      double v = o ? field_of(c, run, o, f, &has) : 0;
      mh_site_num_cell(b, c, v, o && has, run, o);
    }
    mh_sb_puts(b, "</tr>\n");
  }
  mh_sb_puts(b, "</tbody></table></div>\n");
}

/* Every other operation, one row per operation and payload. */
static void other_table(mh_sb *b, const site_ctx *c, const site_group *g,
                        const scheme *s, size_t n) {
  static const char *const cols[] = {
      "operation",     "bytes",        "median",      "est. cycles",
      "stack [bytes]", "heap [bytes]", "code [bytes]"};
  static const int fields[] = {F_MEDIAN, F_EST, F_STACK, F_HEAP, F_CODE};
  size_t rows = 0;
  for (size_t i = 0; i < n; i++)
    rows += s[i].cls == 2;
  if (!rows)
    return;
  table_head(b, CLS_TITLE[2], "algorithm", cols, 7, NULL);
  for (size_t i = 0; i < n; i++) {
    if (s[i].cls != 2)
      continue;
    const mh_op *h = s[i].first;
    size_t run = 0;
    const mh_op *o = mh_site_find(c, g, h->alg, h->op, h->bytes, h->backend,
                                  h->variant, &run);
    mh_sb_puts(b, "<tr><td>");
    mh_esc_html(b, h->alg);
    mh_sb_puts(b, "</td><td>");
    impl_name(b, h);
    mh_sb_puts(b, "</td><td>");
    mh_esc_html(b, h->op);
    mh_sb_puts(b, "</td>");
    if (h->bytes >= 0)
      mh_sb_printf(b, "<td class='num'>%ld</td>", h->bytes);
    else
      mh_sb_puts(b, "<td class='num'>-</td>");
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
      int has = 0;
      double v = o ? field_of(c, run, o, fields[k], &has) : 0;
      mh_site_num_cell(b, c, v, o && has, run, o);
    }
    mh_sb_puts(b, "</tr>\n");
  }
  mh_sb_puts(b, "</tbody></table></div>\n<p class='note'>Median in ");
  mh_esc_html(b, g->unit);
  mh_sb_puts(b, "; est. cycles: the cycle model's estimate, where there is "
                "one.</p>\n");
}

/* The folders the group's runs left out, with the reason (the last run
 * that names each). */
static void left_out(mh_sb *b, const site_ctx *c, const site_group *g) {
  int any = 0;
  for (size_t k = g->n_runs; k-- > 0;) {
    const mh_result *x = c->db->runs[g->runs[k]].x;
    for (size_t i = 0; i < x->n_impls; i++) {
      const mh_impl_rec *f = &x->impls[i];
      if (!f->left_out)
        continue;
      if (!any)
        mh_sb_puts(b, "<h3>Left out</h3>\n<ul class='prov'>");
      any = 1;
      mh_sb_puts(b, "<li>");
      mh_esc_html(b, f->backend);
      mh_sb_puts(b, ": ");
      mh_esc_html(b, f->left_out);
      mh_sb_printf(b, " (run %ld)</li>", c->db->runs[g->runs[k]].id);
    }
  }
  if (any)
    mh_sb_puts(b, "</ul>\n");
}

static void group_section(mh_sb *b, const site_ctx *c, const site_group *g) {
  size_t n;
  scheme *s = schemes_of(c, g, &n);
  if (!s && n) {
    b->failed = 1;
    return;
  }
  mh_sb_puts(b, "<section><h2>");
  mh_esc_html(b, g->label);
  mh_sb_printf(b,
               "</h2>\n<p class='note'>%zu run%s. Each figure is the "
               "last run's of this part and build that measured it; "
               "the history page has the others. pqm4's tables: <a "
               "href='",
               g->n_runs, g->n_runs == 1 ? "" : "s");
  mh_esc_html(b, g->place);
  mh_sb_puts(b, "-benchmarks.md'>benchmarks.md</a>.</p>\n");
  for (int cls = 0; cls < 2; cls++) {
    if (g->model)
      class_table(b, c, g, s, n, cls, F_EST, "speed", "est. cycles");
    class_table(b, c, g, s, n, cls, F_MEDIAN, "speed", g->unit);
    class_table(b, c, g, s, n, cls, F_STACK, "peak stack", "bytes");
    class_table(b, c, g, s, n, cls, F_HEAP, "peak heap", "bytes");
    if (g->model)
      class_table(b, c, g, s, n, cls, F_HASH, "hashing", "% of est. cycles");
    class_table(b, c, g, s, n, cls, F_CODE, "code (the algorithm's flash)",
                "bytes");
  }
  other_table(b, c, g, s, n);
  left_out(b, c, g);
  mh_sb_puts(b, "</section>\n");
  free(s);
}

int mh_site_place_page(const site_ctx *c, const char *place, char *err,
                       size_t errlen) {
  mh_sb b = {0}, name = {0};
  const site_group *first = NULL;
  for (size_t i = 0; i < c->n_g && !first; i++)
    if (strcmp(c->g[i].place, place) == 0)
      first = &c->g[i];
  mh_site_page_open(&b, c, first->title);
  for (size_t i = 0; i < c->n_g; i++)
    if (strcmp(c->g[i].place, place) == 0)
      group_section(&b, c, &c->g[i]);
  mh_site_page_close(&b, c, NULL);
  mh_sb_printf(&name, "%s.html", place);
  int rc = name.failed ? -1 : mh_site_write_file(c, name.s, &b, err, errlen);
  mh_sb_free(&b);
  mh_sb_free(&name);
  return rc;
}

/* "; rows: SCHEME (IMPL), ...": the rows of pqm4's tables run k of g gives
 * (a KEM's or a signature's, not given by a later run of g). */
static void md_rows_of_run(mh_sb *b, const site_ctx *c, const site_group *g,
                           size_t k) {
  const mh_run *r = &c->db->runs[g->runs[k]].x->run;
  int any = 0;
  for (size_t i = 0; i < r->n_ops; i++) {
    const mh_op *o = &r->ops[i];
    if ((strcmp(o->op, "encaps") != 0 && strcmp(o->op, "sign") != 0) ||
        !o->n_samples)
      continue;
    size_t run = 0;
    if (!mh_site_find(c, g, o->alg, o->op, o->bytes, o->backend, o->variant,
                      &run) ||
        run != g->runs[k])
      continue;
    mh_sb_printf(b, "%s%s (%s)", any ? ", " : "; rows: ", o->alg, o->backend);
    any = 1;
  }
}

int mh_site_benchmarks_md(const site_ctx *c, const char *place, char *err,
                          size_t errlen) {
  mh_sb b = {0}, name = {0};
  mh_sb_printf(&b,
               "<!-- Written by merlin site from %s; each set's runs "
               "are listed after its tables. -->\n\n",
               c->o->db);
  for (size_t i = 0; i < c->n_g; i++) {
    const site_group *g = &c->g[i];
    if (strcmp(g->place, place) != 0)
      continue;
    const mh_result **runs = calloc(g->n_runs, sizeof *runs);
    if (!runs) {
      b.failed = 1;
      break;
    }
    for (size_t k = 0; k < g->n_runs; k++)
      runs[k] = c->db->runs[g->runs[k]].x;
    mh_sb title = {0};
    mh_sb_printf(&title, "%s: %s", g->title, g->label);
    mh_report_pqm4_group(&b, title.failed ? "" : title.s, runs, g->n_runs);
    mh_sb_free(&title);
    free(runs);
    mh_sb_puts(&b, "Runs (a scheme given by several: the last):\n\n");
    for (size_t k = 0; k < g->n_runs; k++) {
      mh_sb_puts(&b, "- ");
      mh_site_prov(&b, c, g->runs[k], NULL);
      md_rows_of_run(&b, c, g, k);
      mh_sb_puts(&b, "\n");
    }
    mh_sb_puts(&b, "\n");
  }
  mh_sb_printf(&name, "%s-benchmarks.md", place);
  int rc = name.failed ? -1 : mh_site_write_file(c, name.s, &b, err, errlen);
  mh_sb_free(&b);
  mh_sb_free(&name);
  return rc;
}

int mh_site_index(const site_ctx *c, char *err, size_t errlen) {
  static const char *const cols[] = {
      "run",          "hash",  "target / profile", "core or board",
      "unit",         "build", "merlin (source)",  "made",
      "imported from"};
  mh_sb b = {0};
  mh_site_page_open(&b, c, "Merlin results");
  mh_sb_puts(&b, "<section><h2>Runs</h2>\n<div class='scroll'><table "
                 "class='sortable site'><thead><tr>");
  for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
    mh_sb_printf(&b, "<th>%s</th>", cols[i]);
  mh_sb_puts(&b, "</tr></thead><tbody>\n");
  for (size_t i = 0; i < c->db->n; i++) {
    const mh_db_run *d = &c->db->runs[i];
    const mh_run *r = &d->x->run;
    const char *cc = mh_run_prov(r, "compiler"), *fl = mh_run_prov(r, "cflags");
    const char *src = mh_run_prov(r, "source");
    mh_sb cells[7] = {{0}};
    mh_sb_printf(&cells[0], "%s / %s", d->x->target, d->x->profile);
    mh_sb_puts(&cells[1], r->cyc && r->cyc->board  ? r->cyc->board
                          : mh_run_prov(r, "core") ? mh_run_prov(r, "core")
                                                   : "?");
    mh_sb_puts(&cells[2], r->unit ? r->unit : "?");
    mh_sb_printf(&cells[3], "%s %s", cc ? cc : "?", fl ? fl : "");
    mh_sb_printf(&cells[4], "%s (%s)", d->doc->merlin ? d->doc->merlin : "?",
                 src ? src : "?");
    mh_sb_puts(&cells[5], d->doc->created ? d->doc->created : "?");
    mh_sb_puts(&cells[6], d->source);
    mh_sb_printf(&b, "<tr><td class='num' data-v='%ld'>%ld</td><td>%.12s</td>",
                 d->id, d->id, d->sha256);
    for (size_t k = 0; k < 7; k++) {
      mh_sb_puts(&b, "<td>");
      mh_esc_html(&b, cells[k].failed ? "" : cells[k].s);
      mh_sb_puts(&b, "</td>");
      b.failed |= cells[k].failed;
      mh_sb_free(&cells[k]);
    }
    mh_sb_puts(&b, "</tr>\n");
  }
  mh_sb_puts(&b, "</tbody></table></div></section>\n");
  mh_site_page_close(&b, c, NULL);
  int rc = mh_site_write_file(c, "index.html", &b, err, errlen);
  mh_sb_free(&b);
  return rc;
}
