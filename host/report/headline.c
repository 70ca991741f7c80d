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

static const char *const WHAT[MH_AN_N_CONTESTS] = {
    [MH_AN_KE_INIT] = ("Key establishment, the device generating the key "
                       "pair (ML-KEM keygen + decaps against ECDH keygen + "
                       "shared):"),
    [MH_AN_KE_RESP] = ("Key establishment, the device answering (ML-KEM "
                       "encaps against a full ECDH exchange):"),
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

/* "ML-KEM-512 keygen + decaps on pqclean against ECDH P-256 keygen +
 * shared on wolfcrypt". */
static void pairing(hl *h, const mh_an_ratio *v) {
  mh_sb_printf(h->b, "%s on ", v->pq->label);
  txt(h, v->pq_backend);
  mh_sb_printf(h->b, " against %s on ", v->ref->label);
  txt(h, v->ref_backend);
}

/* Signatures give the tail beside the median (ratios of p99s): signing
 * time spreads (ML-DSA's rejection loop) and verifying is what a device
 * waits on. */
static int has_p99(mh_an_contest_id c) {
  return c == MH_AN_SIGN || c == MH_AN_VERIFY;
}

/* One sentence per contest: how many pairings favour post-quantum, and
 * the extremes. */
static void summary(hl *h, mh_an_contest_id c, const mh_an_ratio *v, size_t n) {
  size_t lo = 0, hi = 0, cheaper = 0, plo = 0, phi = 0;
  for (size_t i = 0; i < n; i++) {
    lo = v[i].median < v[lo].median ? i : lo;
    hi = v[i].median > v[hi].median ? i : hi;
    plo = v[i].p99 < v[plo].p99 ? i : plo;
    phi = v[i].p99 > v[phi].p99 ? i : phi;
    cheaper += v[i].median < 1;
  }
  bold(h, WHAT[c]);
  if (n == 1) {
    mh_sb_putc(h->b, ' ');
    pairing(h, &v[0]);
    mh_sb_puts(h->b, ": ");
    ratio(h, "ratio", v[0].median);
    mh_sb_puts(h->b, ", ");
    direction(h, v[0].median);
  } else {
    mh_sb_printf(h->b, " post-quantum is cheaper in %zu of %zu pairings, from ",
                 cheaper, n);
    direction(h, v[lo].median);
    mh_sb_puts(h->b, " (");
    pairing(h, &v[lo]);
    mh_sb_puts(h->b, ") to ");
    direction(h, v[hi].median);
    mh_sb_puts(h->b, " (");
    pairing(h, &v[hi]);
    mh_sb_putc(h->b, ')');
  }
  if (has_p99(c)) {
    mh_sb_puts(h->b, "; ratios of p99s from ");
    ratio(h, "p99-ratio", v[plo].p99);
    mh_sb_puts(h->b, " to ");
    ratio(h, "p99-ratio", v[phi].p99);
  }
  mh_sb_puts(h->b, h->html ? ". Ratios of medians:"
                           : ". Ratios of medians "
                             "([table](#ratios)):\n\n");
}

/* The cell of ratio v (index i of contest c) in the contest's table. */
/* The estimated cycles of job j on backend (the cycle model's, an
 * estimate): 1, or 0 when an operation has none. */
static int job_est(const mh_run *run, const mh_an_job *j, const char *backend,
                   double *est) {
  *est = 0;
  for (int k = 0; k < 1 + (j->op2 != NULL); k++) {
    const mh_op *o = NULL;
    for (size_t i = 0; i < run->n_ops && !o; i++)
      if (mh_str_same(run->ops[i].alg, j->alg) &&
          mh_str_same(run->ops[i].op, k ? j->op2 : j->op1) &&
          mh_str_same(run->ops[i].backend, backend) && run->ops[i].n_samples)
        o = &run->ops[i];
    if (!o || !o->cyc || !o->cyc->has_est)
      return 0;
    *est += o->cyc->est.median;
  }
  return 1;
}

/* " · est. cycles 0.30×": the same pairing in the cycle model's estimated
 * cycles, where it gives them. */
static void est_ratio(hl *h, const mh_run *run, const mh_an_ratio *v) {
  double pe, re;
  if (job_est(run, v->pq, v->pq_backend, &pe) &&
      job_est(run, v->ref, v->ref_backend, &re) && re > 0) {
    mh_sb_puts(h->b, " · est. cycles ");
    ratio(h, "est-ratio", pe / re);
  }
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
    mh_sb_puts(h->b, " vs ");
    txt(h, v->ref_backend);
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
  mh_sb_puts(h->b, h->html ? "<table class='hl-table'><tr><th>post-quantum "
                             "(backend)</th>"
                           : "| post-quantum (backend) |");
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
  mh_sb_puts(h->b, h->html ? "</table>" : "\n");
}

static int contests(hl *h, const mh_run *run) {
  int any = 0;
  for (int c = 0; c < MH_AN_N_CONTESTS; c++) {
    mh_an_ratio *v;
    size_t n;
    if (mh_an_ratios(run, (mh_an_contest_id)c, MH_AN_SAME_BACKEND, &v, &n) !=
        0) {
      h->b->failed = 1;
      return any;
    }
    if (n) {
      item_open(h);
      mh_sb_puts(h->b, h->html ? " class='contest'>" : "");
      summary(h, (mh_an_contest_id)c, v, n);
      contest_table(h, run, (mh_an_contest_id)c, v, n);
      mh_sb_puts(h->b, h->html ? "</li>\n" : "");
    }
    any |= n > 0;
    free(v);
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

static void wf_item(hl *h, const mh_run *run, size_t i, const mh_wf *ref) {
  const mh_wf *w = &run->wfs[i];
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
  wf_pair(h, ", bytes on the wire", "wire", (double)mh_wf_wire_bytes(w),
          (double)mh_wf_wire_bytes(ref), "bytes");
  wf_pair(h, ", bytes stored", "stored", (double)w->stored, (double)ref->stored,
          "bytes");
  wf_pair(h, ", peak stack", "stack", (double)w->stack_bytes,
          (double)ref->stack_bytes, "bytes");
  size_t others = 0;
  for (size_t j = 0; j < run->n_wfs; j++)
    others += j != i && timed(&run->wfs[j]) &&
              strcmp(run->wfs[j].variant, w->variant) == 0 &&
              strcmp(run->wfs[j].workflow, w->workflow) == 0;
  if (others)
    mh_sb_printf(h->b, "; %zu other backend choice%s in the table", others,
                 others == 1 ? "" : "s");
  mh_sb_putc(h->b, '.');
  char id[64];
  snprintf(id, sizeof id, "wf-%zu-%zu", h->ri, i);
  item_close(h, "workflows", id);
}

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

static void workflows(hl *h, const mh_run *run) {
  for (size_t i = 0; i < run->n_wfs; i++)
    if (speaks_for_variant(run, i))
      wf_item(h, run, i, mh_an_wf_reference(run, &run->wfs[i]));
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

static void unit_line(hl *h, const mh_result *x) {
  const char *u = x->run.unit ? x->run.unit : "?";
  mh_sb_puts(h->b, h->html ? "<p class='note'>" : "");
  if (strcmp(u, "instructions") == 0)
    mh_sb_puts(h->b, "Figures are instructions executed, counted exactly by "
                     "QEMU: not cycles, and not time on a real part.");
  else if (strcmp(u, "ns") == 0)
    mh_sb_puts(h->b, "Figures are nanoseconds of wall-clock time on the host "
                     "that ran merlin (other work on the machine disturbs "
                     "them).");
  else if (strcmp(u, "cycles") == 0)
    mh_sb_puts(h->b, "Figures are core cycles counted on the part.");
  else {
    mh_sb_puts(h->b, "Figures are in ");
    txt(h, u);
    mh_sb_putc(h->b, '.');
  }
  mh_sb_puts(h->b, " Ratios above 1: the post-quantum side costs more.");
  if (x->run.cyc && x->run.cyc->model) {
    mh_sb_puts(h->b, " \"est. cycles\": the same ratio in cycles estimated "
                     "by the model ");
    txt(h, x->run.cyc->model);
    mh_sb_puts(h->b, " from the instruction mix: an estimate, not a "
                     "measurement (docs/cycle-model.md).");
  }
  mh_sb_puts(h->b, h->html ? "</p>\n<ul>\n" : "\n\n");
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

void mh_report_headline(mh_sb *b, const mh_results *r, int html) {
  mh_sb_puts(b, html ? "" : "## Headline\n\n");
  for (size_t i = 0; i < r->n_runs; i++) {
    const mh_result *x = &r->runs[i];
    hl h = {b, html, i, x->run.unit ? x->run.unit : "?"};
    run_title(&h, x);
    unit_line(&h, x);
    int any = contests(&h, &x->run);
    workflows(&h, &x->run);
    int first = 1;
    for (size_t k = 0; k < i && first; k++)
      first = strcmp(r->runs[k].target, x->target) != 0;
    if (first && x->run.n_wfs)
      fairness(&h, r, x->target);
    fits(&h, x);
    if (!any && !x->run.n_wfs) {
      item_open(&h);
      mh_sb_puts(b, html ? ">" : "");
      mh_sb_puts(b, "This run measures none of the key establishment and "
                    "signature jobs compared here.");
      mh_sb_puts(b, html ? "</li>\n" : "\n");
    }
    mh_sb_puts(b, html ? "</ul></div>\n" : "\n");
  }
}
