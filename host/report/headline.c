/* SPDX-License-Identifier: Apache-2.0 */
/* The headline of report.md and report.html (see headline.h). */
#include "report/headline.h"

#include "analysis/pairs.h"
#include "analysis/workflows.h"
#include "model/cycles.h"
#include "model/workflow.h"
#include "report/format.h"
#include "report/report_matrix.h"
#include "report/report_wf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  mh_sb *b;
  int html;
  size_t ri; /* the run, for the HTML ids */
  const char *unit;
  const mh_run *run;
  int est;   /* the run's figures come with the cycle model's estimate */
  double hz; /* the clock the time is given at (0: none) */
} hl;

static void txt(hl *h, const char *s) {
  if (h->html)
    mh_esc_html(h->b, s);
  else
    mh_esc_md(h->b, s);
}

static void bold(hl *h, const char *s) {
  mh_sb_puts(h->b, h->html ? "<span class='what'>" : "**");
  txt(h, s);
  mh_sb_puts(h->b, h->html ? "</span>" : "**");
}

/* A number as report.md writes it; in HTML with its exact value. */
static void num(hl *h, const char *cls, double v) {
  if (h->html) {
    mh_sb_printf(h->b, "<data class='%s' value='", cls);
    mh_sb_double(h->b, v);
    mh_sb_puts(h->b, "'>");
  }
  mh_fmt_num(h->b, v);
  if (h->html)
    mh_sb_puts(h->b, "</data>");
}

/* A ratio as report.md's tables write it (%.2f), with "×". */
static void ratio(hl *h, const char *cls, double v) {
  if (h->html) {
    mh_sb_printf(h->b, "<data class='%s' value='", cls);
    mh_sb_double(h->b, v);
    mh_sb_puts(h->b, "'>");
  }
  mh_sb_printf(h->b, "%.2f×", v);
  if (h->html)
    mh_sb_puts(h->b, "</data>");
}

static void item_open(hl *h) { mh_sb_puts(h->b, h->html ? "<li" : "- "); }

/* " (table)" linking to the row (HTML) or section (Markdown). */
static void item_close(hl *h, const char *md_anchor, const char *id) {
  if (h->html)
    mh_sb_printf(h->b, " <a href='#%s'>row</a></li>\n", id);
  else
    mh_sb_printf(h->b, " ([table](#%s))\n", md_anchor);
}

/* The jobs, as the sentences and the tables' captions name them. */
static const char *const WHAT[MH_AN_N_CONTESTS] = {
    [MH_AN_KE_INIT] = "Key establishment, generating the key pair:",
    [MH_AN_KE_RESP] = "Key establishment, answering:",
    [MH_AN_VERIFY] = "Verifying a signature:",
    [MH_AN_SIGN] = "Signing:",
};

static void job_attrs(hl *h, const char *side, const mh_an_job *j,
                      const char *backend) {
  mh_sb_printf(h->b,
               " data-%s-label='%s' data-%s-alg='%s' data-%s-ops='%s%s%s' "
               "data-%s-backend='",
               side, j->label, side, j->alg, side, j->op1, j->op2 ? " " : "",
               j->op2 ? j->op2 : "", side);
  mh_esc_html(h->b, backend);
  mh_sb_putc(h->b, '\'');
}

/* "4.55× cheaper" or "1.22× more costly" for a ratio pq / classical. */
static void direction(hl *h, double v) {
  if (v < 1)
    mh_sb_printf(h->b, "%s%.2f× cheaper%s",
                 h->html ? "<span class='cheaper'>" : "", 1.0 / v,
                 h->html ? "</span>" : "");
  else if (v > 1)
    mh_sb_printf(h->b, "%s%.2f× more costly%s",
                 h->html ? "<span class='dearer'>" : "", v,
                 h->html ? "</span>" : "");
  else
    mh_sb_puts(h->b, "the same cost");
}

/* Signatures give the tail beside the median (ratios of p99s): signing
 * time spreads (ML-DSA's rejection loop) and verifying is what a device
 * waits on. */
static int has_p99(mh_an_contest_id c) {
  return c == MH_AN_SIGN || c == MH_AN_VERIFY;
}

