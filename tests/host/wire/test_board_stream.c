/* SPDX-License-Identifier: Apache-2.0 */
/* The host side of a real board's stream (docs/targets.md): the board
 * targets' table entries, their conversion of counter ticks (core cycles)
 * to the unit "cycles", and a board begin record with the measured clock
 * and the wall clock carried into provenance. The stream is a fixture
 * written here, not a measurement. */
#include "check.h"
#include "config/targets.h"
#include "crc32.h"
#include "model/model.h"
#include "wire/wire.h"

#include <inttypes.h>
#include <stdlib.h>

static void add(char *buf, size_t cap, unsigned seq, const char *body) {
  char l[2048];
  int k = snprintf(l, sizeof l, "@M1 %u %s", seq, body);
  uint32_t crc = mcore_crc32(0, l, (size_t)k);
  size_t n = strlen(buf);
  snprintf(buf + n, cap - n, "%s #%08" PRIx32 "\r\n", l, crc);
}

int main(void) {
  static const char *const boards[] = {"nrf5340dk-app", "nucleo-f439zi",
                                       "rp2040-pico", "nucleo-h573zi"};
  char err[512];
  double t2u = 0;
  for (size_t i = 0; i < 4; i++) {
    const mh_target *t = mh_target_find(boards[i]);
    CHECK(t != NULL);
    if (!t)
      continue;
    CHECK(t->kind == MH_EXEC_BOARD);
    CHECK(strcmp(t->unit, "cycles") == 0);
    CHECK(t->icount_shift == -1);
    CHECK(t->flash_hint && strstr(t->flash_hint, "IMAGE"));
    CHECK(mh_target_ticks_to_unit(t, "ticks", "168000000", &t2u, err,
                                  sizeof err) == 0);
    CHECK_EQ_DBL(t2u, 1.0, 0);
    /* A counter in nanoseconds is not a board's cycle counter. */
    CHECK(mh_target_ticks_to_unit(t, "ns", "1000000000", &t2u, err,
                                  sizeof err) != 0);
    CHECK_CONTAINS(err, "core cycles");
  }

  static char buf[16384];
  unsigned s = 0;
  add(buf, sizeof buf, s++,
      "begin v=1 target=nucleo-f439zi core=cortex-m4 clock_hz=168000000 "
      "counter=dwt-cyccnt unit=ticks counter_hz=168000000 "
      "cycle_counter=dwt-cyccnt clock_measured_hz=167999512 "
      "wallclock=tim2%201%20MHz compiler=gcc cflags=-O2 profile=default "
      "source=abc runs=3 warmup=1 stack_probe_bytes=64 stack_capacity=60000 "
      "lib.wolfcrypt=5.9.2 route.sha256=wolfcrypt:c");
  add(buf, sizeof buf, s++,
      "op id=0 alg=sha256 op=hash backend=wolfcrypt variant=c bytes=64");
  add(buf, sizeof buf, s++, "overhead ticks=4");
  add(buf, sizeof buf, s++, "kat id=0 result=pass");
  add(buf, sizeof buf, s++, "plan id=0 batch=1 warmup=1 n=3");
  add(buf, sizeof buf, s++, "samples id=0 i=0 v=1504,1500,1508");
  add(buf, sizeof buf, s++, "opend id=0 n=3 stack=900 heap=0 allocs=0");
  char end[64];
  snprintf(end, sizeof end, "end records=%u status=ok", s);
  add(buf, sizeof buf, s++, end);

  mh_run run;
  mh_wire_error e;
  memset(&e, 0, sizeof e);
  CHECK(mh_wire_parse(buf, strlen(buf), &run, &e) == 0);
  CHECK_CONTAINS(mh_run_prov(&run, "clock_measured_hz"), "167999512");
  CHECK_CONTAINS(mh_run_prov(&run, "wallclock"), "tim2 1 MHz");
  const mh_target *t = mh_target_find("nucleo-f439zi");
  CHECK(mh_target_ticks_to_unit(t, mh_run_prov(&run, "unit"),
                                mh_run_prov(&run, "counter_hz"), &t2u, err,
                                sizeof err) == 0);
  CHECK(mh_run_finish(&run, t2u, t->unit, t->icount_shift, err, sizeof err) ==
        0);
  CHECK(run.n_ops == 1);
  if (run.n_ops == 1) {
    /* Samples minus the 4-tick overhead, in cycles. */
    CHECK_EQ_DBL(run.ops[0].stats.median, 1500.0, 0);
    CHECK(strcmp(run.unit, "cycles") == 0);
  }
  mh_run_free(&run);
  return check_report();
}
