/* SPDX-License-Identifier: Apache-2.0 */
#define _POSIX_C_SOURCE 200809L
#include "run/ct_trace.h"

#include "config/targets.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE_BYTES ((size_t)1 << 30)
#define MAX_RUNS 64 /* the plugin's CT_MAX_RUNS */
#define MAX_TOK (4 + MAX_RUNS)

char **mh_ct_trace_argv(char **argv, const char *side) {
  size_t n = 0;
  while (argv[n])
    n++;
  mh_sb b = {0};
  mh_sb_printf(&b, "%s,ct=", n ? argv[n - 1] : "");
  mh_sb_qemu_opt(&b, side); /* commas doubled, as in mh_cycles_argv */
  if (b.failed || !n) {
    mh_sb_free(&b);
    mh_argv_free(argv);
    return NULL;
  }
  free(argv[n - 1]);
  argv[n - 1] = b.s;
  return argv;
}

/* ---- side file ------------------------------------------------------- */

typedef struct {
  uint64_t insns, exc, path, n_path, mem, n_mem;
  uint32_t sp, heap;
  int kept;
  int has_memdiv, mem_path_first;
} run_rec;

typedef struct {
  mh_ct_trace *t;
  size_t n, cap;
  run_rec runs[MAX_RUNS];
  uint32_t n_runs;
  int in_check;
} parser;

static int u64_of(const char *s, int base, uint64_t *out) {
  if (!isxdigit((unsigned char)*s))
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, base);
  if (errno || *end)
    return -1;
  *out = v;
  return 0;
}

/* "key=value" with a decimal value. */
static int kv_u64(const char *tok, const char *key, uint64_t *out) {
  size_t l = strlen(key);
  if (strncmp(tok, key, l) != 0 || tok[l] != '=')
    return -1;
  return u64_of(tok + l + 1, 10, out);
}

/* "0x%08x" (the address), then "@symbol" or "@?". */
static int addr_of(const char *tok, uint32_t *addr, const char **sym) {
  uint64_t v;
  char buf[16];
  const char *at = strchr(tok, '@');
  if (!at || strncmp(tok, "0x", 2) != 0 || at - tok > 12)
    return -1;
  memcpy(buf, tok + 2, (size_t)(at - tok - 2));
  buf[at - tok - 2] = '\0';
  if (u64_of(buf, 16, &v) != 0 || v > UINT32_MAX)
    return -1;
  *addr = (uint32_t)v;
  *sym = at + 1;
  return 0;
}

/* "0x0800123c (fe_mul+0x20)" from a side-file address token of length n. */
static void put_addr(mh_sb *b, const char *tok, size_t n) {
  const char *at = memchr(tok, '@', n);
  size_t a = at ? (size_t)(at - tok) : n;
  mh_sb_printf(b, "%.*s", (int)a, tok);
  if (at && !(n - a == 2 && at[1] == '?'))
    mh_sb_printf(b, " (%.*s)", (int)(n - a - 1), at + 1);
}

/* The function name of an address token, malloc'd ("?" when none). */
static char *fn_of(const char *tok) {
  const char *at = strchr(tok, '@');
  if (!at)
    return strdup("?");
  at++;
  size_t n = strcspn(at, "+:>");
  return strndup(at, n);
}

static int check_start(parser *p) {
  if (p->n == p->cap) {
    size_t c = p->cap ? 2 * p->cap : 64;
    mh_ct_trace *t = realloc(p->t, c * sizeof *t);
    if (!t)
      return -1;
    p->t = t;
    p->cap = c;
  }
  memset(&p->t[p->n], 0, sizeof p->t[p->n]);
  p->n++;
  p->n_runs = 0;
  p->in_check = 1;
  return 0;
}

