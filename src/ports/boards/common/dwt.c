/* SPDX-License-Identifier: Apache-2.0 */
/* DWT CYCCNT extended to 64 bits (board.h). */
#include "board.h"
#include "port.h"

static volatile uint32_t cyc_high, cyc_last;

/* Interrupts masked by the caller. */
static uint64_t extend(void) {
  uint32_t now = BRD_DWT_CYCCNT;
  if (now < cyc_last)
    cyc_high++;
  cyc_last = now;
  return ((uint64_t)cyc_high << 32) | now;
}

/* Runs every 2^24 cycles, so no wrap of the 32-bit CYCCNT goes unseen. Its
 * few dozen cycles land in any sample it interrupts (about 3 ppm). */
void SysTick_Handler(void) { (void)extend(); }

void brd_dwt_start(void) {
  BRD_DEMCR |= 1u << 24; /* TRCENA: enable DWT and ITM */
  BRD_DWT_CYCCNT = 0;
  BRD_DWT_CTRL |= 1u; /* CYCCNTENA */
  cyc_high = cyc_last = 0;
  /* SysTick on the processor clock (CLKSOURCE=1), interrupt on (TICKINT),
   * reload 2^24 - 1 (Armv7-M ARM B3.3.3). */
  CM_SYST_RVR = 0x00FFFFFFu;
  CM_SYST_CVR = 0;
  CM_SYST_CSR = 7u;
}

uint64_t brd_dwt_read(void) {
  uint32_t primask;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  uint64_t v = extend();
  __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
  return v;
}

/* The counter of every board port that links this file (port.h): core
 * cycles. */
uint64_t mport_counter_read(void) { return brd_dwt_read(); }
