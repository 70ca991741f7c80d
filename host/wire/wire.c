/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The wire reader (docs/wire-format.md). It never trusts the stream: a run is
 * accepted only when every line checks out, and the first bad line is
 * reported with its number, because a silently wrong benchmark result is
 * worse than none. The input may be anything (it is fuzzed), so nothing here
 * treats the buffer as a C string and every allocation is owned by the run or
 * the parser and freed on every exit path.
 */
#include "wire/wire.h"

#include "config/profile.h"
#include "crc32.h"
#include "model/workflow.h"
#include "wire/wire_def.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sanity caps: far above anything a real image prints, low enough that a
 * hostile stream cannot make the host allocate without bound per line. */
#define WIRE_MAX_LINE 65536u
#define WIRE_MAX_OPS 100000u
#define WIRE_MAX_PER_SAMPLES 16u

/* One key=value of the current line, pointing into the input. */
typedef struct {
  const char *key;
  size_t klen;
  const char *val;
  size_t vlen;
} wfield;

/* What the reader tracks per op beyond the model. */
typedef struct {
  size_t line;       /* line of its op record */
  size_t opend_line; /* 0 until its opend record */
  size_t raw_cap;
  int has_plan;
} op_extra;

typedef struct {
  mh_run *run;
  mh_wire_error *err;
  size_t line;           /* current line, 1-based */
  uint64_t seq;          /* sequence number of the previous wire line */
  size_t prev_wire_line; /* its line */
  size_t begin_line, end_line, overhead_line;
  size_t ops_closed_line; /* first per-op record: no op records after it */
  op_extra *ox;           /* parallel to run->ops */
  size_t ops_cap, ox_cap;
  size_t *ids; /* open addressing on op id: op index + 1, 0 when empty */
  size_t ids_cap;
  int rec;                              /* MH_WIRE_R_* of the current line */
  const wfield *fv[MH_WIRE_MAX_FIELDS]; /* its fields by wire.def slot */
  wfield *f, *sorted;
  size_t nf, f_cap, sorted_cap;
  char *scratch; /* decoded numeric values */
  size_t scratch_cap;
  char ex[2][64]; /* printable excerpts for messages */
} wparser;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int
fail(wparser *p, const char *fmt, ...) {
  char *m = p->err->msg;
  size_t cap = sizeof p->err->msg;
  int k = snprintf(m, cap, "line %zu: ", p->line);
  if (k < 0 || (size_t)k >= cap)
    k = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m + k, cap - (size_t)k, fmt, ap);
  va_end(ap);
  p->err->line = p->line;
  return -1;
}

static int oom(wparser *p) { return fail(p, "out of memory"); }

/* Input bytes quoted in a message, made printable and short. */
static const char *ex(wparser *p, int slot, const char *s, size_t n) {
  char *o = p->ex[slot];
  size_t max = sizeof p->ex[slot] - 4, k = 0;
  for (size_t i = 0; i < n && k < max; i++) {
    unsigned char c = (unsigned char)s[i];
    o[k++] = (c >= 0x20 && c <= 0x7e) ? (char)c : '?';
  }
  if (n > max) {
    memcpy(o + k, "...", 3);
    k += 3;
  }
  o[k] = '\0';
  return o;
}

static const char *fkey(wparser *p, int slot, const wfield *f) {
  return ex(p, slot, f->key, f->klen);
}

/* Upper case only, as docs/wire-format.md says and src/wire/wire_out.c
 * writes: a lower-case escape is not something the image printed. */
static int hexval(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Decodes into out (room for len + 1 bytes). A %00 is refused: the model
 * holds C strings, which would silently cut such a value short. */
static int pct_decode(const char *s, size_t len, char *out, size_t *out_len) {
  size_t k = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] != '%') {
      out[k++] = s[i];
      continue;
    }
    if (len - i < 3)
      return -1;
    int hi = hexval(s[i + 1]), lo = hexval(s[i + 2]);
    if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
      return -1;
    out[k++] = (char)(hi * 16 + lo);
    i += 2;
  }
  out[k] = '\0';
  if (out_len)
    *out_len = k;
  return 0;
}

char *mh_wire_decode(const char *s, size_t len) {
  if (!s && len)
    return NULL;
  if (len == SIZE_MAX)
    return NULL;
  char *out = malloc(len + 1);
  if (!out)
    return NULL;
  if (pct_decode(s ? s : "", len, out, NULL) != 0) {
    free(out);
    return NULL;
  }
  return out;
}

/* Strict unsigned decimal: digits only (no sign, space or base prefix that
 * strtoull would accept), non-empty, no overflow, at most max. Returns 0,
 * -1 when not a number, -2 when out of range. */
static int parse_dec(const char *s, size_t n, uint64_t max, uint64_t *out) {
  if (n == 0)
    return -1;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9')
      return -1;
    unsigned d = (unsigned)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10u)
      return -2;
    v = v * 10u + d;
  }
  if (v > max)
    return -2;
  *out = v;
  return 0;
}

static int grow(void **ptr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return 0;
  size_t nc = *cap ? *cap : 8;
  while (nc < need) {
    if (nc > SIZE_MAX / 2)
      return -1;
    nc *= 2;
  }
  if (nc > SIZE_MAX / elem)
    return -1;
  void *np = realloc(*ptr, nc * elem);
  if (!np)
    return -1;
  *ptr = np;
  *cap = nc;
  return 0;
}

/* Decodes a field into the parser's scratch buffer (valid until the next
 * call); for values that are parsed further rather than kept. */
static int field_scratch(wparser *p, const wfield *f, const char *type,
                         size_t *out_len) {
  if (grow((void **)&p->scratch, &p->scratch_cap, f->vlen + 1, 1) != 0)
    return oom(p);
  if (pct_decode(f->val, f->vlen, p->scratch, out_len) != 0)
    return fail(p, "bad percent escape in field '%s' of %s record: '%s'",
                fkey(p, 0, f), type, ex(p, 1, f->val, f->vlen));
  return 0;
}

