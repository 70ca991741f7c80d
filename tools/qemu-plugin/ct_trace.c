/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The constant-time trace (ct_trace.h; docs/constant-time.md gives the
 * method, its limits and the side file format).
 *
 * Path. Translation blocks are QEMU's, and QEMU may cut a block short
 * (under -icount, before an interrupt, at a page end), so a run's path is
 * hashed as its sequence of executed branches: every block that follows a
 * block ending in a branch instruction (taken or not), or that does not
 * start where the previous one ended, adds (the previous block's last
 * instruction, where this one starts). A cut block ends in no branch and is
 * followed by its own continuation: it adds nothing.
 * With the instruction count, that sequence fixes every executed address.
 * Memory. Every load and store adds (its instruction's address with bit 0
 * set for a store, the data address). Exceptions. A timer interrupt may
 * land in one run and not another: from the entry of a *_Handler function
 * to its exception return (the return taken at call depth 0) nothing is
 * hashed or counted, and the interrupted sequence continues unbroken.
 * The first run of a check is the reference: its events are kept (up to
 * CT_KEEP of each kind) and every later run is compared with them as it
 * runs, so the first place it departs is named exactly.
 */
#include "ct_trace.h"
#include "cycle_model.h"

#include "image/elffile.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CT_KEEP ((size_t)1 << 22) /* reference events kept, per kind */
#define CT_MAX_RUNS 64            /* per check (the runner takes 16) */

enum { M_NONE, M_BEGIN, M_END, M_DONE };
enum { LAST_OTHER, LAST_BRANCH, LAST_CALL, LAST_RET };

/* Instructions whose latency may depend on their operands on some core
 * (the host decides per core: host/run/ct.c, docs/constant-time.md). */
enum { VL_SDIV, VL_UDIV, VL_SMULL, VL_UMULL, VL_SMLAL, VL_UMLAL, VL_N };
static const char *const vl_names[VL_N] = {"sdiv",  "udiv",  "smull",
                                           "umull", "smlal", "umlal"};

typedef struct {
  uint32_t pc, ft; /* first instruction; address after the last */
  uint32_t lpc;    /* the last instruction */
  uint32_t n_insns;
  uint8_t marker;  /* M_* */
  uint8_t handler; /* starts an exception handler */
  uint8_t last;    /* LAST_*: how its last instruction leaves */
  uint32_t n_vl;
  uint32_t *vl; /* indexes into sites */
} ct_tb;

typedef struct {
  uint32_t pc;
  uint8_t kind;   /* VL_* */
  uint32_t check; /* last check that ran it, +1 */
  uint64_t count[CT_MAX_RUNS];
} ct_site;

typedef struct {
  uint32_t a, b;
} ct_ev;

/* One kind of event (path or memory) of the running check. */
typedef struct {
  ct_ev *ref; /* the reference run's events, up to CT_KEEP */
  size_t n_ref, cap;
  int ref_full;     /* the reference had more than CT_KEEP */
  uint64_t n, hash; /* this run */
  int div;          /* this run departed from the reference */
  uint64_t div_at;
  ct_ev ref_ev, got_ev;
  int ref_end, got_end; /* the reference / this run had ended there */
  int path_first;       /* memory: the path had departed before */
} ct_stream;

static const char *out_path;
static FILE *out;
static const es_table *fns;
static es_table objs;
static uint32_t mark[4]; /* marker addresses by M_* */
static uint32_t stack_lo, stack_hi, heap_lo, heap_hi;

static ct_site *sites;
static size_t n_sites, cap_sites;
static uint32_t *touched; /* sites run in the current check */
static size_t n_touched, cap_touched;

static int in_check, in_run, in_handler, pend_kind;
static unsigned depth;
static uint32_t n_checks, run_idx, n_runs, last_ft, last_pc;
static int last_branch; /* the previous block ended in a branch */
static uint32_t pend_lo,
    pend_hi; /* the handler block that called or returned */
static uint64_t insns, excs;
static uint32_t sp_probe, heap_probe;
static ct_stream path, mem;

int ct_trace_arg(const char *arg) {
  if (strncmp(arg, "ct=", 3) != 0)
    return 0;
  out_path = arg + 3;
  return 1;
}

