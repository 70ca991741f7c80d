/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin compare OLD NEW`: the comparison in its three forms (docs/cli.md,
 * docs/report-html.md): the terminal text and the Markdown summary, each
 * with the verdict on its first line, and the page (--html). All three are
 * grouped by run (target, profile, build: one unit each) with a header,
 * regressions and improvements first, the rows that did not change beyond
 * the runs' spread or the machine's noise folded into a count (the page
 * keeps them, after the others). cli_compare.c decides the verdicts; this
 * formats them. */
#ifndef MERLIN_HOST_REPORT_COMPARE_H
#define MERLIN_HOST_REPORT_COMPARE_H

#include "report/html_page.h"
#include "util/strbuf.h"

#include <jansson.h>

/* The verdicts, in the order the reports list them. */
typedef enum {
  MH_CMP_REGRESSED,
  MH_CMP_IMPROVED,
  MH_CMP_CHANGED,       /* outside spread and noise, under the threshold */
  MH_CMP_NEW,           /* in NEW only */
  MH_CMP_REMOVED,       /* in OLD only */
  MH_CMP_WITHIN_NOISE,  /* under the machine's noise figure */
  MH_CMP_WITHIN_SPREAD, /* within the sum of the runs' IQRs */
  MH_CMP_SAME,          /* the same median */
  MH_CMP_OLD_ONLY,      /* in OLD only: a run or profile NEW does not have */
  MH_CMP_NEW_ONLY,      /* in NEW only: a run or profile OLD does not have */
  MH_CMP_N_VERDICTS
} mh_cmp_verdict;

/* "REGRESSED", "improved", "changed", "new operation", "removed", "within
 * noise", "within spread", "same", "only in OLD", "only in NEW". NEW and
 * REMOVED are operations a run of the same profile gained or lost; OLD_ONLY
 * and NEW_ONLY those of a run compared with another profile's (or of a run
 * with no counterpart), which the text forms list by algorithm. */
extern const char *const mh_cmp_verdict_names[MH_CMP_N_VERDICTS];

/* The first verdict that is folded (a count, not a row) in the text forms,
 * and the first of those listed by algorithm instead. */
#define MH_CMP_FOLDED MH_CMP_WITHIN_NOISE
#define MH_CMP_ONE_SIDE MH_CMP_OLD_ONLY

typedef struct {
  const char *old_name, *new_name; /* as given on the command line */
  double threshold;                /* a fraction */
  const char *prov;  /* the provenance differences, a line each, or "" */
  const char *notes; /* what --force paired, a line each, or "" */
  int forced;        /* --force compared them anyway */
  int count[MH_CMP_N_VERDICTS]; /* rows per verdict */
  /* One object per pair of runs: name ("qemu-m4 (profile default, gcc
   * -O2)"), unit, noise_old and noise_new (the control's p95/p5 - 1 of each
   * run, a fraction; null when the run has no figure). */
  const json_t *groups;
  /* One object per operation: group (its index), target, label ("alg op [N
   * B] (backend)", raw), alg, unit, old_median, new_median, old_p99,
   * new_p99 (numbers, absent for a new or removed operation), old_t, new_t
   * (as report.md writes them), change, p99_change (fractions; null: from
   * 0), verdict (mh_cmp_verdict_names), _f (the filters). */
  const json_t *rows;
} mh_cmp_page;

/* Operations compared: every row but those of one side (new, removed,
 * only in OLD or NEW). */
int mh_cmp_compared(const mh_cmp_page *p);

/* Appends the terminal text (md 0) or the Markdown summary (md 1). */
void mh_report_compare_text(mh_sb *b, const mh_cmp_page *p, int md);

/* A malloc'd page, or NULL when out of memory. */
char *mh_report_compare_html(const mh_cmp_page *p, const mh_html_assets *a);

#endif