/* run I insns=N exc=E path=H/N mem=H/N sp=0x.. heap=0x.. kept=K */
static int run_line(parser *p, char **tok, size_t nt) {
  uint64_t i, v;
  run_rec *r = &p->runs[p->n_runs];
  if (nt != 9 || p->n_runs >= MAX_RUNS || u64_of(tok[1], 10, &i) != 0 ||
      i != p->n_runs || kv_u64(tok[2], "insns", &r->insns) != 0 ||
      kv_u64(tok[3], "exc", &r->exc) != 0 || kv_u64(tok[8], "kept", &v) != 0)
    return -1;
  r->has_memdiv = r->mem_path_first = 0;
  r->kept = v != 0;
  const char *keys[2] = {"path=", "mem="};
  uint64_t *h[2] = {&r->path, &r->mem}, *n[2] = {&r->n_path, &r->n_mem};
  for (int k = 0; k < 2; k++) {
    const char *t = tok[4 + k];
    size_t l = strlen(keys[k]);
    char hex[24];
    const char *slash = strchr(t, '/');
    if (strncmp(t, keys[k], l) != 0 || !slash ||
        (size_t)(slash - t) - l >= sizeof hex)
      return -1;
    memcpy(hex, t + l, (size_t)(slash - t) - l);
    hex[slash - t - l] = '\0';
    if (u64_of(hex, 16, h[k]) != 0 || u64_of(slash + 1, 10, n[k]) != 0)
      return -1;
  }
  if (strncmp(tok[6], "sp=0x", 5) != 0 || u64_of(tok[6] + 5, 16, &v) != 0)
    return -1;
  r->sp = (uint32_t)v;
  if (strncmp(tok[7], "heap=0x", 7) != 0 || u64_of(tok[7] + 7, 16, &v) != 0)
    return -1;
  r->heap = (uint32_t)v;
  p->n_runs++;
  return 0;
}

/* One side of a departure: "ref=A>B" (path), "ref=PC:r:ADDR" (memory) or
 * "ref=end". */
static int put_side(mh_sb *b, const char *tok, const char *key, int mem,
                    uint64_t secret) {
  size_t l = strlen(key);
  if (strncmp(tok, key, l) != 0 || tok[l] != '=')
    return -1;
  const char *v = tok + l + 1;
  mh_sb_printf(b, "secret %" PRIu64 " ", secret);
  if (strcmp(v, "end") == 0) {
    mh_sb_puts(b, "had ended");
    return 0;
  }
  const char *sep = mem ? strchr(v, ':') : strchr(v, '>');
  if (!sep || (mem && (!(sep[1] == 'r' || sep[1] == 'w') || sep[2] != ':')))
    return -1;
  if (mem) {
    put_addr(b, v, (size_t)(sep - v));
    mh_sb_puts(b, sep[1] == 'r' ? " read " : " wrote ");
    put_addr(b, sep + 3, strlen(sep + 3));
  } else {
    mh_sb_puts(b, "jumped from ");
    put_addr(b, v, (size_t)(sep - v));
    mh_sb_puts(b, " to ");
    put_addr(b, sep + 1, strlen(sep + 1));
  }
  return 0;
}

/* pathdiv I at=N ref=.. got=..  |  memdiv I at=N ref=.. got=.. path_first=F */
static int div_line(parser *p, char **tok, size_t nt, int mem) {
  uint64_t i, at, first = 0;
  if (nt != (mem ? 6u : 5u) || u64_of(tok[1], 10, &i) != 0 || i == 0 ||
      i + 1 != p->n_runs || kv_u64(tok[2], "at", &at) != 0 ||
      (mem && kv_u64(tok[5], "path_first", &first) != 0))
    return -1;
  mh_ct_trace *t = &p->t[p->n - 1];
  run_rec *r = &p->runs[i];
  if (mem) {
    r->has_memdiv = 1;
    r->mem_path_first = first != 0;
  }
  char **text = mem ? &t->addr_div : &t->path_div;
  char **fn = mem ? &t->addr_fn : &t->path_fn;
  if (*text || (mem && first))
    return 0; /* the first departing run is named; memory after the path
                 parted is a consequence, not a finding of its own */
  mh_sb b = {0};
  mh_sb_printf(&b,
               "secret %" PRIu64 " departs from secret 1 at %s %" PRIu64 ": ",
               i + 1, mem ? "load/store" : "control transfer", at + 1);
  int bad = put_side(&b, tok[3], "ref", mem, 1);
  mh_sb_puts(&b, ", ");
  if (bad || put_side(&b, tok[4], "got", mem, i + 1) != 0) {
    mh_sb_free(&b);
    return -1;
  }
  if (b.failed)
    return -2;
  *text = b.s;
  /* The function where the runs part: the reference side's, unless it had
   * ended there. */
  const char *side = strcmp(tok[3] + 4, "end") == 0 ? tok[4] + 4 : tok[3] + 4;
  *fn = fn_of(side);
  return *fn ? 0 : -2;
}

