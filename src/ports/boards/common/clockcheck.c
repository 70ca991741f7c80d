/* SPDX-License-Identifier: Apache-2.0 */
/* The core clock checked against an independent timer (board.h). */
#include "board.h"

uint64_t brd_measure_clock(uint64_t (*read_cycles)(void),
                           uint32_t (*read_timer)(void), uint32_t timer_hz) {
  uint32_t ticks = timer_hz / 10u;
  /* Start on a tick edge, so the window is ticks whole timer periods. */
  uint32_t t0 = read_timer();
  while (read_timer() == t0)
    ;
  t0 = read_timer();
  uint64_t c0 = read_cycles();
  while (read_timer() - t0 < ticks)
    ;
  uint64_t c1 = read_cycles();
  uint32_t t1 = read_timer();
  /* Cycles per tick window, scaled to one second of the timer. */
  return (c1 - c0) * timer_hz / (uint64_t)(t1 - t0);
}
