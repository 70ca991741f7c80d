/* SPDX-License-Identifier: Apache-2.0 */
/* The site's runs in groups, the cell lookup and the provenance of a
 * cell (site_int.h). */
#include "site/site_int.h"

#include "model/cycles.h"

#include <stdlib.h>
#include <string.h>

/* The cores in the cross-core order (the issue's: M0+ to M85). */
static const char *const CORES[] = {
    "cortex-m0",  "cortex-m0plus", "cortex-m3",  "cortex-m4",  "cortex-m7",
    "cortex-m23", "cortex-m33",    "cortex-m55", "cortex-m85", NULL};

static size_t core_rank(const char *target, const char *core) {
  for (size_t i = 0; core && CORES[i]; i++)
    if (strcmp(core, CORES[i]) == 0)
      return i;
  return strncmp(target, "host", 4) == 0 ? 99 : 50;
}

/* A unit of time (the host's ns) depends on the machine. */
static int time_unit(const char *unit) {
  return unit && (strcmp(unit, "ns") == 0 || strcmp(unit, "us") == 0);
}

/* The place, title and label of run x into the strbufs. */
static void describe(const mh_result *x, mh_sb *place, mh_sb *title,
                     mh_sb *label) {
  const mh_run *run = &x->run;
  const mh_cyc_run *cy = run->cyc;
  const char *core = mh_run_prov(run, "core");
  const char *cc = mh_run_prov(run, "compiler");
  const char *fl = mh_run_prov(run, "cflags");
  if (cy && cy->board) {
    mh_sb_printf(place, "board-%s", cy->board);
    mh_sb_printf(title, "%s (board %s: %s on %s)",
                 cy->board_name ? cy->board_name : cy->board, cy->board,
                 core ? core : "?", x->target);
  } else {
    mh_sb_puts(place, x->target);
    mh_sb_printf(title, "%s (%s)", x->target, core ? core : "?");
  }
  mh_sb_printf(label, "%s %s; ", cc ? cc : "compiler ?", fl ? fl : "");
  if (cy && cy->model)
    mh_sb_printf(label, "cycle model %s%s%s; ", cy->model,
                 cy->version ? " " : "", cy->version ? cy->version : "");
  else
    mh_sb_puts(label, "no cycle model; ");
  mh_sb_printf(label, "%s", run->unit ? run->unit : "?");
  if (time_unit(run->unit))
    mh_sb_printf(label, "; machine %s", x->host ? x->host : "?");
}

static int add_to_group(site_group *g, size_t run) {
  size_t *v = realloc(g->runs, (g->n_runs + 1) * sizeof *v);
  if (!v)
    return -1;
  g->runs = v;
  g->runs[g->n_runs++] = run;
  return 0;
}

static int new_group(site_ctx *c, const mh_result *x, mh_sb *place,
                     mh_sb *title, mh_sb *label) {
  site_group *v = realloc(c->g, (c->n_g + 1) * sizeof *v);
  if (!v)
    return -1;
  c->g = v;
  site_group *g = &c->g[c->n_g++];
  memset(g, 0, sizeof *g);
  const mh_cyc_run *cy = x->run.cyc;
  const char *core = mh_run_prov(&x->run, "core");
  const char *clock = mh_run_prov(&x->run, "clock_hz");
  g->place = strdup(place->s);
  g->title = strdup(title->s);
  g->label = strdup(label->s);
  g->core = strdup(core ? core : "?");
  g->unit = strdup(x->run.unit ? x->run.unit : "?");
  g->model =
      cy && cy->model ? strdup(cy->model) : NULL; /* set apart by label */
  g->clock = cy && cy->board && cy->board_hz > 0 ? cy->board_hz
             : clock                             ? strtod(clock, NULL)
                                                 : 0;
  g->rank = core_rank(x->target, core);
  return g->place && g->title && g->label && g->core && g->unit ? 0 : -1;
}

static int group_cmp(const void *a, const void *b) {
  const site_group *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  int d = strcmp(x->place, y->place);
  return d ? d : strcmp(x->label, y->label);
}

