/* SPDX-License-Identifier: Apache-2.0 */
#define _POSIX_C_SOURCE 200809L
#include "run/cycles.h"
#include "config/board_keys.h"
#include "config/targets.h"
#include "model/stats.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Largest side file accepted. */
#define MAX_SIDE_BYTES ((size_t)1 << 30)

int mh_cycles_choice_valid(const char *c) {
  /* the plugin's models, per core: config/board_keys.c */
  return strcmp(c, "auto") == 0 || strcmp(c, "off") == 0 ||
         mh_board_model_core(c) != NULL;
}

const char *mh_cycles_model_arg(const char *target_id, const char *choice,
                                const char **why) {
  *why = NULL;
  if (choice && strcmp(choice, "auto") != 0 && strcmp(choice, "off") != 0)
    return choice; /* an explicit model: the user's claim, recorded */
  /* The target's default: its descriptor's cycle_model (boards/<id>.board). */
  const mh_target *t = mh_target_find(target_id);
  if (t && t->cycle_model)
    return t->cycle_model;
  *why = t ? t->cycle_model_why : "no cycle model for this target";
  return "none";
}

char **mh_cycles_argv(char **argv, const char *plugin, const char *image,
                      const char *side, const char *model_arg, unsigned ws,
                      const char *mem_args) {
  size_t n = 0;
  while (argv[n])
    n++;
  mh_sb b = {0};
  /* paths may hold commas (MERLIN_ROOT, MERLIN_QEMU_PLUGIN): doubled */
  mh_sb_qemu_opt(&b, plugin);
  mh_sb_puts(&b, ",elf=");
  mh_sb_qemu_opt(&b, image);
  mh_sb_puts(&b, ",out=");
  mh_sb_qemu_opt(&b, side);
  mh_sb_printf(&b, ",model=%s,ws=%u%s%s", model_arg, ws, mem_args ? "," : "",
               mem_args ? mem_args : "");
  char **a = realloc(argv, (n + 3) * sizeof *a);
  if (!a || b.failed) {
    mh_sb_free(&b);
    mh_argv_free(a ? a : argv);
    return NULL;
  }
  a[n] = strdup("-plugin");
  a[n + 1] = b.s;
  a[n + 2] = NULL;
  if (!a[n]) {
    free(b.s); /* mh_argv_free stops at the NULL in a[n] */
    mh_argv_free(a);
    return NULL;
  }
  return a;
}

/* ---- side file ------------------------------------------------------- */

typedef struct {
  const char *name; /* into the file buffer, NUL-terminated */
  uint64_t insns, cycles, calls;
} fn_rec;

typedef struct {
  uint64_t insns, cycles, cls[MH_CYC_CLASSES], exc;
  uint64_t ic_miss, dc_miss, mispredict; /* "mem" record (--board, M7) */
  uint64_t stall; /* cycles of those events, included in cycles */
  fn_rec *fn;
  size_t n_fn;
} region;

typedef struct {
  char model[64], version[16];
  char memsys[256]; /* the "memsys" record, or empty */
  unsigned ws;
  region *r;
  size_t n;
  fn_rec *fns; /* all fn records, regions point into it */
  size_t n_fns;
} side_file;

static void side_free(side_file *s) {
  free(s->r);
  free(s->fns);
}

static int parse_u64(const char *s, uint64_t *out) {
  if (!isdigit((unsigned char)*s))
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end)
    return -1;
  *out = v;
  return 0;
}

/* The memory-system records: "memsys ..." once after the model, "mem
 * ic_miss=N dc_miss=N mispredict=N stall=N" after each sample. */
