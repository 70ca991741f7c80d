/* SPDX-License-Identifier: Apache-2.0 */
/* Number and text formatting shared by every renderer (report.md, report.html,
 * report.tex, the CLI's summaries): one definition each. */
#ifndef MERLIN_HOST_REPORT_FORMAT_H
#define MERLIN_HOST_REPORT_FORMAT_H

#include "model/model.h"
#include "util/escape.h"
#include "util/strbuf.h"

#include <stddef.h>

/* v with thousands separators and a few decimals ("1,234,567", "12.5");
 * from 1e18 on, the shortest form that reads back as v ("1.2e+301"). */
void mh_format_number(double v, char *buf, size_t len);

/* Appends mh_format_number(v) to b. */
void mh_fmt_num(mh_sb *b, double v);

/* Appends "<alg> <op>[ N B]", the name of an operation in a table row;
 * md: s as Markdown cell text, else as HTML text. */
void mh_fmt_op_name(mh_sb *b, const char *alg, const char *op, long bytes,
                    int md);

/* Appends "| alg op [N B] | backend", the first two cells of an
 * operation's row in a Markdown table. */
void mh_fmt_md_op_cells(mh_sb *b, const mh_op *o);

/* Appends sep and v[i] (mh_format_number) for each of v[0..n): " | " in
 * a Markdown row, "</td><td>" in an HTML one. */
void mh_fmt_nums(mh_sb *b, const char *sep, const double *v, size_t n);

/* Appends " | %.2f" of x / ref, or " | –" when the ratio is not a number. */
void mh_fmt_md_ratio(mh_sb *b, double x, double ref);

#endif