static void *grow(void *p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return p;
  size_t c = *cap ? *cap : 256;
  while (c < need)
    c *= 2;
  void *q = realloc(p, c * size);
  if (!q) {
    fprintf(stderr, "merlin_cycles: ct trace: out of memory\n");
    abort();
  }
  *cap = c;
  return q;
}

/* ---- events ---------------------------------------------------------- */

static uint64_t mix(uint64_t h, ct_ev e) {
  uint64_t x = ((uint64_t)e.a << 32 | e.b) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  return (h ^ x) * 0x100000001B3ull;
}

static void stream_run_start(ct_stream *s) {
  s->n = 0;
  s->hash = 0xCBF29CE484222325ull;
  s->div = s->ref_end = s->got_end = s->path_first = 0;
  if (run_idx == 0) {
    s->n_ref = 0;
    s->ref_full = 0;
  }
}

static void departed(ct_stream *s, ct_ev got, int got_end) {
  s->div = 1;
  s->div_at = s->n;
  s->got_ev = got;
  s->got_end = got_end;
  s->ref_end = s->n >= s->n_ref;
  if (!s->ref_end)
    s->ref_ev = s->ref[s->n];
  s->path_first = path.div;
}

static void event(ct_stream *s, ct_ev e) {
  if (run_idx == 0) {
    if (s->n_ref < CT_KEEP) {
      s->ref = grow(s->ref, &s->cap, s->n_ref + 1, sizeof *s->ref);
      s->ref[s->n_ref++] = e;
    } else {
      s->ref_full = 1;
    }
  } else if (!s->div) {
    if (s->n < s->n_ref) {
      if (s->ref[s->n].a != e.a || s->ref[s->n].b != e.b)
        departed(s, e, 0);
    } else if (!s->ref_full) {
      departed(s, e, 0); /* the reference had ended here */
    }
  }
  s->hash = mix(s->hash, e);
  s->n++;
}

static void stream_run_end(ct_stream *s) {
  if (run_idx > 0 && !s->div && s->n < s->n_ref) {
    ct_ev none = {0, 0};
    departed(s, none, 1); /* this run ended early */
  }
}

/* ---- output ---------------------------------------------------------- */

/* "0x1234@fn+0x10" for code, "0x20001000@obj+0x4" or @stack/@heap for
 * data. */
static void put_addr(uint32_t a, int code) {
  fprintf(out, "0x%08" PRIx32, a);
  const es_table *t = code ? fns : &objs;
  int32_t i = es_find(t, a);
  if (i >= 0)
    fprintf(out, "@%s+0x%" PRIx32, t->sym[i].name, a - t->sym[i].addr);
  else if (!code && a >= stack_lo && a < stack_hi)
    fprintf(out, "@stack-0x%" PRIx32, stack_hi - a);
  else if (!code && a >= heap_lo && a < heap_hi)
    fprintf(out, "@heap+0x%" PRIx32, a - heap_lo);
  else
    fputs("@?", out);
}

static void put_event(const char *key, ct_ev e, int end, int is_mem) {
  fprintf(out, " %s=", key);
  if (end) {
    fputs("end", out);
    return;
  }
  if (is_mem) {
    put_addr(e.a & ~1u, 1);
    fputs(e.a & 1u ? ":w:" : ":r:", out);
    put_addr(e.b, 0);
  } else {
    put_addr(e.a, 1);
    fputc('>', out);
    put_addr(e.b, 1);
  }
}

static void put_div(const char *kind, const ct_stream *s) {
  fprintf(out, "%s %" PRIu32 " at=%" PRIu64, kind, run_idx, s->div_at);
  put_event("ref", s->ref_ev, s->ref_end, s == &mem);
  put_event("got", s->got_ev, s->got_end, s == &mem);
  if (s == &mem)
    fprintf(out, " path_first=%d", s->path_first);
  fputc('\n', out);
}

static void run_end(void) {
  stream_run_end(&path);
  stream_run_end(&mem);
  fprintf(out,
          "run %" PRIu32 " insns=%" PRIu64 " exc=%" PRIu64 " path=%016" PRIx64
          "/%" PRIu64 " mem=%016" PRIx64 "/%" PRIu64 " sp=0x%08" PRIx32
          " heap=0x%08" PRIx32 " kept=%d\n",
          run_idx, insns, excs, path.hash, path.n, mem.hash, mem.n, sp_probe,
          heap_probe, !path.ref_full && !mem.ref_full);
  if (path.div)
    put_div("pathdiv", &path);
  if (mem.div)
    put_div("memdiv", &mem);
  in_run = 0;
  n_runs++;
}

