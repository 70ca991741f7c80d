/* SPDX-License-Identifier: Apache-2.0 */
/* The headline on a terminal (see summary.h). */
#include "report/summary.h"

#include "analysis/pairs.h"
#include "model/build.h"
#include "report/format.h"
#include "util/escape.h"

#include <stdlib.h>
#include <string.h>

/* The width a line of the summary keeps within. */
#define WIDTH 100

static const char *const CONTEST[MH_AN_N_CONTESTS] = {
    [MH_AN_KE_INIT] = "key establishment, the device's key pair",
    [MH_AN_KE_RESP] = "key establishment, the device answering",
    [MH_AN_VERIFY] = "verifying a signature",
    [MH_AN_SIGN] = "signing",
};

/* "0.24x" as the reports write a ratio. */
static void ratio(mh_sb *b, double v) { mh_sb_printf(b, "%.2fx", v); }

/* "ML-KEM-512 on pqclean vs ECDH P-256 on wolfcrypt", cut to fit. */
static void pairing(mh_sb *line, const mh_an_ratio *v) {
  mh_sb_puts(line, v->pq->label);
  mh_sb_puts(line, " (");
  mh_esc_term(line, v->pq_backend);
  mh_sb_puts(line, ") vs ");
  mh_sb_puts(line, v->ref->label);
  mh_sb_puts(line, " (");
  mh_esc_term(line, v->ref_backend);
  mh_sb_putc(line, ')');
}

/* Appends line to b, cut at WIDTH columns (UTF-8 aware) with "...". */
static void put_line(mh_sb *b, const mh_sb *line) {
  size_t cols = 0, i = 0, cut = 0;
  const unsigned char *s = (const unsigned char *)(line->s ? line->s : "");
  for (; s[i]; i++)
    if ((s[i] & 0xc0) != 0x80 && ++cols == WIDTH - 2)
      cut = i;
  if (cols <= WIDTH)
    mh_sb_add(b, line->s ? line->s : "", i);
  else {
    mh_sb_add(b, (const char *)s, cut);
    mh_sb_puts(b, "...");
  }
  mh_sb_putc(b, '\n');
}

/* One contest of a run: the pairings' extremes in a line or two. */
static int contest(mh_sb *b, const mh_run *run, mh_an_contest_id c) {
  mh_an_ratio *v = NULL;
  size_t n = 0, lo = 0, hi = 0, cheaper = 0;
  if (mh_an_ratios(run, c, MH_AN_SAME_BACKEND, &v, &n) != 0)
    return -1;
  for (size_t i = 0; i < n; i++) {
    lo = v[i].median < v[lo].median ? i : lo;
    hi = v[i].median > v[hi].median ? i : hi;
    cheaper += v[i].median < 1;
  }
  mh_sb line = {0};
  if (n) {
    mh_sb_printf(&line, "  %s: post-quantum cheaper in %zu of %zu", CONTEST[c],
                 cheaper, n);
    put_line(b, &line);
    line.len = 0;
    mh_sb_puts(&line, "    ");
    ratio(&line, v[lo].median);
    mh_sb_puts(&line, " ");
    pairing(&line, &v[lo]);
    put_line(b, &line);
  }
  if (n > 1) {
    line.len = 0;
    mh_sb_puts(&line, "    ");
    ratio(&line, v[hi].median);
    mh_sb_puts(&line, " ");
    pairing(&line, &v[hi]);
    put_line(b, &line);
  }
  int failed = line.failed;
  mh_sb_free(&line);
  free(v);
  return failed ? -1 : (int)n;
}

/* "qemu-m4 (profile default, gcc -O2): ratios of median instructions". */
static void heading(mh_sb *b, const mh_results *r, const mh_result *x) {
  mh_sb line = {0};
  mh_esc_term(&line, x->target);
  mh_sb_puts(&line, " (profile ");
  mh_esc_term(&line, x->profile);
  if (mh_results_is_matrix(r)) {
    char cc[64], opt[32];
    mh_result_cc(x, cc, sizeof cc);
    mh_result_opt(x, opt, sizeof opt);
    mh_sb_puts(&line, ", ");
    mh_esc_term(&line, cc);
    mh_sb_putc(&line, ' ');
    mh_esc_term(&line, opt);
  }
  mh_sb_puts(&line, "): post-quantum / classical, medians of ");
  mh_esc_term(&line, x->run.unit ? x->run.unit : "?");
  put_line(b, &line);
  b->failed |= line.failed;
  mh_sb_free(&line);
}

char *mh_report_summary(const mh_results *r) {
  mh_sb b = {0};
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    heading(&b, r, x);
    int any = 0;
    for (int c = 0; c < MH_AN_N_CONTESTS; c++) {
      int n = contest(&b, &x->run, (mh_an_contest_id)c);
      if (n < 0)
        b.failed = 1;
      any |= n > 0;
    }
    if (!any)
      mh_sb_puts(&b, "  nothing to pair: no post-quantum and classical job "
                     "of the same kind in this run\n");
  }
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s ? b.s : calloc(1, 1);
}
