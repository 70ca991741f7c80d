/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thumb / Thumb-2 instruction classes and the Cortex-M cycle models: one
 * data table per core, each from the instruction timing table of Arm's
 * Technical Reference Manual for that core (docs/cycle-model.md).
 */
#ifndef MERLIN_CYCLE_MODEL_H
#define MERLIN_CYCLE_MODEL_H

#include "regs.h"

#include <stddef.h>
#include <stdint.h>

/* Classes reported per sample (docs/cycle-model.md, "Classes"). */
enum {
  MC_ALU,
  MC_MUL,
  MC_MAC,
  MC_DIV,
  MC_LOAD,
  MC_STORE,
  MC_LDM_STM,
  MC_BR_TAKEN,
  MC_BR_NOT_TAKEN,
  MC_FP,
  MC_N_CLASSES
};
extern const char *const mc_class_names[MC_N_CLASSES];

/* How an instruction may change the flow. */
enum { MC_BR_NONE, MC_BR_ALWAYS, MC_BR_COND };

/* Cost kinds: the rows of a model table. */
typedef enum {
  K_ALU,     /* data processing, IT, hints, MSR/MRS, CPS */
  K_ALU_PC,  /* data processing that writes the PC (MOV/ADD PC) */
  K_MUL,     /* MUL, DSP multiply without accumulate */
  K_MLA,     /* MLA, MLS, DSP multiply-accumulate */
  K_MULL,    /* SMULL, UMULL */
  K_MLAL,    /* SMLAL, UMLAL, UMAAL, SMLALxy, SMLALD... */
  K_DIV,     /* SDIV, UDIV */
  K_LD,      /* load single */
  K_ST,      /* store single */
  K_LD_PC,   /* LDR PC, [...] */
  K_LDRD,    /* LDRD, STRD */
  K_LDM,     /* LDM, POP: base + n */
  K_STM,     /* STM, PUSH: base + n */
  K_B,       /* B (taken) */
  K_BCOND,   /* B<cond>, taken cost */
  K_CBZ,     /* CBZ/CBNZ, taken cost */
  K_BL,      /* BL */
  K_BX,      /* BX, BLX (register) */
  K_TB,      /* TBB, TBH */
  K_MSR,     /* MSR */
  K_MRS,     /* MRS */
  K_BARRIER, /* DMB, DSB */
  K_ISB,     /* ISB */
  K_FP,      /* FP data processing (VADD, VMUL, VMOV, VCVT, VCMP...) */
  K_FP_MAC,  /* VMLA, VMLS, VNMLA, VNMLS, VFMA... */
  K_FP_DIV,  /* VDIV, VSQRT */
  K_FP_LS,   /* VLDR, VSTR */
  K_FP_LSM,  /* VLDM, VSTM, VPUSH, VPOP: base + n */
  K_FP_MOV2, /* VMOV of two core registers */
  K_COUNT
} mc_kind;

typedef struct {
  mc_kind kind;
  int cls;           /* MC_* class when it is not a branch */
  int branch;        /* MC_BR_* */
  int ls;            /* load/store single (may pipeline with its neighbour) */
  unsigned n;        /* registers transferred (K_LDM, K_STM, K_FP_LSM) */
  int pc_in_list;    /* LDM/POP loads the PC */
  unsigned it_count; /* IT: instructions in its block */
  int size;          /* 2 or 4 bytes */
  int odd;           /* at a halfword (not word) address */
  int load;          /* reads memory (a load of any kind, TBB/TBH, POP) */
  int mve;           /* an MVE (Helium) instruction: its pipe, MC_MVE_* */
  int nop16;         /* a 16-bit NOP or other hint */
  int di16;          /* a 16-bit instruction the Cortex-M55 dual-issues
                        with another 16-bit one (ARMScheduleM55.td) */
  mc_regs regs;      /* registers read and written (regs.h) */
} mc_insn;

/* The EPU pipe an MVE instruction takes its two beats in (Cortex-M55,
 * ARMScheduleM55.td: load/store, integer, float/multiply, control). */
enum { MC_MVE_NONE, MC_MVE_LS, MC_MVE_INT, MC_MVE_MUL, MC_MVE_SYS };

/* How a model treats neighbouring instructions: one at a time (the TRM
 * tables of M0+ and M3), with the load/store rules of the Cortex-M4's TRM
 * section 3.3.2, or with the pairing and result-latency rules of the
 * Cortex-M33 and Cortex-M7 models (docs/cycle-model.md). */
enum {
  MC_PIPE_SCALAR,
  MC_PIPE_M33,
  MC_PIPE_M7,
  MC_PIPE_M55,
  MC_PIPE_M85,
  MC_PIPE_M4
};

typedef struct {
  const char *name;
  const char *version;
  const char *source;    /* TRM and section */
  uint8_t cost[K_COUNT]; /* cycles, taken cost for branches; P included */
  uint8_t refill;        /* P: pipeline refill cycles */
  uint8_t ldm_pc_extra;  /* extra cycles of an LDM/POP that loads the PC */
  uint8_t ls_pipeline;   /* adjacent load/store singles: the second costs 1 */
  uint8_t pipe;          /* MC_PIPE_* */
  uint8_t mispredict;    /* M7, M85: cycles of a mispredicted branch
                            (memsys.c); the M7's depends on the flags */
  uint8_t fetch_align;   /* M4: a taken branch to a 32-bit instruction at
                            a halfword address costs this much more (the
                            second fetch; merlin_cycles.c) */
} mc_model;