static int field_u64(wparser *p, const wfield *f, const char *type,
                     uint64_t max, uint64_t *out) {
  size_t n;
  if (field_scratch(p, f, type, &n) != 0)
    return -1;
  int rc = parse_dec(p->scratch, n, max, out);
  if (rc == -1)
    return fail(p, "field '%s' of %s record is not a decimal number: '%s'",
                fkey(p, 0, f), type, ex(p, 1, p->scratch, n));
  if (rc == -2)
    return fail(
        p, "field '%s' of %s record is out of range: '%s' (max %" PRIu64 ")",
        fkey(p, 0, f), type, ex(p, 1, p->scratch, n), max);
  return 0;
}

/* Well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or code points
 * past U+10FFFF), as JSON strings must be. */
static int utf8_ok(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned c = s[i];
    size_t len = c < 0x80                 ? 1
                 : c >= 0xc2 && c <= 0xdf ? 2
                 : c >= 0xe0 && c <= 0xef ? 3
                 : c >= 0xf0 && c <= 0xf4 ? 4
                                          : 0;
    if (!len || n - i < len)
      return 0;
    for (size_t k = 1; k < len; k++)
      if ((s[i + k] & 0xc0) != 0x80)
        return 0;
    if ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] > 0x9f) ||
        (c == 0xf0 && s[i + 1] < 0x90) || (c == 0xf4 && s[i + 1] > 0x8f))
      return 0;
    i += len;
  }
  return 1;
}

/* A value kept as text: it goes into results.json, so it must be UTF-8. */
static int field_str(wparser *p, const wfield *f, const char *type,
                     char **out) {
  char *s = malloc(f->vlen + 1);
  if (!s)
    return oom(p);
  size_t n;
  if (pct_decode(f->val, f->vlen, s, &n) != 0) {
    free(s);
    return fail(p, "bad percent escape in field '%s' of %s record: '%s'",
                fkey(p, 0, f), type, ex(p, 1, f->val, f->vlen));
  }
  if (!utf8_ok((const unsigned char *)s, n)) {
    free(s);
    return fail(p, "field '%s' of %s record is not valid UTF-8: '%s'",
                fkey(p, 0, f), type, ex(p, 1, f->val, f->vlen));
  }
  *out = s;
  return 0;
}

static int field_is(const wfield *f, const char *s) {
  size_t n = strlen(s);
  return f->vlen == n && memcmp(f->val, s, n) == 0;
}

static int key_is(const wfield *f, const char *s) {
  size_t n = strlen(s);
  return f->klen == n && memcmp(f->key, s, n) == 0;
}

static const wfield *find_field(const wparser *p, const char *key) {
  for (size_t i = 0; i < p->nf; i++)
    if (key_is(&p->f[i], key))
      return &p->f[i];
  return NULL;
}

/* The fields of the current line against wire.def: each declared field
 * goes to its slot of p->fv, a closed record may carry nothing else (a
 * writer's typo is caught here rather than turning into a silently missing
 * value), and every required field must be there. */
static int check_fields(wparser *p) {
  const mh_wire_record *r = &mh_wire_records[p->rec];
  const mh_wire_field *d = &mh_wire_fields[r->first];
  size_t n = mh_wire_nfields(p->rec);
  for (size_t k = 0; k < n; k++)
    p->fv[k] = NULL;
  for (size_t i = 0; i < p->nf; i++) {
    size_t k = 0;
    while (k < n && !key_is(&p->f[i], d[k].key))
      k++;
    if (k < n)
      p->fv[k] = &p->f[i];
    else if (r->open != MWIRE_OPEN)
      return fail(p, "unknown field '%s' in %s record", fkey(p, 0, &p->f[i]),
                  r->name);
  }
  for (size_t k = 0; k < n; k++)
    if (d[k].required == MWIRE_REQ && !p->fv[k])
      return fail(p, "%s record is missing required field '%s'", r->name,
                  d[k].key);
  return 0;
}

/* ---- op lookup by id ------------------------------------------------- */

static size_t id_slot(int id, size_t cap) {
  uint32_t h = (uint32_t)id * 2654435761u; /* Knuth's multiplicative hash */
  return (size_t)h & (cap - 1);
}

static size_t find_op(const wparser *p, int id) {
  if (!p->ids_cap)
    return SIZE_MAX;
  for (size_t s = id_slot(id, p->ids_cap);; s = (s + 1) & (p->ids_cap - 1)) {
    size_t v = p->ids[s];
    if (!v)
      return SIZE_MAX;
    if (p->run->ops[v - 1].id == id)
      return v - 1;
  }
}

static int ids_add(wparser *p, size_t idx) {
  /* Keep the table at most half full so probes stay short. */
  if ((idx + 1) * 2 > p->ids_cap) {
    size_t nc = p->ids_cap ? p->ids_cap * 2 : 64;
    size_t *t = calloc(nc, sizeof *t);
    if (!t)
      return -1;
    free(p->ids);
    p->ids = t;
    p->ids_cap = nc;
    for (size_t i = 0; i < idx; i++) {
      size_t s = id_slot(p->run->ops[i].id, nc);
      while (t[s])
        s = (s + 1) & (nc - 1);
      t[s] = i + 1;
    }
  }
  size_t s = id_slot(p->run->ops[idx].id, p->ids_cap);
  while (p->ids[s])
    s = (s + 1) & (p->ids_cap - 1);
  p->ids[s] = idx + 1;
  return 0;
}

static int parse_id(wparser *p, const wfield *f, const char *type, int *id) {
  uint64_t v;
  if (field_u64(p, f, type, (uint64_t)INT_MAX, &v) != 0)
    return -1;
  *id = (int)v;
  return 0;
}

/* The op a per-op record names. Such a record also ends the op announcements
 * and may not follow the op's opend. */
static int op_for(wparser *p, const wfield *idf, const char *type,
                  size_t *idx) {
  int id;
  if (parse_id(p, idf, type, &id) != 0)
    return -1;
  size_t i = find_op(p, id);
  if (i == SIZE_MAX)
    return fail(p,
                "%s record for id %d, which was not announced by an op "
                "record",
                type, id);
  if (p->ox[i].opend_line)
    return fail(p, "%s record for op %d after its opend record (line %zu)",
                type, id, p->ox[i].opend_line);
  if (!p->ops_closed_line)
    p->ops_closed_line = p->line;
  *idx = i;
  return 0;
}