int mh_site_groups(site_ctx *c) {
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < c->db->n; i++) {
    const mh_result *x = c->db->runs[i].x;
    mh_sb place = {0}, title = {0}, label = {0};
    describe(x, &place, &title, &label);
    rc = place.failed || title.failed || label.failed ? -1 : 0;
    size_t k = 0;
    while (rc == 0 && k < c->n_g &&
           !(strcmp(c->g[k].place, place.s) == 0 &&
             strcmp(c->g[k].label, label.s) == 0))
      k++;
    if (rc == 0 && k == c->n_g)
      rc = new_group(c, x, &place, &title, &label);
    if (rc == 0)
      rc = add_to_group(&c->g[k], i);
    mh_sb_free(&place);
    mh_sb_free(&title);
    mh_sb_free(&label);
  }
  if (rc == 0 && c->n_g)
    qsort(c->g, c->n_g, sizeof *c->g, group_cmp);
  return rc;
}

void mh_site_groups_free(site_ctx *c) {
  for (size_t i = 0; i < c->n_g; i++) {
    site_group *g = &c->g[i];
    free(g->place);
    free(g->title);
    free(g->core);
    free(g->label);
    free(g->model);
    free(g->unit);
    free(g->runs);
  }
  free(c->g);
  c->g = NULL;
  c->n_g = 0;
}

static int same(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

const mh_op *mh_site_find(const site_ctx *c, const site_group *g,
                          const char *alg, const char *op, long bytes,
                          const char *backend, const char *variant,
                          size_t *run) {
  for (size_t k = g->n_runs; k-- > 0;) {
    const mh_run *r = &c->db->runs[g->runs[k]].x->run;
    for (size_t i = 0; i < r->n_ops; i++) {
      const mh_op *o = &r->ops[i];
      if (o->n_samples && o->bytes == bytes && strcmp(o->alg, alg) == 0 &&
          strcmp(o->op, op) == 0 && strcmp(o->backend, backend) == 0 &&
          same(o->variant, variant)) {
        *run = g->runs[k];
        return o;
      }
    }
  }
  return NULL;
}

/* The folder record of backend in x, or NULL. */
static const mh_impl_rec *folder(const mh_result *x, const char *backend) {
  for (size_t i = 0; backend && i < x->n_impls; i++)
    if (strcmp(x->impls[i].backend, backend) == 0)
      return &x->impls[i];
  return NULL;
}

void mh_site_prov(mh_sb *b, const site_ctx *c, size_t run, const mh_op *o) {
  const mh_db_run *d = &c->db->runs[run];
  const mh_result *x = d->x;
  const mh_run *r = &x->run;
  const char *src = mh_run_prov(r, "source");
  mh_sb_printf(b, "run %ld (%.12s) from %s; merlin %s, source %s; made %s",
               d->id, d->sha256, d->source,
               d->doc->merlin ? d->doc->merlin : "?", src ? src : "?",
               d->doc->created ? d->doc->created : "?");
  mh_sb_printf(b, "; %s / %s; %s %s", x->target, x->profile,
               mh_run_prov(r, "compiler") ? mh_run_prov(r, "compiler") : "?",
               mh_run_prov(r, "cflags") ? mh_run_prov(r, "cflags") : "");
  for (size_t i = 0; i < r->n_prov; i++)
    if (strncmp(r->prov[i].key, "lib.", 4) == 0)
      mh_sb_printf(b, "; %s %s", r->prov[i].key + 4, r->prov[i].value);
  if (x->qemu_version)
    mh_sb_printf(b, "; %s", x->qemu_version);
  if (r->cyc && r->cyc->model)
    mh_sb_printf(b, "; cycle model %s %s", r->cyc->model,
                 r->cyc->version ? r->cyc->version : "");
  if (r->cyc && r->cyc->board)
    mh_sb_printf(b, "; board %s", r->cyc->board);
  if (x->host)
    mh_sb_printf(b, "; machine %s", x->host);
  const mh_impl_rec *f = o ? folder(x, o->backend) : NULL;
  if (f)
    mh_sb_printf(b, "; folder %s sha256 %.16s, Keccak %s", f->path,
                 f->sha256 ? f->sha256 : "?", f->hash ? f->hash : "?");
  if (o)
    mh_sb_printf(b, "; n=%zu", o->n_samples);
}