/* " · est. cycles 0.30×": the same pairing in the cycle model's estimated
 * cycles, where it gives them. */
static void est_ratio(hl *h, const mh_run *run, const mh_an_ratio *v) {
  double pe = mh_an_cost_est(run, v->pq, v->pq_backend);
  double re = mh_an_cost_est(run, v->ref, v->ref_backend);
  if (pe >= 0 && re > 0) {
    mh_sb_puts(h->b,
               h->html ? " <span class='sub'>est. cycles " : " · est. cycles ");
    ratio(h, "est-ratio", pe / re);
    mh_sb_puts(h->b, h->html ? "</span>" : "");
  }
}

void mh_report_seconds(mh_sb *b, double s) {
  static const char *const unit[] = {" µs", " ms", " s"};
  static const double scale[] = {1e6, 1e3, 1};
  int k = s < 1e-3 ? 0 : s < 1 ? 1 : 2;
  mh_fmt_num(b, s * scale[k]);
  mh_sb_puts(b, unit[k]);
}

static void seconds(hl *h, double s) { mh_report_seconds(h->b, s); }

/* A job's figure as the run gives it: "1,234,567 est. cycles (49.4 ms,
 * 120 µJ)", "134 µs", "1,234,567 instructions", "56,789 cycles (338 µs)".
 * est: v is the cycle model's estimate. */
static void figure(hl *h, const char *cls, double v, int est, double uj) {
  int ns = strcmp(h->unit, "ns") == 0;
  if (h->html) {
    mh_sb_printf(h->b, "<data class='%s' value='", cls);
    mh_sb_double(h->b, v);
    mh_sb_puts(h->b, "'>");
  }
  if (ns)
    seconds(h, v * 1e-9);
  else
    mh_fmt_num(h->b, v);
  if (h->html)
    mh_sb_puts(h->b, "</data>");
  if (!ns) {
    mh_sb_putc(h->b, ' ');
    txt(h, est ? "est. cycles" : h->unit);
  }
  int timed_at = h->hz > 0 && (est || strcmp(h->unit, "cycles") == 0);
  if (timed_at || uj > 0)
    mh_sb_puts(h->b, " (");
  if (timed_at)
    seconds(h, v / h->hz);
  if (uj > 0) {
    mh_sb_puts(h->b, timed_at ? ", " : "");
    mh_fmt_num(h->b, uj);
    mh_sb_puts(h->b, " µJ");
  }
  if (timed_at || uj > 0)
    mh_sb_putc(h->b, ')');
}

/* One short sentence for contest c (mh_an_answer_of): the cheapest
 * post-quantum job against the cheapest classical one (in estimated cycles
 * where the model gives them), the ratio, and how many of the pairings of
 * the table below favour post-quantum. */
static void job_sentence(hl *h, mh_an_contest_id c) {
  mh_an_answer a;
  int got = mh_an_answer_of(h->run, c, h->est, &a);
  if (got < 0)
    h->b->failed = 1;
  if (got <= 0)
    return;
  const mh_an_best *best = &a.best;
  item_open(h);
  if (h->html) {
    mh_sb_printf(h->b, " class='hl job' data-kind='job' data-contest='%d'",
                 (int)c);
    job_attrs(h, "pq", best->pq, best->pq_backend);
    job_attrs(h, "ref", best->ref, best->ref_backend);
    mh_sb_printf(h->b, " data-run='%zu' data-measure='%s'>", h->ri,
                 a.est ? "est_cycles" : "median");
  }
  bold(h, WHAT[c]);
  mh_sb_printf(h->b, " %s on ", best->pq->label);
  txt(h, best->pq_backend);
  mh_sb_puts(h->b, ", ");
  figure(h, "pq-cost", best->pq_cost, a.est, a.pq_uj);
  mh_sb_printf(h->b, ", against %s on ", best->ref->label);
  txt(h, best->ref_backend);
  mh_sb_puts(h->b, ", ");
  figure(h, "ref-cost", best->ref_cost, a.est, a.ref_uj);
  mh_sb_puts(h->b, ": ");
  if (h->html) {
    mh_sb_puts(h->b, "<data class='ratio' value='");
    mh_sb_double(h->b, best->pq_cost / best->ref_cost);
    mh_sb_puts(h->b, "'>");
  }
  direction(h, best->pq_cost / best->ref_cost);
  mh_sb_puts(h->b, h->html ? "</data>" : "");
  mh_sb_printf(h->b, "; post-quantum is cheaper in %zu of %zu pairing%s.",
               a.cheaper, a.n, a.n == 1 ? "" : "s");
  mh_sb_puts(h->b, h->html ? "</li>\n" : "\n");
}

