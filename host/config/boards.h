/* SPDX-License-Identifier: Apache-2.0 */
/* Boards, parts and targets as data (boards/<id>.board, docs/boards.md):
 * what a part offers, for "does it fit" and provenance, and, in a file
 * with a kind, how merlin builds and runs the target (host/config/targets.c
 * and cmake/target.cmake read it). */
#ifndef MERLIN_HOST_BOARDS_H
#define MERLIN_HOST_BOARDS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char *id; /* file name without .board */
  char *name, *part, *core, *target, *counter, *source;
  uint64_t clock_hz, flash_bytes, ram_bytes; /* 0 on a native target */
  /* A target descriptor (kind set; NULL in a part-only file): docs/boards.md
   * "Targets". Lists are space-separated, paths relative to the tree. */
  char *kind; /* "native", "qemu" or "board" */
  char *description, *unit, *cpu_flags, *toolchain, *qemu_machine, *qemu_cpu;
  char *clang, *clang_cpu_flags; /* --cc clang: driver and CPU flags */
  char *port_sources, *port_includes, *port_defines, *link_dirs;
  char *linker_script, *cmake_include, *cycle_model, *flash_hint, *memory;
  uint64_t icount_shift; /* qemu only */
  /* The part's memory system and power, for the cycle model's --board
   * (docs/boards.md "Memory system and power"); optional, 0/NULL absent. */
  char *icache, *dcache; /* "BYTES/LINE/WAYS" */
  char *prefetch, *unified_cache, *runs_from, *zero_wait, *memory_source;
  char *power_source;
  uint64_t flash_wait_states, flash_miss_cycles, run_current_ua, supply_mv;
} mh_board;

/* Parse one board file held in buf. file names it in messages
 * ("boards/x.board:3: ..."). Every key at most once; which keys a file
 * must have, and may have, depends on its kind (docs/boards.md); unknown
 * keys and malformed lines are errors. Returns 0, or -1 with err. */
int mh_board_parse(const char *file, const char *id, const char *buf,
                   size_t len, mh_board *b, char *err, size_t errlen);
void mh_board_free(mh_board *b);

/* Every ROOT/boards/NAME.board that describes a part (every file but a
 * native target's), sorted by id; with_native: every file. Returns 0, or -1
 * with err (a bad file is an error naming it). */
int mh_boards_load(const char *root, mh_board **boards, size_t *n, char *err,
                   size_t errlen);
int mh_boards_load_all(const char *root, int with_native, mh_board **boards,
                       size_t *n, char *err, size_t errlen);
void mh_boards_free(mh_board *boards, size_t n);

/* Whether an algorithm needing flash_need bytes of code and ram_need bytes
 * of RAM (static + peak stack + peak heap), measured on a run whose core is
 * run_core, fits board b. Returns 1 (fits), 0 (does not: why in reason),
 * or -1 (not evaluated: the figures come from another core; why in
 * reason). */
int mh_board_fits(const mh_board *b, const char *run_core, uint64_t flash_need,
                  uint64_t ram_need, char *reason, size_t reason_len);

#endif
