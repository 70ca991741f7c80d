/* SPDX-License-Identifier: Apache-2.0 */
#include "run/ct.h"

#include "run/ct_trace.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const KINDS[] = {"accepted", "known"};
static const char *const METHODS[] = {"instruction-count", "valgrind", "path",
                                      "address", "variable-latency"};
#define N_METHODS (sizeof METHODS / sizeof METHODS[0])
/* The plugin's variable-latency candidates (tools/qemu-plugin/ct_trace.c). */
static const char *const INSNS[] = {"sdiv",  "udiv",  "smull",
                                    "umull", "smlal", "umlal"};
#define N_INSNS (sizeof INSNS / sizeof INSNS[0])

/* Which candidates take operand-dependent time on which core, and the
 * source (docs/constant-time.md, "Variable-latency instructions"). The
 * ARMv6-M cores have no divide instruction, and their 32-bit MULS takes 1
 * or 32 cycles by implementation, never by operand (Cortex-M0+ TRM r0p1,
 * DDI 0484C, Table 3.1): nothing to list there. */
static const struct {
  const char *core, *insns, *source;
} VL_CORES[] = {
    {"cortex-m3", " sdiv udiv smull umull smlal umlal ",
     "Cortex-M3 TRM r2p1 (DDI 0337I) Table 3.1: SDIV/UDIV 2 to 12 cycles, "
     "SMULL/UMULL 3 to 5, SMLAL/UMLAL 4 to 7, by early termination on the "
     "operands' values"},
    {"cortex-m4", " sdiv udiv ",
     "Cortex-M4 TRM r0p1 (DDI 0439B) Table 3-1: SDIV/UDIV 2 to 12 cycles, "
     "early termination on the operands' values"},
    {"cortex-m7", " sdiv udiv ",
     "assumed: the Cortex-M7 TRM publishes no instruction timing table; "
     "its divider is taken to terminate early like the M3's and M4's"},
    {"cortex-m33", " sdiv udiv ",
     "assumed: the Cortex-M33 TRM publishes no instruction timing table; "
     "its divider is taken to terminate early like the M3's and M4's"},
    {"cortex-m55", " sdiv udiv ",
     "assumed: the Cortex-M55 TRM publishes no instruction timing table; "
     "its divider is taken to terminate early like the M3's and M4's"},
    {"cortex-m85", " sdiv udiv ",
     "assumed: the Cortex-M85 Software Optimization Guide gives the divide "
     "a latency, not its operand dependence; its divider is taken to "
     "terminate early like the M3's and M4's"},
};

const char *mh_ct_vl_source(const char *core, const char *insn) {
  char word[16];
  if (!core || !insn || strlen(insn) + 3 > sizeof word)
    return NULL;
  snprintf(word, sizeof word, " %s ", insn);
  for (size_t i = 0; i < sizeof VL_CORES / sizeof VL_CORES[0]; i++)
    if (strcmp(core, VL_CORES[i].core) == 0)
      return strstr(VL_CORES[i].insns, word) ? VL_CORES[i].source : NULL;
  return NULL;
}

void mh_ct_list_free(mh_ct_list *l) {
  for (size_t i = 0; l && i < l->n; i++) {
    mh_ct_entry *e = &l->e[i];
    free(e->alg);
    free(e->backend);
    free(e->op);
    free(e->method);
    free(e->kind);
    free(e->reason);
    free(e->core);
    free(e->fn);
    free(e->insn);
  }
  if (l) {
    free(l->e);
    l->e = NULL;
    l->n = 0;
  }
}

static int one_of(const char *s, size_t n, const char *const *set,
                  size_t nset) {
  for (size_t i = 0; i < nset; i++)
    if (strlen(set[i]) == n && strncmp(s, set[i], n) == 0)
      return 1;
  return 0;
}

/* Every comma-separated item of list is one of set. */
static int all_of(const char *list, const char *const *set, size_t nset) {
  for (const char *p = list;;) {
    size_t n = strcspn(p, ",");
    if (!one_of(p, n, set, nset))
      return 0;
    if (!p[n])
      return 1;
    p += n + 1;
  }
}

/* A qualifier token (n bytes at t) into x: 1 taken, 0 not a qualifier,
 * -1 a bad one (message in err). */