/* ---- records ---------------------------------------------------------- */

static int rec_begin(wparser *p) {
  /* The required fields are there (check_fields, wire.def). */
  const wfield *v = p->fv[MH_WIRE_K(begin, v)];
  if (!field_is(v, "1"))
    return fail(p, "begin record says v=%s, this reader supports v=1",
                ex(p, 0, v->val, v->vlen));
  static const char *const numeric[] = {"clock_hz", "counter_hz", "runs",
                                        "warmup"};
  for (size_t k = 0; k < sizeof numeric / sizeof *numeric; k++) {
    uint64_t n;
    if (field_u64(p, find_field(p, numeric[k]), "begin", UINT64_MAX, &n) != 0)
      return -1;
    /* counter_hz converts ticks to time; zero would divide by zero later. */
    if (n == 0 && strcmp(numeric[k], "counter_hz") == 0)
      return fail(p, "begin record says counter_hz=0");
    if (strcmp(numeric[k], "runs") == 0)
      p->run->kat_only = n == 0;
  }
  const wfield *unit = find_field(p, "unit");
  if (!field_is(unit, "ticks") && !field_is(unit, "ns"))
    return fail(p, "begin record says unit=%s, expected ticks or ns",
                ex(p, 0, unit->val, unit->vlen));
  mh_run *run = p->run;
  run->prov = calloc(p->nf, sizeof *run->prov);
  if (!run->prov)
    return oom(p);
  for (size_t i = 0; i < p->nf; i++) {
    const wfield *f = &p->f[i];
    if (f == v)
      continue; /* the format version, not provenance */
    mh_kv *kv = &run->prov[run->n_prov++];
    kv->key = malloc(f->klen + 1);
    if (!kv->key)
      return oom(p);
    memcpy(kv->key, f->key, f->klen);
    kv->key[f->klen] = '\0';
    if (field_str(p, f, "begin", &kv->value) != 0)
      return -1;
    /* Both end up in file names (console-<target>-<profile>.log, image
     * directories): the CLI's rule for profile names, here at the line. */
    if ((key_is(f, "target") || key_is(f, "profile")) &&
        !mh_profile_name_ok(kv->value))
      return fail(p,
                  "begin record: %s=%s is not a valid name (1 to %d letters, "
                  "digits, '-', '_' or '.', not starting with '.')",
                  kv->key, ex(p, 0, kv->value, strlen(kv->value)),
                  MH_PROFILE_NAME_MAX);
  }
  return 0;
}

static int rec_op(wparser *p) {
  const wfield *const *f = p->fv;
  if (p->ops_closed_line)
    return fail(p,
                "op record after the first per-op record (line %zu): all "
                "op records must come before any kat",
                p->ops_closed_line);
  mh_run *run = p->run;
  if (run->n_ops >= WIRE_MAX_OPS)
    return fail(p, "more than %u op records", WIRE_MAX_OPS);
  int id;
  if (parse_id(p, f[MH_WIRE_K(op, id)], "op", &id) != 0)
    return -1;
  size_t dup = find_op(p, id);
  if (dup != SIZE_MAX)
    return fail(p, "duplicate op id %d (first announced on line %zu)", id,
                p->ox[dup].line);
  long bytes = -1;
  if (!field_is(f[MH_WIRE_K(op, bytes)], "-")) {
    uint64_t b;
    if (field_u64(p, f[MH_WIRE_K(op, bytes)], "op", (uint64_t)LONG_MAX, &b) !=
        0)
      return -1;
    bytes = (long)b;
  }
  if (grow((void **)&run->ops, &p->ops_cap, run->n_ops + 1, sizeof *run->ops) !=
          0 ||
      grow((void **)&p->ox, &p->ox_cap, run->n_ops + 1, sizeof *p->ox) != 0)
    return oom(p);
  size_t idx = run->n_ops;
  mh_op *op = &run->ops[idx];
  memset(op, 0, sizeof *op);
  memset(&p->ox[idx], 0, sizeof p->ox[idx]);
  run->n_ops++; /* from here on mh_run_free owns whatever op holds */
  op->id = id;
  op->bytes = bytes;
  p->ox[idx].line = p->line;
  if (field_str(p, f[MH_WIRE_K(op, alg)], "op", &op->alg) != 0 ||
      field_str(p, f[MH_WIRE_K(op, op)], "op", &op->op) != 0 ||
      field_str(p, f[MH_WIRE_K(op, backend)], "op", &op->backend) != 0 ||
      field_str(p, f[MH_WIRE_K(op, variant)], "op", &op->variant) != 0 ||
      (f[MH_WIRE_K(op, obj)] &&
       field_str(p, f[MH_WIRE_K(op, obj)], "op", &op->obj) != 0))
    return -1;
  if (op->obj && !mh_obj_valid(op->obj))
    return fail(p, "op record: obj=%s is not name:bytes[,name:bytes...]",
                ex(p, 0, op->obj, strlen(op->obj)));
  if (ids_add(p, idx) != 0)
    return oom(p);
  return 0;
}

static int rec_overhead(wparser *p) {
  const wfield *const *f = p->fv;
  if (p->overhead_line)
    return fail(p, "second overhead record (first on line %zu)",
                p->overhead_line);
  if (field_u64(p, f[MH_WIRE_K(overhead, ticks)], "overhead", MH_COUNT_MAX,
                &p->run->overhead_ticks) != 0)
    return -1;
  for (size_t i = 0; i < p->run->n_ops; i++)
    for (size_t k = 0; k < p->run->ops[i].n_raw; k++)
      if (p->run->ops[i].raw[k] < p->run->overhead_ticks)
        return fail(p,
                    "overhead record says ticks=%" PRIu64
                    ", above sample %zu of op %d (%" PRIu64 " ticks)",
                    p->run->overhead_ticks, k, p->run->ops[i].id,
                    p->run->ops[i].raw[k]);
  for (size_t i = 0; i < p->run->n_wfs; i++) {
    const mh_wf *w = &p->run->wfs[i];
    for (size_t k = 0; k < w->n_raw * w->n_steps; k++)
      if (w->raw[k] < p->run->overhead_ticks)
        return fail(p,
                    "overhead record says ticks=%" PRIu64
                    ", above a step of workflow %d (%" PRIu64 " ticks)",
                    p->run->overhead_ticks, w->id, w->raw[k]);
  }
  p->overhead_line = p->line;
  return 0;
}

