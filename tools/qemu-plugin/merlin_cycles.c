/* SPDX-License-Identifier: Apache-2.0 */
/*
 * QEMU TCG plugin (plugin API version 1, QEMU 7.2): exact instruction counts,
 * instruction classes, estimated Cortex-M cycles and a per-function profile
 * for every region the image brackets with mcore_mark_sample_begin() and
 * mcore_mark_sample_end() (src/core/markers.c). docs/cycle-model.md gives the
 * rules and their sources, and the side file format.
 *
 * Arguments (-plugin merlin_cycles.so,arg=...):
 *   elf=PATH    the image: marker and function symbols are read from it
 *   out=PATH    the side file to write
 *   model=NAME  m0plus, m0plus-smallmul, m3, m4, m33, m55, m7, m85 or none
 *               (count only)
 *   ws=N        flash wait states added to every pipeline refill (default 0)
 *   ic=, dc=, miss=, flash=, prefetch=, unified=
 *               the memory system of a board (memsys.c, --board)
 *   ct=PATH     also write the constant-time trace there (ct_trace.h)
 */
#define _POSIX_C_SOURCE 200809L
#include "ct_trace.h"
#include "cycle_model.h"
#include "elfsyms.h"
#include "memsys.h"

#include <qemu-plugin.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* What one translation block contributes when it runs, and how often it
 * ran in the current region (the run-time callback only counts; the sums
 * are made when the region ends). */
typedef struct {
  uint64_t pc;
  uint64_t fallthrough;                 /* address after its last instruction */
  uint64_t execs, n_taken, n_not_taken; /* in the current region */
  uint32_t n_insns;
  uint32_t cycles; /* static part: all but the last branch's outcome */
  uint32_t classes[MC_N_CLASSES];
  int32_t func;      /* index into the symbol table, -1 when none */
  uint8_t marker;    /* 1 begin, 2 end */
  uint8_t handler;   /* starts an exception handler (*_Handler symbol) */
  uint8_t branch;    /* the last instruction: MC_BR_* */
  uint8_t ends_flow; /* the last instruction may change the flow */
  uint8_t taken_cost;
  uint8_t not_taken_cost;
  uint8_t fn_entry; /* starts at its function's address: a call */
  uint8_t has_dyn;  /* dyn is in use: a memory system or a predictor */
  uint8_t penalty;  /* dyn.penalty when the block starts afresh */
  /* M4: entered by a taken branch, its first instruction costs this much
   * more (a 32-bit one at a halfword address needs a second fetch) */
  uint8_t entry_extra;
  uint64_t n_jumped_in; /* such entries in the current region */
  mc_dyn dyn;           /* their state (memsys.h) */
  uint64_t extra;       /* their cycles in the current region */
  /* The pipeline's state after the block when it starts afresh, and the
   * block continued from one that ended without a branch (mc_carry). */
  mc_state exit;
  mc_carry carry;
  int64_t carry_adj; /* the continued executions' cycles, less the static */
  mc_insn *insns;    /* as decoded, to cost the block again from a state */
  /* With a memory system in flash: each instruction's line among the
   * block's (dyn.line0 + i), and the cycles the block spends in each line,
   * entered afresh and as continued (memsys.c, the prefetch's timing) */
  uint8_t *insn_line;
  uint16_t *line_cyc, *carry_line_cyc;
} tb_info;

static const mc_model *model;
static unsigned wait_states;
static FILE *out;
static const char *out_path;
static es_table syms;
static uint64_t mark_begin, mark_end;

/* The running region: the blocks it ran. */
static int active;
static tb_info **ran;
static size_t n_ran, cap_ran;
static uint64_t *f_insns, *f_cycles, *f_calls;
static uint32_t *touched;
static size_t n_touched;
static uint64_t n_regions;
/* The previous block ended with a conditional branch: its outcome is known
 * when the next block starts. */
static tb_info *pending;
/* The block before, whose last branch the next block settles (memsys.h). */
static tb_info *last;
/* What the pending branch's outcome (not taken, taken) adds to its block's
 * static costs when the block continued another (carried()). */
