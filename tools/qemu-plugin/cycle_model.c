/* SPDX-License-Identifier: Apache-2.0 */
#include "cycle_model.h"

#include <string.h>

const char *const mc_class_names[MC_N_CLASSES] = {
    "alu",     "mul",          "mac",
    "div",     "load",         "store",
    "ldm_stm", "branch_taken", "branch_not_taken",
    "fp"};

/* P = 1: the lower end of the TRM's "1 to 3" refill (docs/cycle-model.md
 * says why). Cortex-M3 r2p1 TRM (DDI 0337I) 3.3.1 Table 3.1. */
#define P 1
static const mc_model model_m3 = {
    .name = "cortex-m3",
    .version = "1",
    .source = "Cortex-M3 TRM r2p1 (DDI 0337I) 3.3.1 Table 3.1",
    .cost =
        {
            [K_ALU] = 1,       [K_ALU_PC] = 1 + P,
            [K_MUL] = 1,       [K_MLA] = 2,
            [K_MULL] = 5, /* 3 to 5: upper end, full-width operands */
            [K_MLAL] = 7, /* 4 to 7: upper end, full-width operands */
            [K_DIV] = 12, /* 2 to 12: upper end (operand dependent) */
            [K_LD] = 2,        [K_ST] = 2,
            [K_LD_PC] = 2 + P, [K_LDRD] = 1 + 2,
            [K_LDM] = 1,       [K_STM] = 1, /* + N */
            [K_B] = 1 + P,     [K_BCOND] = 1 + P,
            [K_CBZ] = 1 + P,   [K_BL] = 1 + P,
            [K_BX] = 1 + P,    [K_TB] = 2 + P,
            [K_MSR] = 1,       [K_MRS] = 1,
            [K_BARRIER] = 1,   [K_ISB] = 1 + P, /* 1 + B */
            [K_FP] = 1,        [K_FP_MAC] = 1,
            [K_FP_DIV] = 1,    [K_FP_LS] = 1,
            [K_FP_LSM] = 1,    [K_FP_MOV2] = 1, /* no FPU: never executed */
        },
    .refill = P,
    .ldm_pc_extra = P,
    .ls_pipeline = 1,
};

/* Cortex-M4 version 2 (docs/cycle-model.md "Cortex-M4"): r0p1 TRM (DDI
 * 0439B) 3.3.1 Table 3-1, FPU 7.2.3 Table 7-1, with section 3.3.2's
 * load/store rules (pipeline.c) and its refill for a PC loaded from
 * memory: "LDR PC,[any] ... two cycles for the load, and three cycles for
 * the pipeline reload", TBB/TBH "two cycles for the load, one cycle for
 * the add, and three cycles for the pipeline reload"; POP/LDM with the PC
 * likewise (N + 1 cycles of transfer, then 3). A branch whose target is
 * known early (B, BL, B<cond>, CBZ, BX) refills in P = 1, one more when
 * the target is a 32-bit instruction at a halfword address (fetch_align). */
static const mc_model model_m4 = {
    .name = "cortex-m4",
    .version = "2",
    .source = "Cortex-M4 TRM r0p1 (DDI 0439B) 3.3.1 Table 3-1 and 3.3.2, "
              "FPU 7.2.3; STM32F407 measurements (jnk0le/random); branch "
              "target fetch (Arm KA 103488664)",
    .cost =
        {
            [K_ALU] = 1,       [K_ALU_PC] = 1 + P, [K_MUL] = 1,
            [K_MLA] = 1,       [K_MULL] = 1,       [K_MLAL] = 1,
            [K_DIV] = 12, /* 2 to 12: upper end (operand dependent) */
            [K_LD] = 2,        [K_ST] = 1, /* 3.3.2: always one cycle */
            [K_LD_PC] = 2 + 3, [K_LDRD] = 1 + 2,   [K_LDM] = 1,
            [K_STM] = 1, /* + N */
            [K_B] = 1 + P,     [K_BCOND] = 1 + P,  [K_CBZ] = 1 + P,
            [K_BL] = 1 + P,    [K_BX] = 1 + P,     [K_TB] = 2 + 1 + 3,
            [K_MSR] = 1,       [K_MRS] = 1,        [K_BARRIER] = 1,
            [K_ISB] = 1 + P,   [K_FP] = 1,         [K_FP_MAC] = 3,
            [K_FP_DIV] = 14,   [K_FP_LS] = 2,      [K_FP_LSM] = 1,
            [K_FP_MOV2] = 2,
        },
    .refill = P,
    .ldm_pc_extra = 3,
    .ls_pipeline = 0,
    .pipe = MC_PIPE_M4,
    .fetch_align = 1,
};
#undef P

