/* SPDX-License-Identifier: Apache-2.0 */
/* The shared formatting helpers (host/report/format.c) and the one string
 * comparison of the model (mh_str_same). */
#include "check.h"
#include "report/format.h"

#include <stdlib.h>

static void test_number(void) {
  static const struct {
    double v;
    const char *want;
  } cases[] = {
      {0, "0"},
      {1234567, "1,234,567"},
      {-1234, "-1,234"},
      {12.5, "12.5"},
      {1.25, "1.25"},
      {0.1234, "0.123"},
      {999.96, "1,000.0"},
      {-0.0001, "0.000"},
      {1234.6, "1,235"},
      /* past every count: whole, never cut (issue 43, a cost of 1.2e301) */
      {1.2e301, "1.2e+301"},
      {-1.2e301, "-1.2e+301"},
      {999999999999999872.0, "999,999,999,999,999,872"},
      {1e18, "1e+18"},
      {123456789012345678901.0, "1.2345678901234568e+20"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char buf[96];
    mh_format_number(cases[i].v, buf, sizeof buf);
    CHECK(strcmp(buf, cases[i].want) == 0);
    if (strcmp(buf, cases[i].want) != 0)
      fprintf(stderr, "  %g: got %s, want %s\n", cases[i].v, buf,
              cases[i].want);
  }
}

static void test_cells(void) {
  mh_sb b = {0};
  mh_esc_md(&b, "a|b\nc");
  mh_esc_md(&b, NULL);
  CHECK(strcmp(b.s, "a\\|b c") == 0);
  mh_sb_free(&b);
  mh_op o = {0};
  char alg[] = "sha256", op[] = "hash", be[] = "x|y";
  o.alg = alg, o.op = op, o.backend = be, o.bytes = 64;
  mh_fmt_md_op_cells(&b, &o);
  CHECK(strcmp(b.s, "| sha256 hash 64 B | x\\|y") == 0);
  mh_sb_free(&b);
  const double v[] = {1234, 0.5};
  mh_fmt_nums(&b, " | ", v, 2);
  mh_fmt_md_ratio(&b, 3, 2);
  mh_fmt_md_ratio(&b, 3, 0);
  CHECK(strcmp(b.s, " | 1,234 | 0.500 | 1.50 | –") == 0);
  mh_sb_free(&b);
}

static void test_same(void) {
  CHECK(mh_str_same(NULL, NULL)); /* absent from both: the same */
  CHECK(!mh_str_same("a", NULL) && !mh_str_same(NULL, "a"));
  CHECK(mh_str_same("a", "a") && !mh_str_same("a", "b"));
}

int main(void) {
  test_number();
  test_cells();
  test_same();
  return check_report();
}
