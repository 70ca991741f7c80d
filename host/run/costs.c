/* SPDX-License-Identifier: Apache-2.0 */
/* The costs stage (see stages.h): code size, static RAM and fit. */
#include "image/sizes.h"
#include "run/jobs.h"
#include "run/stages.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The algorithm entry of res for (alg, backend), writable. */
static mh_alg_cost *alg_entry(mh_result *res, const char *alg,
                              const char *backend) {
  return (mh_alg_cost *)mh_result_alg(res, alg, backend);
}

/* Peak RAM an algorithm needs beyond its static RAM: the largest peak stack
 * plus the largest peak heap of its operations in this run. */
static uint64_t dynamic_ram(const mh_run *run, const char *alg,
                            const char *backend) {
  uint64_t stack = 0, heap = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    const mh_op *op = &run->ops[i];
    if (!op->has_mem || strcmp(op->alg, alg) != 0 ||
        strcmp(op->backend, backend) != 0)
      continue;
    if (op->stack_bytes > stack)
      stack = op->stack_bytes;
    if (op->heap_bytes > heap)
      heap = op->heap_bytes;
  }
  return stack + heap;
}

/* Flash and static RAM per algorithm (merlin sizes, the same build
 * configuration as the image), and whether each algorithm fits each
 * described board of the run's core (boards/, docs/boards.md). */
int mh_stage_costs(mh_run_ctx *c, mh_job *tr) {
  const mh_run_opts *o = c->o;
  char err[2048];
  mh_sizes sz;
  mh_jobboard_note(tr->jobs_board, tr->jobs_i,
                   "code sizes, an image per algorithm");
  /* The size images of the image's own build tree (the same compiler,
   * flags and compiled libraries; image_build.h), but for a build with a
   * test hook or the sanitizers. */
  mh_build_spec bs = mh_job_build_spec(c, tr, c->o->quiet);
  int own = mh_build_has_sizes(&bs);
  char *bdir = own ? mh_build_dir(&bs) : NULL;
  int szrc = own ? (bdir ? mh_sizes_measure_tree(&bs, bdir, o->quiet, &sz, err,
                                                 sizeof err)
                         : -1)
                 : mh_sizes_measure(&bs, o->quiet, &sz, err, sizeof err);
  if (own && !bdir)
    snprintf(err, sizeof err, "out of memory");
  free(bdir);
  if (szrc != 0) {
    fprintf(stderr, "merlin: %s: code sizes: %s\n", tr->label, err);
    return 1;
  }
  mh_result *res = &tr->res;
  int rc = 0;
  res->has_baseline = 1;
  res->baseline_flash = (int64_t)sz.baseline.image_flash;
  res->baseline_ram = (int64_t)sz.baseline.image_ram;
  for (size_t i = 0; i < sz.n_algs && rc == 0; i++) {
    const mh_alg_size *s = &sz.algs[i];
    mh_alg_cost *a = alg_entry(res, s->alg, s->backend);
    if (!a)
      continue; /* routed but announced no operation (cannot happen) */
    a->has_size = 1;
    a->flash_bytes = s->flash_bytes;
    a->ram_bytes = s->ram_bytes;
    a->libs = calloc(s->n_libs ? s->n_libs : 1, sizeof *a->libs);
    for (size_t k = 0; a->libs && k < s->n_libs; k++) {
      if (!s->libs[k].flash_bytes)
        continue;
      mh_lib_bytes *l = &a->libs[a->n_libs];
      if (!(l->library = strdup(s->libs[k].library)))
        break;
      l->bytes = s->libs[k].flash_bytes;
      l->has_sections = 1;
      l->data = s->libs[k].data_bytes;
      l->text = s->libs[k].flash_bytes - l->data;
      l->bss = s->libs[k].ram_bytes - l->data;
      a->n_libs++;
    }
    if (!a->libs)
      rc = 1;
  }
  mh_sizes_free(&sz);
  if (rc != 0) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  mh_board *boards = NULL;
  size_t nb = 0;
  if (mh_boards_load(c->root, &boards, &nb, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 1;
  }
  const char *core = mh_run_prov(&res->run, "core");
  int any = 0;
  for (size_t b = 0; b < nb; b++)
    any |= core && strcmp(boards[b].core, core) == 0;
  for (size_t i = 0; any && i < res->n_algs && rc == 0; i++) {
    mh_alg_cost *a = &res->algs[i];
    if (!a->has_size)
      continue;
    int64_t stat = a->ram_bytes > 0 ? a->ram_bytes : 0;
    uint64_t ram = (uint64_t)stat + dynamic_ram(&res->run, a->alg, a->backend);
    uint64_t flash = a->flash_bytes > 0 ? (uint64_t)a->flash_bytes : 0;
    for (size_t b = 0; b < nb && rc == 0; b++) {
      char why[160];
      int fit = mh_board_fits(&boards[b], core, flash, ram, why, sizeof why);
      if (mh_alg_cost_add_fit(a, boards[b].id, fit, why) != 0)
        rc = 1;
    }
  }
  mh_boards_free(boards, nb);
  if (rc != 0)
    fprintf(stderr, "merlin: out of memory\n");
  return rc;
}
