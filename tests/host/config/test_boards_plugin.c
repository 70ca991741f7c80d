/* SPDX-License-Identifier: Apache-2.0 */
/* The board reader in front of the cycle plugin's own argument checks
 * (tools/qemu-plugin/memsys.c, linked in): every part the reader accepts
 * gives memory-system arguments the plugin accepts, so the plugin's checks
 * are never what stops a run; every hostile value is refused by the reader
 * first, and the plugin, given it anyway, refuses it too (defence). */
#include "check.h"
#include "config/boards.h"
#include "memsys.h"
#include "run/board_model.h"

#include <stdlib.h>
#include <string.h>

#define PART                                                                   \
  "name = P\npart = p\ncore = cortex-m4\ntarget = none\nclock_hz = 1\n"        \
  "flash_bytes = 1\nram_bytes = 1\ncounter = c\nsource = s\n"                  \
  "memory_source = m\n"

/* The plugin parses args (comma-separated, as merlin passes them) and sets
 * its memory system up. 0, or -1 with its message. */
static int plugin_takes(const char *args, char *err, size_t errlen) {
  char buf[1024];
  int rc = 0;
  snprintf(buf, sizeof buf, "%s", args);
  mc_mem_reset();
  for (char *a = strtok(buf, ","); a && rc == 0; a = strtok(NULL, ","))
    rc = mc_mem_arg(a, err, errlen) == 1 ? 0 : -1;
  if (rc == 0)
    rc = mc_mem_finish(0, err, errlen);
  mc_mem_reset();
  return rc;
}

/* A part the reader accepts: its arguments pass the plugin. */
static void accepted(const char *text) {
  mh_board b;
  char err[1024];
  int ok =
      mh_board_parse("t", "t", text, strlen(text), &b, err, sizeof err) == 0;
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "refused: %s\n", err);
    return;
  }
  char *args = mh_board_model_mem(&b, 0x0, 0x200000);
  CHECK(args && plugin_takes(args, err, sizeof err) == 0);
  if (args && plugin_takes(args, err, sizeof err) != 0)
    fprintf(stderr, "plugin refused %s: %s\n", args, err);
  free(args);
  mh_board_free(&b);
}

static void test_accepted(void) {
  mh_board *bs;
  size_t n;
  char err[1024];
  CHECK(mh_boards_load(MERLIN_SOURCE_DIR, &bs, &n, err, sizeof err) == 0);
  size_t modelled = 0;
  for (size_t i = 0; i < n; i++) {
    if (!bs[i].runs_from)
      continue;
    char *args = mh_board_model_mem(&bs[i], 0x0, 0x200000);
    CHECK(args && plugin_takes(args, err, sizeof err) == 0);
    free(args);
    modelled++;
  }
  CHECK(modelled >= 5);
  mh_boards_free(bs, n);
  /* the edges of the table */
  static const char *const edges[] = {
      PART "runs_from = flash\nflash_miss_cycles = 0\n",
      PART "runs_from = flash\nflash_miss_cycles = 1000\nprefetch = yes\n",
      PART "runs_from = flash\nflash_miss_cycles = 1\nicache = 1/1/1\n",
      PART "runs_from = flash\nflash_miss_cycles = 1\nicache = 16777216/1/1\n",
      PART "runs_from = flash\nflash_miss_cycles = 1\n"
           "icache = 16777216/16777216/1\ndcache = 16777216/1/16777216\n",
      PART "runs_from = flash\nflash_miss_cycles = 1\n"
           "icache = 16777216/16/1048576\nunified_cache = yes\n",
      PART "runs_from = sram\n",
      /* leading zeros past the plugin's old 64-character copy (fuzz_boards,
       * 2026-12-06) */
      PART "runs_from = flash\nflash_miss_cycles = 1\ndcache = "
           "0000000000000000000000000000000000000000000000000000000000000000"
           "0000000000000000000000000000000000000000000000000000016/16/1\n",
  };
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
    accepted(edges[i]);
}

/* The reader refuses text with needle; the plugin refuses arg (NULL: the
 * plugin never sees the key). */
static void refused(const char *text, const char *needle, const char *arg) {
  mh_board b;
  char err[1024];
  CHECK(mh_board_parse("t", "t", text, strlen(text), &b, err, sizeof err) ==
        -1);
  CHECK_CONTAINS(err, needle);
  int taken = arg && plugin_takes(arg, err, sizeof err) == 0;
  CHECK(!taken);
  if (taken)
    fprintf(stderr, "the plugin takes %s\n", arg);
}

static void test_refused(void) {
#define FLASH PART "runs_from = flash\nflash_miss_cycles = 5\n"
  refused(FLASH "icache = 1024/9223372036854775808/2\n",
          "LINE x WAYS is more than BYTES",
          "flash=0x0-0x1000,ic=1024/9223372036854775808/2");
  refused(FLASH "dcache = 33554432/32/4\n", "BYTES out of range",
          "flash=0x0-0x1000,dc=33554432/32/4");
  refused(FLASH "icache = 3072/16/64\n", "is not a power of two",
          "flash=0x0-0x1000,ic=3072/16/64");
  refused(FLASH "icache = -1024/16/4\n", "not BYTES/LINE/WAYS",
          "flash=0x0-0x1000,ic=-1024/16/4");
  refused(FLASH "icache = 1024/16/-1\n", "not BYTES/LINE/WAYS",
          "flash=0x0-0x1000,ic=1024/16/-1");
  refused(PART "runs_from = flash\nflash_miss_cycles = 1001\n", "out of range",
          "miss=1001");
  refused(PART "runs_from = flash\nflash_miss_cycles = -5\n",
          "not a whole number", "miss=-5");
  /* -(2^64 - 5): strtoul wraps it to 5 */
  refused(PART "runs_from = flash\nflash_miss_cycles = "
               "-18446744073709551611\n",
          "not a whole number", "miss=-18446744073709551611");
  refused(FLASH "icache = 1024/16/4\ndcache = 128/16/8\nunified_cache = yes\n",
          "unified_cache = yes excludes 'dcache'",
          "flash=0x0-0x1000,ic=1024/16/4,dc=128/16/8,unified=1");
  refused(FLASH "prefetch = 2\n", "allowed: yes, no", "prefetch=2");
  refused(FLASH "runs_from = rom\n", "given twice", NULL);
  refused(PART "runs_from = rom\n", "allowed: flash, sram", NULL);
  /* --flash-ws's range, the plugin's ws= */
  unsigned long ws;
  CHECK(mc_arg_uint("15", 15, &ws) == 0 && ws == 15);
  CHECK(mc_arg_uint("16", 15, &ws) == -1 && mc_arg_uint("-1", 15, &ws) == -1);
  CHECK(mc_arg_uint("2", 1, &ws) == -1 && mc_arg_uint("1", 1, &ws) == 0);
  CHECK(mc_arg_uint("", 15, &ws) == -1 && mc_arg_uint("1x", 15, &ws) == -1);
}

int main(void) {
  test_accepted();
  test_refused();
  return check_report();
}