static int qualifier(mh_ct_entry *x, const char *t, size_t n, char *err,
                     size_t errlen) {
  static const char *const keys[] = {"core=", "fn=", "insn="};
  char **slot[] = {&x->core, &x->fn, &x->insn};
  for (size_t k = 0; k < 3; k++) {
    size_t kl = strlen(keys[k]);
    if (n < kl || strncmp(t, keys[k], kl) != 0)
      continue;
    if (n == kl || *slot[k]) {
      snprintf(err, errlen, "'%.*s': an empty or repeated qualifier", (int)n,
               t);
      return -1;
    }
    if (k == 2 && !one_of(t + kl, n - kl, INSNS, N_INSNS)) {
      snprintf(err, errlen,
               "'%.*s': insn is one of sdiv, udiv, smull, umull, smlal, umlal",
               (int)n, t);
      return -1;
    }
    *slot[k] = strndup(t + kl, n - kl);
    return *slot[k] ? 1 : -1;
  }
  return 0;
}

/* One non-comment line (text, modified) into x. 0, or -1 with err (no
 * file or line: the caller adds them). */
static int parse_entry(char *text, mh_ct_entry *x, char *err, size_t errlen) {
  char *f[5], *save = NULL;
  for (int k = 0; k < 5; k++) {
    f[k] = strtok_r(k ? NULL : text, " \t", &save);
    if (!f[k]) {
      snprintf(err, errlen, "expected ALG BACKEND OP METHOD KIND REASON");
      return -1;
    }
  }
  if (!all_of(f[3], METHODS, N_METHODS)) {
    snprintf(err, errlen,
             "method '%s'; valid: instruction-count, valgrind, path, address, "
             "variable-latency (several joined by commas)",
             f[3]);
    return -1;
  }
  if (!one_of(f[4], strlen(f[4]), KINDS, 2)) {
    snprintf(err, errlen, "kind '%s'; valid: accepted, known", f[4]);
    return -1;
  }
  char *rest = save;
  for (;;) {
    while (rest && (*rest == ' ' || *rest == '\t'))
      rest++;
    if (!rest || !*rest)
      break;
    size_t n = strcspn(rest, " \t");
    int q = qualifier(x, rest, n, err, errlen);
    if (q < 0)
      return -1;
    if (q == 0)
      break;
    rest += n;
  }
  if (!rest || !*rest || *rest == '\r') {
    snprintf(err, errlen, "a reason is required");
    return -1;
  }
  rest[strcspn(rest, "\r")] = '\0';
  char **dst[] = {&x->alg, &x->backend, &x->op, &x->method, &x->kind};
  for (int k = 0; k < 5; k++)
    if (!(*dst[k] = strdup(f[k])))
      return -1;
  return (x->reason = strdup(rest)) ? 0 : -1;
}

int mh_ct_list_parse(const char *file, const char *buf, size_t len,
                     mh_ct_list *l, char *err, size_t errlen) {
  memset(l, 0, sizeof *l);
  size_t line = 0;
  const char *p = buf, *end = buf + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;
    char text[1024], why[256];
    size_t n = (size_t)(e - p);
    line++;
    if (n >= sizeof text) {
      snprintf(err, errlen, "%s:%zu: line too long", file, line);
      goto fail;
    }
    memcpy(text, p, n);
    text[n] = '\0';
    p = nl ? nl + 1 : end;
    char *s = text;
    while (*s == ' ' || *s == '\t')
      s++;
    if (*s == '\0' || *s == '#' || *s == '\r')
      continue;
    mh_ct_entry *g = realloc(l->e, (l->n + 1) * sizeof *g);
    if (!g) {
      snprintf(err, errlen, "out of memory");
      goto fail;
    }
    l->e = g;
    mh_ct_entry *x = &l->e[l->n++];
    memset(x, 0, sizeof *x);
    x->line = line;
    snprintf(why, sizeof why, "out of memory");
    if (parse_entry(s, x, why, sizeof why) != 0) {
      snprintf(err, errlen, "%s:%zu: %s", file, line, why);
      goto fail;
    }
  }
  return 0;
fail:
  mh_ct_list_free(l);
  return -1;
}

int mh_ct_list_load(const char *root, mh_ct_list *l, char *err, size_t errlen) {
  memset(l, 0, sizeof *l);
  char *path = mh_path_join(root, "constant-time/expected-findings.txt");
  char *buf = NULL;
  size_t len = 0;
  if (!path) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int rc = mh_read_file(path, 1 << 20, &buf, &len, err, errlen);
  if (rc == 0)
    rc = mh_ct_list_parse("constant-time/expected-findings.txt", buf, len, l,
                          err, errlen);
  free(buf);
  free(path);
  return rc;
}

static int matches(const char *pat, const char *s) {
  if (!pat || strcmp(pat, "*") == 0)
    return 1;
  size_t n = strlen(pat);
  if (n > 1 && pat[n - 1] == '*') /* fn=prefix* */
    return s && strncmp(pat, s, n - 1) == 0;
  return s && strcmp(pat, s) == 0;
}