/* Cortex-M0+ r0p1 TRM (DDI 0484C) 3.3 Table 3.1: ARMv6-M only; the
 * Thumb-2 rows never occur in an ARMv6-M image and cost 1. */
#define M0PLUS_COST(mul)                                                       \
  {                                                                            \
    [K_ALU] = 1, [K_ALU_PC] = 2, [K_MUL] = (mul), [K_MLA] = 1, [K_MULL] = 1,   \
    [K_MLAL] = 1, [K_DIV] = 1, [K_LD] = 2, [K_ST] = 2, [K_LD_PC] = 2,          \
    [K_LDRD] = 1, [K_LDM] = 1, [K_STM] = 1, [K_B] = 2, [K_BCOND] = 2,          \
    [K_CBZ] = 2, [K_BL] = 3, [K_BX] = 2, [K_TB] = 1, [K_MSR] = 3, [K_MRS] = 3, \
    [K_BARRIER] = 3, [K_ISB] = 3, [K_FP] = 1, [K_FP_MAC] = 1, [K_FP_DIV] = 1,  \
    [K_FP_LS] = 1, [K_FP_LSM] = 1, [K_FP_MOV2] = 1,                            \
  }
static const mc_model model_m0plus = {
    .name = "cortex-m0plus",
    .version = "1",
    .source = "Cortex-M0+ TRM r0p1 (DDI 0484C) 3.3 Table 3.1, fast multiplier",
    .cost = M0PLUS_COST(1),
    .refill = 1,
    .ldm_pc_extra = 2, /* POP {..., PC}: 3 + N */
    .ls_pipeline = 0,
};
static const mc_model model_m0plus_smallmul = {
    .name = "cortex-m0plus-smallmul",
    .version = "1",
    .source = "Cortex-M0+ TRM r0p1 (DDI 0484C) 3.3 Table 3.1, small (32-cycle) "
              "multiplier",
    .cost = M0PLUS_COST(32),
    .refill = 1,
    .ldm_pc_extra = 2,
    .ls_pipeline = 0,
};

/* Cortex-M33 (docs/cycle-model.md "Cortex-M33"), version 2: Arm publishes
 * no per-instruction table (TRM 100230). From silicon measurements on an
 * RP2350 (Cortex-M33 r1p0, DWT CYCCNT; jnk0le/random "pipeline cycle
 * test", doc/cortex_m33.md): single load or store 1 cycle, LDRD/STRD 2,
 * LDM/STM of N registers N; a taken branch 2 (1 when dual-issued);
 * POP {..., PC} 1 to 2 cycles slower than POP {..., LR} + BX LR; the
 * pairing and result latencies are in pipeline.c. Divide and the FPU
 * rows other than VLDR: the M4's table (no M33 source). */
