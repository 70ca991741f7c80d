/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cortex-M85 version 2 (docs/cycle-model.md "Cortex-M85"): an in-order,
 * dual-issue pipeline with three execution stages, EX1 to EX3, in which
 * an instruction executes in a stage its class allows, the earliest its
 * inputs reach; a result reaches a later stage of the same cycle ("It is
 * possible to forward dependent operands in 0 cycles into a later
 * stages"). The stages, pairings and latencies are jnk0le's measurements
 * on an RA8D1 (Cortex-M85 r0p2; jnk0le/random "pipeline cycle test",
 * doc/cortex_m85.md, which notes "only things that are not mentioned,
 * wrong or unclear" in Arm's Cortex-M85 Software Optimization Guide, Arm
 * 107950), the units and single-issue instructions Arm's scheduling model
 * (LLVM ARMScheduleM85.td). MVE: the Cortex-M55's beats (pipeline.c).
 * Decided at translation time; the state flows across a block QEMU cut
 * (mc_carry).
 */
#include "cycle_model.h"

/* Resources an issue group holds (one MAC, one branch unit; "slot 0" and
 * BFI instructions exclude each other; FP arithmetic takes the FP pipe
 * and pairs only with FP loads and stores; a 64-bit-accumulator MAC and
 * a register-offset store or STRD, or a written-back LDRD, exceed the
 * register file's ports) */
enum {
  R_MAC = 1,
  R_BRANCH = 2,
  R_SLOT0 = 4,
  R_FP = 8,
  R_MLAL = 16,
  R_PORTS = 32, /* register-offset store, STRD, LDRD with writeback */
  R_FPLS = 64,
  R_NOFP = 128 /* an instruction an FP one may not pair with */
};

#define FLAGS 15u /* t85[FLAGS]: the condition flags */

static unsigned max_u(unsigned a, unsigned b) { return a > b ? a : b; }

/* The latest time among the registers in mask (and the flags). */
static unsigned ready(const mc_state *st, uint16_t mask, int flags) {
  unsigned t = flags ? st->t85[FLAGS] : 0;
  for (unsigned r = 0; r < 15; r++)
    if (mask & (1u << r))
      t = max_u(t, st->t85[r]);
  return t;
}

/* Move the group's clock on by d cycles: every time is d less. */
static void advance(mc_state *st, unsigned d) {
  for (unsigned r = 0; r < 16; r++)
    st->t85[r] = (uint8_t)(st->t85[r] > d ? st->t85[r] - d : 0);
  st->f85_ok = (uint8_t)(st->f85_ok > d ? st->f85_ok - d : 0);
}

typedef struct {
  unsigned first, last; /* stages (1..3) of the first and last step */
  unsigned ok;          /* the inputs allow issue at this cycle */
} plan;

/* Where the instruction executes when it issues c cycles after the
 * current group (c = 0: beside the instruction before): the earliest
 * stage its inputs allow, among those its class has. */
static plan place(const mc_insn *in, const mc_state *st, unsigned c) {
  const mc_regs *r = &in->regs;
  plan p = {0, 0, 0};
  uint16_t addr = r->addr, data = (uint16_t)(r->src & ~r->addr);
  unsigned lo = 1, hi = 3, two = 0;
  switch (r->xc) {
  case MC_XC_BITW:
    lo = 2;
    break;
  case MC_XC_SHIFT:
    hi = 2;
    break;
  case MC_XC_SLOT0:
    lo = hi = 2;
    break;
  case MC_XC_OP2: /* shifter in EXk, ALU in EXk+1 */
    hi = 2;
    two = 1;
    break;
  case MC_XC_BFI:
  case MC_XC_XTA:
    hi = 1;
    two = 1;
    break;
  default:
    break;
  }
  int ld = in->cls == MC_LOAD &&
           (in->kind == K_LD || in->kind == K_LDRD || in->kind == K_FP_LS);
  int str = in->cls == MC_STORE &&
            (in->kind == K_ST || in->kind == K_LDRD || in->kind == K_FP_LS);
  if (ld || str) { /* address in EX1; a load's data end of EX2 (byte and
                      halfword EX3); a store's data read in EX3 */
    p.ok = c + 1 > ready(st, addr, 0) && (!str || c + 3 > ready(st, data, 0));
    p.first = 1;
    p.last = ld ? (r->narrow ? 3 : 2) : 1;
    return p;
  }
  if (in->kind == K_MUL || in->kind == K_MLA || in->kind == K_MULL ||
      in->kind == K_MLAL) { /* MUL in EX2, accumulate in EX3: "can't
                               forward ldr result into accumulate operand
                               in 0 cycles" */
    unsigned acc = ready(st, r->acc, 0);
    if (c == 0 && (r->acc & st->g85_ld))
      acc = max_u(acc, 3);
    p.ok = c + 2 > ready(st, (uint16_t)(r->src & ~r->acc), 0) && c + 3 > acc;
    p.first = 2;
    p.last = 3;
    return p;
  }
  if (r->xc == MC_XC_NONE || r->xc == MC_XC_NOP) { /* branches, system */
    p.ok = 1;
    p.first = p.last = 1;
    return p;
  }
  for (unsigned k = lo; k <= hi; k++) {
    unsigned t1 = ready(st, two ? r->first : r->src, r->flags_r);
    unsigned t2 = two ? ready(st, (uint16_t)(r->src & ~r->first), 0) : 0;
    if (c + k > t1 && (!two || c + k + 1 > t2)) {
      p.ok = 1;
      p.first = k;
      p.last = k + two;
      return p;
    }
  }
  return p;
}

/* The resources the instruction takes, and whether they clash with the
 * group's. */
static unsigned resources(const mc_insn *in) {
  const mc_regs *r = &in->regs;
  unsigned x = 0;
  if (in->kind == K_MUL || in->kind == K_MLA || in->kind == K_MULL ||
      in->kind == K_MLAL)
    x |= R_MAC | R_NOFP;
  if (in->kind == K_MLAL)
    x |= R_MLAL;
  if (in->branch != MC_BR_NONE)
    x |= R_BRANCH | R_NOFP;
  if (r->xc == MC_XC_SLOT0 || r->xc == MC_XC_BFI)
    x |= R_SLOT0 | R_NOFP;
  if ((in->kind == K_ST && r->regoff) ||
      (in->kind == K_LDRD && (in->cls == MC_STORE || (r->dst & r->addr))))
    x |= R_PORTS;
  if (in->kind == K_FP || in->kind == K_FP_MAC || in->kind == K_FP_MOV2)
    x |= R_FP;
  else if (in->kind == K_FP_LS)
    x |= R_FPLS;
  else if (!(in->nop16 || in->it_count))
    x |= R_NOFP;
  return x;
}

static int clash(unsigned g, unsigned x) {
  if (g & x & (R_MAC | R_BRANCH | R_SLOT0 | R_FP))
    return 1;
  if (((g & R_MLAL) && (x & R_PORTS)) || ((x & R_MLAL) && (g & R_PORTS)))
    return 1;
  return ((g & R_FP) && (x & R_NOFP)) || ((x & R_FP) && (g & R_NOFP));
}

static int single_issue(const mc_insn *in) {
  switch (in->kind) {
  case K_LDM:
  case K_STM:
  case K_DIV:
  case K_TB:
  case K_MSR:
  case K_MRS:
  case K_BARRIER:
  case K_ISB:
  case K_ALU_PC:
  case K_LD_PC:
  case K_FP_DIV:
  case K_FP_LSM:
    return 1;
  default:
    return 0;
  }
}

/* An MVE instruction: two beats in its pipe, overlapping the next one's
 * when their pipes differ (ARMScheduleM55.td, ARMScheduleM85.td
 * ReleaseAtCycles 2); it issues beside the scalar instruction before it,
 * not a "slot 0" one ("basic vector load/store instructions can dual
 * issue with scalar, only from younger slot"; "vector instructions can't
 * be dual issed with slot 0 scalar instructions"). */
static unsigned mve(const mc_insn *in, mc_state *st) {
  unsigned k = st->prev_mve == in->mve ? 2u : 1u;
  if (!st->prev_mve && st->g85_n == 1 && !(st->g85_res & R_SLOT0))
    k = 0;
  advance(st, k);
  st->g85_n = 2;
  st->g85_res = 0;
  st->g85_ld = 0;
  st->prev_mve = in->mve;
  return k;
}

/* The cost of one instruction (cycles the issue point moves) and the state
 * after it. */
unsigned mc_m85_cost(const mc_model *m, const mc_insn *in, mc_state *st) {
  const mc_regs *r = &in->regs;
  if (in->mve)
    return mve(in, st);
  unsigned x = resources(in), c = 0, c0 = 1, extra = 0;
  int alone = single_issue(in);
  plan p = {0, 0, 0};
  /* "scalar instructions can't be issued a cycle after vector
   * loads/stores (during its second cycle aka beat)" */
  if (st->prev_mve == MC_MVE_LS)
    c0 = 2;
  st->prev_mve = 0;
  if (st->g85_n == 1 && !alone && !clash(st->g85_res, x))
    p = place(in, st, 0);
  if (!p.ok) { /* a new issue group, as soon as the inputs allow */
    for (c = c0; c < 8; c++)
      if ((p = place(in, st, c)).ok)
        break;
    if (!p.ok)
      p = (plan){1, 1, 1};
    advance(st, c);
    st->g85_n = 0;
    st->g85_res = 0;
    st->g85_ld = 0;
  }
  /* A conditional branch reads flags set late (EX3 of the cycle before,
   * or this cycle): a misprediction costs more ("flag setting has to
   * happen at least 1 cycle (from EX1 and EX2) or 2 cycle (from EX3)
   * ahead of branch") */
  st->br_mispredict = 0;
  if (in->kind == K_BCOND && in->regs.flags_r && st->f85_ok > 0)
    st->br_mispredict = st->f85_stage >= 3 ? 7u : 6u;
  else if (in->kind == K_BCOND)
    st->br_mispredict = m->mispredict;
  if (alone) { /* single issue: its table cost, alone in its cycles */
    extra = m->cost[in->kind];
    if (in->kind == K_LDM || in->kind == K_STM || in->kind == K_FP_LSM)
      extra += (in->n + 1) / 2 + (in->n == 0);
    extra = extra ? extra - 1 : 0;
    advance(st, extra);
    for (unsigned k = 0; k < 15; k++)
      if (r->dst & (1u << k))
        st->t85[k] = (uint8_t)(in->load ? 2 : 1);
    st->g85_n = 2;
    return c + extra;
  }
  /* results: a load's data at the end of its last stage, its base
   * written back in EX1 ("Two post/pre indexed loads/stores can be chained
   * back to back each cycle") */
  uint16_t wb = (in->cls == MC_LOAD || in->cls == MC_STORE)
                    ? (uint16_t)(r->dst & r->addr)
                    : 0;
  for (unsigned k = 0; k < 15; k++) {
    uint16_t b = (uint16_t)(1u << k);
    if (wb & b)
      st->t85[k] = 1;
    else if (r->dst & b)
      st->t85[k] = (uint8_t)p.last;
  }
  if (r->flags_w) {
    st->t85[FLAGS] = (uint8_t)p.last;
    st->f85_ok = (uint8_t)(p.last >= 3 ? 2 : 1);
    st->f85_stage = (uint8_t)p.last;
  }
  if (in->cls == MC_LOAD)
    st->g85_ld |= (uint16_t)(r->dst & ~wb);
  st->g85_res |= (uint8_t)x;
  st->g85_n++;
  /* a taken branch or a PC write ends the group */
  if (in->branch == MC_BR_ALWAYS)
    st->g85_n = 2;
  return c;
}