static int rec_kat(wparser *p) {
  const wfield *const *f = p->fv;
  size_t i;
  if (op_for(p, f[MH_WIRE_K(kat, id)], "kat", &i) != 0)
    return -1;
  mh_op *op = &p->run->ops[i];
  if (op->kat != MH_KAT_UNKNOWN)
    return fail(p, "second kat record for op %d", op->id);
  if (field_is(f[MH_WIRE_K(kat, result)], "pass")) {
    op->kat = MH_KAT_PASS;
    return 0;
  }
  if (!field_is(f[MH_WIRE_K(kat, result)], "fail"))
    return fail(p, "kat record says result=%s, expected pass or fail",
                ex(p, 0, f[MH_WIRE_K(kat, result)]->val,
                   f[MH_WIRE_K(kat, result)]->vlen));
  if (!f[MH_WIRE_K(kat, detail)])
    return fail(p, "kat record with result=fail is missing field 'detail'");
  op->kat = MH_KAT_FAIL;
  return field_str(p, f[MH_WIRE_K(kat, detail)], "kat", &op->kat_detail);
}

/* An implementation's own KAT records (implementation folders,
 * docs/bring-your-own.md), before the kat record of its first operation:
 * kept as provenance "nistkat.<backend>" (results.json "nist_kat"). */
static int rec_nistkat(wparser *p) {
  const wfield *const *f = p->fv;
  size_t i;
  if (op_for(p, f[MH_WIRE_K(nistkat, id)], "nistkat", &i) != 0)
    return -1;
  mh_op *op = &p->run->ops[i];
  if (op->kat != MH_KAT_UNKNOWN)
    return fail(p, "nistkat record for op %d after its kat record", op->id);
  size_t klen = strlen("nistkat.") + strlen(op->backend) + 1;
  for (size_t k = 0; k < p->run->n_prov; k++)
    if (strncmp(p->run->prov[k].key, "nistkat.", 8) == 0 &&
        strcmp(p->run->prov[k].key + 8, op->backend) == 0)
      return fail(p, "second nistkat record for backend %s", op->backend);
  mh_kv *grown =
      realloc(p->run->prov, (p->run->n_prov + 1) * sizeof *p->run->prov);
  if (!grown)
    return oom(p);
  p->run->prov = grown;
  mh_kv *kv = &grown[p->run->n_prov];
  kv->key = malloc(klen);
  kv->value = NULL;
  if (!kv->key)
    return oom(p);
  snprintf(kv->key, klen, "nistkat.%s", op->backend);
  p->run->n_prov++;
  return field_str(p, f[MH_WIRE_K(nistkat, records)], "nistkat", &kv->value);
}

static int rec_plan(wparser *p) {
  const wfield *const *f = p->fv;
  size_t i;
  if (op_for(p, f[MH_WIRE_K(plan, id)], "plan", &i) != 0)
    return -1;
  mh_op *op = &p->run->ops[i];
  if (p->run->kat_only)
    return fail(p, "plan record for op %d in a KAT-only run (runs=0)", op->id);
  if (p->ox[i].has_plan)
    return fail(p, "second plan record for op %d", op->id);
  uint64_t batch, warmup, n;
  if (field_u64(p, f[MH_WIRE_K(plan, batch)], "plan", UINT32_MAX, &batch) !=
          0 ||
      field_u64(p, f[MH_WIRE_K(plan, warmup)], "plan", UINT32_MAX, &warmup) !=
          0 ||
      field_u64(p, f[MH_WIRE_K(plan, n)], "plan", UINT32_MAX, &n) != 0)
    return -1;
  /* batch divides every sample; n = 0 would time nothing. */
  if (batch == 0)
    return fail(p, "plan record for op %d says batch=0", op->id);
  if (n == 0)
    return fail(p, "plan record for op %d says n=0", op->id);
  op->batch = (uint32_t)batch;
  op->warmup = (uint32_t)warmup;
  op->n = (uint32_t)n;
  p->ox[i].has_plan = 1;
  return 0;
}

static int rec_samples(wparser *p) {
  const wfield *const *f = p->fv;
  size_t idx;
  if (op_for(p, f[MH_WIRE_K(samples, id)], "samples", &idx) != 0)
    return -1;
  mh_op *op = &p->run->ops[idx];
  op_extra *x = &p->ox[idx];
  if (!x->has_plan)
    return fail(p, "samples record for op %d before its plan record", op->id);
  if (op->has_error)
    return fail(p, "samples record for op %d after its error record", op->id);
  uint64_t first;
  if (field_u64(p, f[MH_WIRE_K(samples, i)], "samples", UINT64_MAX, &first) !=
      0)
    return -1;
  if (first != op->n_raw)
    return fail(p,
                "samples record for op %d starts at i=%" PRIu64
                " but %zu sample(s) came before: samples not contiguous",
                op->id, first, op->n_raw);
  size_t len;
  if (field_scratch(p, f[MH_WIRE_K(samples, v)], "samples", &len) != 0)
    return -1;
  uint64_t v[WIRE_MAX_PER_SAMPLES];
  size_t nv = 0, start = 0;
  for (size_t k = 0; k <= len; k++) {
    if (k < len && p->scratch[k] != ',')
      continue;
    if (nv == WIRE_MAX_PER_SAMPLES)
      return fail(p, "samples record for op %d has more than %u values", op->id,
                  WIRE_MAX_PER_SAMPLES);
    int rc = parse_dec(p->scratch + start, k - start, UINT64_MAX, &v[nv]);
    if (rc != 0)
      return fail(p, "samples record for op %d: value %zu is %s: '%s'", op->id,
                  nv, rc == -1 ? "not a decimal number" : "out of range",
                  ex(p, 0, p->scratch + start, k - start));
    nv++;
    start = k + 1;
  }
  /* The overhead is the minimum of back-to-back counter reads, so a
   * sample below it means a broken counter, not a fast operation. */
  for (size_t k = 0; p->overhead_line && k < nv; k++)
    if (v[k] < p->run->overhead_ticks)
      return fail(p,
                  "samples record for op %d: value %zu (%" PRIu64
                  " ticks) is below the counter overhead %" PRIu64
                  " (line %zu)",
                  op->id, k, v[k], p->run->overhead_ticks, p->overhead_line);
  if (op->n_raw + nv > op->n)
    return fail(p,
                "samples record for op %d brings it to %zu samples, more "
                "than plan n=%u",
                op->id, op->n_raw + nv, (unsigned)op->n);
  if (op->n_raw + nv > x->raw_cap) {
    /* Grow geometrically but never past n: plan n alone must not make the
     * host allocate, only samples actually received. */
    size_t nc = x->raw_cap ? x->raw_cap * 2 : 64;
    if (nc < op->n_raw + nv)
      nc = op->n_raw + nv;
    if (nc > op->n)
      nc = op->n;
    if (nc > SIZE_MAX / sizeof *op->raw)
      return oom(p);
    uint64_t *r = realloc(op->raw, nc * sizeof *r);
    if (!r)
      return oom(p);
    op->raw = r;
    x->raw_cap = nc;
  }
  memcpy(op->raw + op->n_raw, v, nv * sizeof *v);
  op->n_raw += nv;
  return 0;
}

