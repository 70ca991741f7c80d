/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Thumb / Thumb-2 instruction classes and the Cortex-M cycle models: one
 * data table per core, each from the instruction timing table of Arm's
 * Technical Reference Manual for that core (docs/cycle-model.md).
 */
#ifndef MERLIN_CYCLE_MODEL_H
#define MERLIN_CYCLE_MODEL_H

#include "regs.h"

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
  int load;          /* reads memory (a load of any kind, TBB/TBH, POP) */
  mc_regs regs;      /* registers read and written (regs.h) */
} mc_insn;

/* How a model treats neighbouring instructions: one at a time (the TRM
 * tables of M0+, M3, M4), or with the pairing and result-latency rules of
 * the Cortex-M33 and Cortex-M7 models (docs/cycle-model.md). */
enum { MC_PIPE_SCALAR, MC_PIPE_M33, MC_PIPE_M7 };

typedef struct {
  const char *name;
  const char *version;
  const char *source;    /* TRM and section */
  uint8_t cost[K_COUNT]; /* cycles, taken cost for branches; P included */
  uint8_t refill;        /* P: pipeline refill cycles */
  uint8_t ldm_pc_extra;  /* extra cycles of an LDM/POP that loads the PC */
  uint8_t ls_pipeline;   /* adjacent load/store singles: the second costs 1 */
  uint8_t pipe;          /* MC_PIPE_* */
  uint8_t mispredict;    /* M7: cycles of a mispredicted branch (memsys.c) */
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
  uint16_t late;     /* registers whose result comes a cycle late */
  uint16_t agu_late; /* registers not yet ready as an address (M7) */
} mc_state;

typedef struct {
  unsigned taken;     /* cost when executed / branch taken */
  unsigned not_taken; /* cost of a conditional branch not taken */
} mc_cost;

void mc_decode(uint16_t hw1, uint16_t hw2, int size, mc_insn *out);
const mc_model *mc_model_find(const char *name);
void mc_state_init(mc_state *st);
/* Cost of in under model m (NULL: zero), updating st; an instruction
 * inside an IT block that writes the PC becomes conditional. */
mc_cost mc_cost_of(const mc_model *m, mc_insn *in, mc_state *st,
                   unsigned wait_states);
/* The M33 and M7 rules on top of the table cost in *c (pipeline.c):
 * dual issue with the instruction before, result-latency stalls. */
void mc_pipe_cost(const mc_model *m, const mc_insn *in, mc_state *st, int in_it,
                  mc_cost *c);

#endif
