/* SPDX-License-Identifier: Apache-2.0 */
/* report.md, "Compiler and optimisation matrix": for every (target,
 * profile) run with several compilers or optimisation levels (merlin run
 * --cc/--opt), one row per (compiler, opt) under each operation, so the
 * matrix reads down the page (docs/results.md). */
#ifndef MERLIN_HOST_REPORT_MATRIX_H
#define MERLIN_HOST_REPORT_MATRIX_H

#include "model/results.h"
#include "util/escape.h"
#include "util/strbuf.h"

/* Appends the section; nothing when no (target, profile) has two runs. */
void mh_report_md_matrix(mh_sb *b, const mh_results *r);

/* ", gcc -O2" from a run's provenance (compiler family and last -O flag),
 * or nothing when the run does not say; its words escaped by esc (the
 * format written: mh_esc_md, mh_esc_html). */
void mh_report_build_suffix(mh_sb *b, const mh_result *x, mh_esc_fn esc);

/* A run in a table cell: its target, plus " (gcc -O2)" when r is a
 * matrix (several runs of one target and profile). */
void mh_report_md_run_label(mh_sb *b, const mh_results *r, const mh_result *x);

#endif