/* What a finding is, to look it up in the list. */
typedef struct {
  const char *method, *core, *fn, *insn;
} ct_key;

static mh_ct_entry *lookup(mh_ct_list *l, const mh_op *op, const ct_key *k) {
  const char *const want[1] = {k->method};
  for (size_t i = 0; l && i < l->n; i++) {
    mh_ct_entry *e = &l->e[i];
    int has = 0;
    for (const char *p = e->method; !has;) { /* METHODS: a comma list */
      size_t n = strcspn(p, ",");
      has = one_of(p, n, want, 1);
      if (!p[n])
        break;
      p += n + 1;
    }
    if (has && matches(e->alg, op->alg) && matches(e->backend, op->backend) &&
        matches(e->op, op->op) && matches(e->core, k->core) &&
        matches(e->fn, k->fn) && matches(e->insn, k->insn))
      return e;
  }
  return NULL;
}

/* One operation's verdict as it is made. */
typedef struct {
  mh_sb d, m;
  int any_bad, any_ok, unlisted, methods;
  mh_ct_list *l;
  const mh_op *op;
  const char *core;
} judge;

static void method(judge *j, const char *name) {
  mh_sb_puts(&j->m, j->methods++ ? "," : "");
  mh_sb_puts(&j->m, name);
}

/* A finding of method k with text: classified against the list; returns
 * the entry that took it, or NULL (new). */
static const mh_ct_entry *finding(judge *j, const ct_key *k, const char *text) {
  mh_ct_entry *e = lookup(j->l, j->op, k);
  if (j->d.len)
    mh_sb_puts(&j->d, "; ");
  mh_sb_printf(&j->d, "%s: %s", k->method, text);
  if (!e) {
    mh_sb_puts(&j->d, " (new: not in constant-time/expected-findings.txt)");
    j->any_bad = 1;
    j->unlisted = 1;
    return NULL;
  }
  e->seen = 1;
  if (strcmp(e->kind, "accepted") == 0) {
    mh_sb_printf(&j->d, " (accepted: %s)", e->reason);
    j->any_ok = 1;
  } else {
    mh_sb_printf(&j->d, " (known: %s)", e->reason);
    j->any_bad = 1;
  }
  return e;
}

/* One instruction count as the samples get it (host/run/run.c): readings
 * rounded to whole instructions, the counter overhead subtracted. */
static double exact_count(uint64_t raw, uint64_t overhead, double t2u) {
  return nearbyint((double)raw * t2u) - nearbyint((double)overhead * t2u);
}

/* The spread of the exact instruction counts: the plugin's when it traced
 * the runs (exception handlers left out, so a timer interrupt that lands in
 * one run and not another is no finding), else the counter's. */