/* An op that passed its KAT owes exactly plan n samples unless it reported
 * an error; checked when it ends and again at the end of the run. */
static int check_complete(wparser *p, size_t idx, const char *when) {
  const mh_op *op = &p->run->ops[idx];
  const op_extra *x = &p->ox[idx];
  if (op->has_error)
    return 0;
  if (op->kat == MH_KAT_PASS && !x->has_plan && !p->run->kat_only)
    return fail(p,
                "%s: op %d (%s %s) passed its KAT but was never timed (no "
                "plan record)",
                when, op->id, op->alg, op->op);
  if (x->has_plan && op->n_raw < op->n)
    return fail(p,
                "%s: op %d (%s %s) sent %zu of plan n=%u samples: %zu "
                "sample(s) missing",
                when, op->id, op->alg, op->op, op->n_raw, (unsigned)op->n,
                (size_t)op->n - op->n_raw);
  if ((op->kat == MH_KAT_PASS || x->has_plan) && !x->opend_line)
    return fail(p, "%s: op %d (%s %s) has no opend record", when, op->id,
                op->alg, op->op);
  return 0;
}

/* The constant-time check of an op whose KAT passed: n single-run counts
 * (n <= MH_CT_MAX; 0 when the budget left none), before its opend. */
static int rec_ct(wparser *p) {
  const wfield *const *f = p->fv;
  size_t idx;
  if (op_for(p, f[MH_WIRE_K(ct, id)], "ct", &idx) != 0)
    return -1;
  mh_op *op = &p->run->ops[idx];
  if (op->kat != MH_KAT_PASS)
    return fail(p, "ct record for op %d, whose KAT did not pass", op->id);
  if (op->has_ct)
    return fail(p, "second ct record for op %d", op->id);
  uint64_t n, fresh, vg = 0;
  if (field_u64(p, f[MH_WIRE_K(ct, n)], "ct", MH_CT_MAX, &n) != 0 ||
      field_u64(p, f[MH_WIRE_K(ct, fresh)], "ct", 1, &fresh) != 0 ||
      (f[MH_WIRE_K(ct, vg)] &&
       field_u64(p, f[MH_WIRE_K(ct, vg)], "ct", LONG_MAX, &vg) != 0))
    return -1;
  if ((n == 0) != (f[MH_WIRE_K(ct, v)] == NULL))
    return fail(p, "ct record for op %d: n=%" PRIu64 " but %s v field", op->id,
                n, f[MH_WIRE_K(ct, v)] ? "a" : "no");
  size_t nv = 0;
  if (f[MH_WIRE_K(ct, v)]) {
    size_t len, start = 0;
    if (field_scratch(p, f[MH_WIRE_K(ct, v)], "ct", &len) != 0)
      return -1;
    for (size_t k = 0; k <= len; k++) {
      if (k < len && p->scratch[k] != ',')
        continue;
      if (nv == n)
        return fail(p, "ct record for op %d has more than n=%" PRIu64 " values",
                    op->id, n);
      int rc =
          parse_dec(p->scratch + start, k - start, UINT64_MAX, &op->ct_raw[nv]);
      if (rc != 0)
        return fail(p, "ct record for op %d: value %zu is %s", op->id, nv,
                    rc == -1 ? "not a decimal number" : "out of range");
      nv++;
      start = k + 1;
    }
    if (nv != n)
      return fail(p, "ct record for op %d has %zu values, n=%" PRIu64, op->id,
                  nv, n);
  }
  op->has_ct = 1;
  op->ct_n = (uint32_t)n;
  op->ct_fresh = (int)fresh;
  op->ct_vg = f[MH_WIRE_K(ct, vg)] ? (long)vg : -1;
  return 0;
}

/* opend closes an op. A timed op's opend also carries the memory of one
 * untimed run after its samples: peak stack, peak heap, allocations. */
static int rec_opend(wparser *p) {
  const wfield *const *f = p->fv;
  size_t idx;
  if (op_for(p, f[MH_WIRE_K(opend, id)], "opend", &idx) != 0)
    return -1;
  mh_op *op = &p->run->ops[idx];
  uint64_t n;
  if (field_u64(p, f[MH_WIRE_K(opend, n)], "opend", UINT64_MAX, &n) != 0)
    return -1;
  if (n != op->n_raw)
    return fail(p,
                "opend record for op %d says n=%" PRIu64
                " but %zu sample(s) were received",
                op->id, n, op->n_raw);
  int any_mem = f[MH_WIRE_K(opend, stack)] || f[MH_WIRE_K(opend, heap)] ||
                f[MH_WIRE_K(opend, allocs)];
  if (any_mem && !(f[MH_WIRE_K(opend, stack)] && f[MH_WIRE_K(opend, heap)] &&
                   f[MH_WIRE_K(opend, allocs)]))
    return fail(p,
                "opend record for op %d: stack, heap and allocs come "
                "together",
                op->id);
  if (any_mem && !p->ox[idx].has_plan)
    return fail(p,
                "opend record for op %d has memory figures but the op "
                "was not timed",
                op->id);
  if (!any_mem && p->ox[idx].has_plan && !op->has_error)
    return fail(p,
                "opend record for op %d (%s %s) lacks its memory figures "
                "(stack, heap, allocs)",
                op->id, op->alg, op->op);
  if (any_mem) {
    /* Counts go into results.json as JSON integers (MH_COUNT_MAX). */
    if (field_u64(p, f[MH_WIRE_K(opend, stack)], "opend", MH_COUNT_MAX,
                  &op->stack_bytes) != 0 ||
        field_u64(p, f[MH_WIRE_K(opend, heap)], "opend", MH_COUNT_MAX,
                  &op->heap_bytes) != 0 ||
        field_u64(p, f[MH_WIRE_K(opend, allocs)], "opend", MH_COUNT_MAX,
                  &op->heap_allocs) != 0)
      return -1;
    op->has_mem = 1;
  }
  p->ox[idx].opend_line = p->line;
  return check_complete(p, idx, "opend");
}