static const mc_model model_m33 = {
    .name = "cortex-m33",
    .version = "2",
    .source = "Cortex-M33 silicon measurements (RP2350, jnk0le/random "
              "pipeline cycle test); M4 TRM table otherwise",
    .cost =
        {
            [K_ALU] = 1,     [K_ALU_PC] = 2,  [K_MUL] = 1,   [K_MLA] = 1,
            [K_MULL] = 1,    [K_MLAL] = 1,    [K_DIV] = 12,  [K_LD] = 1,
            [K_ST] = 1,      [K_LD_PC] = 3,   [K_LDRD] = 2,  [K_LDM] = 0,
            [K_STM] = 0,     [K_B] = 2,       [K_BCOND] = 2, [K_CBZ] = 2,
            [K_BL] = 2,      [K_BX] = 2,      [K_TB] = 3,    [K_MSR] = 1,
            [K_MRS] = 1,     [K_BARRIER] = 1, [K_ISB] = 2,   [K_FP] = 1,
            [K_FP_MAC] = 3,  [K_FP_DIV] = 14, [K_FP_LS] = 1, [K_FP_LSM] = 0,
            [K_FP_MOV2] = 2,
        },
    .refill = 1,
    .ldm_pc_extra = 3, /* N + 3: two more than POP {LR} (N) + BX LR (2) */
    .ls_pipeline = 0,
    .pipe = MC_PIPE_M33,
};

/* Cortex-M55 (docs/cycle-model.md "Cortex-M55"), version 1. Arm's
 * scheduling model of the core in LLVM (ARMScheduleM55.td): "a lot like
 * the M4/M33", one more pipeline stage, dual issue of two 16-bit
 * instructions when one is a NOP, IT, branch, ADD/SUB/MOV immediate, MOV
 * register or 16-bit extend; loads, multiplies and shifted-operand
 * instructions have a result latency of 2; MispredictPenalty 3 (a taken
 * branch: 1 + P with P = 2). Load/store multiple and the rest: the M33's
 * measured figures. MVE: two beats per instruction over four EPU pipes,
 * overlapping when neighbours use different pipes (pipeline.c). */
static const mc_model model_m55 = {
    .name = "cortex-m55",
    .version = "1",
    .source = "LLVM ARMScheduleM55.td (Arm's Cortex-M55 scheduling model); "
              "Cortex-M33 silicon measurements otherwise",
    .cost =
        {
            [K_ALU] = 1,     [K_ALU_PC] = 3,  [K_MUL] = 1,   [K_MLA] = 1,
            [K_MULL] = 1,    [K_MLAL] = 1,    [K_DIV] = 12,  [K_LD] = 1,
            [K_ST] = 1,      [K_LD_PC] = 4,   [K_LDRD] = 2,  [K_LDM] = 0,
            [K_STM] = 0,     [K_B] = 3,       [K_BCOND] = 3, [K_CBZ] = 3,
            [K_BL] = 3,      [K_BX] = 3,      [K_TB] = 4,    [K_MSR] = 1,
            [K_MRS] = 1,     [K_BARRIER] = 1, [K_ISB] = 3,   [K_FP] = 1,
            [K_FP_MAC] = 1,  [K_FP_DIV] = 16, [K_FP_LS] = 1, [K_FP_LSM] = 0,
            [K_FP_MOV2] = 1,
        },
    .refill = 2,
    .ldm_pc_extra = 4,
    .ls_pipeline = 0,
    .pipe = MC_PIPE_M55,
};

/* The issue costs of the dual-issue cores (Cortex-M7, M85): 1 for what
 * issues in one slot (pairing and latencies: pipeline.c), divide 7, TBB/TBH
 * 2, system instructions 3, LDM/STM ceil(N/2) (added in mc_cost_of), and
 * the core's VDIV. */
#define DUAL_ISSUE_COST(fpdiv)                                                 \
  {                                                                            \
    [K_ALU] = 1, [K_ALU_PC] = 1, [K_MUL] = 1, [K_MLA] = 1, [K_MULL] = 1,       \
    [K_MLAL] = 1, [K_DIV] = 7, [K_LD] = 1, [K_ST] = 1, [K_LD_PC] = 1,          \
    [K_LDRD] = 1, [K_LDM] = 0, [K_STM] = 0, [K_B] = 1, [K_BCOND] = 1,          \
    [K_CBZ] = 1, [K_BL] = 1, [K_BX] = 1, [K_TB] = 2, [K_MSR] = 3, [K_MRS] = 3, \
    [K_BARRIER] = 3, [K_ISB] = 3, [K_FP] = 1, [K_FP_MAC] = 1,                  \
    [K_FP_DIV] = (fpdiv), [K_FP_LS] = 1, [K_FP_LSM] = 0, [K_FP_MOV2] = 1,      \
  }

