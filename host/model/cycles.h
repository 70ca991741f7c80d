/* SPDX-License-Identifier: Apache-2.0 */
/* The cycle model's figures as results hold them (results.json "est_cycles",
 * "insn_classes", "profile", provenance "cycle_model"; docs/cycle-model.md):
 * an estimate from a model, never a measurement. The host reads them from
 * the plugin's side file (run/cycles.h) or from results.json
 * (model/cycles_json.h). */
#ifndef MERLIN_HOST_MODEL_CYCLES_H
#define MERLIN_HOST_MODEL_CYCLES_H

#include "model/stats.h"

#include <stddef.h>

#define MH_CYC_CLASSES 10
#define MH_CYC_TOP 5
/* The name of the cycles of an operation no function symbol covers, among
 * its top functions (host/run/cycles.c). */
#define MH_CYC_UNATTRIBUTED "(unattributed)"

extern const char *const mh_cyc_class_names[MH_CYC_CLASSES];

typedef struct {
  char *name;
  double share; /* of the operation's estimated cycles (instructions when
                   there is no model) */
} mh_cyc_fn;

/* The parts of an operation an accelerator could take over (docs/
 * cycle-model.md "What an accelerator would take away"): estimated cycles
 * per operation in the group's functions, and calls (per operation) of its
 * outermost function. */
enum {
  MH_ACC_KECCAK, /* Keccak-f[1600] permutation */
  MH_ACC_NTT,    /* NTT and inverse NTT (ML-KEM, ML-DSA) */
  MH_ACC_SHA256, /* SHA-256 compression */
  MH_ACC_AES,    /* AES block */
  MH_ACC_GROUPS
};
extern const char *const mh_acc_names[MH_ACC_GROUPS];
typedef struct {
  double cycles, calls;
} mh_acc_group;

typedef struct mh_cyc_op {
  int has_est;  /* est_cycles present (a model exists for the core) */
  mh_stats est; /* per-operation estimated cycles */
  double *est_samples;
  size_t n_est;
  /* Per-operation instruction counts per class, of the median sample. */
  double classes[MH_CYC_CLASSES];
  /* Profile of the median sample. */
  double hash_share;
  mh_cyc_fn top[MH_CYC_TOP];
  size_t n_top;
  mh_acc_group acc[MH_ACC_GROUPS]; /* of the median sample */
  int has_acc;
  /* --board: the memory system's events per operation (median sample) and
   * the energy estimate; has_mem 0 without a board. */
  int has_mem;
  double ic_miss, dc_miss, mispredict;
  double est_energy_uj; /* 0: no power model */
} mh_cyc_op;

typedef struct mh_cyc_run {
  char *model; /* "cortex-m4 1" style name, or NULL: no model */
  char *version;
  char *absent; /* why there is no est_cycles, when model is NULL */
  unsigned wait_states;
  long long offset; /* plugin count minus counter count, no exception */
  /* Every exception taken in a sample (a timer wrap) moves the difference
   * by the same number of instructions, derived from the first such sample
   * (-1: no sample took one); samples with exceptions are counted in
   * wrap_samples (docs/cycle-model.md, "Exactness"). */
  long long wrap_insns;
  unsigned long wrap_samples;
  /* --board: the part modelled (docs/cycle-model.md "Memory system of a
   * board"), NULL without one. memsys is the plugin's own description of
   * the memory system it modelled. */
  char *board, *board_name, *memsys, *memory_source;
  double board_hz;
  /* Its datasheet power model (0: none): run current, supply, source. */
  double run_current_ua, supply_mv;
  char *power_source;
  /* --accel: cycles per call of each accelerator (< 0: not offloaded) and
   * where the figures come from. */
  double accel[MH_ACC_GROUPS];
  char *accel_source;
} mh_cyc_run;

/* Largest per-exception difference accepted, and the once-per-sample
 * allowance for a wrap that lands inside a counter read (its pending-wrap
 * path re-reads the timer). */
#define MH_CYC_WRAP_SLACK 16

void mh_cyc_op_free(mh_cyc_op *c);
void mh_cyc_run_free(mh_cyc_run *c);

/* Amdahl: the operation's estimated cycles with each group whose cost is
 * >= 0 replaced by calls x cost. */
double mh_accel_project(double est, const mh_acc_group *g, const double *cost);

#endif