static int rec_error(wparser *p) {
  const wfield *const *f = p->fv;
  char **dst;
  int *flag = NULL;
  if (field_is(f[MH_WIRE_K(error, id)], "-")) {
    dst = &p->run->error_msg;
  } else {
    size_t idx;
    if (op_for(p, f[MH_WIRE_K(error, id)], "error", &idx) != 0)
      return -1;
    dst = &p->run->ops[idx].error_msg;
    flag = &p->run->ops[idx].has_error;
  }
  if (flag)
    *flag = 1;
  if (*dst)
    return 0; /* keep the first: later ones are usually its consequences */
  return field_str(p, f[MH_WIRE_K(error, msg)], "error", dst);
}

static int rec_fault(wparser *p) {
  /* Free-form beyond kind and pc (registers differ per core); decoded only to
   * be quoted. */
  const char *kind = "?", *pc = "?";
  const wfield *k = find_field(p, "kind"), *c = find_field(p, "pc");
  size_t n;
  if (k) {
    if (field_scratch(p, k, "fault", &n) != 0)
      return -1;
    kind = ex(p, 0, p->scratch, n);
  }
  if (c) {
    if (field_scratch(p, c, "fault", &n) != 0)
      return -1;
    pc = ex(p, 1, p->scratch, n);
  }
  return fail(p, "target fault: kind=%s pc=%s: the run is invalid", kind, pc);
}

/* A workflow record: fields decoded, then host/wire/wire_wf.c. */
static int rec_wf(wparser *p) {
  const char *type = mh_wire_records[p->rec].name;
  char wmsg[200];
  mh_kv *kv = calloc(p->nf ? p->nf : 1, sizeof *kv);
  if (!kv)
    return oom(p);
  int rc = 0;
  for (size_t i = 0; i < p->nf && rc == 0; i++) {
    kv[i].key = malloc(p->f[i].klen + 1);
    if (!kv[i].key) {
      rc = oom(p);
      break;
    }
    memcpy(kv[i].key, p->f[i].key, p->f[i].klen);
    kv[i].key[p->f[i].klen] = '\0';
    rc = field_str(p, &p->f[i], type, &kv[i].value);
  }
  if (rc == 0 &&
      mh_wire_wf_record(p->run, type, kv, p->nf, wmsg, sizeof wmsg) != 0)
    rc = fail(p, "%s", wmsg);
  for (size_t i = 0; i < p->nf; i++) {
    free(kv[i].key);
    free(kv[i].value);
  }
  free(kv);
  return rc;
}

static int rec_end(wparser *p) {
  uint64_t seq = p->seq;
  const wfield *const *f = p->fv;
  uint64_t records;
  if (field_u64(p, f[MH_WIRE_K(end, records)], "end", UINT64_MAX, &records) !=
      0)
    return -1;
  if (records != seq)
    return fail(p,
                "end record says records=%" PRIu64
                " but its sequence number is %" PRIu64,
                records, seq);
  int ok = field_is(f[MH_WIRE_K(end, status)], "ok");
  if (!ok && !field_is(f[MH_WIRE_K(end, status)], "fail"))
    return fail(p, "end record says status=%s, expected ok or fail",
                ex(p, 0, f[MH_WIRE_K(end, status)]->val,
                   f[MH_WIRE_K(end, status)]->vlen));
  mh_run *run = p->run;
  size_t d0, d1;
  int dup = mh_run_dup_op(run, &d0, &d1);
  if (dup < 0)
    return oom(p);
  if (dup) {
    const mh_op *o = &run->ops[d1];
    char b[24] = "-";
    if (o->bytes >= 0)
      snprintf(b, sizeof b, "%ld", o->bytes);
    p->line = p->ox[d1].line; /* the message names the second op record */
    return fail(p,
                "op record for id %d announces %s %s (%s %s, bytes %s) a "
                "second time (first as id %d on line %zu)",
                o->id, o->alg, o->op, o->backend, o->variant, b,
                run->ops[d0].id, p->ox[d0].line);
  }
  int any_samples = 0;
  for (size_t i = 0; i < run->n_ops; i++) {
    if (check_complete(p, i, "end") != 0)
      return -1;
    any_samples |= run->ops[i].n_raw > 0;
  }
  char wmsg[200];
  if (mh_wire_wf_complete(run, wmsg, sizeof wmsg) != 0)
    return fail(p, "%s", wmsg);
  /* Without the overhead every value would silently include it. */
  if (any_samples && !p->overhead_line)
    return fail(p, "end record, but the run sent samples and no overhead "
                   "record");
  run->status_ok = ok;
  run->records = (size_t)seq + 1;
  p->end_line = p->line;
  return 0;
}

/* ---- lines ------------------------------------------------------------ */

static int cmp_field_key(const void *a, const void *b) {
  const wfield *x = a, *y = b;
  size_t n = x->klen < y->klen ? x->klen : y->klen;
  int c = memcmp(x->key, y->key, n);
  if (c)
    return c;
  return (x->klen > y->klen) - (x->klen < y->klen);
}