static void ratio_cell(hl *h, const mh_run *run, mh_an_contest_id c, size_t i,
                       const mh_an_ratio *v) {
  if (!h->html) {
    mh_sb_printf(h->b, " %.2f×", v->median);
    if (has_p99(c))
      mh_sb_printf(h->b, " (p99 %.2f×)", v->p99);
    est_ratio(h, run, v);
    if (strcmp(v->pq_backend, v->ref_backend) != 0) {
      mh_sb_puts(h->b, " vs ");
      txt(h, v->ref_backend);
    }
    mh_sb_puts(h->b, " |");
    return;
  }
  double pm, pp, rm, rp;
  mh_an_job_cost(run, v->pq, v->pq_backend, &pm, &pp);
  mh_an_job_cost(run, v->ref, v->ref_backend, &rm, &rp);
  mh_sb_printf(h->b, "<td class='hl num' data-kind='ratio' data-contest='%d'",
               (int)c);
  job_attrs(h, "pq", v->pq, v->pq_backend);
  job_attrs(h, "ref", v->ref, v->ref_backend);
  mh_sb_printf(h->b, " data-run='%zu' title='medians ", h->ri);
  mh_fmt_num(h->b, pm);
  mh_sb_puts(h->b, " vs ");
  mh_fmt_num(h->b, rm);
  mh_sb_putc(h->b, ' ');
  mh_esc_html(h->b, h->unit);
  mh_sb_printf(h->b, "'><a href='#ratio-%zu-%d-%zu'>", h->ri, (int)c, i);
  ratio(h, "ratio", v->median);
  if (has_p99(c)) {
    mh_sb_puts(h->b, " (p99 ");
    ratio(h, "p99-ratio", v->p99);
    mh_sb_putc(h->b, ')');
  }
  mh_sb_puts(h->b, "</a>");
  est_ratio(h, run, v);
  if (strcmp(v->pq_backend, v->ref_backend) != 0) {
    mh_sb_puts(h->b, " <span class='sub'>vs ");
    txt(h, v->ref_backend);
    mh_sb_puts(h->b, "</span>");
  }
  mh_sb_puts(h->b, "</td>");
}

/* v[j] is the pairing of v[i]'s post-quantum job and backend with the
 * classical job ref. */
static int same_row(const mh_an_ratio *v, size_t i, size_t j,
                    const mh_an_job *ref) {
  return v[j].pq == v[i].pq && (!ref || v[j].ref == ref) &&
         strcmp(v[j].pq_backend, v[i].pq_backend) == 0;
}