/* vl 0xADDR@fn+0xoff insn c0 c1 ... */
static int vl_line(parser *p, char **tok, size_t nt) {
  uint32_t addr;
  const char *sym;
  mh_ct_trace *t = &p->t[p->n - 1];
  if (nt != 3 + (size_t)p->n_runs || addr_of(tok[1], &addr, &sym) != 0)
    return -1;
  mh_ct_vl v = {.addr = addr, .count_min = UINT64_MAX};
  for (uint32_t r = 0; r < p->n_runs; r++) {
    uint64_t c;
    if (u64_of(tok[3 + r], 10, &c) != 0)
      return -1;
    v.count_min = c < v.count_min ? c : v.count_min;
    v.count_max = c > v.count_max ? c : v.count_max;
  }
  mh_ct_vl *g = realloc(t->vl, (t->n_vl + 1) * sizeof *g);
  if (!g)
    return -2;
  t->vl = g;
  v.function = fn_of(tok[1]);
  v.insn = strdup(tok[2]);
  t->vl[t->n_vl++] = v;
  return v.function && v.insn ? 0 : -2;
}

/* The verdict fields of a finished check from its runs. */
static void check_end(parser *p) {
  mh_ct_trace *t = &p->t[p->n - 1];
  const run_rec *r0 = &p->runs[0];
  t->runs = p->n_runs;
  t->path_equal = t->layout_equal = 1;
  t->addr_equal = 1;
  t->insns_min = p->n_runs ? UINT64_MAX : 0;
  int addr_before = 0, addr_after = 0;
  for (uint32_t i = 0; i < p->n_runs; i++) {
    const run_rec *r = &p->runs[i];
    int path_same = r->path == r0->path && r->n_path == r0->n_path;
    int mem_same = r->mem == r0->mem && r->n_mem == r0->n_mem;
    t->path_equal &= path_same;
    t->layout_equal &= r->sp == r0->sp && r->heap == r0->heap;
    t->insns_min = r->insns < t->insns_min ? r->insns : t->insns_min;
    t->insns_max = r->insns > t->insns_max ? r->insns : t->insns_max;
    t->exc += r->exc;
    if (mem_same)
      continue;
    if (r->has_memdiv ? !r->mem_path_first : path_same)
      addr_before = 1; /* a departure while the paths were still one */
    else
      addr_after = 1;
  }
  t->addr_equal = addr_before ? 0 : addr_after ? -1 : 1;
  if (!t->path_equal && !t->path_div)
    t->path_div = strdup("a later secret's path differs from secret 1's "
                         "beyond the control transfers the plugin keeps to "
                         "locate it");
  if (t->addr_equal == 0 && !t->addr_div)
    t->addr_div = strdup("a later secret's addresses differ from secret 1's "
                         "beyond the accesses the plugin keeps to locate it");
  p->in_check = 0;
}

static int parse_line(parser *p, char **tok, size_t nt) {
  const char *k = tok[0];
  uint64_t v;
  if (strcmp(k, "check") == 0 && nt == 2 && !p->in_check) {
    if (u64_of(tok[1], 10, &v) != 0 || v != p->n)
      return -1;
    return check_start(p) == 0 ? 0 : -2;
  }
  if (!p->in_check)
    return -1;
  if (strcmp(k, "run") == 0)
    return run_line(p, tok, nt);
  if (strcmp(k, "pathdiv") == 0 || strcmp(k, "memdiv") == 0)
    return div_line(p, tok, nt, k[0] == 'm');
  if (strcmp(k, "vl") == 0)
    return vl_line(p, tok, nt);
  if (strcmp(k, "done") == 0 && nt == 3) {
    if (u64_of(tok[1], 10, &v) != 0 || v + 1 != p->n ||
        kv_u64(tok[2], "runs", &v) != 0 || v != p->n_runs)
      return -1;
    check_end(p);
    return 0;
  }
  return -1;
}

