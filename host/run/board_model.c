/* SPDX-License-Identifier: Apache-2.0 */
#define _POSIX_C_SOURCE 200809L
#include "run/board_model.h"

#include "config/board_keys.h"
#include "config/targets.h"
#include "image/elffile.h"
#include "image/image_build.h"
#include "run/cycles.h"
#include "util/strbuf.h"
#include "util/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const mh_board *find(const mh_board *all, size_t n, const char *id) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(all[i].id, id) == 0)
      return &all[i];
  return NULL;
}

static int copy_board(const mh_board *src, mh_board *b) {
  /* Re-parse is simpler than a deep copy: keep only what the model uses. */
  memset(b, 0, sizeof *b);
  const char *const in[] = {src->id,
                            src->name,
                            src->core,
                            src->icache,
                            src->dcache,
                            src->prefetch,
                            src->unified_cache,
                            src->runs_from,
                            src->memory_source,
                            src->power_source};
  char **out[] = {&b->id,
                  &b->name,
                  &b->core,
                  &b->icache,
                  &b->dcache,
                  &b->prefetch,
                  &b->unified_cache,
                  &b->runs_from,
                  &b->memory_source,
                  &b->power_source};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
    if (in[i] && !(*out[i] = strdup(in[i])))
      return -1;
  b->clock_hz = src->clock_hz;
  b->flash_wait_states = src->flash_wait_states;
  b->flash_miss_cycles = src->flash_miss_cycles;
  b->run_current_ua = src->run_current_ua;
  b->supply_mv = src->supply_mv;
  return 0;
}

int mh_board_model_load(const char *root, const char *board_id,
                        const char *target_id, mh_board *b, char *err,
                        size_t errlen) {
  mh_board *all = NULL;
  size_t n = 0;
  memset(b, 0, sizeof *b);
  if (mh_boards_load_all(root, 0, &all, &n, err, errlen) != 0)
    return -1;
  const mh_board *p = find(all, n, board_id), *t = find(all, n, target_id);
  int rc = -1;
  if (!p) {
    const char *ids[256];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 256; i++)
      ids[k++] = all[i].id;
    const char *near = mh_suggest(board_id, ids, k);
    snprintf(err, errlen,
             "--board %s: no such part in boards/%s%s%s (merlin list boards)",
             board_id, near ? "; did you mean " : "", near ? near : "",
             near ? "?" : "");
  } else if (!t || !t->core || strcmp(t->core, p->core) != 0) {
    snprintf(err, errlen,
             "--board %s is a %s part; target %s runs %s: the estimate "
             "would be for another core",
             board_id, p->core, target_id, t && t->core ? t->core : "no part");
  } else if (!p->runs_from) { /* the reader checked the rest */
    snprintf(err, errlen,
             "--board %s: boards/%s.board describes no memory system "
             "(runs_from, memory_source: docs/boards.md)",
             board_id, board_id);
  } else if (copy_board(p, b) != 0) {
    snprintf(err, errlen, "out of memory");
  } else {
    rc = 0;
  }
  mh_boards_free(all, n);
  if (rc != 0)
    mh_board_free(b);
  return rc;
}

/* --board part on target: a cycle model of the part's core. */
static int model_fits(const mh_board *b, const char *target, const char *cmodel,
                      char *err, size_t errlen) {
  const char *why = NULL;
  const char *m = mh_cycles_model_arg(target, cmodel ? cmodel : "auto", &why);
  const char *core = mh_board_model_core(m);
  if (strcmp(m, "none") == 0)
    snprintf(err, errlen,
             "--board %s needs a cycle model; target %s has none (%s)", b->id,
             target, why ? why : "no model");
  else if (!core || strcmp(core, b->core) != 0)
    snprintf(err, errlen,
             "--cycle-model %s models %s; --board %s is a %s part: the "
             "estimate would be for another core",
             m, core ? core : "no core merlin knows", b->id, b->core);
  else
    return 0;
  return -1;
}