/* Post-quantum jobs down (with their backend), classical jobs across. */
static void contest_table(hl *h, const mh_run *run, mh_an_contest_id c,
                          const mh_an_ratio *v, size_t n) {
  const mh_an_contest *ct = &mh_an_contests[c];
  if (h->html) {
    mh_sb_printf(h->b,
                 "<figure class='hl-fig' data-contest='%d'>"
                 "<figcaption>",
                 (int)c);
    txt(h, WHAT[c]);
    mh_sb_puts(h->b, "</figcaption><div class='scroll'><table class='hl-"
                     "table'><tr><th>post-quantum (backend)</th>");
  } else {
    mh_sb_printf(h->b, "%s\n\n| post-quantum (backend) |", WHAT[c]);
  }
  for (size_t k = 0; k < ct->n_ref; k++)
    mh_sb_printf(h->b, h->html ? "<th>against %s</th>" : " against %s |",
                 ct->ref[k].label);
  mh_sb_puts(h->b, h->html ? "</tr>" : "\n|---|");
  for (size_t k = 0; !h->html && k < ct->n_ref; k++)
    mh_sb_puts(h->b, "---:|");
  mh_sb_puts(h->b, h->html ? "" : "\n");
  for (size_t i = 0; i < n; i++) {
    int seen = 0; /* a row per (post-quantum job, backend) */
    for (size_t j = 0; j < i && !seen; j++)
      seen = same_row(v, i, j, NULL);
    if (seen)
      continue;
    mh_sb_printf(h->b, h->html ? "<tr><td>%s (" : "| %s (", v[i].pq->label);
    txt(h, v[i].pq_backend);
    mh_sb_puts(h->b, h->html ? ")</td>" : ") |");
    for (size_t k = 0; k < ct->n_ref; k++) {
      size_t j = i;
      while (j < n && !same_row(v, i, j, &ct->ref[k]))
        j++;
      if (j < n)
        ratio_cell(h, run, c, j, &v[j]);
      else
        mh_sb_puts(h->b, h->html ? "<td>–</td>" : " – |");
    }
    mh_sb_puts(h->b, h->html ? "</tr>" : "\n");
  }
  mh_sb_puts(h->b, h->html ? "</table></div></figure>\n" : "\n");
}

/* The ratios of every contest of run (SAME_BACKEND pairings): v[c], n[c]
 * (v[c] malloc'd or NULL). Returns how many contests have any. */
static int all_ratios(hl *h, mh_an_ratio *v[MH_AN_N_CONTESTS],
                      size_t n[MH_AN_N_CONTESTS]) {
  int any = 0;
  for (int c = 0; c < MH_AN_N_CONTESTS; c++) {
    v[c] = NULL;
    n[c] = 0;
    if (mh_an_ratios(h->run, (mh_an_contest_id)c, MH_AN_SAME_BACKEND, &v[c],
                     &n[c]) != 0)
      h->b->failed = 1;
    any += n[c] > 0;
  }
  return any;
}

/* One "a vs b" pair of a workflow comparison: "0.52× (a vs b UNIT)". */
static void wf_pair(hl *h, const char *what, const char *cls, double a,
                    double b, const char *unit) {
  mh_sb_printf(h->b, "%s ", what);
  if (b > 0)
    ratio(h, cls, a / b);
  else
    mh_sb_puts(h->b, "–");
  mh_sb_puts(h->b, " (");
  num(h, "value", a);
  mh_sb_puts(h->b, " vs ");
  num(h, "ref", b);
  mh_sb_putc(h->b, ' ');
  txt(h, unit);
  mh_sb_putc(h->b, ')');
}

/* w was checked and timed (results.json holds only those). */
static int timed(const mh_wf *w) { return w->n_samples && w->check == 1; }

/* wfs[i] speaks for its variant: the instance on its reference's backend,
 * failing that the first. */
static int speaks_for_variant(const mh_run *run, size_t i) {
  const mh_wf *w = &run->wfs[i], *ref = mh_an_wf_reference(run, w);
  if (!ref || ref == w || !timed(w))
    return 0;
  if (strcmp(w->backend, ref->backend) == 0)
    return 1;
  for (size_t j = 0; j < run->n_wfs; j++) {
    const mh_wf *o = &run->wfs[j], *oref = mh_an_wf_reference(run, o);
    if (j == i || !timed(o) || strcmp(o->workflow, w->workflow) != 0 ||
        strcmp(o->variant, w->variant) != 0)
      continue;
    if ((oref && strcmp(o->backend, oref->backend) == 0) || j < i)
      return 0;
  }
  return 1;
}

/* The provisioning workflow in one sentence: the post-quantum (or hybrid)
 * variant with the least device time against its classical reference. */
