/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin compare OLD NEW --html FILE`: the two runs side by side on one
 * self-contained page (docs/report-html.md): the provenance differences
 * first, then per operation the change of median and p99 against the
 * threshold, regressions and improvements highlighted, as a chart and a
 * sortable table. cli_compare.c decides the verdicts; this formats. */
#ifndef MERLIN_HOST_REPORT_COMPARE_H
#define MERLIN_HOST_REPORT_COMPARE_H

#include "report/html_page.h"

#include <jansson.h>

typedef struct {
  const char *old_name, *new_name; /* as given on the command line */
  double threshold;                /* a fraction */
  const char *prov; /* the provenance differences, a line each, or "" */
  int forced;       /* --force compared them anyway */
  int compared, regressions, improvements;
  /* One object per operation: target, label, alg, backend, unit,
   * old_median, new_median, old_p99, new_p99 (numbers, absent for a new or
   * removed operation), change, p99_change (fractions; null: from 0),
   * verdict ("REGRESSED", "improved", "changed", "within spread", "same",
   * "new operation", "removed"), _f (the filters). */
  const json_t *rows;
} mh_cmp_page;

/* A malloc'd page, or NULL when out of memory. */
char *mh_report_compare_html(const mh_cmp_page *p, const mh_html_assets *a);

#endif
