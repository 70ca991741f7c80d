/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the memory system of a named part and the Cortex-M7 branch
 * predictor add to the table cycles, at run time (docs/cycle-model.md,
 * "Memory system of a board" and "Cortex-M7"). The plugin keeps one mc_dyn
 * per translation block; memsys.c follows the instruction fetches (every
 * executed block's lines) and the loads from flash through the board's
 * caches, and the outcome of every block's last branch.
 */
#ifndef MERLIN_MEMSYS_H
#define MERLIN_MEMSYS_H

#include <stddef.h>
#include <stdint.h>

/* How a block ends, for the branch predictor. */
enum { MC_DYN_BR_NONE, MC_DYN_BR_COND, MC_DYN_BR_DIRECT, MC_DYN_BR_INDIRECT };

/* The predictor's state of one branch instruction, shared by every block
 * that ends with it: QEMU may translate the same code into several blocks
 * (a block cut short where its instruction budget ends, then the rest),
 * and the prediction must not depend on which of them ran. */
typedef struct mc_pred {
  uint64_t pc, target;
  uint8_t ctr;
  struct mc_pred *next;
} mc_pred;

typedef struct mc_dyn {
  /* instruction fetch: the cache lines the block spans, when in flash */
  uint32_t line0, n_lines;
  uint32_t gen; /* cache generation when they were last all resident */
  uint8_t in_flash;
  /* the block's last branch: its kind, misprediction cost and state */
  uint8_t br, penalty;
  mc_pred *pred;
  uint64_t fallthrough;
} mc_dyn;

/* Counts of the running region, reported per sample ("mem" record). */
typedef struct {
  uint64_t ic_miss, dc_miss, mispredict;
} mc_dyn_counts;
extern mc_dyn_counts mc_dyn_now;

/* One plugin argument of the memory system (ic=, dc=, miss=, flash=,
 * prefetch=, unified=). Returns 1 when it was one (0: not ours), -1 when
 * malformed (message in err). */
int mc_mem_arg(const char *arg, char *err, size_t errlen);
/* After the arguments: 0, or -1 with a message (e.g. a cache without
 * flash=). mispredict: cycles of a mispredicted branch (0: no predictor). */
int mc_mem_finish(unsigned mispredict, char *err, size_t errlen);
/* Back to no memory system, the caches freed (tests and the fuzzer parse
 * many; the plugin parses once). */
void mc_mem_reset(void);
/* A plugin argument's decimal value: digits only, at most max. 0, or -1. */
int mc_arg_uint(const char *s, unsigned long max, unsigned long *out);
/* Whether blocks need an mc_dyn (a memory system or a predictor), and
 * whether loads need the memory callback (a data side to model). */
int mc_dyn_enabled(void);
int mc_mem_loads(void);
/* The side file's description of the memory system ("memsys ..."). */
void mc_mem_describe(char *buf, size_t len);

/* The state of a new block [pc, end) whose last instruction, at br_pc,
 * branches as br, mispredicted at a cost of penalty cycles (0:
 * mc_mem_finish's) (kept inside the plugin's block record: one memory
 * access less per executed block). 0, or -1 when out of memory. */
int mc_dyn_init(mc_dyn *d, uint64_t pc, uint64_t end, uint64_t br_pc, int br,
                unsigned penalty);
/* Cycles its fetch adds at one execution (instruction cache misses), given
 * the cycles its instructions spend in each of its lines (line_cycles[i]
 * for line line0 + i; NULL: none). With a prefetch buffer, the line after
 * the one executing is read while that one runs: its miss costs what of
 * the flash access the time spent in the line before did not cover. */
uint64_t mc_dyn_fetch(mc_dyn *d, const uint16_t *line_cycles);
/* The index, among block d's lines, of the line holding addr. */
uint32_t mc_dyn_line(const mc_dyn *d, uint64_t addr);
/* Cycles the branch ending block d adds, now that the next block starts
 * at next_pc (a misprediction). */
uint64_t mc_dyn_branch(mc_dyn *d, uint64_t next_pc);
/* A load of vaddr: cycles it adds (data-side miss in flash). */
uint64_t mc_mem_load(uint64_t vaddr);

#endif