static int parse_mem(char **tok, size_t nt, side_file *s) {
  if (strcmp(tok[0], "memsys") == 0) {
    if (s->n != 0 || s->memsys[0] || nt < 2)
      return -1;
    size_t used = 0; /* the tokens again, one space apart */
    for (size_t i = 1; i < nt && used < sizeof s->memsys; i++)
      used += (size_t)snprintf(s->memsys + used, sizeof s->memsys - used,
                               "%s%s", i > 1 ? " " : "", tok[i]);
    return 0;
  }
  if (nt != 5 || s->n == 0 || !s->memsys[0])
    return -1;
  region *r = &s->r[s->n - 1];
  static const char *const keys[] = {
      "ic_miss=", "dc_miss=", "mispredict=", "stall="};
  uint64_t *vals[] = {&r->ic_miss, &r->dc_miss, &r->mispredict, &r->stall};
  for (size_t i = 0; i < 4; i++) {
    size_t kl = strlen(keys[i]);
    if (strncmp(tok[1 + i], keys[i], kl) != 0 ||
        parse_u64(tok[1 + i] + kl, vals[i]) != 0)
      return -1;
  }
  return r->stall > r->cycles ? -1 : 0;
}

/* Split buf (modified) into lines and parse. */
static int side_parse(char *buf, size_t len, side_file *s, char *err,
                      size_t errlen) {
  memset(s, 0, sizeof *s);
  size_t lines = 0;
  for (size_t i = 0; i < len; i++)
    lines += buf[i] == '\n';
  if (len && buf[len - 1] != '\n') {
    snprintf(err, errlen, "the last line is incomplete (file cut short?)");
    return -1;
  }
  s->r = calloc(lines + 1, sizeof *s->r);
  s->fns = calloc(lines + 1, sizeof *s->fns);
  if (!s->r || !s->fns) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  size_t lineno = 0, pos = 0;
  int ended = 0, have_model = 0;
  while (pos < len) {
    char *line = buf + pos;
    char *nl = memchr(line, '\n', len - pos);
    *nl = '\0';
    pos = (size_t)(nl - buf) + 1;
    lineno++;
    char *tok[5 + MH_CYC_CLASSES];
    size_t nt = 0;
    /* strtok_r: merlin run -j parses the side files of parallel jobs on
     * threads of one process, and strtok's state is shared by all. */
    char *save = NULL;
    for (char *p = strtok_r(line, " ", &save);
         p && nt < sizeof tok / sizeof tok[0]; p = strtok_r(NULL, " ", &save))
      tok[nt++] = p;
    if (ended) {
      snprintf(err, errlen, "line %zu: text after the end record", lineno);
      return -1;
    }
    if (lineno == 1) {
      if (nt != 2 || strcmp(tok[0], "merlin-cycles") != 0 ||
          strcmp(tok[1], "1") != 0) {
        snprintf(err, errlen, "line 1: not a merlin-cycles version 1 file");
        return -1;
      }
      continue;
    }
    if (nt == 0)
      goto bad;
    if (strcmp(tok[0], "model") == 0 && nt == 4 && !have_model) {
      uint64_t ws;
      if (strncmp(tok[3], "ws=", 3) != 0 || parse_u64(tok[3] + 3, &ws) != 0 ||
          ws > 100)
        goto bad;
      snprintf(s->model, sizeof s->model, "%s", tok[1]);
      snprintf(s->version, sizeof s->version, "%s", tok[2]);
      s->ws = (unsigned)ws;
      have_model = 1;
    } else if (strcmp(tok[0], "sample") == 0 && have_model &&
               nt == 5 + MH_CYC_CLASSES) {
      uint64_t k;
      region *r = &s->r[s->n];
      if (parse_u64(tok[1], &k) != 0 || k != s->n ||
          strncmp(tok[2], "insns=", 6) != 0 ||
          parse_u64(tok[2] + 6, &r->insns) != 0 ||
          strncmp(tok[3], "cycles=", 7) != 0 ||
          parse_u64(tok[3] + 7, &r->cycles) != 0)
        goto bad;
      for (int c = 0; c < MH_CYC_CLASSES; c++) {
        const char *t = tok[4 + c];
        size_t nl2 = strlen(mh_cyc_class_names[c]);
        if (strncmp(t, mh_cyc_class_names[c], nl2) != 0 || t[nl2] != '=' ||
            parse_u64(t + nl2 + 1, &r->cls[c]) != 0)
          goto bad;
      }
      const char *e = tok[4 + MH_CYC_CLASSES];
      if (strncmp(e, "exc=", 4) != 0 || parse_u64(e + 4, &r->exc) != 0)
        goto bad;
      r->fn = s->fns + s->n_fns;
      s->n++;
    } else if ((strcmp(tok[0], "memsys") == 0 || strcmp(tok[0], "mem") == 0) &&
               have_model) {
      if (parse_mem(tok, nt, s) != 0)
        goto bad;
    } else if (strcmp(tok[0], "fn") == 0 && (nt == 4 || nt == 5) && s->n > 0) {
      fn_rec *f = &s->fns[s->n_fns];
      f->name = tok[1];
      if (parse_u64(tok[2], &f->insns) != 0 ||
          parse_u64(tok[3], &f->cycles) != 0 ||
          (nt == 5 && parse_u64(tok[4], &f->calls) != 0))
        goto bad;
      s->n_fns++;
      s->r[s->n - 1].n_fn++;
    } else if (strcmp(tok[0], "end") == 0 && nt == 2) {
      uint64_t n;
      if (parse_u64(tok[1], &n) != 0 || n != s->n) {
        snprintf(err, errlen,
                 "line %zu: end record says %s samples, the file has %zu",
                 lineno, tok[1], s->n);
        return -1;
      }
      ended = 1;
    } else {
      goto bad;
    }
    continue;
  bad:
    snprintf(err, errlen, "line %zu: garbled record", lineno);
    return -1;
  }
  if (lineno == 0) {
    snprintf(err, errlen, "the file is empty");
    return -1;
  }
  if (!ended) {
    snprintf(err, errlen,
             "no end record: the file is cut short (QEMU killed?)");
    return -1;
  }
  return 0;
}