static int64_t pending_adj[2];

static int cmp_touched(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  if (f_insns[x] != f_insns[y])
    return f_insns[x] < f_insns[y] ? 1 : -1;
  return strcmp(syms.sym[x].name, syms.sym[y].name);
}

static void region_end(void) {
  uint64_t insns = 0, cycles = 0, cls[MC_N_CLASSES] = {0}, exc = 0, stall = 0;
  active = 0;
  n_touched = 0;
  for (size_t i = 0; i < n_ran; i++) {
    tb_info *t = ran[i];
    uint64_t c = t->execs * t->cycles + t->n_taken * t->taken_cost +
                 t->n_not_taken * t->not_taken_cost + t->extra +
                 (uint64_t)t->carry_adj + t->n_jumped_in * t->entry_extra;
    insns += t->execs * t->n_insns;
    cycles += c;
    stall += t->extra;
    for (int k = 0; k < MC_N_CLASSES; k++)
      cls[k] += t->execs * t->classes[k];
    cls[MC_BR_TAKEN] += t->n_taken;
    cls[MC_BR_NOT_TAKEN] += t->n_not_taken;
    exc += t->handler ? t->execs : 0;
    if (t->func >= 0) {
      if (f_insns[t->func] == 0 && f_cycles[t->func] == 0)
        touched[n_touched++] = (uint32_t)t->func;
      f_insns[t->func] += t->execs * t->n_insns;
      f_cycles[t->func] += c;
      f_calls[t->func] += t->fn_entry ? t->execs : 0;
    }
    t->execs = t->n_taken = t->n_not_taken = t->extra = t->n_jumped_in = 0;
    t->carry_adj = 0;
  }
  n_ran = 0;
  fprintf(out, "sample %" PRIu64 " insns=%" PRIu64 " cycles=%" PRIu64,
          n_regions, insns, model ? cycles : 0);
  for (int c = 0; c < MC_N_CLASSES; c++)
    fprintf(out, " %s=%" PRIu64, mc_class_names[c], cls[c]);
  fprintf(out, " exc=%" PRIu64 "\n", exc);
  if (mc_dyn_enabled())
    fprintf(out,
            "mem ic_miss=%" PRIu64 " dc_miss=%" PRIu64 " mispredict=%" PRIu64
            " stall=%" PRIu64 "\n",
            mc_dyn_now.ic_miss, mc_dyn_now.dc_miss, mc_dyn_now.mispredict,
            model ? stall : 0);
  memset(&mc_dyn_now, 0, sizeof mc_dyn_now);
  last = NULL;
  qsort(touched, n_touched, sizeof *touched, cmp_touched);
  for (size_t i = 0; i < n_touched; i++) {
    uint32_t f = touched[i];
    fprintf(out, "fn %s %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
            syms.sym[f].name, f_insns[f], model ? f_cycles[f] : 0, f_calls[f]);
    f_insns[f] = f_cycles[f] = f_calls[f] = 0;
  }
  n_regions++;
}

/* The block that ran before, when it ended without a branch: the state it
 * left the pipeline in (NULL after a branch, an exception or a marker). */
static const tb_info *prev_straight;
static const mc_state *prev_exit;
/* Where the block before would have gone on without a branch: a block
 * starting elsewhere was entered by a taken branch (or an exception). */
static uint64_t prev_fallthrough = UINT64_MAX;

/* The cycles per line of block t from its instructions' costs. */
static void line_cycles(const tb_info *t, const uint8_t *costs, uint16_t *lc) {
  memset(lc, 0, t->dyn.n_lines * sizeof *lc);
  for (uint32_t i = 0; i < t->n_insns; i++)
    lc[t->insn_line[i]] = (uint16_t)(lc[t->insn_line[i]] + costs[i]);
}

/* t starts where prev_straight ended: its cost from the state that block
 * left (mc_carry in cycle_model.h), computed when that state is new. */
