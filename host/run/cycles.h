/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Estimated cycles, instruction classes and the per-function profile of
 * QEMU runs, from the side file of the TCG plugin tools/qemu-plugin
 * (docs/cycle-model.md). An estimate from a model, never a measurement.
 */
#ifndef MERLIN_HOST_CYCLES_H
#define MERLIN_HOST_CYCLES_H

#include "model/cycles.h"
#include "model/model.h"

#include <stddef.h>

/* --cycle-model values: auto (the target's core), off, or a model. */
#define MH_CYC_CHOICES                                                         \
  "auto, off, m0plus, m0plus-smallmul, m3, m4, m33, m55, m7, m85"
int mh_cycles_choice_valid(const char *choice);

/* The plugin's model= argument for a target ("none" with *why set when no
 * model can be given for its core). */
const char *mh_cycles_model_arg(const char *target_id, const char *choice,
                                const char **why);

/* argv with "-plugin SO,elf=IMAGE,out=SIDE,model=M,ws=N" appended (argv is
 * consumed); NULL when out of memory. */
char **mh_cycles_argv(char **argv, const char *plugin, const char *image,
                      const char *side, const char *model_arg, unsigned ws,
                      const char *mem_args);

/* Read the side file of a finished run and attach est_cycles, classes and
 * profile to every timed op of run (in order). Returns 0, or -1 with a
 * message (missing, short or garbled file; count that disagrees with the
 * counter). */
int mh_cycles_attach(mh_run *run, const char *side, const char *why_absent,
                     char *err, size_t errlen);

/* Whether a function name is a hash or XOF core (SHA-2 compression,
 * Keccak-f[1600]); the list is in docs/cycle-model.md. */
int mh_cycles_is_hash_fn(const char *name);
/* The same for an implementation folder's operation (backend impl:...):
 * every function inside the common code's hashing calls, as pqm4 counts
 * them (docs/cycle-model.md "Hashing share"). */
int mh_cycles_is_folder_hash_fn(const char *name);
/* The accelerator group of a function name (MH_ACC_*), or -1. *inverse:
 * an inverse NTT (counted apart: its calls add to the forward ones). */
int mh_cycles_acc_group(const char *name, int *inverse);

/* --accel: the default cycles per call of each group, and their source. */
extern const double mh_accel_default[MH_ACC_GROUPS];
extern const char *const mh_accel_default_source;
/* Parse "keccak=N,ntt=N,sha256=N,aes=N" (any subset; "none" offloads
 * nothing) into cost (the defaults for groups not named stay). Returns 0,
 * or -1 with a message. */
int mh_accel_parse(const char *spec, double *cost, char *err, size_t errlen);

#endif