/* ---- hashing share ----------------------------------------------------- */

/* Hash and XOF cores by backend (docs/cycle-model.md "Hashing share"):
 * case-insensitive substrings of function names, from the manifests' hash_fn
 * lines (src/backends/host_tables.def, which keeps their citations). */
static const char *const hash_fns[] = {
#define MH_BACKEND_HASH_FN(substring) substring,
#include "host_tables.def"
};

int mh_cycles_is_hash_fn(const char *name) {
  char low[256];
  size_t i = 0;
  for (; name[i] && i + 1 < sizeof low; i++)
    low[i] = (char)tolower((unsigned char)name[i]);
  low[i] = '\0';
  for (size_t k = 0; k < sizeof hash_fns / sizeof hash_fns[0]; k++)
    if (strstr(low, hash_fns[k]))
      return 1;
  return 0;
}

/* An implementation folder's hashing as pqm4's hashing benchmark counts
 * it (docs/cycle-model.md "Hashing share"): everything inside the calls of
 * the common fips202, SHA-2 and AES entry points, whichever Keccak is
 * behind them. A checkout's common code (renamed mbe_uc<J>_), Merlin's
 * sponges (mbe_s202c_, mbe_s202t_, mbe_kt2_), a folder's own hashing files
 * (mbe_hash_: cmake/MerlinImpl.cmake), and the pinned PQClean common code
 * by its API's names (a folder's operation calls no other library). */