static void check_done(void) {
  for (size_t i = 0; i < n_touched; i++) {
    ct_site *s = &sites[touched[i]];
    fputs("vl ", out);
    put_addr(s->pc, 1);
    fprintf(out, " %s", vl_names[s->kind]);
    for (uint32_t r = 0; r < n_runs && r < CT_MAX_RUNS; r++)
      fprintf(out, " %" PRIu64, s->count[r]);
    fputc('\n', out);
  }
  fprintf(out, "done %" PRIu32 " runs=%" PRIu32 "\n", n_checks, n_runs);
  n_checks++;
  in_check = 0;
  n_runs = 0;
  n_touched = 0;
}

/* ---- run time -------------------------------------------------------- */

static void at_marker(const ct_tb *t) {
  if (t->marker == M_BEGIN) {
    if (!in_check) {
      in_check = 1;
      n_runs = 0;
      fprintf(out, "check %" PRIu32 "\n", n_checks);
    }
    in_run = 1;
    run_idx = n_runs;
    in_handler = 0;
    pend_kind = LAST_OTHER;
    depth = 0;
    insns = excs = 0;
    sp_probe = heap_probe = 0;
    last_ft = t->ft;
    last_pc = t->lpc;
    last_branch = 1;
    stream_run_start(&path);
    stream_run_start(&mem);
  } else if (t->marker == M_END && in_run) {
    run_end();
  } else if (t->marker == M_DONE) {
    if (!in_check)
      fprintf(out, "check %" PRIu32 "\n", n_checks);
    check_done();
  }
}

/* Whether t belongs to an exception handler (from a *_Handler entry to its
 * exception return, the return taken at call depth 0). A call or return
 * counts once the next block shows it completed: under -icount QEMU stops a
 * block at a device access (the handler's timer register), re-runs that
 * access alone, then the rest, and the first try's callback has already
 * fired; a block that starts inside the previous one is such a re-run. */
static int in_handler_code(const ct_tb *t) {
  if (in_handler && pend_kind != LAST_OTHER) {
    if (t->pc < pend_lo || t->pc >= pend_hi) {
      if (pend_kind == LAST_CALL)
        depth++;
      else if (depth)
        depth--;
      else
        in_handler = 0; /* the exception return */
    }
    pend_kind = LAST_OTHER;
  }
  if (t->handler) { /* exception entry: like a call when nested */
    depth = in_handler ? depth + 1 : 0;
    in_handler = 1;
    excs++;
  }
  if (!in_handler)
    return 0;
  if (t->last == LAST_CALL || t->last == LAST_RET) {
    pend_kind = t->last;
    pend_lo = t->pc;
    pend_hi = t->ft;
  }
  return 1;
}

static void ct_exec(unsigned int vcpu, void *udata) {
  (void)vcpu;
  const ct_tb *t = udata;
  if (t->marker) {
    at_marker(t);
    return;
  }
  if (!in_run || in_handler_code(t))
    return;
  if (last_branch || t->pc != last_ft) {
    ct_ev e = {last_pc, t->pc};
    event(&path, e);
  }
  last_ft = t->ft;
  last_pc = t->lpc;
  last_branch = t->last != LAST_OTHER;
  insns += t->n_insns;
  for (uint32_t k = 0; k < t->n_vl && run_idx < CT_MAX_RUNS; k++) {
    ct_site *s = &sites[t->vl[k]];
    if (s->check != n_checks + 1) {
      s->check = n_checks + 1;
      memset(s->count, 0, sizeof s->count);
      touched = grow(touched, &cap_touched, n_touched + 1, sizeof *touched);
      touched[n_touched++] = t->vl[k];
    }
    s->count[run_idx]++;
  }
}

static void ct_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
                   uint64_t vaddr, void *udata) {
  (void)vcpu;
  if (!in_run || in_handler)
    return;
  uint32_t a = (uint32_t)vaddr;
  ct_ev e = {(uint32_t)(uintptr_t)udata |
                 (qemu_plugin_mem_is_store(info) ? 1u : 0u),
             a};
  if (!sp_probe && a >= stack_lo && a < stack_hi)
    sp_probe = a;
  if (!heap_probe && a >= heap_lo && a < heap_hi)
    heap_probe = a;
  event(&mem, e);
}

