/* SPDX-License-Identifier: Apache-2.0 */
/* What the site's files share (host/site/): the runs grouped so that
 * figures from different parts, builds, models or machines are never in
 * one table or one line, the cell lookup, provenance, the page frame. */
#ifndef MERLIN_HOST_SITE_INT_H
#define MERLIN_HOST_SITE_INT_H

#include "site/site.h"
#include "util/strbuf.h"

#include <jansson.h>

/* Runs whose figures may stand in one table: the same place (a board, or
 * a target), unit, compiler and flags, cycle model and version, and for
 * a time unit (ns) the same machine. What tells groups apart is their
 * label. */
typedef struct {
  char *place;  /* a file name's part: "qemu-m4", "board-lpc54618" */
  char *title;  /* "qemu-m4 (cortex-m4)" */
  char *core;   /* "cortex-m4" */
  char *label;  /* "arm-none-eabi-gcc GNU 12.2.1 -O2 ...; model cortex-m4 1" */
  char *model;  /* the cycle model ("cortex-m4 1"), or NULL */
  char *unit;   /* the runs' unit */
  double clock; /* the part's clock (the board's, else the target's), Hz */
  size_t *runs; /* indices into the database's runs, import order */
  size_t n_runs;
  size_t rank; /* the core's place in the cross-core order */
} site_group;

typedef struct {
  const mh_db_runs *db;
  const mh_site_opts *o;
  const mh_html_assets *a;
  site_group *g; /* by rank, place, label */
  size_t n_g;
  int failed;
} site_ctx;

/* Group the database's runs (ctx->g). 0 or -1 (out of memory). */
int mh_site_groups(site_ctx *c);
void mh_site_groups_free(site_ctx *c);

/* The operation (alg, op, bytes: -1 for none, backend, variant) as the
 * last run of group g that measured it has it, and that run (index into
 * the database's runs) in *run; NULL when no run of g has it. */
const mh_op *mh_site_find(const site_ctx *c, const site_group *g,
                          const char *alg, const char *op, long bytes,
                          const char *backend, const char *variant,
                          size_t *run);

/* Where run (index into the database's runs) comes from, in one line:
 * run number and hash, the directory it came from, merlin and its source
 * revision, when it was made, compiler and flags, libraries, QEMU, cycle
 * model, board, machine, and the folder of o's backend (its hash). */
void mh_site_prov(mh_sb *b, const site_ctx *c, size_t run, const mh_op *o);

/* The page frame: the header (title, database, links to the other
 * pages) after mh_html_open; the charts' data, scripts and end. */
void mh_site_page_open(mh_sb *b, const site_ctx *c, const char *title);
void mh_site_page_close(mh_sb *b, const site_ctx *c, json_t *charts);

/* "<td class='num' data-v='V' title='PROV'>V</td>", or an empty cell. */
void mh_site_num_cell(mh_sb *b, const site_ctx *c, double v, int has,
                      size_t run, const mh_op *o);

/* Write text to out/name. 0 or -1 with err. */
int mh_site_write_file(const site_ctx *c, const char *name, mh_sb *b, char *err,
                       size_t errlen);

/* The pages (site_tables.c, mh_site_history.c, mh_site_cores.c). */
int mh_site_index(const site_ctx *c, char *err, size_t errlen);
int mh_site_place_page(const site_ctx *c, const char *place, char *err,
                       size_t errlen);
int mh_site_history(const site_ctx *c, char *err, size_t errlen);
int mh_site_cores(const site_ctx *c, char *err, size_t errlen);
int mh_site_benchmarks_md(const site_ctx *c, const char *place, char *err,
                          size_t errlen);

#endif