int mh_cycles_is_folder_hash_fn(const char *name) {
  static const char *const ours[] = {"mbe_s202c_", "mbe_s202t_", "mbe_kt2_",
                                     "mbe_hash_"};
  static const char *const pqclean[] = {"shake128",
                                        "shake256",
                                        "cshake128",
                                        "cshake256",
                                        "sha3_",
                                        "sha224",
                                        "sha256",
                                        "sha384",
                                        "sha512",
                                        "keccak_",
                                        "KeccakF1600_",
                                        "aes128_",
                                        "aes192_",
                                        "aes256_",
                                        "aes_ctr",
                                        "aes_ecb",
                                        "br_aes_ct64_",
                                        "seedexpander",
                                        "crypto_hashblocks_"};
  if (strncmp(name, "mbe_uc", 6) == 0) {
    size_t d = strspn(name + 6, "0123456789");
    if (d && name[6 + d] == '_')
      return 1;
  }
  for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
    if (strncmp(name, ours[i], strlen(ours[i])) == 0)
      return 1;
  for (size_t i = 0; i < sizeof pqclean / sizeof pqclean[0]; i++)
    if (strncmp(name, pqclean[i], strlen(pqclean[i])) == 0)
      return 1;
  return mh_cycles_is_hash_fn(name);
}

/* ---- attach ------------------------------------------------------------ */

typedef struct {
  const char *name;
  double v;
} fn_val;

static int cmp_fn_val(const void *a, const void *b) {
  const fn_val *x = a, *y = b;
  if (x->v != y->v)
    return x->v < y->v ? 1 : -1;
  return strcmp(x->name, y->name);
}

