/* SPDX-License-Identifier: Apache-2.0 */
/* Board files (boards/NAME.board): the parser's errors, the shipped files,
 * and the fits verdict. */
#include "check.h"
#include "config/boards.h"

#include <stdlib.h>
#include <string.h>

#define GOOD                                                                   \
  "# comment\n"                                                                \
  "name = Test board\n"                                                        \
  "part = TB-1\n"                                                              \
  "core = cortex-m4\n"                                                         \
  "target = none\n"                                                            \
  "clock_hz = 64000000\n"                                                      \
  "flash_bytes = 524288\n"                                                     \
  "ram_bytes = 65536\n"                                                        \
  "counter = DWT CYCCNT\n"                                                     \
  "source = a reference manual, section 1\n"

static void expect_error(const char *text, const char *needle) {
  mh_board b;
  char err[512];
  CHECK(mh_board_parse("boards/t.board", "t", text, strlen(text), &b, err,
                       sizeof err) == -1);
  CHECK_CONTAINS(err, needle);
  CHECK(b.id == NULL && b.name == NULL);
}

static void test_parse(void) {
  mh_board b;
  char err[512];
  CHECK(mh_board_parse("boards/t.board", "t", GOOD, strlen(GOOD), &b, err,
                       sizeof err) == 0);
  CHECK(strcmp(b.id, "t") == 0 && strcmp(b.core, "cortex-m4") == 0);
  CHECK(b.ram_bytes == 65536 && b.flash_bytes == 524288);
  CHECK(b.clock_hz == 64000000);
  CHECK(strcmp(b.source, "a reference manual, section 1") == 0);
  mh_board_free(&b);

  expect_error("name = x\n", "boards/t.board: missing 'part'");
  expect_error(GOOD "ram_bytes = 1\n", "boards/t.board:11: 'ram_bytes' given "
                                       "twice (first on line 8)");
  expect_error(GOOD "colour = red\n",
               "boards/t.board:11: unknown key 'colour'");
  expect_error("name\n", "boards/t.board:1: expected 'key = value'");
  expect_error("ram_bytes = 64K\n", "'ram_bytes' must be a whole number");
  expect_error("ram_bytes = 0\n", "'ram_bytes' must not be 0");
  expect_error("name =\n", "'name' has no value");
}

static void test_shipped(void) {
  mh_board *bs;
  size_t n;
  char err[512];
  CHECK(mh_boards_load(MERLIN_SOURCE_DIR, &bs, &n, err, sizeof err) == 0);
  CHECK(n >= 6);
  int small = 0, large = 0, qemu = 0;
  for (size_t i = 0; i < n; i++) {
    small |= bs[i].ram_bytes <= 64 * 1024;
    large |= bs[i].ram_bytes >= 256 * 1024;
    qemu |= strcmp(bs[i].target, "qemu-m4") == 0;
    if (i)
      CHECK(strcmp(bs[i - 1].id, bs[i].id) < 0); /* sorted */
  }
  CHECK(small && large && qemu);
  mh_boards_free(bs, n);
}

static void test_fits(void) {
  mh_board b;
  char err[512], why[160];
  CHECK(mh_board_parse("t", "t", GOOD, strlen(GOOD), &b, err, sizeof err) == 0);
  CHECK(mh_board_fits(&b, "cortex-m4", 1000, 65536, why, sizeof why) == 1);
  CHECK(mh_board_fits(&b, "cortex-m4", 1000, 70000, why, sizeof why) == 0);
  CHECK_CONTAINS(why, "does not fit: needs 68.4 KB RAM, part has 64.0 KB");
  CHECK(mh_board_fits(&b, "cortex-m4", 600000, 100, why, sizeof why) == 0);
  CHECK_CONTAINS(why, "needs 585.9 KB flash, part has 512.0 KB");
  CHECK(mh_board_fits(&b, "cortex-m0plus", 1, 1, why, sizeof why) == -1);
  CHECK_CONTAINS(why, "not evaluated: figures measured on cortex-m0plus");
  mh_board_free(&b);
}

int main(void) {
  test_parse();
  test_shipped();
  test_fits();
  return check_report();
}
