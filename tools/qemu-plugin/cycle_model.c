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

/* Cortex-M4 r0p1 TRM (DDI 0439B) 3.3.1 Table 3-1; FPU: 7.2.3 Table 7-1. */
static const mc_model model_m4 = {
    .name = "cortex-m4",
    .version = "1",
    .source = "Cortex-M4 TRM r0p1 (DDI 0439B) 3.3.1 Table 3-1, FPU 7.2.3",
    .cost =
        {
            [K_ALU] = 1,      [K_ALU_PC] = 1 + P, [K_MUL] = 1,
            [K_MLA] = 1,      [K_MULL] = 1,       [K_MLAL] = 1,
            [K_DIV] = 12, /* 2 to 12: upper end (operand dependent) */
            [K_LD] = 2,       [K_ST] = 2,         [K_LD_PC] = 2 + P,
            [K_LDRD] = 1 + 2, [K_LDM] = 1,        [K_STM] = 1, /* + N */
            [K_B] = 1 + P,    [K_BCOND] = 1 + P,  [K_CBZ] = 1 + P,
            [K_BL] = 1 + P,   [K_BX] = 1 + P,     [K_TB] = 2 + P,
            [K_MSR] = 1,      [K_MRS] = 1,        [K_BARRIER] = 1,
            [K_ISB] = 1 + P,  [K_FP] = 1,         [K_FP_MAC] = 3,
            [K_FP_DIV] = 14,  [K_FP_LS] = 2,      [K_FP_LSM] = 1,
            [K_FP_MOV2] = 2,
        },
    .refill = P,
    .ldm_pc_extra = P,
    .ls_pipeline = 1,
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

/* Cortex-M33 (docs/cycle-model.md "Cortex-M33"): Arm publishes no
 * per-instruction table (TRM 100230). What differs from the M4 comes from
 * the pipeline Arm described at the core's launch: address generation in
 * the second stage, so a single load or store issues in one cycle and its
 * data is there a cycle later; multiply, MAC, divide and SIMD in a third
 * stage (result a cycle later); branches resolved in the second stage; dual
 * issue of 16-bit Thumb and branch instructions (pipeline.c). Everything
 * else as the M4 table (an assumption, labelled so). */
static const mc_model model_m33 = {
    .name = "cortex-m33",
    .version = "1",
    .source = "Arm Cortex-M33 pipeline description (elektroniknet.de, "
              "Cortex-M23 und M33, 2016, p. 3); M4 TRM table otherwise",
    .cost =
        {
            [K_ALU] = 1,     [K_ALU_PC] = 2,  [K_MUL] = 1,   [K_MLA] = 1,
            [K_MULL] = 1,    [K_MLAL] = 1,    [K_DIV] = 12,  [K_LD] = 1,
            [K_ST] = 1,      [K_LD_PC] = 3,   [K_LDRD] = 3,  [K_LDM] = 1,
            [K_STM] = 1,     [K_B] = 2,       [K_BCOND] = 2, [K_CBZ] = 2,
            [K_BL] = 2,      [K_BX] = 2,      [K_TB] = 3,    [K_MSR] = 1,
            [K_MRS] = 1,     [K_BARRIER] = 1, [K_ISB] = 2,   [K_FP] = 1,
            [K_FP_MAC] = 3,  [K_FP_DIV] = 14, [K_FP_LS] = 2, [K_FP_LSM] = 1,
            [K_FP_MOV2] = 2,
        },
    .refill = 1,
    .ldm_pc_extra = 1,
    .ls_pipeline = 0,
    .pipe = MC_PIPE_M33,
};

/* Cortex-M7 (docs/cycle-model.md "Cortex-M7"): no Arm table either. Issue
 * costs, units and latencies from Arm's scheduling model of the core in
 * LLVM (llvm/lib/Target/ARM/ARMScheduleM7.td): dual issue (pipeline.c),
 * divide 7, TBB/TBH 2, system instructions 3 single-issue, VDIV/VSQRT 16,
 * a mispredicted branch 6 (memsys.c). LDM/STM move two registers a cycle
 * (64-bit data path). Memory: TCM or cache hits (no board), or the board's
 * memory system (memsys.c). */
static const mc_model model_m7 = {
    .name = "cortex-m7",
    .version = "1",
    .source = "LLVM ARMScheduleM7.td (Arm's Cortex-M7 scheduling model), "
              "docs/cycle-model.md",
    .cost =
        {
            [K_ALU] = 1,     [K_ALU_PC] = 1,  [K_MUL] = 1,   [K_MLA] = 1,
            [K_MULL] = 1,    [K_MLAL] = 1,    [K_DIV] = 7,   [K_LD] = 1,
            [K_ST] = 1,      [K_LD_PC] = 1,   [K_LDRD] = 1,  [K_LDM] = 0,
            [K_STM] = 0,     [K_B] = 1,       [K_BCOND] = 1, [K_CBZ] = 1,
            [K_BL] = 1,      [K_BX] = 1,      [K_TB] = 2,    [K_MSR] = 3,
            [K_MRS] = 3,     [K_BARRIER] = 3, [K_ISB] = 3,   [K_FP] = 1,
            [K_FP_MAC] = 1,  [K_FP_DIV] = 16, [K_FP_LS] = 1, [K_FP_LSM] = 0,
            [K_FP_MOV2] = 1,
        },
    .refill = 0,
    .ldm_pc_extra = 0,
    .ls_pipeline = 0,
    .pipe = MC_PIPE_M7,
    .mispredict = 6,
};

const mc_model *mc_model_find(const char *name) {
  static const struct {
    const char *arg;
    const mc_model *m;
  } t[] = {
      {"m0plus", &model_m0plus}, {"m0plus-smallmul", &model_m0plus_smallmul},
      {"m3", &model_m3},         {"m4", &model_m4},
      {"m33", &model_m33},       {"m7", &model_m7}};
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

static void decode_fp(uint16_t h1, uint16_t h2, mc_insn *o) {
  set(o, K_FP, MC_FP, MC_BR_NONE);
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

void mc_decode(uint16_t hw1, uint16_t hw2, int size, mc_insn *out) {
  memset(out, 0, sizeof *out);
  if (size == 2)
    decode16(hw1, out);
  else
    decode32(hw1, hw2, out);
  out->size = size;
  mc_regs_of(hw1, hw2, size, &out->regs);
  out->load =
      out->kind == K_LD || out->kind == K_LDM || out->kind == K_LD_PC ||
      out->kind == K_TB || (out->kind == K_LDRD && out->cls == MC_LOAD) ||
      ((out->kind == K_FP_LS || out->kind == K_FP_LSM) && (hw1 & 0x0010));
}

void mc_state_init(mc_state *st) { memset(st, 0, sizeof *st); }

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
    k += m->pipe == MC_PIPE_M7 ? (in->n + 1) / 2 + (in->n == 0) : in->n;
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