/* ---- translation ----------------------------------------------------- */

/* The variable-latency candidate an instruction is (VL_*), or -1: the long
 * multiply and divide group of Thumb-2 (Armv7-M ARM A5.3.17, encoding
 * 1111 1011 1 op1 Rn | RdLo RdHi op2 Rm). */
static int vl_kind(uint16_t h1, uint16_t h2, size_t size) {
  if (size != 4 || (h1 & 0xFF80) != 0xFB80)
    return -1;
  unsigned op1 = (h1 >> 4) & 7, op2 = (h2 >> 4) & 0xF;
  static const int8_t mul[8] = {VL_SMULL, -1, VL_UMULL, -1,
                                VL_SMLAL, -1, VL_UMLAL, -1};
  if (op2 == 0xF && (op1 == 1 || op1 == 3))
    return op1 == 1 ? VL_SDIV : VL_UDIV;
  return op2 == 0 ? mul[op1] : -1;
}

/* How an instruction leaves: a call (BL, BLX), a return (BX LR, POP/LDM
 * with the PC, LDR PC from the stack), another instruction that may write
 * the PC (Armv7-M ARM A5.2, A5.3), or none of these. */
static int last_kind(uint16_t h1, uint16_t h2, size_t size) {
  if (size == 2) {
    if ((h1 & 0xFF87) == 0x4780)
      return LAST_CALL; /* BLX Rm */
    if (h1 == 0x4770 || (h1 & 0xFF00) == 0xBD00)
      return LAST_RET; /* BX LR, POP {..., PC} */
    if ((h1 & 0xFF00) == 0x4700 || (h1 & 0xF000) == 0xD000 ||
        (h1 & 0xF800) == 0xE000 || (h1 & 0xF500) == 0xB100 ||
        ((h1 & 0xFC00) == 0x4400 && ((h1 >> 8) & 3) != 1 &&
         ((h1 & 7) | ((h1 >> 4) & 8)) == 15))
      return LAST_BRANCH; /* BX, B<cond>, B, CBZ/CBNZ, ADD/MOV PC */
    return LAST_OTHER;
  }
  if ((h1 & 0xF800) == 0xF000 && (h2 & 0xC000) == 0xC000)
    return LAST_CALL; /* BL, BLX (immediate) */
  if ((h1 == 0xE8BD && (h2 & 0x8000)) || (h1 == 0xF85D && h2 == 0xFB04))
    return LAST_RET; /* POP.W {..., PC}, LDR PC, [SP], #4 */
  if ((h1 & 0xF800) == 0xF000 && (h2 & 0x8000) &&
      ((h2 & 0x5000) == 0x1000 ||
       ((h2 & 0x5000) == 0 && ((h1 >> 6) & 0xE) != 0xE)))
    return LAST_BRANCH;                             /* B.W, B<cond>.W */
  if (((h1 & 0xFE50) == 0xE810 && (h2 & 0x8000)) || /* LDM with PC */
      ((h1 & 0xFFF0) == 0xE8D0 && (h2 & 0xFFE0) == 0xF000) || /* TBB/TBH */
      ((h1 & 0xFF70) == 0xF850 && (h2 >> 12) == 15) ||        /* LDR PC */
      ((h1 & 0xFFF0) == 0xF8D0 && (h2 >> 12) == 15))
    return LAST_BRANCH;
  return LAST_OTHER;
}

static uint32_t site_of(uint32_t pc, int kind) {
  for (size_t i = 0; i < n_sites; i++) /* few: divides, long multiplies */
    if (sites[i].pc == pc)
      return (uint32_t)i;
  sites = grow(sites, &cap_sites, n_sites + 1, sizeof *sites);
  memset(&sites[n_sites], 0, sizeof *sites);
  sites[n_sites].pc = pc;
  sites[n_sites].kind = (uint8_t)kind;
  return (uint32_t)n_sites++;
}