int mh_ct_trace_parse(char *buf, size_t len, mh_ct_trace **out, size_t *n,
                      char *err, size_t errlen) {
  parser p;
  memset(&p, 0, sizeof p);
  *out = NULL;
  *n = 0;
  if (len && buf[len - 1] != '\n') {
    snprintf(err, errlen, "the last line is incomplete (file cut short?)");
    return -1;
  }
  size_t lineno = 0, pos = 0;
  int ended = 0, rc = 0;
  while (pos < len && rc == 0) {
    char *line = buf + pos, *nl = memchr(line, '\n', len - pos);
    *nl = '\0';
    pos = (size_t)(nl - buf) + 1;
    lineno++;
    char *tok[MAX_TOK], *save = NULL;
    size_t nt = 0;
    for (char *s = strtok_r(line, " ", &save); s && nt < MAX_TOK;
         s = strtok_r(NULL, " ", &save))
      tok[nt++] = s;
    uint64_t v;
    if (lineno == 1)
      rc = nt == 2 && strcmp(tok[0], "merlin-ct") == 0 &&
                   strcmp(tok[1], "1") == 0
               ? 0
               : -3;
    else if (ended || nt == 0)
      rc = -1;
    else if (strcmp(tok[0], "end") == 0 && nt == 2 && !p.in_check)
      rc = u64_of(tok[1], 10, &v) == 0 && v == p.n ? (ended = 1, 0) : -4;
    else
      rc = parse_line(&p, tok, nt);
  }
  if (rc == 0 && !ended)
    snprintf(err, errlen,
             lineno ? "no end record: the file is cut short "
                      "(QEMU killed?)"
                    : "the file is empty");
  else if (rc == -2)
    snprintf(err, errlen, "out of memory");
  else if (rc == -3)
    snprintf(err, errlen, "line 1: not a merlin-ct version 1 file");
  else if (rc == -4)
    snprintf(err, errlen,
             "line %zu: the end record's count is not the "
             "number of checks (%zu)",
             lineno, p.n);
  else if (rc != 0)
    snprintf(err, errlen, "line %zu: garbled record", lineno);
  if (rc != 0 || !ended) {
    for (size_t i = 0; i < p.n; i++)
      mh_ct_trace_free(&p.t[i]);
    free(p.t);
    return -1;
  }
  *out = p.t;
  *n = p.n;
  return 0;
}

int mh_ct_trace_attach(mh_run *run, const char *side, char *err,
                       size_t errlen) {
  char *buf = NULL, e2[256];
  size_t len = 0, n = 0, k = 0;
  mh_ct_trace *t = NULL;
  if (mh_read_file(side, MAX_SIDE_BYTES, &buf, &len, e2, sizeof e2) != 0) {
    snprintf(err, errlen,
             "constant-time trace: the plugin's side file is missing or "
             "unreadable (%s)",
             e2);
    return -1;
  }
  int rc = mh_ct_trace_parse(buf, len, &t, &n, e2, sizeof e2);
  free(buf);
  if (rc != 0) {
    snprintf(err, errlen, "constant-time trace %s: %s", side, e2);
    return -1;
  }
  for (size_t i = 0; i < run->n_ops && rc == 0; i++) {
    mh_op *op = &run->ops[i];
    if (!op->has_ct)
      continue;
    if (k >= n || t[k].runs != op->ct_n) {
      snprintf(err, errlen,
               "constant-time trace %s: %s %s (%s): %u runs in the side "
               "file, %u in the console stream",
               side, op->alg, op->op, op->backend, k < n ? t[k].runs : 0,
               op->ct_n);
      rc = -1;
      break;
    }
    mh_ct_trace *c = malloc(sizeof *c);
    if (!c) {
      snprintf(err, errlen, "out of memory");
      rc = -1;
      break;
    }
    *c = t[k];
    memset(&t[k++], 0, sizeof t[0]);
    mh_ct_trace_free(op->ct_trace);
    free(op->ct_trace);
    op->ct_trace = c;
  }
  if (rc == 0 && k != n) {
    snprintf(err, errlen,
             "constant-time trace %s: %zu checks, the console stream %zu", side,
             n, k);
    rc = -1;
  }
  for (size_t i = 0; i < n; i++)
    mh_ct_trace_free(&t[i]);
  free(t);
  return rc;
}
