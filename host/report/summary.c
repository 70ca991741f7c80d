/* SPDX-License-Identifier: Apache-2.0 */
/* The headline on a terminal (see summary.h). */
#include "report/summary.h"

#include "analysis/pairs.h"
#include "model/cycles.h"
#include "report/format.h"
#include "report/headline.h"
#include "report/report_matrix.h"
#include "util/escape.h"

#include <stdlib.h>
#include <string.h>

/* The width a line of the summary keeps within. */
#define WIDTH 100

/* The jobs, as report.md's headline names them. */
static const char *const WHAT[MH_AN_N_CONTESTS] = {
    [MH_AN_KE_INIT] = "Key establishment, generating the key pair",
    [MH_AN_KE_RESP] = "Key establishment, answering",
    [MH_AN_VERIFY] = "Verifying a signature",
    [MH_AN_SIGN] = "Signing",
};

/* Appends line to b, cut at WIDTH columns (UTF-8 aware) with "...", and
 * empties line. */
static void put_line(mh_sb *b, mh_sb *line) {
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
  b->failed |= line->failed;
  line->len = 0;
  if (line->s)
    line->s[0] = '\0';
}

/* One run's figures: in estimated cycles (est), the run's unit, at a
 * clock (hz, 0: none). */
typedef struct {
  const char *unit;
  int est;
  double hz;
} measure;

/* "1,234,567 est. cycles (49.4 ms, 120 µJ)", "134 µs", "1,234,567
 * instructions": a job's figure as report.md's headline writes it. */
static void figure(mh_sb *b, const measure *m, double v, int est, double uj) {
  int ns = strcmp(m->unit, "ns") == 0;
  if (ns) {
    mh_report_seconds(b, v * 1e-9);
  } else {
    mh_fmt_num(b, v);
    mh_sb_putc(b, ' ');
    if (est)
      mh_sb_puts(b, "est. cycles");
    else
      mh_esc_term(b, m->unit);
  }
  int timed_at = m->hz > 0 && (est || strcmp(m->unit, "cycles") == 0);
  if (timed_at || uj > 0)
    mh_sb_puts(b, " (");
  if (timed_at)
    mh_report_seconds(b, v / m->hz);
  if (uj > 0) {
    mh_sb_puts(b, timed_at ? ", " : "");
    mh_fmt_num(b, uj);
    mh_sb_puts(b, " µJ");
  }
  if (timed_at || uj > 0)
    mh_sb_putc(b, ')');
}

/* "    ML-KEM-512 keygen + decaps on wolfcrypt: 1,234,567 est. cycles
 * (49.4 ms)" */
static void side(mh_sb *b, mh_sb *line, const measure *m, const char *pre,
                 const mh_an_job *j, const char *backend, double v, int est,
                 double uj) {
  mh_sb_printf(line, "    %s%s on ", pre, j->label);
  mh_esc_term(line, backend);
  mh_sb_puts(line, ": ");
  figure(line, m, v, est, uj);
  put_line(b, line);
}

/* One job of a run (mh_an_answer_of, as report.md's headline): a line with
 * the answer, a line per side, a line with the count of pairings. Returns
 * 1 (written), 0 (no answer) or -1 (out of memory). */
static int job(mh_sb *b, const mh_run *run, const measure *m,
               mh_an_contest_id c) {
  mh_an_answer a;
  int got = mh_an_answer_of(run, c, m->est, &a);
  if (got <= 0)
    return got;
  double r = a.best.pq_cost / a.best.ref_cost;
  mh_sb line = {0};
  mh_sb_printf(&line, "  %s: post-quantum ", WHAT[c]);
  if (r < 1)
    mh_sb_printf(&line, "%.2f× cheaper", 1.0 / r);
  else if (r > 1)
    mh_sb_printf(&line, "%.2f× more costly", r);
  else
    mh_sb_puts(&line, "at the same cost");
  put_line(b, &line);
  side(b, &line, m, "", a.best.pq, a.best.pq_backend, a.best.pq_cost, a.est,
       a.pq_uj);
  side(b, &line, m, "against ", a.best.ref, a.best.ref_backend, a.best.ref_cost,
       a.est, a.ref_uj);
  mh_sb_printf(&line, "    post-quantum is cheaper in %zu of %zu pairing%s",
               a.cheaper, a.n, a.n == 1 ? "" : "s");
  put_line(b, &line);
  mh_sb_free(&line);
  return 1;
}

