/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin site`: the pages' frame, and every page and file of the site
 * written in turn (site.h). */
#include "site/site_int.h"

#include "report/format.h"
#include "util/escape.h"
#include "util/fsutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mh_site_page_open(mh_sb *b, const site_ctx *c, const char *title) {
  mh_html_open(b, title, c->a);
  mh_sb_puts(b, "<h1>");
  mh_esc_html(b, title);
  mh_sb_puts(b, "</h1>\n<p class='meta'>From the results database ");
  mh_esc_html(b, c->o->db);
  mh_sb_printf(b,
               " (%zu run%s), written by merlin site. Hover a figure for "
               "its provenance.</p>\n<nav class='toc'><a "
               "href='index.html'>runs</a><a href='cores.html'>across "
               "cores</a><a href='history.html'>history</a>",
               c->db->n, c->db->n == 1 ? "" : "s");
  const char *last = "";
  for (size_t i = 0; i < c->n_g; i++) {
    if (strcmp(c->g[i].place, last) == 0)
      continue;
    last = c->g[i].place;
    mh_sb_puts(b, "<a href='");
    mh_esc_html(b, last);
    mh_sb_puts(b, ".html'>");
    mh_esc_html(b, c->g[i].title);
    mh_sb_puts(b, "</a>");
  }
  mh_sb_puts(b, "</nav>\n");
}

void mh_site_page_close(mh_sb *b, const site_ctx *c, json_t *charts) {
  json_t *data = json_pack("{s:o}", "charts", charts ? charts : json_array());
  if (!data)
    b->failed = 1;
  mh_html_close(b, data ? data : json_null(), c->a);
  json_decref(data);
}

void mh_site_num_cell(mh_sb *b, const site_ctx *c, double v, int has,
                      size_t run, const mh_op *o) {
  if (!has || !isfinite(v)) {
    mh_sb_puts(b, "<td class='num'>-</td>");
    return;
  }
  mh_sb_puts(b, "<td class='num' data-v='");
  mh_sb_double(b, v);
  mh_sb_puts(b, "' title='");
  mh_sb p = {0};
  mh_site_prov(&p, c, run, o);
  mh_esc_html(b, p.failed ? "" : p.s);
  mh_sb_free(&p);
  mh_sb_puts(b, "'>");
  mh_fmt_num(b, v);
  mh_sb_puts(b, "</td>");
}

int mh_site_write_file(const site_ctx *c, const char *name, mh_sb *b, char *err,
                       size_t errlen) {
  if (b->failed) {
    snprintf(err, errlen, "out of memory writing %s", name);
    return -1;
  }
  char *path = mh_path_join(c->o->out, name);
  int rc =
      path ? mh_write_atomic(path, b->s ? b->s : "", b->len, err, errlen) : -1;
  if (!path)
    snprintf(err, errlen, "out of memory");
  free(path);
  return rc;
}

int mh_site_write(const mh_db_runs *runs, const mh_html_assets *a,
                  const mh_site_opts *o, char *err, size_t errlen) {
  site_ctx c = {runs, o, a, NULL, 0, 0};
  if (mh_mkdir_p(o->out, err, errlen) != 0)
    return -1;
  if (mh_site_groups(&c) != 0) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int rc = mh_site_index(&c, err, errlen);
  if (rc == 0)
    rc = mh_site_cores(&c, err, errlen);
  if (rc == 0)
    rc = mh_site_history(&c, err, errlen);
  const char *last = "";
  for (size_t i = 0; rc == 0 && i < c.n_g; i++) {
    if (strcmp(c.g[i].place, last) == 0)
      continue;
    last = c.g[i].place;
    rc = mh_site_place_page(&c, last, err, errlen);
    if (rc == 0)
      rc = mh_site_benchmarks_md(&c, last, err, errlen);
  }
  mh_site_groups_free(&c);
  return rc;
}