static const region *sort_ctx;
static int cmp_region_idx(const void *a, const void *b) {
  uint64_t x = sort_ctx[*(const size_t *)a].insns;
  uint64_t y = sort_ctx[*(const size_t *)b].insns;
  if (x != y)
    return x < y ? -1 : 1;
  return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static uint64_t cal_fn(const region *cal, const char *name, int cycles) {
  for (size_t i = 0; i < cal->n_fn; i++)
    if (strcmp(cal->fn[i].name, name) == 0)
      return cycles ? cal->fn[i].cycles : cal->fn[i].insns;
  return 0;
}

static int attach_op(mh_op *op, const region *r, const region *cal,
                     int has_model, int mem, char *err, size_t errlen) {
  mh_cyc_op *c = calloc(1, sizeof *c);
  size_t n = op->n_raw;
  size_t *idx = malloc(n * sizeof *idx);
  fn_val *fv = NULL;
  if (!c || !idx)
    goto oom;
  double b = op->batch ? (double)op->batch : 1.0;
  if (has_model) {
    c->est_samples = malloc(n * sizeof *c->est_samples);
    if (!c->est_samples)
      goto oom;
    /* The calibration region runs first, with cold caches and predictor:
     * only its table cycles are the counter reads' share of a sample. */
    uint64_t cal_cycles = cal->cycles - cal->stall;
    for (size_t i = 0; i < n; i++)
      c->est_samples[i] =
          (r[i].cycles > cal_cycles ? (double)(r[i].cycles - cal_cycles)
                                    : 0.0) /
          b;
    c->n_est = n;
    if (mh_stats_compute(c->est_samples, n, &c->est) != 0)
      goto oom;
    c->has_est = 1;
  }
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  sort_ctx = r;
  qsort(idx, n, sizeof *idx, cmp_region_idx);
  const region *med = &r[idx[(n - 1) / 2]];
  for (int k = 0; k < MH_CYC_CLASSES; k++)
    c->classes[k] =
        (med->cls[k] > cal->cls[k] ? (double)(med->cls[k] - cal->cls[k]) : 0) /
        b;
  fv = calloc(med->n_fn + 1, sizeof *fv); /* + the unattributed rest */
  if (!fv)
    goto oom;
  double total = 0, hash = 0, calls[MH_ACC_GROUPS][2] = {{0}};
  int folder = op->backend && strncmp(op->backend, "impl:", 5) == 0;
  for (size_t i = 0; i < med->n_fn; i++) {
    uint64_t v = has_model ? med->fn[i].cycles : med->fn[i].insns;
    uint64_t cv = cal_fn(cal, med->fn[i].name, has_model);
    fv[i].name = med->fn[i].name;
    fv[i].v = v > cv ? (double)(v - cv) : 0;
    total += fv[i].v;
    if (folder ? mh_cycles_is_folder_hash_fn(fv[i].name)
               : mh_cycles_is_hash_fn(fv[i].name))
      hash += fv[i].v;
    int inv = 0, g = mh_cycles_acc_group(fv[i].name, &inv);
    if (g >= 0) { /* wrappers nest: the outermost function's calls count */
      c->acc[g].cycles += fv[i].v / b;
      if ((double)med->fn[i].calls > calls[g][inv])
        calls[g][inv] = (double)med->fn[i].calls;
    }
  }
  for (int g = 0; g < MH_ACC_GROUPS; g++)
    c->acc[g].calls = (calls[g][0] + calls[g][1]) / b;
  c->has_acc = 1;
  if (mem) {
    c->has_mem = 1;
    c->ic_miss = (double)med->ic_miss / b;
    c->dc_miss = (double)med->dc_miss / b;
    c->mispredict = (double)med->mispredict / b;
  }
  /* Shares are of the operation's whole (the sample's region less the
   * calibration's, docs/cycle-model.md "Hashing share"): what no function
   * symbol covers stays in it, shown as MH_CYC_UNATTRIBUTED, never spread
   * over the functions that are known. */
  uint64_t rv = has_model ? med->cycles : med->insns;
  uint64_t cv = has_model ? cal->cycles : cal->insns;
  double whole = rv > cv ? (double)(rv - cv) : 0;
  if (whole < total)
    whole = total; /* calibration functions outside the sample's */
  fv[med->n_fn].name = MH_CYC_UNATTRIBUTED;
  fv[med->n_fn].v = whole - total;
  qsort(fv, med->n_fn + 1, sizeof *fv, cmp_fn_val);
  c->hash_share = whole > 0 ? hash / whole : 0;
  for (size_t i = 0; i <= med->n_fn && c->n_top < MH_CYC_TOP; i++) {
    if (fv[i].v <= 0)
      break;
    c->top[c->n_top].name = strdup(fv[i].name);
    if (!c->top[c->n_top].name)
      goto oom;
    c->top[c->n_top].share = fv[i].v / whole;
    c->n_top++;
  }
  free(fv);
  free(idx);
  mh_cyc_op_free(op->cyc);
  free(op->cyc);
  op->cyc = c;
  return 0;
oom:
  free(fv);
  free(idx);
  mh_cyc_op_free(c);
  free(c);
  snprintf(err, errlen, "out of memory");
  return -1;
}

/* The run's record of the side file's model, or NULL (out of memory). */
static mh_cyc_run *new_cyc_run(const side_file *s, int has_model,
                               const char *why_absent) {
  mh_cyc_run *cr = calloc(1, sizeof *cr);
  if (!cr || !(cr->model = strdup(has_model ? s->model : "none")) ||
      !(cr->version = strdup(s->version)) ||
      (!has_model &&
       !(cr->absent = strdup(why_absent ? why_absent : "no model chosen"))) ||
      (s->memsys[0] && !(cr->memsys = strdup(s->memsys)))) {
    mh_cyc_run_free(cr);
    free(cr);
    return NULL;
  }
  cr->wait_states = s->ws;
  for (int g = 0; g < MH_ACC_GROUPS; g++)
    cr->accel[g] = -1;
  return cr;
}

/* The region of the first timed sample of ops[i] (region 0 is the
 * calibration). */
static size_t sample_index(const mh_run *run, size_t i) {
  size_t at = 1;
  for (size_t k = 0; k < i; k++)
    at += run->ops[k].n_samples ? run->ops[k].n_raw : 0;
  return at;
}

/* The plugin's count of a sample minus the counter's, in instructions. */
static long long sample_offset(const mh_run *run, size_t i, size_t k,
                               const region *r) {
  long long counted =
      (long long)nearbyint((double)run->ops[i].raw[k] * run->ticks_to_unit);
  return (long long)r->insns - counted;
}

int mh_cycles_attach(mh_run *run, const char *side, const char *why_absent,
                     char *err, size_t errlen) {
  char *buf = NULL, msg[512];
  size_t len = 0;
  if (mh_read_file(side, MAX_SIDE_BYTES, &buf, &len, msg, sizeof msg) != 0) {
    snprintf(err, errlen,
             "cycle model: the plugin's side file is missing or unreadable "
             "(%s); run with --cycle-model off to time without it",
             msg);
    return -1;
  }
  side_file s;
  int rc = -1;
  if (side_parse(buf, len, &s, msg, sizeof msg) != 0) {
    snprintf(err, errlen, "cycle model: side file %s: %s", side, msg);
    goto out;
  }
  size_t need = 1;
  for (size_t i = 0; i < run->n_ops; i++)
    need += run->ops[i].n_samples ? run->ops[i].n_raw : 0;
  if (s.n != need) {
    snprintf(err, errlen,
             "cycle model: side file %s has %zu bracketed samples, the "
             "console stream %zu (1 calibration + timed samples): the two "
             "cannot be matched",
             side, s.n, need);
    goto out;
  }
  int has_model = strcmp(s.model, "none") != 0;
  mh_cyc_run *cr = new_cyc_run(&s, has_model, why_absent);
  if (!cr) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  mh_cyc_run_free(run->cyc);
  free(run->cyc);
  run->cyc = cr;
  /* The plugin's count and the counter's differ by one fixed number of
   * instructions (the bracket edges) in every sample without an exception.
   * Each exception taken inside a sample (the timer wrap: one per 2^32
   * ticks, so a sample of billions of instructions takes several) moves
   * the difference by one fixed number more, derived here from the first
   * sample that took one and then required of every other: exact, however
   * many wraps a sample spans. A wrap that lands inside a counter read
   * may move it by up to MH_CYC_WRAP_SLACK once more. */
  cr->wrap_insns = -1;
  int have_off = 0;
  for (size_t i = 0; i < run->n_ops && !have_off; i++) {
    if (!run->ops[i].n_samples)
      continue;
    for (size_t k = 0, j = sample_index(run, i); k < run->ops[i].n_raw;
         k++, j++) {
      if (s.r[j].exc)
        continue;
      cr->offset = sample_offset(run, i, k, &s.r[j]);
      have_off = 1;
      break;
    }
  }
  size_t at = 1;
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_op *op = &run->ops[i];
    if (!op->n_samples)
      continue;
    for (size_t k = 0; k < op->n_raw; k++) {
      const region *r = &s.r[at + k];
      long long off = sample_offset(run, i, k, r);
      if (!have_off) { /* every sample took an exception */
        cr->offset = off;
        have_off = 1;
      }
      long long excess = off - cr->offset;
      if (r->exc && cr->wrap_insns < 0 && excess >= 0 &&
          excess % (long long)r->exc == 0 &&
          excess / (long long)r->exc <= MH_CYC_WRAP_SLACK)
        cr->wrap_insns = excess / (long long)r->exc;
      long long expect = r->exc && cr->wrap_insns >= 0
                             ? (long long)r->exc * cr->wrap_insns
                             : 0;
      if (r->exc && llabs(excess - expect) <= MH_CYC_WRAP_SLACK) {
        cr->wrap_samples++;
      } else if (excess != 0) {
        snprintf(err, errlen,
                 "cycle model: %s %s sample %zu: the plugin counted %" PRIu64
                 " instructions, the counter %" PRIu64
                 ": offset %lld differs from %lld of the samples without an "
                 "exception%s",
                 op->alg, op->op, k, r->insns, r->insns - (uint64_t)off, off,
                 cr->offset,
                 r->exc ? " by more than its exceptions account for" : "");
        goto out;
      }
    }
    if (attach_op(op, &s.r[at], &s.r[0], has_model, s.memsys[0] != 0, err,
                  errlen) != 0)
      goto out;
    at += op->n_raw;
  }
  rc = 0;
out:
  if (rc != 0) {
    for (size_t i = 0; i < run->n_ops; i++) {
      mh_cyc_op_free(run->ops[i].cyc);
      free(run->ops[i].cyc);
      run->ops[i].cyc = NULL;
    }
  }
  side_free(&s);
  free(buf);
  return rc;
}

