/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Cortex-M4, M33, M55 and M7 rules that look at neighbouring
 * instructions: load/store pipelining, dual issue, result latency, MVE
 * beats (the M85's: pipeline_m85.c). Sources, and which was chosen where
 * they disagree: docs/cycle-model.md, sections "Cortex-M4" to
 * "Cortex-M85". Decided at translation time, so they cost nothing at run
 * time; the state flows on into a block that continues another without a
 * branch (mc_carry), and starts afresh after a branch.
 */
#include "cycle_model.h"

static int is_mac(mc_kind k) {
  return k == K_MUL || k == K_MLA || k == K_MULL || k == K_MLAL;
}

static int is_branch(mc_kind k) {
  return k == K_B || k == K_BCOND || k == K_CBZ || k == K_BL || k == K_BX;
}

static void pay(mc_cost *c, unsigned stall) {
  c->taken += stall;
  c->not_taken += stall;
}

static void paired(mc_cost *c) {
  c->taken = c->taken > 0 ? c->taken - 1 : 0;
  c->not_taken = 0;
}

/* An MVE instruction takes two beats in its EPU pipe; the first beat of
 * the next overlaps the second of this one when their pipes differ
 * (ARMScheduleM55.td, "MVE"; ARMScheduleM85.td, ReleaseAtCycles 2). The
 * cost is how far it moves the issue point: 2 behind an MVE instruction
 * of the same pipe, 1 otherwise (0 beside a scalar one: M85, below). */
static void mve_beats(const mc_insn *in, mc_state *st, mc_cost *c) {
  unsigned k = st->prev_mve == in->mve ? 2u : 1u;
  c->taken = c->not_taken = k;
}

/* Results that reach the next instruction a cycle late on the M33 and M55:
 * loads, multiplies and MACs, shifted-operand instructions, DSP and
 * extend-and-add (M33 silicon: "result latency ... 2 cycles"; M55:
 * ARMScheduleM55.td CX instructions, Latency = 2), but not BFI/BFC, plain
 * extends or REV (M33 silicon: "bfi is a single stage instruction";
 * ARMScheduleM55.td: BFI, UXT/SXT, REV of latency 1). */
static uint16_t late_result(const mc_insn *in) {
  const mc_regs *r = &in->regs;
  if (in->kind == K_LD || in->kind == K_LDRD)
    return (uint16_t)(r->dst & ~r->addr);
  if (is_mac(in->kind) || (r->shc && !r->dsp) || (r->dsp && !r->dsp1))
    return r->dst;
  return 0;
}

/* Cortex-M33 (RP2350 measurements) and Cortex-M55 (ARMScheduleM55.td):
 * an in-order pipeline that dual-issues two 16-bit instructions only. */
static void m33(const mc_model *m, const mc_insn *in, mc_state *st, int in_it,
                mc_cost *c) {
  const mc_regs *r = &in->regs;
  int m55 = m->pipe == MC_PIPE_M55;
  if (m55 && in->mve) {
    mve_beats(in, st, c);
    st->prev_pair_ok = 0;
    st->late = 0;
    st->prev_mve = in->mve;
    return;
  }
  if (st->prev_mve) /* a scalar instruction waits for the second beat (an
                       assumption: no source says it overlaps) */
    pay(c, 1);
  st->prev_mve = 0;
  /* A store reads its data late, a MAC its accumulator: neither waits
   * (M33: load to store 1 cycle, accumulate chained from a MAC, an
   * extend-and-add, a shifted-operand instruction or a load). */
  uint16_t reads = in->cls == MC_STORE ? r->addr : (uint16_t)(r->src & ~r->acc);
  unsigned stall = (st->late & reads) ? 1u : 0u;
  int b16 = in->size == 2 &&
            (in->kind == K_B || in->kind == K_BCOND || in->kind == K_CBZ);
  int pair = 0;
  if (st->prev_pair_ok && in->size == 2 && !stall && !(r->src & st->prev.dst) &&
      !(r->dst & st->prev.dst)) {
    if (m55) /* two 16-bit instructions, one of them of the DI set */
      pair = in->di16 || st->prev_di;
    else /* M33: a NOP or IT with anything; a 16-bit branch after */
      pair = in->nop16 || in->it_count || st->prev_di || b16;
  }
  if (pair && b16 && !m55 && st->prev.flags_w) {
    /* M33: a taken branch pairs only after an instruction that does not
     * set the flags; not taken it pairs always */
    c->not_taken = 0;
  } else if (pair) {
    paired(c);
  } else {
    pay(c, stall);
  }
  /* M33: a 16-bit MULS and a flag-setting shifted-constant instruction
   * take 2 cycles; their result is then ready for the next */
  int two = !m55 && !pair && in->regs.flags_w && !in_it &&
            ((in->size == 2 && in->kind == K_MUL) ||
             (in->size == 4 && r->shc && !r->rr32 && !r->dsp));
  if (two)
    pay(c, 1);
  /* the next may pair with this one: a 16-bit instruction not itself the
   * second of a pair */
  st->prev_pair_ok = !pair && in->size == 2 && !is_branch(in->kind);
  st->prev_di = m55 ? in->di16 : in->nop16;
  st->late = two ? 0 : late_result(in);
}

/* Which execution resource an instruction needs (ARMScheduleM7.td: two
 * ALUs, two load ports, one store port, one MAC, one branch unit, one FP
 * unit). */
enum { U_ALU, U_LOAD, U_STORE, U_MAC, U_BRANCH, U_FP, U_SINGLE };

static int m7_unit(const mc_insn *in) {
  switch (in->kind) {
  case K_LD:
  case K_FP_LS:
    return in->cls == MC_STORE ? U_STORE : U_LOAD;
  case K_ST:
    return U_STORE;
  case K_MUL:
  case K_MLA:
  case K_MULL:
  case K_MLAL:
    return U_MAC;
  case K_B:
  case K_BCOND:
  case K_CBZ:
  case K_BL:
  case K_BX:
    return U_BRANCH;
  case K_FP:
  case K_FP_MAC:
    return U_FP;
  case K_ALU:
    return U_ALU;
  default: /* LDM/STM, divide, TBB, MSR/MRS, barriers, PC writes, VDIV,
              VLDM: single issue */
    return U_SINGLE;
  }
}

/* Cycles the instruction waits for what the instructions of one cycle
 * (the masks given) wrote. M7 silicon (doc/cortex_m7.md): a word load's
 * result reaches the (late) ALU the next cycle, a byte/halfword load's and
 * a multiply's a cycle later; inputs read early (a shifted register, the
 * source of an extend or bit-field, an address) need their producer to
 * have finished a cycle earlier, except from ADD/SUB/MOV in the early ALU
 * and base writeback; a multiply cannot take a load's result of the
 * cycle before; a MAC's accumulator and a store's data never wait. */
static unsigned m7_stall(const mc_insn *in, uint16_t dst, uint16_t ok,
                         uint16_t late, uint16_t ldw) {
  const mc_regs *r = &in->regs;
  uint16_t early = (uint16_t)(r->early | r->addr);
  uint16_t normal =
      in->cls == MC_STORE ? 0 : (uint16_t)(r->src & ~early & ~r->acc);
  unsigned s = 0;
  if (normal & late)
    s = 1;
  if (is_mac(in->kind) && ((r->src & ~r->acc) & ldw))
    s = 1;
  if (early & dst & ~ok)
    s = 1;
  if (early & late)
    s = 2;
  return s;
}

/* Cortex-M7: the instruction issues with the one before when that may
 * dual-issue, they need different units (two ALU or two load ports), at
 * most one needs the shifter, a DSP-class instruction is the older of the
 * two, it reads nothing the first writes (a store's data excepted; MOVW
 * then MOVT of one register pair) and writes nothing it writes, and it
 * would not wait for the cycle before. */
static void m7(const mc_insn *in, mc_state *st, mc_cost *c) {
  const mc_regs *r = &in->regs;
  int unit = m7_unit(in), pu = st->prev_valid ? st->prev_unit : -1;
  const mc_regs *q = &st->prev;
  uint16_t reads = in->cls == MC_STORE ? r->addr : r->src;
  int conflict = unit == U_SINGLE || pu == U_SINGLE ||
                 (unit == pu && unit != U_ALU && unit != U_LOAD) ||
                 (unit == U_MAC && pu == U_STORE) ||
                 (unit == U_STORE && pu == U_MAC) ||
                 (r->shc && (q->shc || q->pshift)) || r->dsp;
  int movwt = q->movwt == 1 && r->movwt == 2 && r->dst == q->dst;
  /* an ADD/SUB/MOV in the early ALU forwards to the late ALU in the same
   * cycle (M7 silicon; ADD.W R1,R0,R3 + ADD.W R1,R1,R2 pair) */
  uint16_t early_in = (uint16_t)(r->early | r->addr | r->acc);
  int fwd = q->simple && st->prev_early && unit != U_MAC &&
            !(reads & q->dst & early_in);
  int pair =
      st->prev_pair_ok && !conflict &&
      !m7_stall(in, st->cyc_dst, st->cyc_ok, st->cyc_late, st->cyc_ldw) &&
      (!(reads & q->dst) || movwt || fwd) &&
      (!(r->dst & q->dst) || movwt || fwd) && !(r->flags_r && q->flags_w);
  if (pair) {
    paired(c);
  } else {
    st->cyc_dst = st->grp_dst;
    st->cyc_ok = st->grp_ok;
    st->cyc_late = st->grp_late;
    st->cyc_ldw = st->grp_ldw;
    st->grp_dst = st->grp_ok = st->grp_late = st->grp_ldw = 0;
    pay(c, m7_stall(in, st->cyc_dst, st->cyc_ok, st->cyc_late, st->cyc_ldw));
  }
  /* what this instruction writes, for the next cycle */
  int ls = in->cls == MC_LOAD || in->cls == MC_STORE || in->kind == K_LDM ||
           in->kind == K_STM;
  uint16_t wb = ls ? (uint16_t)(r->dst & r->addr) : 0;
  uint16_t res = (uint16_t)(r->dst & ~wb);
  /* the early ALU: ADD/SUB/MOV alone or as the older of a pair, its
   * inputs ready a cycle early; plain shifts from either slot */
  int early_exec = r->simple && !pair && !(r->src & st->cyc_dst & ~st->cyc_ok);
  uint16_t keep = (uint16_t)~r->dst;
  st->grp_dst |= r->dst;
  st->grp_ok = (uint16_t)((st->grp_ok & keep) | wb |
                          ((r->pshift || early_exec) ? res : 0));
  st->grp_late &= keep;
  st->grp_ldw &= keep;
  if (r->narrow || is_mac(in->kind))
    st->grp_late |= res;
  else if (in->cls == MC_LOAD || in->kind == K_LDM)
    st->grp_ldw |= res;
  st->prev_early = early_exec;
  st->prev_pair_ok = !pair && unit != U_SINGLE && !is_branch(in->kind);
  st->prev_unit = unit;
  /* M7 silicon: a mispredicted branch costs 8, or 6 when the flags it
   * reads were set at least 3 cycles (about 6 instructions) before */
  st->br_mispredict =
      in->kind == K_BCOND ? (st->since_flags < 5 ? 8u : 6u) : 0u;
}

/* A load or store of any kind: the Cortex-M4 generates its address in the
 * decode stage (TRM 3.3.2, jnk0le doc/cortex_m3m4.md). */
static int m4_mem(const mc_insn *in) {
  return in->ls || in->load || in->cls == MC_STORE || in->kind == K_STM ||
         in->kind == K_FP_LSM;
}

/* Cortex-M4 version 2 (docs/cycle-model.md "Cortex-M4"): Table 3-1's
 * figures with the load/store mechanism of TRM section 3.3.2 (DDI 0439B)
 * as measured on an STM32F407 (jnk0le/random doc/cortex_m3m4.md):
 * - "STR Rx,[Ry,#imm] is always one cycle": its data phase overlaps the
 *   next instruction (the table's 2 for a store with an immediate offset,
 *   pre- or post-indexed too on the M4, becomes 1), but "nothing can be
 *   pipelined after the store": a load right after it waits a cycle
 *   ("stores cannot be pipelined with following load instructions");
 *   a store with a register offset takes 2, 1 right after a load;
 * - "LDR [any] are pipelined when possible": a single load or store right
 *   after a single load costs one cycle less unless its address uses what
 *   that load wrote (its data, or its base writeback: "post and pre
 *   indexed loads cannot be chained back to back on same register base");
 * - "Any load or store that generates an address dependent on the result
 *   of a preceding data processing operation stalls the pipeline for an
 *   additional cycle" ("base address and offset must be available 1 cycle
 *   earlier than normally": a loaded value used as an address likewise);
 *   two stores in a row with a writeback of the same base are not chained.
 * And the fetch (compendium.i-0.nl "Alignment rules", measured on an
 * STM32 from flash): "Groups of three or more unaligned wide instructions
 * will take one extra cycle", "Groups of unaligned wide str only add the
 * penalty cycle from a length of 4" (a 32-bit instruction at a halfword
 * address spans two of the fetch unit's words: Arm KA 103488664).
 * The refill after a taken branch: merlin_cycles.c (fetch_align). */
static unsigned m4_fetch(const mc_insn *in, mc_state *st) {
  if (in->size != 4 || !in->odd) {
    st->m4_run = 0;
    return 0;
  }
  int store = in->cls == MC_STORE;
  if (st->m4_run == 0) {
    st->m4_run_st = (uint8_t)store;
    st->m4_run_paid = 0;
  } else if (!store)
    st->m4_run_st = 0;
  if (st->m4_run < 255)
    st->m4_run++;
  if (st->m4_run_paid || st->m4_run < (st->m4_run_st ? 4 : 3))
    return 0;
  st->m4_run_paid = 1;
  return 1;
}

static void m4(const mc_insn *in, mc_state *st, mc_cost *c) {
  const mc_regs *r = &in->regs;
  int ld1 = in->ls && in->cls == MC_LOAD, st1 = in->ls && in->cls == MC_STORE;
  int piped = 0;
  unsigned extra = 0;
  if (m4_mem(in) && st->prev_valid) {
    int dep = (r->addr & st->m4_data) != 0, wb = (r->addr & st->m4_wb) != 0;
    if (dep)
      extra++; /* the address-generation stall */
    if (in->load && st->m4_st)
      extra++; /* the store's data phase first */
    if (st1 && wb && st->m4_st)
      extra++; /* two stores on one written-back base: not chained */
    piped = st->m4_ld && !dep && !wb && (ld1 || st1);
  }
  if (piped && ld1)
    c->taken = c->not_taken = 1; /* a load pipelined after a load */
  if (st1 && r->regoff && !piped)
    extra++; /* a register-offset store: 2 */
  pay(c, extra + m4_fetch(in, st));
  /* what the next instruction sees */
  uint16_t wbm = m4_mem(in) ? (uint16_t)(r->dst & r->addr) : 0;
  st->m4_ld = (uint8_t)ld1;
  st->m4_st = (uint8_t)(st1 && (!r->regoff || piped));
  st->m4_wb = wbm;
  st->m4_data = (uint16_t)(r->dst & ~wbm);
}

void mc_pipe_cost(const mc_model *m, const mc_insn *in, mc_state *st, int in_it,
                  mc_cost *c) {
  if (m->pipe == MC_PIPE_M4)
    m4(in, st, c);
  else if (m->pipe == MC_PIPE_M85)
    c->taken = c->not_taken = mc_m85_cost(m, in, st);
  else if (m->pipe == MC_PIPE_M33 || m->pipe == MC_PIPE_M55)
    m33(m, in, st, in_it, c);
  else
    m7(in, st, c);
  st->prev_valid = 1;
  st->prev_kind = in->kind;
  st->prev = in->regs;
  st->since_flags = in->regs.flags_w ? 0 : st->since_flags + 1;
}