/* "  cycles and time estimated for a Cortex-M4 at 25 MHz by the cycle model
 * cortex-m4", and the memory it assumes. */
static void est_lines(mh_sb *b, mh_sb *line, const mh_result *x,
                      const measure *m) {
  const mh_cyc_run *c = x->run.cyc;
  char core[64];
  mh_report_core_name(mh_run_prov(&x->run, "core"), core, sizeof core);
  mh_sb_puts(line, c->board ? "  cycles, time and energy estimated for "
                            : "  cycles and time estimated for a ");
  mh_esc_term(line,
              c->board ? (c->board_name ? c->board_name : c->board) : core);
  if (m->hz > 0) {
    mh_sb_puts(line, " at ");
    mh_fmt_num(line, m->hz / 1e6);
    mh_sb_puts(line, " MHz");
  }
  mh_sb_puts(line, " by the cycle model ");
  mh_esc_term(line, c->model);
  put_line(b, line);
  mh_sb_puts(line, c->board ? "  with the part's flash and caches, from "
                              "QEMU's exact instruction counts: an estimate"
                            : "  with zero-wait memory; a named part's "
                              "flash, caches and clock: --board (merlin "
                              "list boards)");
  put_line(b, line);
}

/* "qemu-m4 (profile default, gcc -O2)" and what its figures are. */
static void heading(mh_sb *b, const mh_result *x, const measure *m) {
  mh_sb line = {0};
  mh_esc_term(&line, x->target);
  mh_sb_puts(&line, " (profile ");
  mh_esc_term(&line, x->profile);
  mh_report_build_suffix(&line, x, mh_esc_term); /* as report.md */
  mh_sb_putc(&line, ')');
  put_line(b, &line);
  if (m->est)
    est_lines(b, &line, x, m);
  else if (strcmp(m->unit, "instructions") == 0)
    mh_sb_puts(&line, "  in instructions counted by QEMU: not cycles, and "
                      "not time on a part");
  else if (strcmp(m->unit, "ns") == 0)
    mh_sb_puts(&line, "  in wall-clock time on this machine (other work on "
                      "it disturbs the figures)");
  else if (strcmp(m->unit, "cycles") == 0)
    mh_sb_puts(&line, "  in core cycles counted on the part");
  else {
    mh_sb_puts(&line, "  in ");
    mh_esc_term(&line, m->unit);
  }
  if (line.len)
    put_line(b, &line);
  mh_sb_puts(&line, "  each job: the cheapest post-quantum choice against the "
                    "cheapest classical one");
  put_line(b, &line);
  mh_sb_free(&line);
}

char *mh_report_summary(const mh_results *r) {
  mh_sb b = {0};
  size_t *order = r->n_runs ? calloc(r->n_runs, sizeof *order) : NULL;
  if (r->n_runs && !order)
    return NULL;
  if (order)
    mh_report_device_order(r, order); /* the devices first, as the page */
  for (size_t k = 0; k < r->n_runs; k++) {
    const mh_result *x = &r->runs[order[k]];
    measure m = {x->run.unit ? x->run.unit : "?", mh_an_run_has_est(&x->run),
                 mh_report_clock_hz(x)};
    heading(&b, x, &m);
    int any = 0;
    for (int c = 0; c < MH_AN_N_CONTESTS; c++) {
      int n = job(&b, &x->run, &m, (mh_an_contest_id)c);
      b.failed |= n < 0;
      any |= n > 0;
    }
    if (!any)
      mh_sb_puts(&b, "  nothing to pair: no post-quantum and classical job "
                     "of the same kind in this run\n");
  }
  free(order);
  if (r->n_runs)
    mh_sb_puts(&b, "Every pairing, and the rest: report.md and report.html "
                   "(Headline).\n");
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s ? b.s : calloc(1, 1);
}
