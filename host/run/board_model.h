/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `merlin run --board B` on a QEMU target: the cycle model estimates for
 * the named part, with its memory system (the plugin's memsys.c), at its
 * clock, and with its datasheet power model (docs/cycle-model.md, "Memory
 * system of a board" and "Energy (estimate, datasheet model)").
 */
#ifndef MERLIN_HOST_BOARD_MODEL_H
#define MERLIN_HOST_BOARD_MODEL_H

#include "config/boards.h"
#include "model/model.h"

#include <stddef.h>
#include <stdint.h>

/* Load board board_id of ROOT/boards into *b and check it can be modelled
 * on target target_id (same core; a memory system described). Returns 0,
 * or -1 with a message. */
int mh_board_model_load(const char *root, const char *board_id,
                        const char *target_id, mh_board *b, char *err,
                        size_t errlen);

/* merlin run's cycle-model options, checked before anything is built (a
 * failure is a usage error): --board PART, --accel and --flash-ws need the
 * cycle model (not --cycle-model off); --board and --accel need the cycle
 * plugin (every target a QEMU target); PART is a part of boards/ with a
 * memory system, of each target's core, with a cycle model of that core
 * (cmodel, NULL for auto, or the target's own). Options not given are
 * NULL. Returns 0, or -1 with a message. */
int mh_board_model_check(const char *part, const char *cmodel,
                         const char *accel, const char *flash_ws,
                         const char *const *targets, size_t n, char *err,
                         size_t errlen);

/* The plugin's memory-system arguments of b for an image whose flash (from
 * the vector table to the end of what it loads from flash) is [lo, hi),
 * malloc'd ("flash=LO-HI,miss=...,ic=..."); NULL when out of memory. */
char *mh_board_model_mem(const mh_board *b, uint64_t lo, uint64_t hi);

/* The plugin's memory-system arguments for b and image (its flash: from
 * the vector table to the end of what the image loads from flash),
 * malloc'd ("ic=...,miss=...,flash=LO-HI,..."); NULL with a message. */
char *mh_board_model_args(const mh_board *b, const char *image, char *err,
                          size_t errlen);

/* After the side file is attached: the board, its clock and power model
 * into run->cyc, and each operation's energy estimate. 0, or -1 (out of
 * memory). */
int mh_board_model_attach(mh_run *run, const mh_board *b);

/* Energy in microjoules of cycles at hz with a run current of ua
 * microamperes from a supply of mv millivolts. */
double mh_energy_uj(double cycles, double hz, double ua, double mv);

#endif
