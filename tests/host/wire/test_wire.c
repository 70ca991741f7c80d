/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The wire reader against streams generated here: a small writer numbers the
 * records and computes their CRCs with mcore_crc32 (the target's own), so the
 * fixtures cannot drift from the format. Every stream is one record per line,
 * so a record's index in the list is its line number in the stream.
 */
#include "check.h"
#include "model/model.h"
#include "wire/wire.h"

#include "crc32.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a tiny writer ----------------------------------------------------- */

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* "@M1 <seq> <body> #<crc>" (no newline). */
static char *wire(unsigned long seq, const char *body) {
  size_t n = strlen(body) + 48;
  char *l = xmalloc(n);
  int k = snprintf(l, n, "@M1 %lu %s", seq, body);
  uint32_t crc = mcore_crc32(0, l, (size_t)k);
  snprintf(l + k, n - (size_t)k, " #%08" PRIx32, crc);
  return l;
}

/* The records of one stream. An entry is a wire record body ("op id=0 ..."),
 * or "!text" for a noise line, or "~text" for a line written as is. Wire
 * records are numbered in order; "{seq}" in a body becomes its own sequence
 * number (for end records=). */
#define MAX_RECS 64
typedef struct {
  char *r[MAX_RECS];
  size_t n;
} recs;

static void r_free(recs *r) {
  for (size_t i = 0; i < r->n; i++)
    free(r->r[i]);
  r->n = 0;
}

/* Insert text so that it becomes line `line` (1-based). */
static void r_ins(recs *r, size_t line, const char *text) {
  if (r->n == MAX_RECS || line < 1 || line > r->n + 1) {
    fprintf(stderr, "r_ins: bad line %zu\n", line);
    exit(2);
  }
  memmove(&r->r[line], &r->r[line - 1], (r->n - (line - 1)) * sizeof *r->r);
  r->r[line - 1] = xstrdup(text);
  r->n++;
}

static void r_add(recs *r, const char *text) { r_ins(r, r->n + 1, text); }

static void r_del(recs *r, size_t line) {
  free(r->r[line - 1]);
  memmove(&r->r[line - 1], &r->r[line], (r->n - line) * sizeof *r->r);
  r->n--;
}

static void r_set(recs *r, size_t line, const char *text) {
  free(r->r[line - 1]);
  r->r[line - 1] = xstrdup(text);
}

/* The sequence number line `line` gets when it is a wire record. */
static unsigned long seq_of(const recs *r, size_t line) {
  unsigned long seq = 0;
  for (size_t i = 0; i + 1 < line; i++)
    if (r->r[i][0] != '!' && r->r[i][0] != '~')
      seq++;
  return seq;
}

/* Replace line `line` by its proper wire line, as a raw entry, so a test can
 * then garble it. Returns the raw entry (owned by r). */
static char *r_freeze(recs *r, size_t line) {
  char *w = wire(seq_of(r, line), r->r[line - 1]);
  size_t n = strlen(w);
  char *raw = xmalloc(n + 2);
  raw[0] = '~';
  memcpy(raw + 1, w, n + 1);
  free(w);
  free(r->r[line - 1]);
  r->r[line - 1] = raw;
  return raw;
}

/* Freeze every wire line (last first, so each keeps its number): edits after
 * this keep the original numbering, as a real dropped line would. */
static void r_freeze_all(recs *r) {
  for (size_t i = r->n; i >= 1; i--)
    if (r->r[i - 1][0] != '!' && r->r[i - 1][0] != '~')
      r_freeze(r, i);
}

static char *r_build(const recs *r, const char *eol, size_t *len) {
  size_t cap = 256, n = 0;
  char *buf = xmalloc(cap);
  unsigned long seq = 0;
  for (size_t i = 0; i < r->n; i++) {
    const char *e = r->r[i];
    char *line;
    if (e[0] == '!' || e[0] == '~') {
      line = xstrdup(e + 1);
    } else {
      char body[4096], *d = body;
      for (const char *s = e; *s && d < body + sizeof body - 24; s++) {
        if (strncmp(s, "{seq}", 5) == 0) {
          d += snprintf(d, 24, "%lu", seq);
          s += 4;
        } else {
          *d++ = *s;
        }
      }
      *d = '\0';
      line = wire(seq++, body);
    }
    size_t ln = strlen(line), el = strlen(eol);
    while (n + ln + el + 1 > cap)
      cap *= 2;
    char *nb = realloc(buf, cap);
    if (!nb)
      exit(2);
    buf = nb;
    memcpy(buf + n, line, ln);
    memcpy(buf + n + ln, eol, el);
    n += ln + el;
    free(line);
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Percent-encoding as the target writes it (docs/wire-format.md). */
static char *encode(const char *s, size_t len) {
  static const char hex[] = "0123456789ABCDEF";
  char *o = xmalloc(3 * len + 1), *d = o;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x21 || c > 0x7e || c == '%' || c == '=' || c == '#') {
      *d++ = '%';
      *d++ = hex[c >> 4];
      *d++ = hex[c & 15];
    } else {
      *d++ = (char)c;
    }
  }
  *d = '\0';
  return o;
}

/* ---- the reference stream ---------------------------------------------- */

#define BEGIN_FIELDS                                                           \
  "target=qemu-m4 core=cortex-m4 clock_hz=25000000 counter=dwt unit=ticks "    \
  "counter_hz=25000000 compiler=gcc%2012.2.0 cflags=-O2%20-mcpu%3Dcortex-m4 "  \
  "profile=default source=3390dcc runs=1 warmup=2 lib.wolfcrypt=5.7.0 "        \
  "route.sha256=wolfcrypt:c,mbedtls:psa-builtin route.ml-kem-512=pqm4:m4"

static const char *const good_lines[] = {
    /* 1 */ "!QEMU emulator version 8.0.0: boot noise before begin",
    /* 2 */ "begin v=1 " BEGIN_FIELDS,
    /* 3 */ "op id=0 alg=sha256 op=hash backend=wolfcrypt variant=c bytes=64",
    /* 4 */ "op id=1 alg=ml-kem-512 op=keygen backend=pqm4 variant=m4 bytes=-",
    /* 5 */
    "op id=7 alg=ecdsa-p256 op=sign backend=mbedtls variant=psa-builtin "
    "bytes=32",
    /* 6 */
    "op id=9 alg=hmac-sha256 op=mac backend=wolfcrypt variant=c bytes=1024",
    /* 7 */ "overhead ticks=10",
    /* 8 */ "kat id=0 result=pass",
    /* 9 */ "plan id=0 batch=2 warmup=1 n=18",
    /* 10 */
    "samples id=0 i=0 "
    "v=110,112,114,116,118,120,122,124,126,128,130,132,134,136,138,140",
    /* 11 */ "![    0.0123] qemu: warning between two wire lines",
    /* 12 */ "samples id=0 i=16 v=142,144",
    /* 13 */ "opend id=0 n=18 stack=1184 heap=0 allocs=0",
    /* 14 */ "kat id=1 result=pass",
    /* 15 */ "plan id=1 batch=1 warmup=0 n=3",
    /* 16 */ "samples id=1 i=0 v=1010,1020,1030",
    /* 17 */ "opend id=1 n=3 stack=6800 heap=2048 allocs=3",
    /* 18 */ "kat id=7 result=fail detail=vector%203%3A%20sig%20mismatch",
    /* 19 */ "opend id=7 n=0",
    /* 20 */ "kat id=9 result=pass",
    /* 21 */ "plan id=9 batch=4 warmup=0 n=10",
    /* 22 */ "samples id=9 i=0 v=50,60,70,80",
    /* 23 */ "error id=9 msg=backend%20returned%20-1",
    /* 24 */ "opend id=9 n=4",
    /* 25 */ "error id=- msg=rng%20reseeded",
    /* 26 */ "end records={seq} status=ok",
};
#define GOOD_N (sizeof good_lines / sizeof *good_lines)

static recs good(void) {
  recs r = {{0}, 0};
  for (size_t i = 0; i < GOOD_N; i++)
    r_add(&r, good_lines[i]);
  return r;
}

static int parse_recs(const recs *r, const char *eol, mh_run *run,
                      mh_wire_error *e) {
  size_t len;
  char *buf = r_build(r, eol, &len);
  int rc = mh_wire_parse(buf, len, run, e);
  free(buf);
  return rc;
}

static int run_is_empty(const mh_run *run) {
  return run->ops == NULL && run->n_ops == 0 && run->prov == NULL &&
         run->n_prov == 0 && run->error_msg == NULL;
}

/* Parse r; it must be rejected at `line` with a message containing needle. */
static void expect_reject_at(const recs *r, size_t line, const char *needle,
                             int src_line) {
  int before = check_failed;
  mh_run run;
  mh_wire_error e;
  int rc = parse_recs(r, "\n", &run, &e);
  CHECK(rc == -1);
  CHECK(e.line == line);
  CHECK_CONTAINS(e.msg, needle);
  char prefix[32];
  snprintf(prefix, sizeof prefix, "line %zu: ", line);
  if (!strstr(needle, "stream ends"))
    CHECK(strncmp(e.msg, prefix, strlen(prefix)) == 0);
  CHECK(run_is_empty(&run));
  if (getenv("MERLIN_TEST_VERBOSE"))
    printf("rejected: %s\n", e.msg);
  if (check_failed != before)
    fprintf(stderr, "  ^ from test_wire.c:%d: rc %d, line %zu, msg \"%s\"\n",
            src_line, rc, e.line, e.msg);
  if (rc == 0)
    mh_run_free(&run);
}
#define EXPECT_REJECT(r, line, needle)                                         \
  expect_reject_at(r, line, needle, __LINE__)

/* ---- accepted streams ---------------------------------------------------- */

static void check_good_run(const mh_run *run) {
  CHECK(run->n_prov == 15); /* every begin field but v */
  CHECK(mh_run_prov(run, "v") == NULL);
  CHECK(mh_run_prov(run, "nope") == NULL);
  CHECK_CONTAINS(mh_run_prov(run, "target"), "qemu-m4");
  const char *cflags = mh_run_prov(run, "cflags");
  CHECK(cflags && strcmp(cflags, "-O2 -mcpu=cortex-m4") == 0);
  const char *compiler = mh_run_prov(run, "compiler");
  CHECK(compiler && strcmp(compiler, "gcc 12.2.0") == 0);
  const char *route = mh_run_prov(run, "route.ml-kem-512");
  CHECK(route && strcmp(route, "pqm4:m4") == 0);
  const char *r2 = mh_run_prov(run, "route.sha256");
  CHECK(r2 && strcmp(r2, "wolfcrypt:c,mbedtls:psa-builtin") == 0);
  CHECK(run->overhead_ticks == 10);
  CHECK(run->status_ok == 1);
  CHECK(run->records == 24);
  CHECK(run->noise_lines == 2);
  CHECK(run->error_msg && strcmp(run->error_msg, "rng reseeded") == 0);
  CHECK(run->n_ops == 4);
  if (run->n_ops != 4)
    return;
  const mh_op *o = run->ops;
  CHECK(o[0].id == 0 && o[1].id == 1 && o[2].id == 7 && o[3].id == 9);
  CHECK(strcmp(o[0].alg, "sha256") == 0 && strcmp(o[0].op, "hash") == 0);
  CHECK(strcmp(o[0].backend, "wolfcrypt") == 0);
  CHECK(strcmp(o[0].variant, "c") == 0);
  CHECK(o[0].bytes == 64 && o[1].bytes == -1 && o[3].bytes == 1024);
  CHECK(strcmp(o[2].variant, "psa-builtin") == 0);
  CHECK(o[0].kat == MH_KAT_PASS && o[0].kat_detail == NULL);
  CHECK(o[0].batch == 2 && o[0].warmup == 1 && o[0].n == 18);
  CHECK(o[0].n_raw == 18);
  CHECK(o[0].raw[0] == 110 && o[0].raw[15] == 140 && o[0].raw[17] == 144);
  CHECK(o[0].has_error == 0 && o[0].error_msg == NULL);
  CHECK(o[1].n_raw == 3 && o[1].raw[2] == 1030);
  CHECK(o[2].kat == MH_KAT_FAIL);
  CHECK(o[2].kat_detail &&
        strcmp(o[2].kat_detail, "vector 3: sig mismatch") == 0);
  CHECK(o[2].n_raw == 0 && o[2].raw == NULL);
  CHECK(o[3].kat == MH_KAT_PASS && o[3].has_error == 1);
  CHECK(o[3].error_msg && strcmp(o[3].error_msg, "backend returned -1") == 0);
  CHECK(o[3].n_raw == 4);
  CHECK(o[0].samples == NULL && o[0].n_samples == 0); /* finish fills them */
  CHECK(o[0].has_mem && o[0].stack_bytes == 1184 && o[0].heap_bytes == 0);
  CHECK(o[1].has_mem && o[1].stack_bytes == 6800 && o[1].heap_bytes == 2048 &&
        o[1].heap_allocs == 3);
  CHECK(!o[2].has_mem && !o[3].has_mem);
}

static void test_good(void) {
  recs r = good();
  mh_run run;
  mh_wire_error e;
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  check_good_run(&run);
  CHECK(run.icount_shift == -1 && run.unit == NULL);
  mh_run_free(&run);
  CHECK(run_is_empty(&run) && run.unit == NULL && run.records == 0);
  mh_run_free(&run); /* twice is harmless */

  /* The same stream as a Windows console or a serial terminal gives it. */
  CHECK(parse_recs(&r, "\r\n", &run, &e) == 0);
  check_good_run(&run);
  mh_run_free(&run);

  /* No newline after the end record. */
  size_t len;
  char *buf = r_build(&r, "\n", &len);
  CHECK(mh_wire_parse(buf, len - 1, &run, &e) == 0);
  check_good_run(&run);
  mh_run_free(&run);
  /* err may be NULL. */
  CHECK(mh_wire_parse(buf, len, &run, NULL) == 0);
  mh_run_free(&run);
  free(buf);

  /* end status=fail still parses: the caller decides what it means. */
  r_set(&r, 26, "end records={seq} status=fail");
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  CHECK(run.status_ok == 0);
  mh_run_free(&run);
  r_free(&r);
}

static void test_noise(void) {
  recs r = good();
  r_ins(&r, 3, "!");                  /* empty line */
  r_ins(&r, 5, "!@");                 /* not "@M" */
  r_ins(&r, 8, "!M1 0 begin v=1 #x"); /* no "@" */
  r_ins(&r, 12, "!\t@M1 indented");   /* "@M" not at the start */
  r_add(&r, "!QEMU: Terminated");     /* after end: emulator exit */
  r_add(&r, "!");
  mh_run run;
  mh_wire_error e;
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  CHECK(run.noise_lines == 8);
  CHECK(run.n_ops == 4 && run.records == 24);
  mh_run_free(&run);

  /* Binary garbage, NUL bytes and a lone \r in noise. */
  size_t len;
  char *buf = r_build(&r, "\n", &len);
  static const char junk[] = "\0\x01\xff\xfe garbage \r\0\n\r\n";
  size_t jl = sizeof junk - 1;
  char *b2 = xmalloc(len + jl);
  memcpy(b2, junk, jl);
  memcpy(b2 + jl, buf, len);
  CHECK(mh_wire_parse(b2, len + jl, &run, &e) == 0);
  CHECK(run.noise_lines == 10);
  mh_run_free(&run);
  free(b2);
  free(buf);

  /* A 100 KB noise line is fine: noise is never stored. */
  char *big = xmalloc(100001);
  memset(big, 'x', 100000);
  big[0] = '!';
  big[100000] = '\0';
  r_ins(&r, 1, big);
  free(big);
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  mh_run_free(&run);
  r_free(&r);
}

/* ---- rejections ---------------------------------------------------------- */

static void test_line_level(void) {
  recs r = good();
  /* A flipped byte: batch=2 becomes batch=3 after the CRC was computed. */
  char *l = r_freeze(&r, 9);
  strstr(l, "batch=2")[6] = '3';
  uint32_t want = mcore_crc32(0, l + 1, strlen(l + 1) - 10);
  char msg[64];
  snprintf(msg, sizeof msg, "CRC mismatch (expected %08" PRIx32 ", line says",
           want);
  EXPECT_REJECT(&r, 9, msg);
  r_free(&r);

  /* Garbage inserted inside a wire line (UART overrun, interleaved print). */
  r = good();
  l = r_freeze(&r, 16);
  char *mid = strstr(l, "v=");
  size_t n = strlen(l);
  char *g = xmalloc(n + 16);
  size_t at = (size_t)(mid - l);
  memcpy(g, l, at);
  memcpy(g + at, "\x1b[0m", 4);
  memcpy(g + at + 4, l + at, n - at + 1);
  r_set(&r, 16, g);
  free(g);
  EXPECT_REJECT(&r, 16, "CRC mismatch");
  r_free(&r);

  /* Unsupported version, and "@M" alone. */
  r = good();
  r_set(&r, 3, "~@M2 1 op id=0 #00000000");
  EXPECT_REJECT(&r, 3, "unsupported wire format version '@M2'");
  r_set(&r, 3, "~@M");
  EXPECT_REJECT(&r, 3, "unsupported wire format version");
  r_set(&r, 3, "~@M1x 1 op #00000000");
  EXPECT_REJECT(&r, 3, "unsupported wire format version '@M1x'");
  r_free(&r);

  /* Missing or malformed #crc. */
  r = good();
  r_set(&r, 4, "~@M1 2 op id=1 alg=x op=y backend=z variant=c bytes=-");
  EXPECT_REJECT(&r, 4, "missing or malformed #crc");
  l = r_freeze(&r, 4);
  for (char *c = l + strlen(l) - 8; *c; c++)
    if (*c >= 'a' && *c <= 'f')
      *c = (char)(*c - 'a' + 'A');
  if (!strpbrk(l + strlen(l) - 8, "ABCDEF"))
    l[strlen(l) - 1] = 'G'; /* all digits: make it non-hex instead */
  EXPECT_REJECT(&r, 4, "missing or malformed #crc");
  r_set(&r, 4, "~@M1 2 op id=1 #1234567");
  EXPECT_REJECT(&r, 4, "missing or malformed #crc");
  r_set(&r, 4, "~@M1 #12345678");
  EXPECT_REJECT(&r, 4, "missing or malformed #crc");
  r_free(&r);

  /* A wire line over 64 KiB. */
  r = good();
  char *big = xmalloc(70000);
  memcpy(big, "~@M1 1 op alg=", 14);
  memset(big + 14, 'a', 70000 - 15);
  big[69999] = '\0';
  r_set(&r, 3, big);
  free(big);
  EXPECT_REJECT(&r, 3, "longer than the 65536-byte limit");
  r_free(&r);

  /* An unencoded byte with a valid CRC: a writer bug, still refused. */
  r = good();
  r_set(&r, 3,
        "op id=0 alg=sha\t256 op=hash backend=wolfcrypt variant=c "
        "bytes=64");
  EXPECT_REJECT(&r, 3, "unencoded byte 0x09");
  r_set(&r, 3, "op id=0 alg=sha256  op=hash backend=w variant=c bytes=64");
  EXPECT_REJECT(&r, 3, "stray space");
  r_set(&r, 3, "op id=0 alg=sha#256 op=hash backend=w variant=c bytes=64");
  EXPECT_REJECT(&r, 3, "unencoded '#'");
  r_set(&r, 3, "op id=0 alg=a=b op=hash backend=w variant=c bytes=64");
  EXPECT_REJECT(&r, 3, "unencoded '='");
  r_free(&r);
}

static void test_sequence(void) {
  /* A dropped line: line 14 (seq 11) is lost, so line 14 now holds seq 12. */
  recs r = good();
  r_freeze_all(&r);
  r_del(&r, 14);
  EXPECT_REJECT(&r, 14, "sequence number 12 after 10: 1 line(s) missing");
  r_del(&r, 14);
  r_del(&r, 14);
  EXPECT_REJECT(&r, 14, "sequence number 14 after 10: 3 line(s) missing");
  r_free(&r);

  /* A repeated line (same seq twice). */
  r = good();
  r_freeze_all(&r);
  r_ins(&r, 15, r.r[13]);
  EXPECT_REJECT(&r, 15, "sequence number 11 repeated (line 14)");
  /* Going backwards. */
  r_set(&r, 15, r.r[2]);
  EXPECT_REJECT(&r, 15, "sequence number 1 after 11: out of order");
  r_free(&r);

  /* The begin line lost: the first wire record is an op. */
  r = good();
  r_del(&r, 2);
  EXPECT_REJECT(&r, 2, "first wire record is 'op', not begin");
  r_free(&r);

  /* A begin that does not start at 0. */
  r = good();
  char *b = wire(5, "begin v=1 " BEGIN_FIELDS);
  char *raw = xmalloc(strlen(b) + 2);
  raw[0] = '~';
  strcpy(raw + 1, b);
  r_set(&r, 2, raw);
  free(raw);
  free(b);
  EXPECT_REJECT(&r, 2, "begin record has sequence number 5, expected 0");
  r_free(&r);

  /* A second run's begin interleaved into this one. */
  r = good();
  b = wire(0, "begin v=1 " BEGIN_FIELDS);
  raw = xmalloc(strlen(b) + 2);
  raw[0] = '~';
  strcpy(raw + 1, b);
  r_ins(&r, 12, raw);
  free(raw);
  free(b);
  EXPECT_REJECT(&r, 12, "second begin record (first on line 2)");
  EXPECT_REJECT(&r, 12, "interleaved");
  r_free(&r);

  /* Anything wire after end (noise after end is accepted, test_noise). */
  r = good();
  r_add(&r, "overhead ticks=1");
  EXPECT_REJECT(&r, 27, "wire record after the end record (line 26)");
  r_free(&r);

  /* No end record: truncated run. */
  r = good();
  r_del(&r, 26);
  EXPECT_REJECT(&r, 25,
                "stream ends at line 25 without an end record: truncated run");
  r_add(&r, "!some noise after the cut");
  EXPECT_REJECT(&r, 26,
                "stream ends at line 26 without an end record: truncated run");
  r_free(&r);

  /* Cut in the middle of line 16. */
  r = good();
  size_t len;
  char *buf = r_build(&r, "\n", &len);
  char *p = buf;
  for (int i = 0; i < 15; i++)
    p = strchr(p, '\n') + 1;
  size_t cut = (size_t)(p - buf) + 20;
  mh_run run;
  mh_wire_error e;
  CHECK(mh_wire_parse(buf, cut, &run, &e) == -1);
  CHECK(e.line == 16);
  CHECK_CONTAINS(e.msg, "line 16: missing or malformed #crc");
  CHECK(run_is_empty(&run));
  free(buf);

  /* Nothing at all, or only noise. */
  CHECK(mh_wire_parse("", 0, &run, &e) == -1);
  CHECK_CONTAINS(e.msg, "without any wire record");
  CHECK(mh_wire_parse(NULL, 0, &run, &e) == -1);
  CHECK(mh_wire_parse("boot\nboot\n", 10, &run, &e) == -1);
  CHECK(e.line == 2);
  CHECK_CONTAINS(e.msg, "stream ends at line 2 without any wire record");

  /* end records= must be its own sequence number. */
  r_set(&r, 26, "end records=5 status=ok");
  EXPECT_REJECT(&r, 26, "records=5 but its sequence number is 23");
  r_set(&r, 26, "end records={seq} status=maybe");
  EXPECT_REJECT(&r, 26, "status=maybe");
  r_free(&r);
}

static void test_syntax(void) {
  recs r = good();
  /* Missing required begin fields, bad version, bad values. */
  r_set(&r, 2,
        "begin v=1 target=x core=y clock_hz=1 counter=dwt unit=ticks "
        "counter_hz=1 compiler=gcc cflags=-O2 profile=p runs=1 "
        "warmup=0");
  EXPECT_REJECT(&r, 2, "begin record is missing required field 'source'");
  r_set(&r, 2, "begin " BEGIN_FIELDS);
  EXPECT_REJECT(&r, 2, "missing required field 'v'");
  r_set(&r, 2, "begin v=2 " BEGIN_FIELDS);
  EXPECT_REJECT(&r, 2, "v=2, this reader supports v=1");
  r_set(&r, 2, "begin v=1 " BEGIN_FIELDS " counter_hz=2");
  EXPECT_REJECT(&r, 2, "duplicate field 'counter_hz'");
  r_set(&r, 2,
        "begin v=1 runs=x target=x core=y clock_hz=1 counter=dwt "
        "unit=ticks counter_hz=1 compiler=gcc cflags=-O2 profile=p "
        "source=s warmup=0");
  EXPECT_REJECT(&r, 2, "field 'runs' of begin record is not a decimal number");
  r_set(&r, 2,
        "begin v=1 runs=1 target=x core=y clock_hz=1 counter=dwt "
        "unit=cycles counter_hz=1 compiler=gcc cflags=-O2 profile=p "
        "source=s warmup=0");
  EXPECT_REJECT(&r, 2, "unit=cycles, expected ticks or ns");
  r_set(&r, 2,
        "begin v=1 runs=1 target=x core=y clock_hz=1 counter=dwt "
        "unit=ns counter_hz=0 compiler=gcc cflags=-O2 profile=p "
        "source=s warmup=0");
  EXPECT_REJECT(&r, 2, "counter_hz=0");
  r_set(&r, 2, "begin v=1 " BEGIN_FIELDS " Bad=1");
  EXPECT_REJECT(&r, 2, "malformed field 'Bad=1'");
  r_free(&r);

  r = good();
  /* Duplicate key. */
  r_set(&r, 3, "op id=0 id=0 alg=sha256 op=hash backend=w variant=c bytes=64");
  EXPECT_REJECT(&r, 3, "duplicate field 'id'");
  /* Malformed key=value. */
  r_set(&r, 3, "op id=0 alg op=hash backend=w variant=c bytes=64");
  EXPECT_REJECT(&r, 3, "malformed field 'alg'");
  r_set(&r, 3, "op id=0 =sha op=hash backend=w variant=c bytes=64");
  EXPECT_REJECT(&r, 3, "malformed field '=sha'");
  /* Bad percent escapes. */
  r_set(&r, 3, "op id=0 alg=sha%2 op=hash backend=w variant=c bytes=64");
  EXPECT_REJECT(&r, 3, "bad percent escape in field 'alg' of op record");
  r_set(&r, 3, "op id=0 alg=sha%G0 op=hash backend=w variant=c bytes=64");
  EXPECT_REJECT(&r, 3, "bad percent escape");
  r_set(&r, 3, "op id=0 alg=sha% op=hash backend=w variant=c bytes=64");
  EXPECT_REJECT(&r, 3, "bad percent escape");
  /* Unknown record type and unknown field. */
  r_set(&r, 3, "bogus id=0");
  EXPECT_REJECT(&r, 3, "unknown record type 'bogus'");
  r_set(&r, 3, "op id=0 alg=s op=h backend=w variant=c bytes=64 extra=1");
  EXPECT_REJECT(&r, 3, "unknown field 'extra' in op record");
  r_set(&r, 3, "op id=0 alg=s op=h backend=w bytes=64");
  EXPECT_REJECT(&r, 3, "op record is missing required field 'variant'");
  r_set(&r, 3, "1 op id=0");
  EXPECT_REJECT(&r, 3, "unknown record type '1'");
  r_free(&r);

  /* A non-numeric sequence number (with a valid CRC). */
  r = good();
  char *w = xmalloc(128);
  int k = snprintf(w, 128, "@M1 -1 op id=0");
  snprintf(w + k, 128 - (size_t)k, " #%08" PRIx32,
           mcore_crc32(0, w, (size_t)k));
  char *raw = xmalloc(strlen(w) + 2);
  raw[0] = '~';
  strcpy(raw + 1, w);
  r_set(&r, 3, raw);
  free(raw);
  free(w);
  EXPECT_REJECT(&r, 3, "malformed sequence number '-1'");
  r_free(&r);

  /* Non-numeric and out-of-range values. */
  r = good();
  static const char *const bad_batch[] = {"two", "-1",  "+1", "0x10",
                                          "",    "1.5", "1e3"};
  for (size_t i = 0; i < sizeof bad_batch / sizeof *bad_batch; i++) {
    char line[128];
    snprintf(line, sizeof line, "plan id=0 batch=%s warmup=1 n=18",
             bad_batch[i]);
    r_set(&r, 9, line);
    EXPECT_REJECT(&r, 9, "field 'batch' of plan record is not a decimal");
  }
  r_set(&r, 9, "plan id=0 batch=4294967296 warmup=1 n=18");
  EXPECT_REJECT(&r, 9, "out of range: '4294967296' (max 4294967295)");
  r_set(&r, 9, "plan id=0 batch=0 warmup=1 n=18");
  EXPECT_REJECT(&r, 9, "batch=0");
  r_set(&r, 9, "plan id=0 batch=2 warmup=1 n=0");
  EXPECT_REJECT(&r, 9, "n=0");
  r_set(&r, 9, "plan id=0 batch=2 warmup=1 n=18");
  r_set(&r, 7, "overhead ticks=18446744073709551616");
  EXPECT_REJECT(&r, 7, "out of range");
  r_set(&r, 7, "overhead ticks=99999999999999999999999");
  EXPECT_REJECT(&r, 7, "out of range");
  r_set(&r, 7, "overhead ticks=10");
  r_set(&r, 3, "op id=2147483648 alg=a op=b backend=c variant=d bytes=1");
  EXPECT_REJECT(&r, 3, "out of range");
  r_set(&r, 3, "op id=0 alg=a op=b backend=c variant=d bytes=-2");
  EXPECT_REJECT(&r, 3, "field 'bytes' of op record is not a decimal");
  r_set(&r, 3, good_lines[2]);
  r_set(&r, 12, "samples id=0 i=16 v=142,,144");
  EXPECT_REJECT(&r, 12, "value 1 is not a decimal number");
  r_set(&r, 12, "samples id=0 i=16 v=142,144,");
  EXPECT_REJECT(&r, 12, "value 2 is not a decimal number");
  r_set(&r, 12, "samples id=0 i=16 v=");
  EXPECT_REJECT(&r, 12, "value 0 is not a decimal number");
  r_set(&r, 12, "samples id=0 i=16 v=142,18446744073709551616");
  EXPECT_REJECT(&r, 12, "value 1 is out of range");
  r_set(&r, 10, "samples id=0 i=0 v=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17");
  EXPECT_REJECT(&r, 10, "more than 16 values");
  r_free(&r);
}

static void test_ops(void) {
  recs r = good();
  /* A samples record for an id no op record announced. */
  r_set(&r, 16, "samples id=3 i=0 v=1010,1020,1030");
  EXPECT_REJECT(&r, 16, "samples record for id 3, which was not announced");
  r_set(&r, 16, "error id=4 msg=x");
  EXPECT_REJECT(&r, 16, "error record for id 4, which was not announced");
  r_set(&r, 16, "samples id=- i=0 v=1");
  EXPECT_REJECT(&r, 16, "field 'id' of samples record is not a decimal");
  r_free(&r);

  /* op after the first kat. */
  r = good();
  r_ins(&r, 9, "op id=2 alg=x op=y backend=z variant=c bytes=-");
  EXPECT_REJECT(&r, 9, "op record after the first per-op record (line 8)");
  r_free(&r);

  /* Duplicate op id. */
  r = good();
  r_set(&r, 4, "op id=0 alg=x op=y backend=z variant=c bytes=-");
  EXPECT_REJECT(&r, 4, "duplicate op id 0 (first announced on line 3)");
  r_free(&r);

  /* More samples than plan n. */
  r = good();
  r_set(&r, 12, "samples id=0 i=16 v=142,144,146");
  EXPECT_REJECT(&r, 12, "brings it to 19 samples, more than plan n=18");
  /* Fewer at opend. */
  r_set(&r, 12, "samples id=0 i=16 v=142");
  r_set(&r, 13, "opend id=0 n=17 stack=1 heap=0 allocs=0");
  EXPECT_REJECT(&r, 13, "sent 17 of plan n=18 samples: 1 sample(s) missing");
  /* opend n disagreeing with what arrived. */
  r_set(&r, 13, "opend id=0 n=18 stack=1 heap=0 allocs=0");
  EXPECT_REJECT(&r, 13, "opend record for op 0 says n=18 but 17 sample(s)");
  r_free(&r);

  /* Samples index not contiguous. */
  r = good();
  r_set(&r, 12, "samples id=0 i=15 v=142,144");
  EXPECT_REJECT(&r, 12, "starts at i=15 but 16 sample(s) came before");
  r_set(&r, 12, "samples id=0 i=17 v=142,144");
  EXPECT_REJECT(&r, 12, "samples not contiguous");
  r_free(&r);

  /* Samples before the plan; records after opend; duplicates. */
  r = good();
  r_del(&r, 9);
  EXPECT_REJECT(&r, 9, "samples record for op 0 before its plan record");
  r_free(&r);
  r = good();
  r_ins(&r, 14, "samples id=0 i=18 v=1");
  EXPECT_REJECT(&r, 14,
                "samples record for op 0 after its opend record "
                "(line 13)");
  r_set(&r, 14, "kat id=0 result=pass");
  EXPECT_REJECT(&r, 14, "after its opend record");
  r_free(&r);
  r = good();
  r_ins(&r, 9, "kat id=0 result=fail detail=x");
  EXPECT_REJECT(&r, 9, "second kat record for op 0");
  r_set(&r, 9, "plan id=0 batch=2 warmup=1 n=18");
  EXPECT_REJECT(&r, 10, "second plan record for op 0");
  r_free(&r);
  r = good();
  r_ins(&r, 8, "overhead ticks=3");
  EXPECT_REJECT(&r, 8, "second overhead record (first on line 7)");
  r_free(&r);
  r = good();
  r_set(&r, 18, "kat id=7 result=fail");
  EXPECT_REJECT(&r, 18, "result=fail is missing field 'detail'");
  r_set(&r, 18, "kat id=7 result=skip");
  EXPECT_REJECT(&r, 18, "result=skip, expected pass or fail");
  r_free(&r);

  /* Completeness at the end record. */
  r = good();
  r_del(&r, 17); /* opend of op 1 */
  EXPECT_REJECT(&r, 25, "end: op 1 (ml-kem-512 keygen) has no opend record");
  r_free(&r);
  r = good();
  for (int i = 0; i < 4; i++)
    r_del(&r, 15); /* op 1: plan, samples, opend, and op 7's kat */
  r_ins(&r, 15, "kat id=7 result=fail detail=x");
  EXPECT_REJECT(&r, 23,
                "op 1 (ml-kem-512 keygen) passed its KAT but was "
                "never timed");
  r_free(&r);
  r = good();
  r_del(&r, 7); /* no overhead */
  EXPECT_REJECT(&r, 25, "no overhead record");
  r_free(&r);
  r = good();
  r_ins(&r, 24, "samples id=9 i=4 v=1");
  EXPECT_REJECT(&r, 24, "samples record for op 9 after its error record");
  r_free(&r);

  /* An error after samples with an opend short of n is accepted: the op is
   * marked, not the run. Errors with id=- keep the first message. */
  r = good();
  r_ins(&r, 26, "error id=- msg=second");
  r_ins(&r, 24, "error id=9 msg=second");
  mh_run run;
  mh_wire_error e;
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  CHECK(run.error_msg && strcmp(run.error_msg, "rng reseeded") == 0);
  CHECK(run.n_ops == 4 &&
        strcmp(run.ops[3].error_msg, "backend returned -1") == 0);
  mh_run_free(&run);
  r_free(&r);
}

static void test_fault(void) {
  recs r = good();
  r_set(&r, 16,
        "fault kind=hardfault pc=0x08001234 lr=0x08000f01 "
        "cfsr=0x00008200 hfsr=0x40000000 mmfar=0x00000000");
  EXPECT_REJECT(&r, 16, "target fault: kind=hardfault pc=0x08001234");
  r_set(&r, 16, "fault");
  EXPECT_REJECT(&r, 16, "target fault: kind=? pc=?");
  /* A fault explains the lines around it: reported even out of order. */
  r_set(&r, 16, "fault kind=usage%20fault pc=0x1");
  r_freeze_all(&r);
  r_del(&r, 15);
  EXPECT_REJECT(&r, 15, "target fault: kind=usage fault pc=0x1");
  r_free(&r);
}

static void test_caps(void) {
  /* 100000 ops with scattered ids parse (and exercise the id lookup);
   * 100001 are refused. */
  size_t cap = 100002u * 96u, n = 0;
  char *buf = xmalloc(cap);
  char *l = wire(0, "begin v=1 " BEGIN_FIELDS);
  n += (size_t)snprintf(buf + n, cap - n, "%s\n", l);
  free(l);
  unsigned long seq = 1;
  for (unsigned long i = 0; i < 100001u; i++) {
    char body[128];
    int id = (int)((i * 2654435761u) % 2147483647u);
    snprintf(body, sizeof body,
             "op id=%d alg=sha256 op=hash backend=b variant=v bytes=%lu", id,
             i);
    l = wire(seq++, body);
    n += (size_t)snprintf(buf + n, cap - n, "%s\n", l);
    free(l);
  }
  mh_run run;
  mh_wire_error e;
  CHECK(mh_wire_parse(buf, n, &run, &e) == -1);
  CHECK(e.line == 100002);
  CHECK_CONTAINS(e.msg, "more than 100000 op records");
  /* Drop the last op, add kat for the one announced last, and end. */
  n = (size_t)(strrchr(buf, '@') - buf);
  int id = (int)((99999ul * 2654435761u) % 2147483647u);
  char body[96];
  snprintf(body, sizeof body, "kat id=%d result=fail detail=x", id);
  l = wire(100001, body);
  n += (size_t)snprintf(buf + n, cap - n, "%s\n", l);
  free(l);
  l = wire(100002, "end records=100002 status=ok");
  n += (size_t)snprintf(buf + n, cap - n, "%s\n", l);
  free(l);
  CHECK(mh_wire_parse(buf, n, &run, &e) == 0);
  CHECK(run.n_ops == 100000);
  CHECK(run.n_ops == 100000 && run.ops[99999].kat == MH_KAT_FAIL &&
        run.ops[99998].kat == MH_KAT_UNKNOWN);
  mh_run_free(&run);
  free(buf);
}

/* Every prefix of a good stream and every single-bit flip: no crash, no
 * leak (under ASan), and a consistent result either way. */
static void test_mutations(void) {
  recs r = good();
  size_t len;
  char *buf = r_build(&r, "\n", &len);
  r_free(&r);
  mh_run run;
  mh_wire_error e;
  int bad_prefix = 0, bad_flip = 0;
  for (size_t cut = 0; cut + 1 < len; cut++) {
    char *p = xmalloc(cut);
    memcpy(p, buf, cut); /* exact-size copy so ASan sees any over-read */
    int rc = mh_wire_parse(p, cut, &run, &e);
    if (rc != -1 || e.msg[0] == '\0' || !run_is_empty(&run))
      bad_prefix++;
    if (rc == 0)
      mh_run_free(&run);
    free(p);
  }
  CHECK(bad_prefix == 0);
  for (size_t i = 0; i < len; i++) {
    for (int bit = 0; bit < 8; bit += 3) {
      char *p = xmalloc(len);
      memcpy(p, buf, len);
      p[i] = (char)(p[i] ^ (1 << bit));
      int rc = mh_wire_parse(p, len, &run, &e);
      if (rc == 0) {
        if (run.n_ops != 4)
          bad_flip++;
        mh_run_free(&run);
      } else if (e.msg[0] == '\0' || e.line == 0 || !run_is_empty(&run)) {
        bad_flip++;
      }
      free(p);
    }
  }
  CHECK(bad_flip == 0);
  free(buf);
}

/* ---- percent-decoding ------------------------------------------------ */

static void test_decode(void) {
  char *d = mh_wire_decode("a%20b%3D%25c%23", 15);
  CHECK(d && strcmp(d, "a b=%c#") == 0);
  free(d);
  d = mh_wire_decode("", 0);
  CHECK(d && d[0] == '\0');
  free(d);
  d = mh_wire_decode("abc%41xyz", 6); /* only len bytes are read */
  CHECK(d && strcmp(d, "abcA") == 0);
  free(d);
  /* Lower-case hex is refused: the writer prints upper case only. */
  static const char *const bad[] = {"%",   "%4",   "a%G1", "%4g",
                                    "%00", "%%41", "%3d",  "%fF"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    d = mh_wire_decode(bad[i], strlen(bad[i]));
    CHECK(d == NULL);
    free(d);
  }

  /* Round trip of every byte but NUL, as the writer encodes them. */
  char all[256];
  for (int i = 1; i < 256; i++)
    all[i - 1] = (char)i;
  all[255] = '\0';
  char *enc = encode(all, 255);
  for (const char *c = enc; *c; c++)
    CHECK(*c >= 0x21 && *c <= 0x7e && *c != '=' && *c != '#');
  d = mh_wire_decode(enc, strlen(enc));
  CHECK(d && strcmp(d, all) == 0);
  free(d);

  /* ... and through the reader, as a provenance value: every byte but
   * 0x80..0xff alone (a value goes into results.json, so it must be UTF-8),
   * and a UTF-8 "é". */
  char text[130];
  for (int i = 1; i < 128; i++)
    text[i - 1] = (char)i;
  memcpy(text + 127, "\xc3\xa9", 3);
  char *tenc = encode(text, strlen(text));
  recs r = good();
  size_t n = strlen(enc) + 64;
  char *line = xmalloc(n + sizeof BEGIN_FIELDS);
  snprintf(line, n + sizeof BEGIN_FIELDS, "begin v=1 %s lib.x=%s", BEGIN_FIELDS,
           tenc);
  r_set(&r, 2, line);
  mh_run run;
  mh_wire_error e;
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  const char *v = mh_run_prov(&run, "lib.x");
  CHECK(v && strcmp(v, text) == 0);
  mh_run_free(&run);
  snprintf(line, n + sizeof BEGIN_FIELDS, "begin v=1 %s lib.x=%s", BEGIN_FIELDS,
           enc);
  r_set(&r, 2, line);
  CHECK(parse_recs(&r, "\n", &run, &e) != 0);
  CHECK(strstr(e.msg, "field 'lib.x' of begin record is not valid UTF-8") !=
        NULL);
  CHECK(e.line == 2);
  /* overlong, surrogate, past U+10FFFF, truncated */
  static const char *const bad_utf8[] = {"%C0%AF", "%ED%A0%80", "%F4%90%80%80",
                                         "%E2%82", "%FF"};
  for (size_t k = 0; k < sizeof bad_utf8 / sizeof *bad_utf8; k++) {
    snprintf(line, n + sizeof BEGIN_FIELDS, "begin v=1 %s lib.x=a%s",
             BEGIN_FIELDS, bad_utf8[k]);
    r_set(&r, 2, line);
    CHECK(parse_recs(&r, "\n", &run, &e) != 0);
    CHECK(strstr(e.msg, "not valid UTF-8") != NULL);
  }
  free(line);
  r_free(&r);
  free(enc);
  free(tenc);
}

/* ---- mh_run_finish --------------------------------------------------- */

static void test_finish(void) {
  recs r = good();
  mh_run run;
  mh_wire_error e;
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  char msg[256];
  CHECK(mh_run_finish(&run, 1.0, "ticks", -1, msg, sizeof msg) == 0);
  CHECK(run.unit && strcmp(run.unit, "ticks") == 0);
  CHECK(run.icount_shift == -1);
  /* op 0: (110 + 2k - 10) / 2 = 50 + k for k = 0..17: median 58.5. */
  const mh_op *o = run.ops;
  CHECK(o[0].n_samples == 18 && o[0].samples);
  CHECK_EQ_DBL(o[0].samples[0], 50, 1e-12);
  CHECK_EQ_DBL(o[0].samples[17], 67, 1e-12);
  CHECK_EQ_DBL(o[0].stats.median, 58.5, 1e-12);
  CHECK_EQ_DBL(o[0].stats.min, 50, 1e-12);
  CHECK_EQ_DBL(o[0].stats.max, 67, 1e-12);
  /* op 1: batch 1, raw 1010 1020 1030 -> 1000 1010 1020. */
  CHECK(o[1].n_samples == 3);
  CHECK_EQ_DBL(o[1].stats.median, 1010, 1e-12);
  CHECK_EQ_DBL(o[1].stats.stddev, 10, 1e-12);
  /* KAT failed, or error: no values. */
  CHECK(o[2].samples == NULL && o[2].n_samples == 0);
  CHECK(o[3].samples == NULL && o[3].n_samples == 0);

  /* Again in another unit: values are replaced, not appended. Under QEMU
   * with -icount shift=3 and a 1 GHz counter: ticks_to_unit = 1 / 8. */
  CHECK(mh_run_finish(&run, 0.125, "instructions", 3, msg, sizeof msg) == 0);
  CHECK(strcmp(run.unit, "instructions") == 0 && run.icount_shift == 3);
  /* Under icount each reading is rounded to whole instructions before the
   * overhead is subtracted: (rint((110 + 2k) / 8) - rint(10 / 8)) / 2 gives
   * 6.5 x4, 7 x3, 7.5 x5, 8 x3, 8.5 x3 for k = 0..17: median 7.5. */
  CHECK_EQ_DBL(o[0].samples[0], 6.5, 1e-12);
  CHECK_EQ_DBL(o[0].samples[17], 8.5, 1e-12);
  CHECK_EQ_DBL(o[0].stats.median, 7.5, 1e-12);
  CHECK_EQ_DBL(run.ticks_to_unit, 0.125, 0);

  CHECK(mh_run_finish(&run, 0.0, "x", 0, msg, sizeof msg) == -1);
  CHECK_CONTAINS(msg, "not a positive number");
  CHECK(mh_run_finish(&run, 1.0, NULL, 0, NULL, 0) == -1);
  mh_run_free(&run);

  /* A raw value below the overhead is a broken counter: the reader names
   * the samples line (or the overhead line, when the samples came first);
   * mh_run_finish checks again. */
  r_set(&r, 7, "overhead ticks=1015");
  CHECK(parse_recs(&r, "\n", &run, &e) != 0);
  CHECK_CONTAINS(e.msg, "samples record for op 0: value 0 (110 ticks) is "
                        "below the counter overhead 1015 (line 7)");
  CHECK(e.line > 7);
  r_set(&r, 7, "overhead ticks=10");
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  run.overhead_ticks = 1015;
  CHECK(mh_run_finish(&run, 1.0, "ticks", -1, msg, sizeof msg) == -1);
  CHECK_CONTAINS(msg, "op 0 (sha256 hash) sample 0: raw 110 ticks is below "
                      "the counter overhead 1015");
  for (size_t i = 0; i < run.n_ops; i++)
    CHECK(run.ops[i].samples == NULL && run.ops[i].n_samples == 0);
  CHECK(run.unit == NULL);
  mh_run_free(&run);
  r_free(&r);
}

/* --kat-only: begin says runs=0; a passing op ends with opend n=0 and no
 * plan, and a plan or a sample in such a run is rejected. */
static void test_kat_only(void) {
  static const char *const lines[] = {
      /* 1 */ "begin v=1 " BEGIN_FIELDS,
      /* 2 */ "op id=0 alg=sha256 op=hash backend=wolfcrypt variant=c bytes=64",
      /* 3 */
      "op id=1 alg=ml-kem-512 op=keygen backend=pqm4 variant=m4 "
      "bytes=-",
      /* 4 */ "overhead ticks=10",
      /* 5 */ "kat id=0 result=pass",
      /* 6 */ "opend id=0 n=0",
      /* 7 */ "kat id=1 result=pass",
      /* 8 */ "opend id=1 n=0",
      /* 9 */ "end records={seq} status=ok",
  };
  recs r = {{0}, 0};
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
    r_add(&r, lines[i]);
  /* BEGIN_FIELDS says runs=1: as a timed run, op 0 was never timed. */
  EXPECT_REJECT(&r, 6, "never timed");
  char *b = strstr(r.r[0], "runs=1");
  CHECK(b != NULL);
  if (!b) {
    r_free(&r);
    return;
  }
  b[5] = '0';
  mh_run run;
  mh_wire_error e;
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  CHECK(run.kat_only == 1 && run.n_ops == 2 && run.status_ok == 1);
  if (run.n_ops == 2)
    CHECK(run.ops[0].kat == MH_KAT_PASS && run.ops[1].n_raw == 0);
  mh_run_free(&run);
  recs p = {{0}, 0};
  for (size_t i = 0; i < r.n; i++)
    r_add(&p, r.r[i]);
  r_ins(&p, 6, "plan id=0 batch=1 warmup=0 n=1");
  EXPECT_REJECT(&p, 6, "KAT-only");
  r_free(&p);
  r_ins(&r, 6, "samples id=0 i=0 v=5");
  EXPECT_REJECT(&r, 6, "samples");
  r_free(&r);
}

/* The memory figures of a timed op ride on its opend record. */
static void test_mem(void) {
  recs r = good();
  r_set(&r, 13, "opend id=0 n=18");
  EXPECT_REJECT(&r, 13, "lacks its memory figures");
  r_set(&r, 13, "opend id=0 n=18 stack=5 heap=0");
  EXPECT_REJECT(&r, 13, "stack, heap and allocs come together");
  r_set(&r, 13, "opend id=0 n=18 stack=x heap=0 allocs=0");
  EXPECT_REJECT(&r, 13, "field 'stack' of opend record is not a decimal");
  r_set(&r, 13, "opend id=0 n=18 stack=1 heap=0 allocs=0 peak=1");
  EXPECT_REJECT(&r, 13, "unknown field 'peak'");
  r_set(&r, 13, good_lines[12]);
  r_set(&r, 19, "opend id=7 n=0 stack=1 heap=0 allocs=0");
  EXPECT_REJECT(&r, 19, "was not timed");
  r_free(&r);
}

/* Values results.json could not hold, or that would make paths (issue 20). */
static void test_values(void) {
  recs r = good();
  r_set(&r, 13, "opend id=0 n=18 stack=18446744073709551615 heap=0 allocs=0");
  EXPECT_REJECT(&r, 13,
                "field 'stack' of opend record is out of range: "
                "'18446744073709551615' (max 9223372036854775807)");
  r_set(&r, 13, "opend id=0 n=18 stack=1 heap=9223372036854775808 allocs=0");
  EXPECT_REJECT(&r, 13, "field 'heap' of opend record is out of range");
  r_set(&r, 13, "opend id=0 n=18 stack=1 heap=0 allocs=9223372036854775807");
  mh_run run;
  mh_wire_error e;
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  CHECK(run.ops[0].heap_allocs == 9223372036854775807ull);
  mh_run_free(&run);
  r_free(&r);

  r = good();
  r_set(&r, 7, "overhead ticks=9223372036854775808");
  EXPECT_REJECT(&r, 7, "field 'ticks' of overhead record is out of range");
  r_set(&r, 7, "overhead ticks=111");
  EXPECT_REJECT(&r, 10,
                "samples record for op 0: value 0 (110 ticks) is below the "
                "counter overhead 111 (line 7)");
  r_free(&r);

  static const char *const names[] = {"profile=../../x", "profile=a/b",
                                      "profile=a%0Ab",   "profile=.x",
                                      "profile=",        "target=a/b"};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
    r = good();
    char line[1024];
    snprintf(line, sizeof line, "begin v=1 %s %s", BEGIN_FIELDS, names[k]);
    /* replace the field rather than add a duplicate */
    char *at =
        strstr(line, names[k][0] == 'p' ? "profile=default" : "target=qemu-m4");
    size_t skip = names[k][0] == 'p' ? 16 : 15;
    memmove(at, at + skip, strlen(at + skip) + 1);
    r_set(&r, 2, line);
    EXPECT_REJECT(&r, 2, "is not a valid name (1 to 64 letters");
    r_free(&r);
  }
  r = good();
  char line[1024], longname[80];
  memset(longname, 'p', 65);
  longname[65] = '\0';
  snprintf(line, sizeof line, "begin v=1 %s", BEGIN_FIELDS);
  char *at = strstr(line, "profile=default");
  memmove(at, at + 16, strlen(at + 16) + 1);
  size_t n = strlen(line);
  snprintf(line + n, sizeof line - n, " profile=%s", longname);
  r_set(&r, 2, line);
  EXPECT_REJECT(&r, 2, "begin record: profile=ppp");
  longname[64] = '\0';
  snprintf(line + n, sizeof line - n, " profile=%s", longname);
  r_set(&r, 2, line);
  CHECK(parse_recs(&r, "\n", &run, &e) == 0);
  mh_run_free(&run);
  r_free(&r);

  /* the same operation under two ids */
  r = good();
  r_set(&r, 4,
        "op id=1 alg=sha256 op=hash backend=wolfcrypt variant=c "
        "bytes=64");
  EXPECT_REJECT(&r, 4,
                "op record for id 1 announces sha256 hash (wolfcrypt c, "
                "bytes 64) a second time (first as id 0 on line 3)");
  r_set(&r, 4,
        "op id=1 alg=sha256 op=hash backend=wolfcrypt variant=asm "
        "bytes=64");
  CHECK(parse_recs(&r, "\n", &run, &e) == 0); /* another variant: another op */
  mh_run_free(&run);
  r_free(&r);
}

int main(void) {
  test_values();
  test_good();
  test_mem();
  test_kat_only();
  test_noise();
  test_line_level();
  test_sequence();
  test_syntax();
  test_ops();
  test_fault();
  test_decode();
  test_finish();
  test_mutations();
  test_caps();
  return check_report();
}