static const mc_block_cost *carried(tb_info *t) {
  mc_carry *k = &t->carry;
  if (!k->valid || memcmp(&k->entry, prev_exit, sizeof k->entry) != 0) {
    static uint8_t *costs;
    static size_t cap;
    if (t->n_insns > cap) {
      cap = t->n_insns;
      costs = realloc(costs, cap);
      if (!costs) {
        fprintf(stderr, "merlin_cycles: out of memory\n");
        abort();
      }
    }
    memcpy(&k->entry, prev_exit, sizeof k->entry);
    memcpy(&k->exit, prev_exit, sizeof k->exit);
    mc_block(model, t->insns, t->n_insns, &k->exit, wait_states, &k->cost, NULL,
             costs);
    if (t->carry_line_cyc)
      line_cycles(t, costs, t->carry_line_cyc);
    k->valid = 1;
  }
  return &k->cost;
}

static void tb_exec(unsigned int vcpu, void *udata) {
  (void)vcpu;
  tb_info *t = udata;
  /* The pipeline's state flows on from a block cut off without a branch
   * (QEMU's choice, which the host's timing moves), so the cost does not
   * depend on where QEMU cut. */
  int jumped_in = t->pc != prev_fallthrough;
  prev_fallthrough = t->fallthrough;
  const mc_block_cost *ck = NULL;
  if (model && prev_straight && t->pc == prev_straight->fallthrough &&
      !t->marker)
    ck = carried(t);
  if (model && !t->ends_flow) {
    prev_straight = t;
    prev_exit = ck ? &t->carry.exit : &t->exit;
  } else
    prev_straight = NULL;
  if (pending) { /* settle the branch that led here */
    if (active) {
      if (t->pc != pending->fallthrough)
        pending->n_taken++;
      else
        pending->n_not_taken++;
      pending->carry_adj += pending_adj[t->pc != pending->fallthrough];
    }
    pending = NULL;
  }
  if (t->marker) {
    if (t->marker == 1) {
      active = 1; /* the marker itself is not counted */
      memset(&mc_dyn_now, 0, sizeof mc_dyn_now);
      last = NULL;
    } else if (active)
      region_end();
    return;
  }
  if (!active)
    return;
  if (ck)
    t->carry_adj += (int64_t)ck->cycles - (int64_t)t->cycles;
  if (jumped_in && t->entry_extra)
    t->n_jumped_in++;
  if (t->has_dyn) { /* memsys.c: the branch that led here, this fetch */
    if (last && last->dyn.br)
      last->extra += mc_dyn_branch(&last->dyn, t->pc);
    if (t->dyn.in_flash)
      t->extra += mc_dyn_fetch(&t->dyn, ck ? t->carry_line_cyc : t->line_cyc);
    t->dyn.penalty = ck && ck->penalty ? ck->penalty : t->penalty;
    last = t;
  }
  if (t->execs++ == 0) {
    if (n_ran == cap_ran) {
      cap_ran = cap_ran ? 2 * cap_ran : 4096;
      ran = realloc(ran, cap_ran * sizeof *ran);
      if (!ran) {
        fprintf(stderr, "merlin_cycles: out of memory\n");
        abort();
      }
    }
    ran[n_ran++] = t;
  }
  if (t->branch == MC_BR_COND) {
    pending = t;
    /* what the branch's outcome costs beyond the static figures */
    pending_adj[0] =
        ck ? (int64_t)ck->not_taken - (int64_t)t->not_taken_cost : 0;
    pending_adj[1] = ck ? (int64_t)ck->taken - (int64_t)t->taken_cost : 0;
  }
}

/* A load, when the board has a data side to model (memsys.c). Registered
 * on load instructions only, for reads and writes: QEMU 7.2 calls no
 * read-only memory callback. */
