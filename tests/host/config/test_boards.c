/* SPDX-License-Identifier: Apache-2.0 */
/* Board files (boards/NAME.board): the parser's errors, the shipped files,
 * and the fits verdict. */
#include "check.h"
#include "config/boards.h"
#include "run/cycles.h"

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

#define QEMU_T                                                                 \
  "kind = qemu\n"                                                              \
  "description = d\n"                                                          \
  "unit = instructions\n"                                                      \
  "cpu_flags = -mcpu=cortex-m4\n"                                              \
  "toolchain = cmake/toolchain-arm-none-eabi.cmake\n"                          \
  "qemu_machine = mps2-an386\n"                                                \
  "qemu_cpu = cortex-m4\n"                                                     \
  "icount_shift = 7\n"                                                         \
  "port_sources = a.c b.c\n"                                                   \
  "linker_script = x.ld\n"                                                     \
  "cycle_model = m4\n"

/* A descriptor: what each kind needs, and what does not belong in it. */
static void test_descriptor(void) {
  const char *good = "name = T\npart = p\ncore = cortex-m4\ntarget = t\n"
                     "clock_hz = 1\nflash_bytes = 1\nram_bytes = 1\n"
                     "counter = c\nsource = s\n" QEMU_T;
  mh_board b;
  char err[512];
  CHECK(mh_board_parse("boards/t.board", "t", good, strlen(good), &b, err,
                       sizeof err) == 0);
  CHECK(strcmp(b.kind, "qemu") == 0 && b.icount_shift == 7);
  CHECK(strcmp(b.port_sources, "a.c b.c") == 0 && b.flash_hint == NULL);
  mh_board_free(&b);
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", good);
  *strstr(buf, "qemu_cpu") = '#'; /* comment the line out */
  expect_error(buf, "boards/t.board: missing 'qemu_cpu' (kind = qemu)");
  snprintf(buf, sizeof buf, "%sflash_hint = x\n", good);
  expect_error(buf, "'flash_hint' does not belong in kind = qemu");
  /* --cc clang's driver: clang or clang-N, with the line */
  snprintf(buf, sizeof buf, "%sclang = clang-19\nclang_cpu_flags = -mcpu=x\n",
           good);
  CHECK(mh_board_parse("boards/t.board", "t", buf, strlen(buf), &b, err,
                       sizeof err) == 0);
  CHECK(strcmp(b.clang, "clang-19") == 0 &&
        strcmp(b.clang_cpu_flags, "-mcpu=x") == 0);
  mh_board_free(&b);
  snprintf(buf, sizeof buf, "%sclang = gcc\n", good);
  expect_error(buf, "boards/t.board:21: 'clang' must be clang or clang-N");
  snprintf(buf, sizeof buf, "%sclang = clang-\n", good);
  expect_error(buf, "'clang' must be clang or clang-N");
  expect_error(GOOD "clang = clang\n",
               "'clang' does not belong in a part-only file (no kind)");
  expect_error(GOOD "qemu_cpu = cortex-m4\n",
               "'qemu_cpu' does not belong in a part-only file (no kind)");
  snprintf(buf, sizeof buf, "%s", good);
  memcpy(strstr(buf, "kind = qemu"), "kind = xemu", 11);
  expect_error(buf,
               "unknown kind 'xemu' (valid: native, qemu-user, qemu, board)");
  snprintf(buf, sizeof buf, "%s", good);
  memcpy(strstr(buf, "target = t"), "target = u", 10);
  expect_error(buf, "a target's descriptor is named after it");
  const char *native = "name = h\nkind = native\ndescription = d\nunit = ns\n"
                       "port_sources = p.c\ncycle_model = none: timed\n";
  CHECK(mh_board_parse("boards/t.board", "t", native, strlen(native), &b, err,
                       sizeof err) == 0);
  CHECK(b.clock_hz == 0 && b.part == NULL);
  char why[160];
  CHECK(mh_board_fits(&b, "cortex-m4", 1, 1, why, sizeof why) == -1);
  CHECK_CONTAINS(why, "describes no part");
  mh_board_free(&b);
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
  /* Every descriptor, the host's too, parses; every target names a cycle
   * model the plugin has, or none with a reason. */
  CHECK(mh_boards_load_all(MERLIN_SOURCE_DIR, 1, &bs, &n, err, sizeof err) ==
        0);
  size_t targets = 0;
  for (size_t i = 0; i < n; i++) {
    if (!bs[i].kind)
      continue;
    targets++;
    const char *m = bs[i].cycle_model;
    CHECK(strncmp(m, "none: ", 6) == 0 ||
          (mh_cycles_choice_valid(m) && strcmp(m, "auto") != 0 &&
           strcmp(m, "off") != 0));
  }
  CHECK(targets >= 11);
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
  test_descriptor();
  test_shipped();
  test_fits();
  return check_report();
}