int mh_board_model_check(const char *part, const char *cmodel,
                         const char *accel, const char *flash_ws,
                         const char *const *targets, size_t n, char *err,
                         size_t errlen) {
  const char *opt = part ? "--board" : accel ? "--accel" : "--flash-ws";
  const char *val = part ? part : accel ? accel : flash_ws;
  if (cmodel && strcmp(cmodel, "off") == 0 && val) {
    snprintf(err, errlen, "%s %s needs the cycle model: drop --cycle-model off",
             opt, val);
    return -1;
  }
  for (size_t i = 0; (part || accel) && i < n; i++)
    if (mh_target_find(targets[i])->kind != MH_EXEC_QEMU) {
      snprintf(err, errlen,
               "%s needs the cycle plugin, which runs on QEMU targets; %s "
               "is not one",
               part ? "--board" : "--accel", targets[i]);
      return -1;
    }
  char *root = part ? mh_source_root(err, errlen) : NULL;
  int rc = part && !root ? -1 : 0;
  for (size_t i = 0; root && rc == 0 && i < n; i++) {
    mh_board b;
    rc = mh_board_model_load(root, part, targets[i], &b, err, errlen);
    if (rc == 0) {
      rc = model_fits(&b, targets[i], cmodel, err, errlen);
      mh_board_free(&b);
    }
  }
  free(root);
  return rc;
}

char *mh_board_model_mem(const mh_board *b, uint64_t lo, uint64_t hi) {
  mh_sb s = {0};
  if (strcmp(b->runs_from, "sram") == 0) /* zero-wait; no flash keys */
    mh_sb_puts(&s, "miss=0");
  else
    mh_sb_printf(&s, "flash=0x%llx-0x%llx,miss=%llu,prefetch=%d",
                 (unsigned long long)lo, (unsigned long long)hi,
                 (unsigned long long)b->flash_miss_cycles,
                 b->prefetch && strcmp(b->prefetch, "yes") == 0);
  if (b->icache)
    mh_sb_printf(&s, ",ic=%s", b->icache);
  if (b->dcache)
    mh_sb_printf(&s, ",dc=%s", b->dcache);
  if (b->unified_cache && strcmp(b->unified_cache, "yes") == 0)
    mh_sb_puts(&s, ",unified=1");
  if (s.failed) {
    mh_sb_free(&s);
    return NULL;
  }
  return s.s;
}

char *mh_board_model_args(const mh_board *b, const char *image, char *err,
                          size_t errlen) {
  uint64_t lo = 0, hi = 0;
  if (strcmp(b->runs_from, "flash") == 0) {
    mh_elf e;
    if (mh_elf_open(image, &e, err, errlen) != 0)
      return NULL;
    int ok = mh_elf_symbol(&e, "vectors", &lo, NULL) == 0 &&
             mh_elf_symbol(&e, "__data_load", &hi, NULL) == 0 && hi > lo;
    mh_elf_free(&e);
    if (!ok) {
      snprintf(err, errlen,
               "%s: no vectors/__data_load symbols: where its flash ends is "
               "not known",
               image);
      return NULL;
    }
  }
  char *s = mh_board_model_mem(b, lo, hi);
  if (!s)
    snprintf(err, errlen, "out of memory");
  return s;
}

double mh_energy_uj(double cycles, double hz, double ua, double mv) {
  /* seconds x volts x amperes, in microjoules */
  return hz > 0 ? cycles / hz * (mv * 1e-3) * (ua * 1e-6) * 1e6 : 0;
}

int mh_board_model_attach(mh_run *run, const mh_board *b) {
  mh_cyc_run *c = run->cyc;
  if (!c)
    return 0;
  if (!(c->board = strdup(b->id)) || !(c->board_name = strdup(b->name)) ||
      !(c->memory_source = strdup(b->memory_source)) ||
      (b->power_source && !(c->power_source = strdup(b->power_source))))
    return -1;
  c->board_hz = (double)b->clock_hz;
  if (b->power_source && b->run_current_ua && b->supply_mv) {
    c->run_current_ua = (double)b->run_current_ua;
    c->supply_mv = (double)b->supply_mv;
  }
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_cyc_op *o = run->ops[i].cyc;
    if (o && o->has_est && c->run_current_ua > 0)
      o->est_energy_uj = mh_energy_uj(o->est.median, c->board_hz,
                                      c->run_current_ua, c->supply_mv);
  }
  return 0;
}