static void judge_counts(judge *j, const mh_run *run, const mh_op *op) {
  const mh_ct_trace *t = op->ct_trace;
  int traced = t && t->runs >= 2;
  double lo = traced ? (double)t->insns_min : INFINITY;
  double hi = traced ? (double)t->insns_max : -INFINITY;
  char text[256];
  for (uint32_t i = 0; !traced && i < op->ct_n; i++) {
    double v =
        exact_count(op->ct_raw[i], run->overhead_ticks, run->ticks_to_unit);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  method(j, "instruction-count");
  if (hi != lo) { /* traced: where the paths part is where it comes from */
    ct_key k = {"instruction-count", j->core, traced ? t->path_fn : NULL, NULL};
    snprintf(text, sizeof text,
             "instruction counts vary over %u fresh secrets: %.0f to %.0f "
             "(spread %.0f)",
             traced ? t->runs : op->ct_n, lo, hi, hi - lo);
    finding(j, &k, text);
  }
}

/* The variable-latency sites of the trace on this core, one finding per
 * (function, instruction); each site records how the list took it. */
static void judge_vl(judge *j, mh_ct_trace *t) {
  for (size_t i = 0; i < t->n_vl; i++)
    t->vl[i].variable = mh_ct_vl_source(j->core, t->vl[i].insn) != NULL;
  for (size_t i = 0; i < t->n_vl; i++) {
    mh_ct_vl *v = &t->vl[i];
    int seen = 0;
    for (size_t k = 0; k < i && !seen; k++)
      seen = t->vl[k].variable && strcmp(t->vl[k].function, v->function) == 0 &&
             strcmp(t->vl[k].insn, v->insn) == 0;
    if (!v->variable || seen)
      continue;
    size_t sites = 0;
    uint64_t lo = 0, hi = 0;
    for (size_t k = i; k < t->n_vl; k++)
      if (strcmp(t->vl[k].function, v->function) == 0 &&
          strcmp(t->vl[k].insn, v->insn) == 0) {
        sites++;
        lo += t->vl[k].count_min;
        hi += t->vl[k].count_max;
      }
    char text[512], runs[64];
    if (lo == hi)
      snprintf(runs, sizeof runs, "%" PRIu64, lo);
    else
      snprintf(runs, sizeof runs, "%" PRIu64 " to %" PRIu64, lo, hi);
    snprintf(text, sizeof text,
             "variable-latency instruction in a secret path, check its "
             "operands: %s in %s (%zu site%s, %s executions per run)",
             v->insn, v->function, sites, sites == 1 ? "" : "s", runs);
    ct_key key = {"variable-latency", j->core, v->function, v->insn};
    const mh_ct_entry *e = finding(j, &key, text);
    const char *listed = e ? (e->kind[0] == 'a' ? "accepted" : "known") : "new";
    for (size_t k = i; k < t->n_vl; k++)
      if (strcmp(t->vl[k].function, v->function) == 0 &&
          strcmp(t->vl[k].insn, v->insn) == 0)
        t->vl[k].listed = listed;
  }
}

/* Path, addresses and variable-latency instructions (the plugin's trace). */
static void judge_trace(judge *j, mh_ct_trace *t) {
  method(j, "path");
  method(j, "address");
  method(j, "variable-latency");
  mh_sb text = {0};
  if (!t->path_equal) {
    ct_key k = {"path", j->core, t->path_fn, NULL};
    mh_sb_printf(&text, "the executed path differs between fresh secrets: %s",
                 t->path_div ? t->path_div : "not located");
    finding(j, &k, text.failed ? "out of memory" : text.s);
  }
  if (t->addr_equal == 0) {
    ct_key k = {"address", j->core, t->addr_fn, NULL};
    text.len = 0;
    mh_sb_printf(&text,
                 "a load or store address differs between fresh secrets: %s",
                 t->addr_div ? t->addr_div : "not located");
    finding(j, &k, text.failed ? "out of memory" : text.s);
  }
  mh_sb_free(&text);
  judge_vl(j, t);
  if (!t->layout_equal) {
    mh_sb_puts(&j->d, j->d.len ? "; " : "");
    mh_sb_puts(&j->d, "note: the stack or the first heap block was not at "
                      "the same address in every run, so an address "
                      "difference may come from the allocator");
  }
}

int mh_ct_judge(const mh_run *run, mh_op *op, mh_ct_list *l) {
  if (!op->has_ct)
    return 0;
  judge j = {.l = l, .op = op, .core = mh_run_prov(run, "core")};
  char text[256];
  int exact = run->icount_shift >= 0 && op->ct_n >= 2 && op->ct_fresh;
  if (exact)
    judge_counts(&j, run, op);
  if (exact && op->ct_trace && op->ct_trace->runs >= 2)
    judge_trace(&j, op->ct_trace);
  if (op->ct_vg >= 0) {
    method(&j, "valgrind");
    if (op->ct_vg > 0) {
      ct_key k = {"valgrind", j.core, NULL, NULL};
      snprintf(text, sizeof text,
               "memcheck reported %ld uses of secret data in branches or "
               "memory indices over %u runs",
               op->ct_vg, op->ct_n);
      finding(&j, &k, text);
    }
  }
  /* What was not applied, and why. */
  const char *why = NULL;
  if (run->icount_shift >= 0 && op->ct_n < 2)
    why = "instruction counts: the run budget left fewer than 2 secrets";
  else if (run->icount_shift >= 0 && !op->ct_fresh)
    why = "instruction counts: one key only (no key generation here)";
  else if (run->icount_shift < 0 && op->ct_vg < 0 && op->ct_asan)
    why = "memcheck cannot run on an ASan image (make test-sanitize)";
  else if (run->icount_shift < 0 && op->ct_vg < 0)
    why = "this target's timing is not exact and memcheck did not run "
          "(merlin run --ct)";
  if (why) {
    if (j.d.len)
      mh_sb_puts(&j.d, "; ");
    mh_sb_printf(&j.d, "not checked: %s", why);
  }
  op->ct_status = j.any_bad   ? MH_CT_FINDING
                  : j.any_ok  ? MH_CT_EXPECTED
                  : j.methods ? MH_CT_NONE
                              : MH_CT_UNCHECKED;
  op->ct_listed = !j.unlisted;
  free(op->ct_methods);
  free(op->ct_detail);
  op->ct_methods = j.m.s ? j.m.s : strdup("");
  op->ct_detail = j.d.s ? j.d.s : strdup("");
  op->has_ct_verdict = 1;
  if (j.m.failed || j.d.failed || !op->ct_methods || !op->ct_detail)
    return -1;
  return 0;
}
