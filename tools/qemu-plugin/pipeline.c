/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Cortex-M33 and Cortex-M7 rules that look at two neighbouring
 * instructions of a translation block: dual issue and result latency.
 * Sources and uncertainty: docs/cycle-model.md, "Cortex-M33" and
 * "Cortex-M7". Decided at translation time, so they cost nothing at run
 * time; a pair across two blocks is not seen (the block's first
 * instruction issues alone).
 */
#include "cycle_model.h"

static int is_mac(mc_kind k) {
  return k == K_MUL || k == K_MLA || k == K_MULL || k == K_MLAL;
}

static int is_branch(mc_kind k) {
  return k == K_B || k == K_BCOND || k == K_CBZ || k == K_BL || k == K_BX;
}

/* Cortex-M33: a 16-bit data-processing instruction issues together with
 * the 16-bit data-processing instruction before it, or a 16-bit B/B<cond>
 * with one, when neither reads or writes what the other writes. A load's
 * data, and a multiply's or MAC's result (third stage), reach the next
 * instruction a cycle late. */
static void m33(const mc_insn *in, mc_state *st, int in_it, mc_cost *c) {
  const mc_regs *r = &in->regs;
  unsigned stall = (st->late & r->src) ? 1u : 0u;
  int alu16 = in->size == 2 && r->simple16 && in->kind == K_ALU &&
              !in->it_count && !in_it;
  int br16 = in->size == 2 && (in->kind == K_B || in->kind == K_BCOND);
  int pair = st->prev_pair_ok && !stall && (alu16 || br16) &&
             !(r->src & st->prev.dst) && !(r->dst & st->prev.dst);
  if (pair) {
    c->taken = c->taken > 0 ? c->taken - 1 : 0;
    c->not_taken = 0;
  } else {
    c->taken += stall;
    c->not_taken += stall;
  }
  st->prev_pair_ok = alu16 && !pair;
  st->late = (in->kind == K_LD || is_mac(in->kind)) ? r->dst : 0;
}

/* Which execution resource an instruction needs (ARMScheduleM7.td: two
 * ALUs, two load ports, one store port, one MAC, one branch unit, one FP
 * unit; one shifter for a shifted operand). */
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
  default: /* LDM/STM, LDRD/STRD, divide, TBB, MSR/MRS, barriers, PC
              writes, VDIV, VLDM: single issue */
    return U_SINGLE;
  }
}

/* Cortex-M7: the instruction issues with the one before when both may
 * dual-issue, they need different units (two ALU or two load ports),
 * at most one uses the shifter, and it reads nothing the first writes (a
 * store's data excepted: read late) and writes nothing it writes. Not
 * paired, it waits a cycle for a byte/halfword load or a multiply result
 * (latency 2), and for a register it uses as an address that the
 * instruction before computed (address operands are read at EX1). */
static void m7(const mc_insn *in, mc_state *st, mc_cost *c) {
  const mc_regs *r = &in->regs;
  int unit = m7_unit(in), prev_unit = -1;
  uint16_t reads = in->cls == MC_STORE ? r->addr : r->src;
  unsigned stall = ((st->late & r->src) || (st->agu_late & r->addr)) ? 1 : 0;
  if (st->prev_valid) {
    mc_insn p = {.kind = st->prev_kind};
    prev_unit = m7_unit(&p);
  }
  int conflict = unit == U_SINGLE || prev_unit == U_SINGLE ||
                 (unit == prev_unit && unit != U_ALU && unit != U_LOAD) ||
                 (r->shifted && st->prev.shifted);
  int pair = st->prev_pair_ok && !stall && !conflict &&
             !(reads & st->prev.dst) && !(r->dst & st->prev.dst) &&
             !(r->flags_r && st->prev.flags_w);
  if (pair) {
    c->taken = c->taken > 0 ? c->taken - 1 : 0;
    c->not_taken = 0;
  } else {
    c->taken += stall;
    c->not_taken += stall;
  }
  st->prev_pair_ok = !pair && unit != U_SINGLE && !is_branch(in->kind);
  st->late = (r->narrow || is_mac(in->kind)) ? r->dst : 0;
  /* a load/store's base writeback is ready at once (ARMScheduleM7.td:
   * M7BaseUpdate, latency 0) */
  st->agu_late =
      (uint16_t)(r->dst &
                 ~(in->cls == MC_LOAD || in->cls == MC_STORE ? r->addr : 0));
}

void mc_pipe_cost(const mc_model *m, const mc_insn *in, mc_state *st, int in_it,
                  mc_cost *c) {
  if (m->pipe == MC_PIPE_M33)
    m33(in, st, in_it, c);
  else
    m7(in, st, c);
  st->prev_valid = 1;
  st->prev_kind = in->kind;
  st->prev = in->regs;
}