static void mem_load(unsigned int vcpu, qemu_plugin_meminfo_t info,
                     uint64_t vaddr, void *udata) {
  (void)vcpu;
  (void)info;
  if (active)
    ((tb_info *)udata)->extra += mc_mem_load(vaddr);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  tb_info *t = calloc(1, sizeof *t); /* lives as long as QEMU may run it */
  if (!t) {
    fprintf(stderr, "merlin_cycles: out of memory\n");
    abort();
  }
  size_t n = qemu_plugin_tb_n_insns(tb);
  t->pc = qemu_plugin_tb_vaddr(tb);
  t->n_insns = (uint32_t)n;
  t->func = es_find(&syms, t->pc);
  t->fn_entry = t->func >= 0 && syms.sym[t->func].addr == t->pc;
  if (t->fn_entry) {
    /* CMSIS handler names: an exception was taken (Reset aside) */
    const char *nm = syms.sym[t->func].name;
    size_t l = strlen(nm);
    t->handler = l > 8 && strcmp(nm + l - 8, "_Handler") == 0 &&
                 strcmp(nm, "Reset_Handler") != 0;
  }
  if (t->pc == mark_begin)
    t->marker = 1;
  else if (t->pc == mark_end)
    t->marker = 2;
  t->insns = calloc(n ? n : 1, sizeof *t->insns);
  if (!t->insns) {
    fprintf(stderr, "merlin_cycles: out of memory\n");
    abort();
  }
  uint64_t br_pc = t->pc;
  uint64_t *addr = calloc(n ? n : 1, sizeof *addr);
  uint8_t *costs = calloc(n ? n : 1, 1);
  if (!addr || !costs) {
    fprintf(stderr, "merlin_cycles: out of memory\n");
    abort();
  }
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    const uint8_t *d = qemu_plugin_insn_data(insn);
    uint16_t hw1 = (uint16_t)(d[0] | d[1] << 8);
    size_t sz = mc_thumb_size(hw1, qemu_plugin_insn_size(insn));
    uint16_t hw2 = sz >= 4 ? (uint16_t)(d[2] | d[3] << 8) : 0;
    mc_insn *in = &t->insns[i];
    mc_decode(hw1, hw2, (int)sz, in);
    br_pc = qemu_plugin_insn_vaddr(insn);
    addr[i] = br_pc;
    in->odd = (br_pc & 2) != 0;
    t->fallthrough = br_pc + sz;
    /* loads only, and not from the stack (SP never points to flash) */
    if (mc_mem_loads() && in->load && in->regs.addr != 1u << 13)
      qemu_plugin_register_vcpu_mem_cb(insn, mem_load, QEMU_PLUGIN_CB_NO_REGS,
                                       QEMU_PLUGIN_MEM_RW, t);
  }
  /* The static cost: the block entered afresh (after a branch) */
  mc_state_init(&t->exit);
  mc_block_cost bc;
  mc_block(model, t->insns, n, &t->exit, wait_states, &bc, t->classes, costs);
  if (model && model->fetch_align && n && t->insns[0].size == 4 && (t->pc & 2))
    t->entry_extra = model->fetch_align;
  t->cycles = bc.cycles;
  t->ends_flow = n == 0 || bc.last_branch != MC_BR_NONE;
  if (bc.last_branch == MC_BR_COND) {
    t->branch = MC_BR_COND;
    t->taken_cost = bc.taken;
    t->not_taken_cost = bc.not_taken;
  }
  if (mc_dyn_enabled()) {
    mc_kind k = n ? t->insns[n - 1].kind : K_ALU;
    int last_br = bc.last_branch == MC_BR_NONE   ? MC_DYN_BR_NONE
                  : bc.last_branch == MC_BR_COND ? MC_DYN_BR_COND
                  : (k == K_B || k == K_BL)      ? MC_DYN_BR_DIRECT
                                                 : MC_DYN_BR_INDIRECT;
    t->has_dyn = 1;
    t->penalty = bc.penalty;
    if (mc_dyn_init(&t->dyn, t->pc, t->fallthrough, br_pc, last_br,
                    bc.penalty) != 0) {
      fprintf(stderr, "merlin_cycles: out of memory\n");
      abort();
    }
    t->penalty = t->dyn.penalty;
    if (t->dyn.in_flash && n) {
      t->insn_line = malloc(n);
      t->line_cyc = malloc(t->dyn.n_lines * sizeof *t->line_cyc);
      t->carry_line_cyc = malloc(t->dyn.n_lines * sizeof *t->line_cyc);
      if (!t->insn_line || !t->line_cyc || !t->carry_line_cyc) {
        fprintf(stderr, "merlin_cycles: out of memory\n");
        abort();
      }
      for (size_t i = 0; i < n; i++)
        t->insn_line[i] = (uint8_t)mc_dyn_line(&t->dyn, addr[i]);
      line_cycles(t, costs, t->line_cyc);
    }
  }
  free(addr);
  free(costs);
  qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS, t);
  ct_trace_tb(tb);
}

