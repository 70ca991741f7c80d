/* SPDX-License-Identifier: Apache-2.0 */
/* merlin agree's parsers, mapping and table (host/agree), and that the
 * tables in docs/operations.md are in the format the command prints. */
#include "agree/agree.h"
#include "agree/rows.h"
#include "check.h"
#include "util/fsutil.h"

#include <stdlib.h>
#include <string.h>

static void wolfcrypt_rows(void) {
  const char *out =
      "wolfCrypt Benchmark (block bytes 1024, min 1.0 sec each)\n"
      "SHA-256                     25 KiB took 3.249 seconds,    7.695 KiB/s\n"
      "ECDSA [      SECP256R1]   256     sign         2 ops took 12.480 sec, "
      "avg 6239.964 ms,     0.160 ops/sec\n"
      "Benchmark complete\n";
  mh_ag_row *rows = NULL;
  size_t n = 0;
  char err[128];
  CHECK(mh_ag_parse("wolfcrypt", out, 1, &rows, &n, err, sizeof err) == 0);
  CHECK(n == 2);
  const mh_ag_row *s = mh_ag_find(rows, n, "ECDSA [ SECP256R1] 256 sign");
  CHECK(s && !s->rate);
  /* Bare metal: "ms" are thousands of counter ticks (agree_wolfcrypt.c). */
  CHECK(s && fabs(s->value - 6239964.0) < 0.5);
  const mh_ag_row *h = mh_ag_find(rows, n, "SHA-256");
  CHECK(h && h->rate && fabs(h->value - 3.249e6 / 25600.0) < 1e-6);
  free(rows);
  rows = NULL;
  n = 0;
  /* On the host the same lines are seconds and milliseconds. */
  CHECK(mh_ag_parse("wolfcrypt", out, 0, &rows, &n, err, sizeof err) == 0);
  s = mh_ag_find(rows, n, "ECDSA [ SECP256R1] 256 sign");
  CHECK(s && fabs(s->value - 12.480e9 / 2) < 1); /* total / count */
  free(rows);
}

static void mbedtls_rows(void) {
  const char *bare =
      "  SHA-256                  :          2 KiB/s,        150 cycles/byte\n"
      "merlin-agree: row=SHA-256 calls=1024 bytes=1024 ticks=157673161\n"
      "  ECDSA-secp256r1          :       0 sign/s\n"
      "merlin-agree: row=ECDSA-secp256r1 calls=1 ticks=15149258\n"
      "  RSA-2048                 :       0  public/s\n"
      "merlin-agree: row=RSA-2048 calls=1 ticks=7355952\n"
      "  RSA-3072                 :  FAILED: -0x4080\n";
  mh_ag_row *rows = NULL;
  size_t n = 0;
  char err[128];
  CHECK(mh_ag_parse("mbedtls", bare, 1, &rows, &n, err, sizeof err) == 0);
  CHECK(n == 3);
  const mh_ag_row *e = mh_ag_find(rows, n, "ECDSA-secp256r1 sign");
  CHECK(e && e->value == 15149258.0);
  CHECK(mh_ag_find(rows, n, "RSA-2048 public") != NULL);
  const mh_ag_row *h = mh_ag_find(rows, n, "SHA-256");
  CHECK(h && h->rate && fabs(h->value - 157673161.0 / 1048576.0) < 1e-9);
  free(rows);
  rows = NULL;
  n = 0;
  const char *host =
      "  SHA-256                  :      83818 KiB/s,          8 "
      "cycles/byte\n"
      "  ECDSA-secp256r1          :    1614 sign/s\n";
  CHECK(mh_ag_parse("mbedtls", host, 0, &rows, &n, err, sizeof err) == 0);
  e = mh_ag_find(rows, n, "ECDSA-secp256r1 sign");
  CHECK(e && fabs(e->value - 1e9 / 1614.0) < 1e-6);
  free(rows);
  rows = NULL;
  n = 0;
  CHECK(mh_ag_parse("mbedtls", "nothing\n", 0, &rows, &n, err, sizeof err) ==
        -1);
  free(rows);
}

static void mapping_and_table(void) {
  mh_ag_map *m = NULL;
  size_t n = 0;
  char err[160];
  CHECK(mh_ag_map_parse("# comment\nmbedtls\tSHA-256\tsha256\thash\tkib\tsame\n"
                        "mbedtls\tRSA-2048 public\trsa-2048\tverify\tcall\t"
                        "differs: the bare public operation\n",
                        &m, &n, err, sizeof err) == 0);
  CHECK(n == 2 && m[0].kind == MH_AG_KIB && m[1].kind == MH_AG_CALL);
  mh_ag_line l = {.map = &m[0], .theirs = 100, .merlin = 100.5, .n = 1};
  char buf[512];
  mh_ag_format_line(buf, sizeof buf, &l, "instructions", 0.01, NULL);
  CHECK(strstr(buf, "| agrees |") != NULL);
  CHECK(!mh_ag_unexplained(&l, 0.01));
  l.merlin = 102;
  CHECK(mh_ag_unexplained(&l, 0.01));
  l.map = &m[1];
  CHECK(!mh_ag_unexplained(&l, 0.01));
  mh_ag_format_line(buf, sizeof buf, &l, "instructions", 0.01, NULL);
  CHECK(strstr(buf, "differs: the bare public operation") != NULL);
  free(m);
  CHECK(mh_ag_map_parse("mbedtls\tSHA-256\tsha256\thash\tsometimes\tsame\n", &m,
                        &n, err, sizeof err) == -1);
  CHECK(strstr(err, "line 1") != NULL);
}

/* Every generated table of docs/operations.md has the command's header and
 * rows of its seven cells. */
static void docs_tables(void) {
  char *buf = NULL, err[256];
  size_t len;
  CHECK(mh_read_file(MERLIN_SOURCE_DIR "/docs/operations.md", 1 << 22, &buf,
                     &len, err, sizeof err) == 0);
  if (!buf)
    return;
  const char *head = mh_ag_table_header();
  size_t tables = 0;
  for (const char *p = strstr(buf, "<!-- merlin agree "); p;
       p = strstr(p + 1, "<!-- merlin agree ")) {
    const char *end = strstr(p, "<!-- /merlin agree -->");
    const char *h = strstr(p, "| operation |");
    CHECK(end && h && h < end);
    if (!end || !h || h > end)
      continue;
    CHECK(strncmp(h, head, strlen(head)) == 0);
    for (const char *r = h + strlen(head); r < end && *r == '|';
         r = strchr(r, '\n') + 1) {
      size_t bars = 0;
      for (const char *c = r; *c && *c != '\n'; c++)
        bars += *c == '|';
      CHECK(bars == 8);
    }
    tables++;
  }
  CHECK(tables >= 2);
  free(buf);
}

int main(void) {
  wolfcrypt_rows();
  mbedtls_rows();
  mapping_and_table();
  docs_tables();
  return check_report();
}
