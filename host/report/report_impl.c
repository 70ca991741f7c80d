/* SPDX-License-Identifier: Apache-2.0 */
/* The implementation folders of each run (results.json "implementations";
 * docs/bring-your-own.md): measured or left out and why, the Keccak and
 * common code each was built with, where its known answers came from. */
#include "report/report_impl.h"

#include "report/format.h"
#include "util/escape.h"

#include <string.h>

/* A folder's status: "measured", or "left out: <reason>". */
static const char *status(const mh_impl_rec *m) {
  return m->left_out ? "left out: " : "measured";
}

static int any_impls(const mh_results *r) {
  for (size_t i = 0; i < r->n_runs; i++)
    if (r->runs[i].n_impls)
      return 1;
  return 0;
}

size_t mh_report_impls_left_out(const mh_results *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_runs; i++)
    for (size_t k = 0; k < r->runs[i].n_impls; k++)
      n += r->runs[i].impls[k].left_out != NULL;
  return n;
}

/* The cells of a folder's row: folder, algorithm, status (NULL: written
 * by the caller, with the reason), Keccak, known answers from, common
 * code. */
#define N_CELLS 6
static void row_cells(const mh_impl_rec *m, const char *cells[N_CELLS]) {
  cells[0] = m->backend;
  cells[1] = m->alg;
  cells[2] = NULL;
  cells[3] = m->hash;
  cells[4] = m->kat_reference;
  cells[5] = m->common ? m->common : "the pinned PQClean tree";
}

static const char intro[] =
    "Each folder of each run: measured, or left out of that target's image "
    "and why (the rest of the run went on without it), the Keccak behind "
    "its fips202.h, the common code it was built against when not the "
    "pinned PQClean tree's, and where the known answers it had to "
    "reproduce came from.";

void mh_report_impl_md(mh_sb *b, const mh_results *r) {
  if (!any_impls(r))
    return;
  mh_sb_puts(b, "## Implementation folders\n\n");
  mh_sb_puts(b, intro);
  mh_sb_puts(b, "\n\n");
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    if (!x->n_impls)
      continue;
    mh_sb_puts(b, "### ");
    mh_esc_md(b, x->target ? x->target : "?");
    mh_sb_puts(b, " (");
    mh_esc_md(b, x->profile ? x->profile : "?");
    mh_sb_puts(b, ")\n\n| folder | algorithm | status | Keccak | known answers "
                  "from | common code |\n|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < x->n_impls; k++) {
      const mh_impl_rec *m = &x->impls[k];
      const char *cells[N_CELLS];
      row_cells(m, cells);
      for (size_t c = 0; c < N_CELLS; c++) {
        mh_sb_puts(b, "| ");
        if (c == 2) {
          mh_sb_puts(b, m->left_out ? "**" : "");
          mh_esc_md(b, status(m));
          if (m->left_out) {
            mh_esc_md(b, m->left_out);
            mh_sb_puts(b, "**");
          }
        } else {
          mh_esc_md(b, cells[c] ? cells[c] : "?");
        }
        mh_sb_putc(b, ' ');
      }
      mh_sb_puts(b, "|\n");
    }
    mh_sb_putc(b, '\n');
  }
}

void mh_report_impl_html(mh_sb *b, const mh_results *r) {
  if (!any_impls(r))
    return;
  mh_sb_puts(b, "<section id='folders'><h2>Implementation folders</h2><p "
                "class='note'>");
  mh_esc_html(b, intro);
  mh_sb_puts(b, "</p>");
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    if (!x->n_impls)
      continue;
    mh_sb_puts(b, "<h3>");
    mh_esc_html(b, x->target ? x->target : "?");
    mh_sb_puts(b, " (");
    mh_esc_html(b, x->profile ? x->profile : "?");
    mh_sb_puts(b, ")</h3><table class='folders'><thead><tr><th>folder</th>"
                  "<th>algorithm</th><th>status</th><th>Keccak</th><th>known "
                  "answers from</th><th>common code</th></tr></thead><tbody>");
    for (size_t k = 0; k < x->n_impls; k++) {
      const mh_impl_rec *m = &x->impls[k];
      const char *cells[N_CELLS];
      row_cells(m, cells);
      mh_sb_puts(b, m->left_out ? "<tr class='left-out'>" : "<tr>");
      for (size_t c = 0; c < N_CELLS; c++) {
        mh_sb_puts(b, "<td>");
        if (c == 2) {
          mh_esc_html(b, status(m));
          if (m->left_out)
            mh_esc_html(b, m->left_out);
        } else {
          mh_esc_html(b, cells[c] ? cells[c] : "?");
        }
        mh_sb_puts(b, "</td>");
      }
      mh_sb_puts(b, "</tr>");
    }
    mh_sb_puts(b, "</tbody></table>");
  }
  mh_sb_puts(b, "</section>\n");
}
