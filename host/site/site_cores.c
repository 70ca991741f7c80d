/* SPDX-License-Identifier: Apache-2.0 */
/* The site's cross-core page: one scheme across every core and named part
 * the database holds (M0+, M3, M4, M7, M33, M55, M85 and the boards), in
 * estimated cycles and in time at the part's clock: a column per part and
 * build, never two builds in one column. */
#include "site/site_int.h"

#include "model/cycles.h"
#include "util/escape.h"

#include <stdlib.h>
#include <string.h>

/* The operations of every group with a cycle model, first seen first. */
static const mh_op **rows_of(const site_ctx *c, size_t *n) {
  const mh_op **v = NULL;
  *n = 0;
  for (size_t gi = 0; gi < c->n_g; gi++) {
    const site_group *g = &c->g[gi];
    for (size_t k = 0; g->model && k < g->n_runs; k++) {
      const mh_run *r = &c->db->runs[g->runs[k]].x->run;
      for (size_t i = 0; i < r->n_ops; i++) {
        const mh_op *o = &r->ops[i];
        size_t s = 0;
        while (s < *n &&
               !(strcmp(v[s]->alg, o->alg) == 0 &&
                 strcmp(v[s]->op, o->op) == 0 && v[s]->bytes == o->bytes &&
                 strcmp(v[s]->backend, o->backend) == 0 &&
                 strcmp(v[s]->variant ? v[s]->variant : "",
                        o->variant ? o->variant : "") == 0))
          s++;
        if (s < *n || !o->cyc || !o->cyc->has_est)
          continue;
        const mh_op **w = realloc(v, (*n + 1) * sizeof *w);
        if (!w)
          return v;
        v = w;
        v[(*n)++] = o;
      }
    }
  }
  return v;
}

/* One table: est (1) the estimated cycles, or (0) the time at the part's
 * clock in microseconds. */
static void cores_table(mh_sb *b, const site_ctx *c, const mh_op **rows,
                        size_t n, int est) {
  mh_sb_puts(b, "<div class='scroll'><table class='sortable "
                "site'><thead><tr><th>algorithm</th><th>operation</th><th>"
                "implementation</th>");
  for (size_t gi = 0; gi < c->n_g; gi++) {
    if (!c->g[gi].model)
      continue;
    mh_sb_puts(b, "<th title='");
    mh_esc_html(b, c->g[gi].label);
    mh_sb_puts(b, "'>");
    mh_esc_html(b, c->g[gi].title);
    if (!est)
      mh_sb_printf(b, " at %.0f MHz", c->g[gi].clock / 1e6);
    mh_sb_puts(b, "</th>");
  }
  mh_sb_puts(b, "</tr></thead><tbody>\n");
  for (size_t i = 0; i < n; i++) {
    const mh_op *h = rows[i];
    mh_sb_puts(b, "<tr><td>");
    mh_esc_html(b, h->alg);
    mh_sb_puts(b, "</td><td>");
    mh_esc_html(b, h->op);
    if (h->bytes >= 0)
      mh_sb_printf(b, " %ld B", h->bytes);
    mh_sb_puts(b, "</td><td>");
    mh_esc_html(b, h->backend);
    mh_sb_puts(b, " ");
    mh_esc_html(b, h->variant ? h->variant : "");
    mh_sb_puts(b, "</td>");
    for (size_t gi = 0; gi < c->n_g; gi++) {
      const site_group *g = &c->g[gi];
      if (!g->model)
        continue;
      size_t run = 0;
      const mh_op *o = mh_site_find(c, g, h->alg, h->op, h->bytes, h->backend,
                                    h->variant, &run);
      int has = o && o->cyc && o->cyc->has_est && (est || g->clock > 0);
      double v = !has  ? 0
                 : est ? o->cyc->est.median
                       : o->cyc->est.median / g->clock * 1e6;
      mh_site_num_cell(b, c, v, has, run, o);
    }
    mh_sb_puts(b, "</tr>\n");
  }
  mh_sb_puts(b, "</tbody></table></div>\n");
}

int mh_site_cores(const site_ctx *c, char *err, size_t errlen) {
  mh_sb b = {0};
  size_t n;
  const mh_op **rows = rows_of(c, &n);
  mh_site_page_open(&b, c, "One scheme across cores");
  mh_sb_puts(&b, "<section><h2>Estimated cycles</h2><p class='note'>The "
                 "cycle model's estimate of each operation's median, per "
                 "part and build (hover a heading for the build, a figure "
                 "for its provenance): an estimate, not a measurement "
                 "(docs/cycle-model.md).</p>\n");
  cores_table(&b, c, rows, n, 1);
  mh_sb_puts(&b, "</section>\n<section><h2>Time at the part's clock "
                 "(µs)</h2><p class='note'>The estimated cycles at the "
                 "clock of the named part (its board file), else of the "
                 "target.</p>\n");
  cores_table(&b, c, rows, n, 0);
  int any = 0;
  for (size_t gi = 0; gi < c->n_g; gi++) {
    if (c->g[gi].model)
      continue;
    mh_sb_puts(&b, any ? "; "
                       : "<p class='note'>Not here, without a cycle "
                         "model: ");
    any = 1;
    mh_esc_html(&b, c->g[gi].title);
    mh_sb_puts(&b, " (");
    mh_esc_html(&b, c->g[gi].label);
    mh_sb_puts(&b, ")");
  }
  mh_sb_puts(&b, any ? ".</p>\n</section>\n" : "</section>\n");
  mh_site_page_close(&b, c, NULL);
  int rc = mh_site_write_file(c, "cores.html", &b, err, errlen);
  mh_sb_free(&b);
  free(rows);
  return rc;
}