static void provisioning(hl *h) {
  const mh_run *run = h->run;
  size_t best = run->n_wfs, variants = 0;
  for (size_t i = 0; i < run->n_wfs; i++) {
    if (!speaks_for_variant(run, i))
      continue;
    variants++;
    if (best == run->n_wfs ||
        run->wfs[i].stats.median < run->wfs[best].stats.median)
      best = i;
  }
  if (best == run->n_wfs)
    return;
  const mh_wf *w = &run->wfs[best], *ref = mh_an_wf_reference(run, w);
  item_open(h);
  if (h->html) {
    mh_sb_puts(h->b, " class='hl' data-kind='workflow'");
    mh_sb_printf(h->b, " data-run='%zu' data-variant='", h->ri);
    mh_esc_html(h->b, w->variant);
    mh_sb_puts(h->b, "' data-backend='");
    mh_esc_html(h->b, w->backend);
    mh_sb_puts(h->b, "' data-ref-variant='");
    mh_esc_html(h->b, ref->variant);
    mh_sb_puts(h->b, "' data-ref-backend='");
    mh_esc_html(h->b, ref->backend);
    mh_sb_puts(h->b, "'>");
  }
  bold(h, "Provisioning a new key:");
  mh_sb_putc(h->b, ' ');
  txt(h, w->variant);
  mh_sb_puts(h->b, " on ");
  txt(h, w->backend);
  mh_sb_puts(h->b, " against ");
  txt(h, ref->variant);
  mh_sb_puts(h->b, " on ");
  txt(h, ref->backend);
  mh_sb_puts(h->b, ": ");
  wf_pair(h, "device time", "time", w->stats.median, ref->stats.median,
          h->unit);
  if (h->est) /* the plugin brackets operations' samples, not workflows' */
    mh_sb_puts(h->b, h->html ? " <span class='sub'>(the cycle model estimates "
                               "operations, not workflows)</span>"
                             : " (the cycle model estimates operations, not "
                               "workflows)");
  wf_pair(h, ", bytes on the wire", "wire", (double)mh_wf_wire_bytes(w),
          (double)mh_wf_wire_bytes(ref), "bytes");
  if (variants > 1)
    mh_sb_printf(h->b, "; %zu more variant%s in the table", variants - 1,
                 variants == 2 ? "" : "s");
  mh_sb_putc(h->b, '.');
  char id[64];
  snprintf(id, sizeof id, "wf-%zu-%zu", h->ri, best);
  item_close(h, "workflows", id);
}

/* The algorithms that do not fit a described part of the run's core. */
static void fits(hl *h, const mh_result *x) {
  size_t parts = 0, bad = 0;
  for (size_t i = 0; i < x->n_algs; i++)
    for (size_t k = 0; k < x->algs[i].n_fits; k++) {
      parts += i == 0 && x->algs[i].fit[k] != -1;
      bad += x->algs[i].fit[k] == 0;
    }
  if (!parts)
    return;
  item_open(h);
  if (h->html)
    mh_sb_printf(h->b, " class='hl' data-kind='fit' data-run='%zu'>", h->ri);
  bold(h, "Does it fit:");
  if (!bad)
    mh_sb_printf(h->b,
                 " every measured algorithm fits each of the %zu described "
                 "part%s of this core",
                 parts, parts == 1 ? "" : "s");
  for (size_t i = 0; i < x->n_algs; i++)
    for (size_t k = 0; k < x->algs[i].n_fits; k++) {
      const mh_alg_cost *a = &x->algs[i];
      if (a->fit[k] != 0)
        continue;
      mh_sb_putc(h->b, ' ');
      txt(h, a->alg);
      mh_sb_puts(h->b, " (");
      txt(h, a->backend);
      mh_sb_puts(h->b, ") on ");
      txt(h, a->fit_board[k]);
      mh_sb_puts(h->b, ": ");
      txt(h, a->fit_reason[k]);
      mh_sb_puts(h->b, --bad ? ";" : "");
    }
  mh_sb_putc(h->b, '.');
  item_close(h, "does-it-fit", "fits");
}

/* The fairness paragraph of report.md, as one item. */
static void fairness(hl *h, const mh_results *r, const char *target) {
  mh_sb f = {0};
  mh_report_fairness(&f, r, target, h->html);
  size_t n = f.len;
  while (n && f.s[n - 1] == '\n')
    n--;
  item_open(h);
  if (h->html)
    mh_sb_printf(h->b, " class='hl' data-kind='fairness' data-run='%zu'>",
                 h->ri);
  mh_sb_add(h->b, f.s ? f.s : "", n);
  h->b->failed |= f.failed;
  mh_sb_free(&f);
  item_close(h, "workflows", "workflows");
}