void ct_trace_tb(struct qemu_plugin_tb *tb) {
  if (!out)
    return;
  ct_tb *t = calloc(1, sizeof *t); /* lives as long as QEMU may run it */
  if (!t) {
    fprintf(stderr, "merlin_cycles: ct trace: out of memory\n");
    abort();
  }
  size_t n = qemu_plugin_tb_n_insns(tb);
  t->pc = (uint32_t)qemu_plugin_tb_vaddr(tb);
  t->n_insns = (uint32_t)n;
  for (int m = M_BEGIN; m <= M_DONE; m++)
    if (t->pc == mark[m])
      t->marker = (uint8_t)m;
  int32_t f = es_find(fns, t->pc);
  if (f >= 0 && fns->sym[f].addr == t->pc) {
    const char *nm = fns->sym[f].name;
    size_t l = strlen(nm);
    t->handler = l > 8 && strcmp(nm + l - 8, "_Handler") == 0 &&
                 strcmp(nm, "Reset_Handler") != 0;
  }
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    const uint8_t *d = qemu_plugin_insn_data(insn);
    uint32_t pc = (uint32_t)qemu_plugin_insn_vaddr(insn);
    uint16_t h1 = (uint16_t)(d[0] | d[1] << 8);
    size_t sz = mc_thumb_size(h1, qemu_plugin_insn_size(insn));
    uint16_t h2 = sz >= 4 ? (uint16_t)(d[2] | d[3] << 8) : 0;
    t->ft = pc + (uint32_t)sz;
    t->lpc = pc;
    if (i + 1 == n)
      t->last = (uint8_t)last_kind(h1, h2, sz);
    int k = vl_kind(h1, h2, sz);
    if (k >= 0) {
      t->vl = realloc(t->vl, (t->n_vl + 1) * sizeof *t->vl);
      if (!t->vl)
        abort();
      t->vl[t->n_vl++] = site_of(pc, k);
    }
    qemu_plugin_register_vcpu_mem_cb(insn, ct_mem, QEMU_PLUGIN_CB_NO_REGS,
                                     QEMU_PLUGIN_MEM_RW, (void *)(uintptr_t)pc);
  }
  qemu_plugin_register_vcpu_tb_exec_cb(tb, ct_exec, QEMU_PLUGIN_CB_NO_REGS, t);
}

/* ---- install --------------------------------------------------------- */

static int symbol32(const mh_elf *e, const char *name, uint32_t *v, char *err,
                    size_t errlen) {
  uint64_t x;
  if (mh_elf_symbol(e, name, &x, NULL) != 0) {
    snprintf(err, errlen, "ct trace: the image has no symbol %s", name);
    return -1;
  }
  *v = (uint32_t)x;
  return 0;
}

int ct_trace_install(const char *elf, const es_table *syms, char *err,
                     size_t errlen) {
  if (!out_path)
    return 0;
  static const char *const names[4] = {
      NULL, "mcore_mark_ct_begin", "mcore_mark_ct_end", "mcore_mark_ct_done"};
  fns = syms;
  for (int m = M_BEGIN; m <= M_DONE; m++) {
    int i = es_lookup(syms, names[m]);
    if (i < 0) {
      snprintf(err, errlen, "ct trace: the image has no %s", names[m]);
      return -1;
    }
    mark[m] = syms->sym[i].addr;
  }
  mh_elf e;
  if (mh_elf_open(elf, &e, err, errlen) != 0)
    return -1;
  int rc = symbol32(&e, "__stack_limit", &stack_lo, err, errlen) ||
           symbol32(&e, "__stack_top", &stack_hi, err, errlen) ||
           symbol32(&e, "__heap_start", &heap_lo, err, errlen) ||
           symbol32(&e, "__heap_end", &heap_hi, err, errlen);
  mh_elf_free(&e);
  if (rc || es_load_objects(elf, &objs, err, errlen) != 0)
    return -1;
  out = fopen(out_path, "w");
  if (!out) {
    snprintf(err, errlen, "ct trace: cannot create %s", out_path);
    return -1;
  }
  fprintf(out, "merlin-ct 1\n");
  return 0;
}

void ct_trace_exit(void) {
  if (!out)
    return;
  fprintf(out, "end %" PRIu32 "\n", n_checks);
  if (fclose(out) != 0)
    fprintf(stderr, "merlin_cycles: error writing %s\n", out_path);
  out = NULL;
}