/* ---- accelerator projection -------------------------------------------- */

/* Cycles per call of an assumed accelerator (docs/cycle-model.md, "What an
 * accelerator would take away"): one round or butterfly per cycle, and the
 * operands moved one 32-bit word per cycle each way. Keccak-f[1600]: 24
 * rounds (FIPS 202) + 50 words in and out = 124. NTT: 8 layers x 128
 * butterflies (FIPS 204; FIPS 203 has 7) + 256 words in and out = 1536.
 * SHA-256: 64 rounds (FIPS 180-4) + 16 words in, 8 out = 88. AES-128: 10
 * rounds (FIPS 197) + 4 words in, 4 out = 18. */
const double mh_accel_default[MH_ACC_GROUPS] = {124, 1536, 88, 18};
const char *const mh_accel_default_source =
    "assumed accelerator: one round (NTT: butterfly) per cycle, operands "
    "moved one 32-bit word per cycle; FIPS 202/203/204/180-4/197 round "
    "counts (docs/cycle-model.md)";

int mh_cycles_acc_group(const char *name, int *inverse) {
  char low[256];
  size_t i = 0;
  for (; name[i] && i + 1 < sizeof low; i++)
    low[i] = (char)tolower((unsigned char)name[i]);
  low[i] = '\0';
  *inverse = 0;
  if (mh_cycles_is_hash_fn(low)) {
    if (strstr(low, "keccak") || strstr(low, "sha3"))
      return MH_ACC_KECCAK;
    if (strstr(low, "sha256") || strstr(low, "sha2small"))
      return MH_ACC_SHA256;
    return -1;
  }
  if (strstr(low, "ntt")) {
    *inverse = strstr(low, "invntt") || strstr(low, "inv_ntt") ||
               strstr(low, "intt") != NULL;
    return MH_ACC_NTT;
  }
  if (strstr(low, "aes") && !strstr(low, "gcm") && !strstr(low, "ccm") &&
      !strstr(low, "key") &&
      (strstr(low, "encrypt") || strstr(low, "decrypt") ||
       strstr(low, "round")))
    return MH_ACC_AES;
  return -1;
}

int mh_accel_parse(const char *spec, double *cost, char *err, size_t errlen) {
  if (strcmp(spec, "none") == 0) {
    for (int g = 0; g < MH_ACC_GROUPS; g++)
      cost[g] = -1;
    return 0;
  }
  const char *p = spec;
  while (*p) {
    size_t len = strcspn(p, ",");
    const char *eq = memchr(p, '=', len);
    int g = 0;
    while (eq && g < MH_ACC_GROUPS &&
           !(strlen(mh_acc_names[g]) == (size_t)(eq - p) &&
             strncmp(p, mh_acc_names[g], (size_t)(eq - p)) == 0))
      g++;
    char *end = NULL;
    double v = eq ? strtod(eq + 1, &end) : -1;
    if (!eq || g == MH_ACC_GROUPS || end != p + len || eq + 1 == end ||
        !(v >= 0) || v > 1e9) {
      snprintf(err, errlen,
               "--accel: '%.*s' is not NAME=CYCLES (names: keccak, ntt, "
               "sha256, aes; cycles per call, 0 to 1e9)",
               (int)len, p);
      return -1;
    }
    cost[g] = v;
    p += len;
    p += *p == ',';
  }
  return 0;
}
