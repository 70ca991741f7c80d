/* SPDX-License-Identifier: Apache-2.0 */
/* merlin agree: Merlin's figures beside the libraries' own benchmark
 * programs, operation by operation (docs/operations.md). */
#ifndef MERLIN_HOST_AGREE_H
#define MERLIN_HOST_AGREE_H

#include "agree/rows.h"

#include <stddef.h>

typedef struct {
  const char *target;  /* host or a QEMU target */
  const char *backend; /* wolfcrypt or mbedtls */
  const char *md;      /* also write the Markdown table here, or NULL */
  unsigned repeat;     /* interleaved repeats; 0: 3 on the host, 1 else */
  unsigned runs;       /* Merlin's samples; 0: 101 on the host, 11 else */
  int quiet;
} mh_agree_opts;

/* 0 every row agrees or has its reason; 1 a row outside the bound has
 * none (exact targets only) or something failed; 2 bad input. */
int mh_cli_agree(const mh_agree_opts *o);

/* One row of the table, over the repeats. */
typedef struct {
  const mh_ag_map *map;
  double theirs, merlin;               /* medians over the repeats */
  double theirs_spread, merlin_spread; /* max/min - 1 over the repeats */
  size_t n;                            /* repeats with both figures */
} mh_ag_line;

/* The table's header (two lines, Markdown) and one row; bound is the
 * agreement limit (0.01 exact, 0.05 host). The verdict column is "agrees",
 * the definition's reason, or for a "same" row outside the bound the
 * machine's noise when known (noise: NULL, or a phrase naming it) or "no
 * known reason". */
const char *mh_ag_table_header(void);
int mh_ag_format_line(char *buf, size_t cap, const mh_ag_line *l,
                      const char *unit, double bound, const char *noise);
/* 1 when the line is outside bound and its definition is "same". */
int mh_ag_unexplained(const mh_ag_line *l, double bound);

#endif