/* Cortex-M7 (docs/cycle-model.md "Cortex-M7"), version 2: no Arm table
 * either. Issue rules, latencies and the mispredict cost from silicon
 * measurements (STM32H743: jnk0le/random "pipeline cycle test",
 * doc/cortex_m7.md; STM32H730: quinapalus.com "Cortex-M7 instruction cycle
 * counts, timings, and dual-issue combinations"), units from Arm's
 * scheduling model in LLVM (ARMScheduleM7.td): divide 7, TBB/TBH 2,
 * system instructions 3 single-issue, VDIV/VSQRT 16 (measured 16/14),
 * LDM/STM ceil(N/2) single-issue (measured). Pairing and latencies:
 * pipeline.c; mispredicts: memsys.c. */
static const mc_model model_m7 = {
    .name = "cortex-m7",
    .version = "2",
    .source = "Cortex-M7 silicon measurements (STM32H743: jnk0le/random "
              "pipeline cycle test; STM32H730: quinapalus.com); LLVM "
              "ARMScheduleM7.td",
    .cost = DUAL_ISSUE_COST(16), /* VDIV/VSQRT: measured 16/14 */
    .refill = 0,
    .ldm_pc_extra = 0,
    .ls_pipeline = 0,
    .pipe = MC_PIPE_M7,
    .mispredict = 6,
};

/* Cortex-M85 (docs/cycle-model.md "Cortex-M85"), version 2: an in-order
 * dual-issue pipeline of three execution stages (pipeline_m85.c) as
 * measured on an RA8D1 (Cortex-M85 r0p2; jnk0le/random doc/cortex_m85.md,
 * notes on Arm's Cortex-M85 Software Optimization Guide, Arm 107950);
 * single-issue instructions and their costs from Arm's scheduling model
 * (LLVM ARMScheduleM85.td: divide 7, LDM/STM ceil(N/2), system 3, VDIV
 * 14); a mispredicted branch 4 (measured "3-4 cycles" for an inner loop's
 * branch, LE "4-5"; ARMScheduleM85.td MispredictPenalty 4), 6 or 7 when
 * the flags it reads were set late (measured "5-6 when flags are
 * generated last cycle EX2, 6-7 EX3"). MVE as the M55, with the M85's
 * pairing of a vector instruction beside a scalar one. */
static const mc_model model_m85 = {
    .name = "cortex-m85",
    .version = "2",
    .source = "Cortex-M85 silicon measurements (RA8D1, jnk0le/random "
              "doc/cortex_m85.md, on Arm 107950); LLVM ARMScheduleM85.td",
    .cost = DUAL_ISSUE_COST(14), /* VDIV: ARMScheduleM85.td latency 14 */
    .refill = 0,
    .ldm_pc_extra = 0,
    .ls_pipeline = 0,
    .pipe = MC_PIPE_M85,
    .mispredict = 4,
};