void mh_report_core_name(const char *core, char *buf, size_t len) {
  if (!core || strncmp(core, "cortex-", 7) != 0 || len < 8) {
    snprintf(buf, len, "%s", core ? core : "?");
    return;
  }
  snprintf(buf, len, "Cortex-%s", core + 7);
  for (char *p = buf + 7; *p; p++)
    *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
  char *plus = strstr(buf, "PLUS");
  if (plus)
    snprintf(plus, len - (size_t)(plus - buf), "+");
}

static void core_name(hl *h, const char *core) {
  char c[64];
  mh_report_core_name(core, c, sizeof c);
  txt(h, c);
}

/* What the figures are: for a device, the part and clock the estimated
 * cycles and time are for. */
static void unit_line(hl *h, const mh_result *x, int jobs) {
  const mh_cyc_run *c = x->run.cyc;
  mh_sb_puts(h->b, h->html ? "<p class='note'>" : "");
  if (h->est && c->board) {
    mh_sb_puts(h->b, "Cycles and time are estimated for ");
    bold(h, c->board_name ? c->board_name : c->board);
    mh_sb_puts(h->b, " at ");
    mh_fmt_num(h->b, h->hz / 1e6);
    mh_sb_puts(h->b, " MHz, with its flash and caches");
  } else if (h->est) {
    mh_sb_puts(h->b, "Cycles and time are estimated for a ");
    if (h->html)
      mh_sb_puts(h->b, "<span class='what'>");
    core_name(h, mh_run_prov(&x->run, "core"));
    if (h->hz > 0) {
      mh_sb_puts(h->b, " at ");
      mh_fmt_num(h->b, h->hz / 1e6);
      mh_sb_puts(h->b, " MHz");
    }
    if (h->html)
      mh_sb_puts(h->b, "</span>");
    mh_sb_puts(h->b, " with zero-wait memory (the target's clock; for a "
                     "named part's flash, caches and clock: ");
    mh_sb_puts(h->b, h->html ? "<code>merlin run --board PART</code>, "
                               "<code>merlin list boards</code>)"
                             : "`merlin run --board PART`, `merlin list "
                               "boards`)");
  }
  if (h->est) {
    mh_sb_puts(h->b, " by the cycle model ");
    txt(h, c->model);
    mh_sb_puts(h->b, " version ");
    txt(h, c->version ? c->version : "?");
    mh_sb_puts(h->b, " from QEMU's exact instruction counts: an estimate, "
                     "not a measurement (docs/cycle-model.md).");
  } else if (strcmp(h->unit, "instructions") == 0) {
    mh_sb_puts(h->b, "Figures are instructions executed, counted exactly by "
                     "QEMU: not cycles, and not time on a real part.");
  } else if (strcmp(h->unit, "ns") == 0) {
    mh_sb_puts(h->b, "Figures are wall-clock time on the host that ran "
                     "merlin (other work on the machine disturbs them).");
  } else if (strcmp(h->unit, "cycles") == 0) {
    mh_sb_puts(h->b, "Figures are core cycles counted on the part.");
  } else {
    mh_sb_puts(h->b, "Figures are in ");
    txt(h, h->unit);
    mh_sb_putc(h->b, '.');
  }
  if (jobs)
    mh_sb_puts(h->b, " Each job below: the cheapest post-quantum choice "
                     "against the cheapest classical one; the tables after "
                     "them give every pairing.");
  mh_sb_puts(h->b, h->html ? "</p>\n<ul class='jobs'>\n" : "\n\n");
}

static void run_title(hl *h, const mh_result *x) {
  if (h->html) {
    mh_sb_printf(h->b, "<div class='run' data-run='%zu'><h3>", h->ri);
    mh_esc_html(h->b, x->target);
  } else {
    mh_sb_puts(h->b, "### ");
    mh_esc_md(h->b, x->target);
  }
  mh_sb_puts(h->b, " (profile ");
  txt(h, x->profile);
  mh_report_build_suffix(h->b, x, h->html ? mh_esc_html : mh_esc_md);
  mh_sb_puts(h->b, h->html ? ")</h3>\n" : ")\n\n");
}

