/* SPDX-License-Identifier: Apache-2.0 */
/*
 * QEMU mps3-an547 (Cortex-M55 with MVE, Arm Corstone SSE-300; QEMU
 * hw/arm/mps2-tz.c and hw/arm/armsse.c). The image runs in the Secure state
 * the core resets into, with the SAU off (every address Secure), so the
 * Secure-only control frames are reachable.
 *
 * Console: CMSDK APB UART0 at 0x49303000 (the same UART as on the mps2
 * machines, polled).
 * Counter: the SSE-300 System Counter (QEMU hw/timer/sse-counter.c), a
 * 64-bit count of the 32 MHz MAINCLK, read from its Secure control frame at
 * 0x58100000 (CNTCR at +0x00, CNTCV at +0x08/+0x0C; Arm Corstone SSE-300
 * TRM, "System counter"). 64 bits never wrap, so no interrupt is needed: the
 * SSE-300 has no CMSDK TIMER0 at 0x40000000 like the mps2 machines, and its
 * System Timers only compare against this count.
 *
 * Under -icount shift=N every instruction advances virtual time by 2^N ns;
 * one tick is 31.25 ns. The host converts ticks to instructions (see
 * docs/wire-format.md).
 */
#include "cortexm.h"
#include "port.h"

#define UART0 0x49303000u
#define UART_DATA CM_REG(UART0 + 0x00u)
#define UART_STATE CM_REG(UART0 + 0x04u)
#define UART_CTRL CM_REG(UART0 + 0x08u)
#define UART_BAUDDIV CM_REG(UART0 + 0x10u)

#define CNTCONTROL 0x58100000u
#define CNTCR CM_REG(CNTCONTROL + 0x00u)
#define CNTCV_LO CM_REG(CNTCONTROL + 0x08u)
#define CNTCV_HI CM_REG(CNTCONTROL + 0x0Cu)

/* The System Counter counts MAINCLK (32 MHz in QEMU hw/arm/mps2-tz.c):
 * clock_hz of boards/qemu-m55.board (cmake/target.cmake). */
#define MAINCLK_HZ MERLIN_PART_CLOCK_HZ

static const mport_part part = {
    .target = MERLIN_TARGET_ID,
    .core = MERLIN_CORE,
    .clock_hz = MAINCLK_HZ,
    .counter = "sse300-syscounter",
    .unit = "ticks",
    .counter_hz = MAINCLK_HZ,
    /* DWT CYCCNT reads 0 under QEMU: there is no cycle counter to use. */
    .cycle_counter = "none: DWT CYCCNT does not count under QEMU",
    /* Far above the resolution of one tick. */
    .min_sample_ticks = 1000,
    /* 2^34 ticks at 25 MHz on the mps2 targets = 5.4e9 instructions per
     * operation; the same instruction budget at 32 MHz. Past it fewer
     * samples are taken. */
    .budget_ticks = ((uint64_t)1 << 34) * MAINCLK_HZ / 25000000u,
    /* The ITCM holds the vector table only; code goes to the 2 MB SRAM
     * (mps3-an547.ld). */
    .flash_bytes = MERLIN_PART_FLASH_BYTES,
    .ram_bytes = MERLIN_PART_RAM_BYTES,
};

const mport_part *mport_describe(void) { return &part; }

void cortexm_board_init(void) {
  UART_BAUDDIV = 16; /* the smallest divider the CMSDK UART accepts */
  UART_CTRL = 1u;    /* TX enable */
  CNTCR = 1u;        /* EN: the counter counts from 0 */
}

/* No device interrupt is enabled. */
void cortexm_board_irq(uint32_t irqn) { (void)irqn; }

uint64_t mport_counter_read(void) {
  /* Two 32-bit reads: re-read when the high word moved in between. */
  uint32_t hi, lo;
  do {
    hi = CNTCV_HI;
    lo = CNTCV_LO;
  } while (CNTCV_HI != hi);
  return ((uint64_t)hi << 32) | lo;
}

void cortexm_board_putc(char c) {
  while (UART_STATE & 1u) /* TX buffer full */
    ;
  UART_DATA = (uint8_t)c;
}