/* Decoder state within one translation block. */
typedef struct {
  int prev_ls;
  unsigned it_left;
  /* The M33 and M7 rules look at the instruction before (same block). */
  int prev_valid;
  int prev_pair_ok; /* it may be the first of a dual-issued pair */
  mc_kind prev_kind;
  mc_regs prev;
  uint16_t late; /* registers whose result comes a cycle late (M33, M55) */
  /* M7, M85: what the instructions of the previous cycle (cyc) and of the
   * current one (grp) write: all, those forwarded to the early ALU and
   * address generation (ok), results a cycle late (multiplies, byte and
   * halfword loads), word loads */
  uint16_t cyc_dst, cyc_ok, cyc_late, cyc_ldw;
  uint16_t grp_dst, grp_ok, grp_late, grp_ldw;
  int prev_mve;         /* the instruction before was MVE: its pipe */
  int prev_unit;        /* M7, M85: its execution unit (pipeline.c) */
  int prev_early;       /* M7, M85: it ran in the early ALU */
  int prev_di;          /* M33, M55: it may pair with any 16-bit one */
  unsigned since_flags; /* instructions since the last that set flags */
  /* M4 (pipeline.c): the instruction before was a single load that the
   * next load or store may pipeline with; a single store whose data phase
   * overlaps the next instruction; the registers it wrote as data (an
   * ALU result or loaded data) and as a base writeback */
  uint8_t m4_ld, m4_st;
  uint16_t m4_data, m4_wb;
  /* M4: the run of 32-bit instructions at halfword addresses going on
   * (its length, whether all are stores, whether it has paid its cycle) */
  uint8_t m4_run, m4_run_st, m4_run_paid;
  /* M85 (pipeline.c): the time at which each register's value (index 15:
   * the flags) reaches a consumer, in cycles from the current issue
   * group's (a consumer in stage EXk of a group issued c cycles later needs
   * c + k > the time); the group's instructions (2: closed) and the
   * resources they hold; what its loads write; when flags are early
   * enough for a conditional branch not to pay the late-flags cost, and
   * how late they are (2: set in EX2, 3: in EX3) */
  uint8_t t85[16];
  uint8_t g85_n, g85_res;
  uint16_t g85_ld;
  uint8_t f85_ok, f85_stage;
  unsigned br_mispredict; /* cost of the block's last branch if mispredicted
                             (0: the model's default) */
} mc_state;

typedef struct {
  unsigned taken;     /* cost when executed / branch taken */
  unsigned not_taken; /* cost of a conditional branch not taken */
} mc_cost;

void mc_decode(uint16_t hw1, uint16_t hw2, int size, mc_insn *out);
/* An instruction's size from its first halfword (Armv7-M ARM A5.1), at
 * most the bytes QEMU gave (reported). Not qemu_plugin_insn_size() alone:
 * QEMU 7.2 appends the halfword it reads ahead near a page end
 * (insn_crosses_page) to the instruction before, which then reports 2
 * bytes too many. */
size_t mc_thumb_size(uint16_t hw1, size_t reported);
const mc_model *mc_model_find(const char *name);
void mc_state_init(mc_state *st);
/* Cost of in under model m (NULL: zero), updating st; an instruction
 * inside an IT block that writes the PC becomes conditional. */
mc_cost mc_cost_of(const mc_model *m, mc_insn *in, mc_state *st,
                   unsigned wait_states);
/* What a block of decoded instructions costs from one pipeline state:
 * cycles of all but a last conditional branch, whose costs taken and not
 * taken are apart, and its misprediction cost (0: the model's default). */
typedef struct {
  uint32_t cycles;
  uint8_t taken, not_taken, penalty;
  uint8_t last_branch; /* MC_BR_* of the last instruction (IT applied) */
} mc_block_cost;
/* The cost of ins[0..n) from *st, which becomes the state after them; the
 * instructions' classes are added to classes[] when it is not NULL, and
 * each one's cycles (0 for a last conditional branch, settled later) put
 * in costs[] when that is not NULL. The instructions are not changed
 * (mc_cost_of works on copies). */
void mc_block(const mc_model *m, const mc_insn *ins, size_t n, mc_state *st,
              unsigned wait_states, mc_block_cost *out, uint32_t *classes,
              uint8_t *costs);

/* A block that continues another without a branch between them (QEMU cut
 * the straight line where an instruction budget ended, at a page or at its
 * block size limit): its cost from the state the other left, kept for the
 * last such state seen. A cut is placed by the host's timing, so a block's
 * cost may not depend on it: the estimate is the same however QEMU cut the
 * code (docs/cycle-model.md, "Exact estimates"). */
typedef struct {
  int valid;
  mc_state entry, exit;
  mc_block_cost cost;
} mc_carry;

/* Cortex-M85 version 2 (pipeline_m85.c): the cycles an instruction moves
 * the issue point on, from the state before it (updated). */
unsigned mc_m85_cost(const mc_model *m, const mc_insn *in, mc_state *st);

/* The M33 and M7 rules on top of the table cost in *c (pipeline.c):
 * dual issue with the instruction before, result-latency stalls. */
void mc_pipe_cost(const mc_model *m, const mc_insn *in, mc_state *st, int in_it,
                  mc_cost *c);

#endif