int mh_report_is_device(const mh_result *x) {
  const char *core = mh_run_prov(&x->run, "core");
  return core && strncmp(core, "cortex-", 7) == 0;
}

void mh_report_device_order(const mh_results *r, size_t *order) {
  size_t k = 0;
  for (int device = 1; device >= 0; device--)
    for (size_t i = 0; i < r->n_runs; i++)
      if (mh_report_is_device(&r->runs[i]) == device)
        order[k++] = i;
}

/* The tables of every pairing, after the sentences. */
static void tables(hl *h, mh_an_ratio *v[MH_AN_N_CONTESTS],
                   const size_t n[MH_AN_N_CONTESTS]) {
  mh_sb_puts(h->b, h->html
                       ? "<p class='note'>Every pairing, ratios of medians in "
                       : "Every pairing, ratios of medians in ");
  txt(h, h->unit);
  mh_sb_puts(h->b, h->est ? " (and in estimated cycles)" : "");
  mh_sb_puts(h->b, "; above 1: the post-quantum side costs more");
  mh_sb_puts(h->b, h->html ? ".</p><div class='hl-tables'>"
                           : " ([table](#ratios)).\n\n");
  for (int c = 0; c < MH_AN_N_CONTESTS; c++)
    if (n[c])
      contest_table(h, h->run, (mh_an_contest_id)c, v[c], n[c]);
  mh_sb_puts(h->b, h->html ? "</div>\n" : "");
}

double mh_report_clock_hz(const mh_result *x) {
  const mh_cyc_run *c = x->run.cyc;
  if (c && c->model && c->board)
    return c->board_hz;
  const char *s = mh_run_prov(&x->run, "clock_hz");
  return s ? strtod(s, NULL) : 0;
}

static void run_headline(mh_sb *b, const mh_results *r, size_t i, int html) {
  const mh_result *x = &r->runs[i];
  hl h = {b,
          html,
          i,
          x->run.unit ? x->run.unit : "?",
          &x->run,
          0,
          mh_report_clock_hz(x)};
  h.est = mh_an_run_has_est(&x->run);
  mh_an_ratio *v[MH_AN_N_CONTESTS];
  size_t n[MH_AN_N_CONTESTS];
  int any = all_ratios(&h, v, n);
  run_title(&h, x);
  unit_line(&h, x, any);
  for (int c = 0; c < MH_AN_N_CONTESTS; c++)
    if (n[c])
      job_sentence(&h, (mh_an_contest_id)c);
  provisioning(&h);
  fits(&h, x);
  if (!any && !x->run.n_wfs) {
    item_open(&h);
    mh_sb_puts(b, html ? ">" : "");
    mh_sb_puts(b, "This run measures none of the key establishment and "
                  "signature jobs compared here.");
    mh_sb_puts(b, html ? "</li>\n" : "\n");
  }
  mh_sb_puts(b, html ? "</ul>\n" : "\n");
  if (any)
    tables(&h, v, n);
  int first = 1;
  for (size_t k = 0; k < i && first; k++)
    first = strcmp(r->runs[k].target, x->target) != 0;
  if (first && x->run.n_wfs) {
    mh_sb_puts(b, html ? "<ul class='notes'>\n" : "");
    fairness(&h, r, x->target);
    mh_sb_puts(b, html ? "</ul>\n" : "\n");
  }
  mh_sb_puts(b, html ? "</div>\n" : "");
  for (int c = 0; c < MH_AN_N_CONTESTS; c++)
    free(v[c]);
}

void mh_report_headline(mh_sb *b, const mh_results *r, int html) {
  mh_sb_puts(b, html ? "" : "## Headline\n\n");
  size_t *order = r->n_runs ? calloc(r->n_runs, sizeof *order) : NULL;
  if (r->n_runs && !order) {
    b->failed = 1;
    return;
  }
  if (order)
    mh_report_device_order(r, order);
  for (size_t k = 0; k < r->n_runs; k++)
    run_headline(b, r, order[k], html);
  free(order);
}