static void at_exit(qemu_plugin_id_t id, void *p) {
  (void)id;
  (void)p;
  fprintf(out, "end %" PRIu64 "\n", n_regions);
  if (fclose(out) != 0)
    fprintf(stderr, "merlin_cycles: error writing %s\n", out_path);
  ct_trace_exit();
}

static int fail(const char *msg, const char *detail) {
  fprintf(stderr, "merlin_cycles: %s%s%s\n", msg, detail ? ": " : "",
          detail ? detail : "");
  return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info, int argc,
                                           char **argv) {
  (void)info;
  const char *elf = NULL, *model_name = "none";
  char err[256];
  int rc;
  for (int i = 0; i < argc; i++) {
    char *a = argv[i];
    if (strncmp(a, "elf=", 4) == 0)
      elf = a + 4;
    else if (strncmp(a, "out=", 4) == 0)
      out_path = a + 4;
    else if (strncmp(a, "model=", 6) == 0)
      model_name = a + 6;
    else if (strncmp(a, "ws=", 3) == 0) {
      unsigned long ws;
      if (mc_arg_uint(a + 3, 15, &ws) != 0)
        return fail("ws=N: 0 to 15 flash wait states (--flash-ws)", a);
      wait_states = (unsigned)ws;
    } else if (ct_trace_arg(a))
      continue;
    else if ((rc = mc_mem_arg(a, err, sizeof err)) != 0) {
      if (rc < 0)
        return fail(err, NULL);
    } else
      return fail("unknown argument (elf=, out=, model=, ws=, ct=, ic=, dc=, "
                  "miss=, flash=, prefetch=, unified=)",
                  a);
  }
  if (!elf || !out_path)
    return fail("elf=PATH and out=PATH are required", NULL);
  if (strcmp(model_name, "none") != 0) {
    model = mc_model_find(model_name);
    if (!model)
      return fail("unknown model (m0plus, m0plus-smallmul, m3, m4, m33, m55, "
                  "m7, m85, none)",
                  model_name);
  }
  if (mc_mem_finish(model ? model->mispredict : 0, err, sizeof err) != 0)
    return fail(err, NULL);
  if (es_load(elf, &syms, err, sizeof err) != 0)
    return fail("cannot read the image's symbols", err);
  int b = es_lookup(&syms, "mcore_mark_sample_begin");
  int e = es_lookup(&syms, "mcore_mark_sample_end");
  if (b < 0 || e < 0)
    return fail("the image has no mcore_mark_sample_begin/end symbols", elf);
  mark_begin = syms.sym[b].addr;
  mark_end = syms.sym[e].addr;
  if (ct_trace_install(elf, &syms, err, sizeof err) != 0)
    return fail("constant-time trace", err);
  f_insns = calloc(syms.n ? syms.n : 1, sizeof *f_insns);
  f_cycles = calloc(syms.n ? syms.n : 1, sizeof *f_cycles);
  f_calls = calloc(syms.n ? syms.n : 1, sizeof *f_calls);
  touched = calloc(syms.n ? syms.n : 1, sizeof *touched);
  if (!f_insns || !f_cycles || !f_calls || !touched)
    return fail("out of memory", NULL);
  out = fopen(out_path, "w");
  if (!out)
    return fail("cannot create the side file", out_path);
  fprintf(out, "merlin-cycles 1\nmodel %s %s ws=%u\n",
          model ? model->name : "none", model ? model->version : "-",
          wait_states);
  if (mc_dyn_enabled()) {
    char desc[256];
    mc_mem_describe(desc, sizeof desc);
    fprintf(out, "memsys %s\n", desc);
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
  qemu_plugin_register_atexit_cb(id, at_exit, NULL);
  return 0;
}