const mc_model *mc_model_find(const char *name) {
  static const struct {
    const char *arg;
    const mc_model *m;
  } t[] = {
      {"m0plus", &model_m0plus}, {"m0plus-smallmul", &model_m0plus_smallmul},
      {"m3", &model_m3},         {"m4", &model_m4},
      {"m33", &model_m33},       {"m7", &model_m7},
      {"m55", &model_m55},       {"m85", &model_m85}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (strcmp(name, t[i].arg) == 0)
      return t[i].m;
  return NULL;
}

static unsigned popcount16(unsigned v) {
  unsigned n = 0;
  for (; v; v &= v - 1)
    n++;
  return n;
}

static void set(mc_insn *o, mc_kind k, int cls, int branch) {
  o->kind = k;
  o->cls = cls;
  o->branch = branch;
}

static void decode16(uint16_t h, mc_insn *o) {
  if ((h & 0xFFC0) == 0x4340) /* MULS */
    return set(o, K_MUL, MC_MUL, MC_BR_NONE);
  if ((h & 0xFF00) == 0x4700) /* BX, BLX */
    return set(o, K_BX, MC_BR_TAKEN, MC_BR_ALWAYS);
  if ((h & 0xFC00) == 0x4400) { /* ADD/CMP/MOV high registers */
    unsigned op = (h >> 8) & 3, rd = (h & 7) | ((h >> 4) & 8);
    if (op != 1 && rd == 15)
      return set(o, K_ALU_PC, MC_BR_TAKEN, MC_BR_ALWAYS);
    return set(o, K_ALU, MC_ALU, MC_BR_NONE);
  }
  if ((h & 0xF800) == 0x4800) { /* LDR literal */
    o->ls = 1;
    return set(o, K_LD, MC_LOAD, MC_BR_NONE);
  }
  if ((h & 0xF000) == 0x5000) { /* register offset */
    o->ls = 1;
    if (((h >> 9) & 7) <= 2)
      return set(o, K_ST, MC_STORE, MC_BR_NONE);
    return set(o, K_LD, MC_LOAD, MC_BR_NONE);
  }
  if ((h & 0xE000) == 0x6000 || (h & 0xE000) == 0x8000) {
    /* LDR/STR(B) immediate, LDRH/STRH immediate, SP-relative */
    o->ls = 1;
    if (h & 0x0800)
      return set(o, K_LD, MC_LOAD, MC_BR_NONE);
    return set(o, K_ST, MC_STORE, MC_BR_NONE);
  }
  if ((h & 0xFE00) == 0xB400) { /* PUSH */
    o->n = popcount16(h & 0x1FF);
    return set(o, K_STM, MC_LDM_STM, MC_BR_NONE);
  }
  if ((h & 0xFE00) == 0xBC00) { /* POP */
    o->n = popcount16(h & 0x1FF);
    if (h & 0x100) {
      o->pc_in_list = 1;
      return set(o, K_LDM, MC_BR_TAKEN, MC_BR_ALWAYS);
    }
    return set(o, K_LDM, MC_LDM_STM, MC_BR_NONE);
  }
  if ((h & 0xF500) == 0xB100) /* CBZ, CBNZ */
    return set(o, K_CBZ, MC_BR_TAKEN, MC_BR_COND);
  if ((h & 0xFF00) == 0xBF00 && (h & 0xF)) { /* IT */
    unsigned mask = h & 0xF, tz = 0;
    while (!(mask & 1u)) {
      mask >>= 1;
      tz++;
    }
    o->it_count = 4 - tz;
    return set(o, K_ALU, MC_ALU, MC_BR_NONE);
  }
  if ((h & 0xF000) == 0xC000) { /* STM, LDM */
    o->n = popcount16(h & 0xFF);
    return set(o, (h & 0x0800) ? K_LDM : K_STM, MC_LDM_STM, MC_BR_NONE);
  }
  if ((h & 0xF000) == 0xD000 && ((h >> 8) & 0xF) < 0xE) /* B<cond> */
    return set(o, K_BCOND, MC_BR_TAKEN, MC_BR_COND);
  if ((h & 0xF800) == 0xE000) /* B */
    return set(o, K_B, MC_BR_TAKEN, MC_BR_ALWAYS);
  set(o, K_ALU, MC_ALU, MC_BR_NONE); /* everything else: 1 cycle */
}

/* Armv8.1-M MVE (Helium) in the coprocessor space: loads and stores with
 * coprocessor field 14/15 (0xEC/0xED/0xFC/0xFD), data processing in
 * 0xEF/0xFF and in 0xEE/0xFE with coprocessor field 14/15 (VFP uses 10/11).
 * The pipe follows ARMScheduleM55.td coarsely: multiplies, reductions,
 * compares and floating point on the float/multiply pipe, VPST/VPNOT on
 * the control pipe, the rest of 0xEF/0xFF on the integer pipe. */
static int mve_pipe(uint16_t h1, uint16_t h2) {
  unsigned cp = (h2 >> 8) & 0xF;
  if ((h1 & 0xEE00) == 0xEC00)
    return cp >= 0xE ? MC_MVE_LS : MC_MVE_NONE;
  if ((h1 & 0xEF00) == 0xEF00) { /* 0xEF, 0xFF */
    if ((cp == 0x9 && (h2 & 0x10)) || cp >= 0xB)
      return MC_MVE_MUL; /* VMUL, VQDMULH, VQRDMULH, floating point */
    return MC_MVE_INT;
  }
  if ((h1 & 0xEF00) == 0xEE00 && cp >= 0xE) {
    if ((h1 & 0xFFB1) == 0xFE31 && (h2 & 0x1FFF) == 0x0F4D)
      return MC_MVE_SYS; /* VPST, VPNOT */
    return MC_MVE_MUL;
  }
  return MC_MVE_NONE;
}

static void decode_fp(uint16_t h1, uint16_t h2, mc_insn *o) {
  set(o, K_FP, MC_FP, MC_BR_NONE);
  o->mve = mve_pipe(h1, h2);
  if ((h1 & 0xFE00) == 0xEC00) { /* extension register load/store */
    unsigned regs = (h2 & 0x0100) ? (h2 & 0xFF) / 2u : (h2 & 0xFF);
    if ((h1 & 0xFFE0) == 0xEC40)
      o->kind = K_FP_MOV2;
    else if ((h1 & 0xFF20) == 0xED00) /* VLDR, VSTR */
      o->kind = K_FP_LS;
    else {
      o->kind = K_FP_LSM;
      o->n = regs;
    }
    return;
  }
  if ((h1 & 0xFF00) != 0xEE00)
    return;
  if ((h1 & 0xFFB0) == 0xEE80 ||
      ((h1 & 0xFFBF) == 0xEEB1 && (h2 & 0x00C0) == 0x00C0))
    o->kind = K_FP_DIV; /* VDIV, VSQRT */
  else if ((h2 & 0x0010) == 0 &&
           ((h1 & 0xFFA0) == 0xEE00 || (h1 & 0xFFA0) == 0xEE80 ||
            (h1 & 0xFFB0) == 0xEE90 || (h1 & 0xFFB0) == 0xEEA0))
    o->kind = K_FP_MAC; /* VMLA/VMLS, VNMLA/VNMLS, VFNMA/VFNMS, VFMA/VFMS */
}

static void decode32(uint16_t h1, uint16_t h2, mc_insn *o) {
  if ((h1 & 0xFE40) == 0xE800) { /* LDM, STM */
    o->n = popcount16(h2);
    if (h1 & 0x0010) {
      if (h2 & 0x8000) {
        o->pc_in_list = 1;
        return set(o, K_LDM, MC_BR_TAKEN, MC_BR_ALWAYS);
      }
      return set(o, K_LDM, MC_LDM_STM, MC_BR_NONE);
    }
    return set(o, K_STM, MC_LDM_STM, MC_BR_NONE);
  }
  if ((h1 & 0xFE40) == 0xE840) {
    if ((h1 & 0xFFF0) == 0xE8D0 && (h2 & 0xFFE0) == 0xF000) /* TBB, TBH */
      return set(o, K_TB, MC_BR_TAKEN, MC_BR_ALWAYS);
    if (h1 & 0x0120) /* LDRD, STRD */
      return set(o, K_LDRD, (h1 & 0x0010) ? MC_LOAD : MC_STORE, MC_BR_NONE);
    o->ls = 1; /* exclusives */
    if (h1 & 0x0010)
      return set(o, K_LD, MC_LOAD, MC_BR_NONE);
    return set(o, K_ST, MC_STORE, MC_BR_NONE);
  }
  if ((h1 & 0xEC00) == 0xEC00) /* coprocessor: the FPU */
    return decode_fp(h1, h2, o);
  if ((h1 & 0xF800) == 0xF000 && (h2 & 0x8000)) { /* branches, control */
    /* Armv8.1-M low-overhead loops (never in an Armv7-M image): LE/LETP
     * branch back while LR counts, WLS/WLSTP skip a loop of none; DLS
     * sets LR; VCTP is MVE */
    if ((h2 & 0xF001) == 0xC001)
      return set(o, (h1 & 0xF) == 0xF ? K_BCOND : K_CBZ, MC_BR_TAKEN,
                 MC_BR_COND);
    if (h2 == 0xE801 && (h1 & 0xFFC0) == 0xF000) {
      o->mve = MC_MVE_SYS;
      return set(o, K_ALU, MC_ALU, MC_BR_NONE);
    }
    if ((h2 & 0x5000) == 0x5000)
      return set(o, K_BL, MC_BR_TAKEN, MC_BR_ALWAYS);
    if ((h2 & 0x5000) == 0x1000)
      return set(o, K_B, MC_BR_TAKEN, MC_BR_ALWAYS);
    if ((h2 & 0x5000) == 0x0000 && ((h1 >> 6) & 0xE) != 0xE)
      return set(o, K_BCOND, MC_BR_TAKEN, MC_BR_COND);
    if ((h1 & 0xFFE0) == 0xF380)
      return set(o, K_MSR, MC_ALU, MC_BR_NONE);
    if ((h1 & 0xFFE0) == 0xF3E0)
      return set(o, K_MRS, MC_ALU, MC_BR_NONE);
    if ((h1 & 0xFFF0) == 0xF3B0)
      return set(o, (h2 & 0xF0) == 0x60 ? K_ISB : K_BARRIER, MC_ALU,
                 MC_BR_NONE);
    return set(o, K_ALU, MC_ALU, MC_BR_NONE);
  }
  if ((h1 & 0xFE00) == 0xF800) { /* load/store single */
    o->ls = 1;
    if (!(h1 & 0x0010))
      return set(o, K_ST, MC_STORE, MC_BR_NONE);
    if ((h2 >> 12) == 15 && ((h1 >> 5) & 3) == 2) {
      o->ls = 0;
      return set(o, K_LD_PC, MC_BR_TAKEN, MC_BR_ALWAYS);
    }
    return set(o, K_LD, MC_LOAD, MC_BR_NONE);
  }
  if ((h1 & 0xFF80) == 0xFB00) { /* multiply, multiply-accumulate */
    unsigned op1 = (h1 >> 4) & 7, op2 = (h2 >> 4) & 3, ra = h2 >> 12;
    if (op1 == 0 && op2 == 1)
      return set(o, K_MLA, MC_MAC, MC_BR_NONE); /* MLS */
    if (ra == 15)
      return set(o, K_MUL, MC_MUL, MC_BR_NONE);
    return set(o, K_MLA, MC_MAC, MC_BR_NONE);
  }
  if ((h1 & 0xFF80) == 0xFB80) { /* long multiply, divide */
    unsigned op1 = (h1 >> 4) & 7;
    if (op1 == 1 || op1 == 3)
      return set(o, K_DIV, MC_DIV, MC_BR_NONE);
    if (op1 == 0 || op1 == 2)
      return set(o, K_MULL, MC_MUL, MC_BR_NONE);
    return set(o, K_MLAL, MC_MAC, MC_BR_NONE);
  }
  set(o, K_ALU, MC_ALU, MC_BR_NONE); /* data processing */
}

size_t mc_thumb_size(uint16_t hw1, size_t reported) {
  size_t sz = (hw1 & 0xF800) >= 0xE800 ? 4 : 2;
  return reported < sz ? reported : sz;
}

void mc_decode(uint16_t hw1, uint16_t hw2, int size, mc_insn *out) {
  memset(out, 0, sizeof *out);
  if (size == 2)
    decode16(hw1, out);
  else
    decode32(hw1, hw2, out);
  out->size = size;
  mc_regs_of(hw1, hw2, size, &out->regs);
  if (size == 2) {
    out->nop16 = (hw1 & 0xFF0F) == 0xBF00; /* NOP, YIELD, WFE, WFI, SEV */
    /* ARMScheduleM55.td "Dual Issue": NOP, IT, B, B<cond>, ADD/SUB
     * immediate, MOV immediate and register, UXTB/H, SXTB/H */
    out->di16 = (hw1 & 0xFC00) == 0x1C00 || (hw1 & 0xE000) == 0x2000 ||
                (hw1 & 0xFF00) == 0x4600 || (hw1 & 0xFF00) == 0xB200 ||
                (hw1 & 0xFF00) == 0xBF00 || out->kind == K_B ||
                out->kind == K_BCOND;
  }
  out->load =
      out->kind == K_LD || out->kind == K_LDM || out->kind == K_LD_PC ||
      out->kind == K_TB || (out->kind == K_LDRD && out->cls == MC_LOAD) ||
      ((out->kind == K_FP_LS || out->kind == K_FP_LSM) && (hw1 & 0x0010)) ||
      (out->mve == MC_MVE_LS && (hw1 & 0x0010));
}

void mc_state_init(mc_state *st) {
  memset(st, 0, sizeof *st);
  st->since_flags = 1000;
}

mc_cost mc_cost_of(const mc_model *m, mc_insn *in, mc_state *st,
                   unsigned wait_states) {
  mc_cost c = {0, 1};
  int in_it = st->it_left > 0;
  if (in_it)
    st->it_left--;
  if (in->it_count)
    st->it_left = in->it_count;
  if (in_it && in->branch == MC_BR_ALWAYS)
    in->branch = MC_BR_COND; /* a PC write under IT */
  if (!m)
    return c;
  unsigned k = m->cost[in->kind];
  if (in->kind == K_LDM || in->kind == K_STM || in->kind == K_FP_LSM)
    k += m->pipe == MC_PIPE_M7 || m->pipe == MC_PIPE_M85
             ? (in->n + 1) / 2 + (in->n == 0)
             : in->n;
  if (in->pc_in_list)
    k += m->ldm_pc_extra;
  if (in->ls && m->ls_pipeline && st->prev_ls)
    k = 1; /* pipelined with the load/store before it */
  st->prev_ls = in->ls;
  c.taken = k;
  if (m->pipe != MC_PIPE_SCALAR)
    mc_pipe_cost(m, in, st, in_it, &c);
  if (in->cls == MC_BR_TAKEN)
    c.taken += wait_states; /* the refill fetches from flash */
  return c;
}

void mc_block(const mc_model *m, const mc_insn *ins, size_t n, mc_state *st,
              unsigned wait_states, mc_block_cost *out, uint32_t *classes,
              uint8_t *costs) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < n; i++) {
    mc_insn in = ins[i];
    mc_cost k = mc_cost_of(m, &in, st, wait_states);
    if (costs)
      costs[i] = 0;
    if (i + 1 == n)
      out->last_branch = (uint8_t)in.branch;
    if (i + 1 == n && in.branch == MC_BR_COND) {
      out->taken = (uint8_t)k.taken;
      out->not_taken = (uint8_t)k.not_taken;
      continue; /* class and cycles come when the outcome is known */
    }
    /* a conditional branch inside a block (IT block): not taken */
    if (classes)
      classes[in.branch == MC_BR_COND ? MC_BR_NOT_TAKEN : in.cls]++;
    unsigned c = in.branch == MC_BR_COND ? k.not_taken : k.taken;
    out->cycles += c;
    if (costs)
      costs[i] = (uint8_t)(c < 255 ? c : 255);
  }
  out->penalty = (uint8_t)st->br_mispredict;
}