static int valid_key(const char *k, size_t n) {
  if (n == 0)
    return 0;
  for (size_t i = 0; i < n; i++) {
    char c = k[i];
    /* '-' beyond the spec's [a-z0-9_.]: route.<alg> keys carry algorithm ids
     * such as ml-kem-512. */
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '.' || c == '-'))
      return 0;
  }
  return 1;
}

static int split_fields(wparser *p, const char *s, size_t n) {
  p->nf = 0;
  size_t pos = 0;
  while (pos < n) {
    const char *sp = memchr(s + pos, ' ', n - pos);
    size_t end = sp ? (size_t)(sp - s) : n;
    const char *tok = s + pos;
    size_t tlen = end - pos;
    const char *eq = memchr(tok, '=', tlen);
    if (!eq || !valid_key(tok, (size_t)(eq - tok)))
      return fail(p,
                  "malformed field '%s' (expected key=value, key in "
                  "[a-z0-9_.-])",
                  ex(p, 0, tok, tlen));
    size_t klen = (size_t)(eq - tok);
    const char *val = eq + 1;
    size_t vlen = tlen - klen - 1;
    for (size_t i = 0; i < vlen; i++)
      if (val[i] == '=' || val[i] == '#')
        return fail(p, "unencoded '%c' in the value of field '%s'", val[i],
                    ex(p, 0, tok, klen));
    if (grow((void **)&p->f, &p->f_cap, p->nf + 1, sizeof *p->f) != 0)
      return oom(p);
    p->f[p->nf++] = (wfield){tok, klen, val, vlen};
    pos = end + 1;
  }
  if (p->nf > 1) {
    /* Sorted copy: duplicate keys in O(n log n) even on a 64 KiB begin. */
    if (grow((void **)&p->sorted, &p->sorted_cap, p->nf, sizeof *p->sorted))
      return oom(p);
    memcpy(p->sorted, p->f, p->nf * sizeof *p->f);
    qsort(p->sorted, p->nf, sizeof *p->sorted, cmp_field_key);
    for (size_t i = 1; i < p->nf; i++)
      if (cmp_field_key(&p->sorted[i - 1], &p->sorted[i]) == 0)
        return fail(p, "duplicate field '%s'", fkey(p, 0, &p->sorted[i]));
  }
  return 0;
}

