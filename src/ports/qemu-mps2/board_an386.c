/* SPDX-License-Identifier: Apache-2.0 */
/*
 * QEMU mps2-an386 (Cortex-M4F, Arm AN386; QEMU hw/arm/mps2.c).
 *
 * Console: CMSDK APB UART0 at 0x40004000.
 * Counter: CMSDK APB TIMER0 at 0x40000000, a 32-bit down-counter on the
 * 25 MHz peripheral clock, extended to 64 bits by counting its wraps (IRQ 8).
 * A 32-bit timer wraps every 2^32 ticks (about 1.3e9 instructions at the
 * host's icount shift), so its interrupt handler almost never runs inside a
 * sample; SysTick (24-bit) would wrap every 5e6 instructions and add its
 * handler's instructions to any longer operation.
 *
 * Under -icount shift=N every instruction advances virtual time by 2^N ns;
 * one tick is 40 ns. The host converts ticks to instructions (see
 * docs/wire-format.md).
 */
#include "cortexm.h"
#include "port.h"

#define UART0 0x40004000u
#define UART_DATA CM_REG(UART0 + 0x00u)
#define UART_STATE CM_REG(UART0 + 0x04u)
#define UART_CTRL CM_REG(UART0 + 0x08u)
#define UART_BAUDDIV CM_REG(UART0 + 0x10u)

#define TIMER0 0x40000000u
#define TIMER_CTRL CM_REG(TIMER0 + 0x00u)
#define TIMER_VALUE CM_REG(TIMER0 + 0x04u)
#define TIMER_RELOAD CM_REG(TIMER0 + 0x08u)
#define TIMER_INTCLEAR CM_REG(TIMER0 + 0x0Cu)
#define TIMER0_IRQ 8u

static const mport_part part = {
    .target = MERLIN_TARGET_ID,
    .core = MERLIN_CORE,
    .clock_hz = 25000000u,
    .counter = "cmsdk-timer0",
    .unit = "ticks",
    .counter_hz = 25000000u,
    /* DWT CYCCNT reads 0 under QEMU: there is no cycle counter to use. */
    .cycle_counter = "none: DWT CYCCNT does not count under QEMU",
    /* Far above the resolution of one tick. */
    .min_sample_ticks = 1000,
    /* 2^34 ticks = 5.4e9 instructions per operation (about 20 s of QEMU
     * time here); past it fewer samples are taken. */
    .budget_ticks = (uint64_t)1 << 34,
    .flash_bytes = 4u << 20,
    .ram_bytes = 4u << 20,
};

const mport_part *mport_describe(void) { return &part; }

static volatile uint32_t timer_wraps;

void cortexm_board_init(void) {
  UART_BAUDDIV = 16; /* the smallest divider the CMSDK UART accepts */
  UART_CTRL = 1u;    /* TX enable */

  TIMER_CTRL = 0;
  TIMER_RELOAD = 0xFFFFFFFFu;
  TIMER_VALUE = 0xFFFFFFFFu;
  TIMER_INTCLEAR = 1u;
  CM_NVIC_ISER0 = 1u << TIMER0_IRQ;
  TIMER_CTRL = 1u | 8u; /* enable, interrupt enable */
}

void cortexm_board_irq(uint32_t irqn) {
  if (irqn == TIMER0_IRQ) {
    TIMER_INTCLEAR = 1u;
    timer_wraps++;
  }
}

#define NVIC_ISPR0 CM_REG(0xE000E200u)

uint64_t mport_counter_read(void) {
  uint32_t primask, wraps, value;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  wraps = timer_wraps;
  value = TIMER_VALUE;
  /* A wrap that happened but is not serviced yet (pending in the NVIC):
   * count it and re-read the value, which is now past the wrap. */
  if (NVIC_ISPR0 & (1u << TIMER0_IRQ)) {
    wraps++;
    value = TIMER_VALUE;
  }
  __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
  return ((uint64_t)wraps << 32) + (0xFFFFFFFFu - value);
}

void cortexm_board_putc(char c) {
  while (UART_STATE & 1u) /* TX buffer full */
    ;
  UART_DATA = (uint8_t)c;
}