static int hex8(const char *s, uint32_t *out) {
  uint32_t v = 0;
  for (int i = 0; i < 8; i++) {
    char c = s[i];
    unsigned d;
    if (c >= '0' && c <= '9')
      d = (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = (unsigned)(c - 'a' + 10);
    else
      return -1;
    v = (v << 4) | d;
  }
  *out = v;
  return 0;
}

/* A list field of at most max decimals into v; the count, or -1. */
static int dec_list(wparser *p, const wfield *f, const char *type, uint64_t *v,
                    size_t max) {
  size_t len, nv = 0, start = 0;
  if (field_scratch(p, f, type, &len) != 0)
    return -1;
  for (size_t k = 0; k <= len; k++) {
    if (k < len && p->scratch[k] != ',')
      continue;
    if (nv == max ||
        parse_dec(p->scratch + start, k - start, UINT64_MAX, &v[nv]) != 0)
      return fail(p,
                  "%s record: a list of at most %zu decimal numbers "
                  "expected: '%s'",
                  type, max, ex(p, 0, p->scratch, len));
    nv++;
    start = k + 1;
  }
  return (int)nv;
}

/* The interleaved control after an op's samples (src/core/control.c). */
static int rec_ctl(wparser *p) {
  const wfield *const *f = p->fv;
  size_t idx;
  uint64_t batch, v[8], c[8] = {0};
  if (op_for(p, f[MH_WIRE_K(ctl, id)], "ctl", &idx) != 0 ||
      field_u64(p, f[MH_WIRE_K(ctl, batch)], "ctl", UINT32_MAX, &batch) != 0)
    return -1;
  int nv = dec_list(p, f[MH_WIRE_K(ctl, v)], "ctl", v, 8);
  int nc = f[MH_WIRE_K(ctl, tsc)]
               ? dec_list(p, f[MH_WIRE_K(ctl, tsc)], "ctl", c, 8)
               : nv;
  if (nv < 0 || nc < 0)
    return -1;
  if (batch == 0 || nc != nv)
    return fail(p,
                "ctl record for op %d: batch 0, or tsc and v of different "
                "lengths",
                p->run->ops[idx].id);
  mh_run *run = p->run;
  double *a = realloc(run->ctl, (run->n_ctl + (size_t)nv) * sizeof *a);
  if (a)
    run->ctl = a;
  double *b =
      a ? realloc(run->ctl_cycles, (run->n_ctl + (size_t)nv) * sizeof *b)
        : NULL;
  if (!a || !b)
    return oom(p);
  run->ctl_cycles = b;
  for (int k = 0; k < nv; k++) {
    run->ctl[run->n_ctl] = (double)v[k] / (double)batch;
    run->ctl_cycles[run->n_ctl++] = (double)c[k] / (double)batch;
  }
  return 0;
}

/* The handler of each record type of wire.def; the workflow records go on
 * to host/wire/wire_wf.c. */
static int (*const handlers[MH_WIRE_R_COUNT])(wparser *) = {
    [MH_WIRE_R_begin] = rec_begin,
    [MH_WIRE_R_op] = rec_op,
    [MH_WIRE_R_overhead] = rec_overhead,
    [MH_WIRE_R_kat] = rec_kat,
    [MH_WIRE_R_nistkat] = rec_nistkat,
    [MH_WIRE_R_plan] = rec_plan,
    [MH_WIRE_R_samples] = rec_samples,
    [MH_WIRE_R_opend] = rec_opend,
    [MH_WIRE_R_ct] = rec_ct,
    [MH_WIRE_R_ctl] = rec_ctl,
    [MH_WIRE_R_error] = rec_error,
    [MH_WIRE_R_fault] = rec_fault,
    [MH_WIRE_R_end] = rec_end,
    [MH_WIRE_R_wf] = rec_wf,
    [MH_WIRE_R_wfcheck] = rec_wf,
    [MH_WIRE_R_wfplan] = rec_wf,
    [MH_WIRE_R_wfsample] = rec_wf,
    [MH_WIRE_R_wfend] = rec_wf,
    [MH_WIRE_R_wferror] = rec_wf};

static int wire_line(wparser *p, const char *s, size_t l) {
  if (l > WIRE_MAX_LINE)
    return fail(p, "wire line of %zu bytes, longer than the %u-byte limit", l,
                WIRE_MAX_LINE);
  if (l < 4 || memcmp(s, "@M1 ", 4) != 0) {
    const char *sp = memchr(s, ' ', l);
    return fail(p,
                "unsupported wire format version '%s' (this reader speaks "
                "@M1)",
                ex(p, 0, s, sp ? (size_t)(sp - s) : l));
  }
  uint32_t said;
  if (l < 14 || s[l - 10] != ' ' || s[l - 9] != '#' || hex8(s + l - 8, &said))
    return fail(p, "missing or malformed #crc at the end of the wire line "
                   "(expected ' #' and 8 lower-case hex digits)");
  size_t clen = l - 10;
  uint32_t crc = mcore_crc32(0, s, clen);
  if (crc != said)
    return fail(p,
                "CRC mismatch (expected %08" PRIx32 ", line says %08" PRIx32
                "): the line was garbled",
                crc, said);
  for (size_t i = 4; i < clen; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c != ' ' && (c < 0x21 || c > 0x7e))
      return fail(p, "unencoded byte 0x%02x at column %zu", c, i + 1);
    if (c == ' ' && (i == 4 || i + 1 == clen || s[i + 1] == ' '))
      return fail(p,
                  "stray space at column %zu (fields are separated by "
                  "exactly one space)",
                  i + 1);
  }
  if (clen == 4)
    return fail(p, "empty wire line (no sequence number)");
  /* <seq> <type> [fields] */
  const char *b = s + 4;
  size_t blen = clen - 4;
  const char *sp1 = memchr(b, ' ', blen);
  size_t seqlen = sp1 ? (size_t)(sp1 - b) : blen;
  uint64_t seq;
  if (parse_dec(b, seqlen, UINT64_MAX, &seq) != 0)
    return fail(p, "malformed sequence number '%s'", ex(p, 0, b, seqlen));
  if (!sp1)
    return fail(p, "wire line has no record type");
  const char *t = sp1 + 1;
  size_t rest = blen - seqlen - 1;
  const char *sp2 = memchr(t, ' ', rest);
  size_t tlen = sp2 ? (size_t)(sp2 - t) : rest;
  int type = mh_wire_record_find(t, tlen);
  if (type < 0)
    return fail(p, "unknown record type '%s'", ex(p, 0, t, tlen));
  /* A fault explains whatever else is wrong with the stream around it. */
  p->nf = 0;
  if (type == MH_WIRE_R_fault)
    return sp2 && split_fields(p, sp2 + 1, rest - tlen - 1) != 0 ? -1
                                                                 : rec_fault(p);
  /* Order and numbering: which run is this line part of at all? */
  if (p->end_line)
    return fail(p, "wire record after the end record (line %zu)", p->end_line);
  if (type == MH_WIRE_R_begin && p->begin_line)
    return fail(p,
                "second begin record (first on line %zu): another run's "
                "output is interleaved with this one",
                p->begin_line);
  if (!p->begin_line) {
    if (type != MH_WIRE_R_begin)
      return fail(p,
                  "first wire record is '%s', not begin: the start of the "
                  "run is missing",
                  mh_wire_records[type].name);
    if (seq != 0)
      return fail(p, "begin record has sequence number %" PRIu64 ", expected 0",
                  seq);
  } else if (seq != p->seq + 1) {
    if (seq > p->seq + 1)
      return fail(p,
                  "sequence number %" PRIu64 " after %" PRIu64 ": %" PRIu64
                  " line(s) missing",
                  seq, p->seq, seq - p->seq - 1);
    if (seq == p->seq)
      return fail(p, "sequence number %" PRIu64 " repeated (line %zu)", seq,
                  p->prev_wire_line);
    return fail(p,
                "sequence number %" PRIu64 " after %" PRIu64 ": out of order",
                seq, p->seq);
  }
  p->seq = seq;
  p->prev_wire_line = p->line;
  if (sp2 && split_fields(p, sp2 + 1, rest - tlen - 1) != 0)
    return -1;
  p->rec = type;
  if (type == MH_WIRE_R_begin)
    p->begin_line = p->line;
  if (check_fields(p) != 0)
    return -1;
  return handlers[type](p);
}

int mh_wire_parse(const char *buf, size_t len, mh_run *run,
                  mh_wire_error *err) {
  mh_wire_error scratch_err;
  if (!err)
    err = &scratch_err;
  memset(err, 0, sizeof *err);
  if (!run) {
    snprintf(err->msg, sizeof err->msg, "no run to fill");
    return -1;
  }
  memset(run, 0, sizeof *run);
  run->icount_shift = -1;
  wparser p;
  memset(&p, 0, sizeof p);
  p.run = run;
  p.err = err;
  if (!buf)
    len = 0;
  int rc = 0;
  size_t pos = 0;
  while (rc == 0 && pos < len) {
    const char *nl = memchr(buf + pos, '\n', len - pos);
    size_t end = nl ? (size_t)(nl - buf) : len;
    size_t l = end - pos;
    if (l && buf[pos + l - 1] == '\r')
      l--;
    p.line++;
    if (l >= 2 && buf[pos] == '@' && buf[pos + 1] == 'M')
      rc = wire_line(&p, buf + pos, l);
    else
      run->noise_lines++; /* boot banners, emulator warnings */
    pos = nl ? end + 1 : len;
  }
  if (rc == 0 && !p.end_line) {
    /* Not about one line, so no "line N:" prefix; err->line is the last. */
    err->line = p.line;
    if (!p.begin_line)
      snprintf(err->msg, sizeof err->msg,
               "stream ends at line %zu without any wire record (%zu "
               "line(s) of noise): the image printed no results",
               p.line, run->noise_lines);
    else
      snprintf(err->msg, sizeof err->msg,
               "stream ends at line %zu without an end record: truncated run",
               p.line);
    rc = -1;
  }
  free(p.ox);
  free(p.ids);
  free(p.f);
  free(p.sorted);
  free(p.scratch);
  if (rc != 0) {
    mh_run_free(run);
    return -1;
  }
  return 0;
}
