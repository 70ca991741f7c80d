/* SPDX-License-Identifier: Apache-2.0 */
/*
 * QEMU mps2-an385 (Cortex-M3, Arm AN385), mps2-an386 (Cortex-M4F, AN386),
 * mps2-an500 (Cortex-M7, AN500) and mps2-an505 (Cortex-M33, AN505).
 *
 * QEMU hw/arm/mps2.c gives an385, an386 and an500 the same memory map (4 MB
 * ZBT SSRAM1 at 0, 4 MB ZBT SSRAM2/3 at 0x20000000) and the same CMSDK APB
 * peripherals at the same addresses and interrupt numbers: the defaults
 * below. The ARMv6-M build (qemu-m0plus) runs on mps2-an385 too. The an505
 * (QEMU hw/arm/mps2-tz.c, the IoT Kit in hw/arm/armsse.c) moves UART0 to
 * 0x40200000, and its counter is the IoT Kit's CMSDK TIMER0 at 0x40000000
 * (IRQ 3) on the 20 MHz MAINCLK; port_defines of boards/qemu-m33.board
 * override the MPS2_* settings. The target's descriptor also gives the
 * target, core and clock (MERLIN_TARGET_ID, MERLIN_CORE,
 * MERLIN_PART_CLOCK_HZ: cmake/target.cmake).
 *
 * Console: CMSDK APB UART0.
 * Counter: CMSDK APB TIMER0, a 32-bit down-counter on the peripheral clock,
 * extended to 64 bits by counting its wraps (its interrupt).
 * A 32-bit timer wraps every 2^32 ticks (about 1.3e9 instructions at the
 * host's icount shift), so its interrupt handler almost never runs inside a
 * sample; SysTick (24-bit) would wrap every 5e6 instructions and add its
 * handler's instructions to any longer operation.
 *
 * Under -icount shift=N every instruction advances virtual time by 2^N ns;
 * one tick is 40 ns at 25 MHz (50 ns at 20 MHz). The host converts ticks to
 * instructions (see docs/wire-format.md).
 */
#include "cortexm.h"
#include "port.h"

#ifndef MPS2_UART0_BASE
#define MPS2_UART0_BASE 0x40004000u
#endif
#ifndef MPS2_TIMER0_BASE
#define MPS2_TIMER0_BASE 0x40000000u
#endif
#ifndef MPS2_TIMER0_IRQ
#define MPS2_TIMER0_IRQ 8u
#endif
/* Test images only (MERLIN_TEST_TIMER_BITS, cmake/MerlinImage.cmake): a
 * shorter timer period, so that a sample spans many wraps and the host's
 * wrap accounting is exercised (tests/cycles). 32 in every other image,
 * where the code below compiles to the plain 32-bit shift. */
#ifndef MPS2_TIMER_BITS
#define MPS2_TIMER_BITS 32
#endif
#define TIMER_TOP ((uint32_t)(((uint64_t)1 << MPS2_TIMER_BITS) - 1u))
/* The peripheral clock the timer counts (SYSCLK_FRQ in QEMU): clock_hz of
 * the target's descriptor, boards/<target>.board (cmake/target.cmake). */
#define MPS2_SYSCLK_HZ MERLIN_PART_CLOCK_HZ

#define UART0 MPS2_UART0_BASE
#define UART_DATA CM_REG(UART0 + 0x00u)
#define UART_STATE CM_REG(UART0 + 0x04u)
#define UART_CTRL CM_REG(UART0 + 0x08u)
#define UART_BAUDDIV CM_REG(UART0 + 0x10u)

#define TIMER0 MPS2_TIMER0_BASE
#define TIMER_CTRL CM_REG(TIMER0 + 0x00u)
#define TIMER_VALUE CM_REG(TIMER0 + 0x04u)
#define TIMER_RELOAD CM_REG(TIMER0 + 0x08u)
#define TIMER_INTCLEAR CM_REG(TIMER0 + 0x0Cu)
#define TIMER0_IRQ MPS2_TIMER0_IRQ

static const mport_part part = {
    .target = MERLIN_TARGET_ID,
    .core = MERLIN_CORE,
    .clock_hz = MPS2_SYSCLK_HZ,
    .counter = "cmsdk-timer0",
    .unit = "ticks",
    .counter_hz = MPS2_SYSCLK_HZ,
    /* DWT CYCCNT reads 0 under QEMU: there is no cycle counter to use. */
    .cycle_counter = "none: DWT CYCCNT does not count under QEMU",
    /* Far above the resolution of one tick. */
    .min_sample_ticks = 1000,
    /* 2^34 ticks at 25 MHz = 5.4e9 instructions per operation (about 20 s
     * of QEMU time here); past it fewer samples are taken. Scaled to the
     * clock, so the budget in instructions is the same on every machine. */
    .budget_ticks = ((uint64_t)1 << 34) * MPS2_SYSCLK_HZ / 25000000u,
    .flash_bytes = MERLIN_PART_FLASH_BYTES,
    .ram_bytes = MERLIN_PART_RAM_BYTES,
};

const mport_part *mport_describe(void) { return &part; }

static volatile uint32_t timer_wraps;
/* The ticks of the periods mport_counter_restart cut short. */
static uint64_t timer_carried;

void cortexm_board_init(void) {
  UART_BAUDDIV = 16; /* the smallest divider the CMSDK UART accepts */
  UART_CTRL = 1u;    /* TX enable */

  TIMER_CTRL = 0;
  TIMER_RELOAD = TIMER_TOP;
  TIMER_VALUE = TIMER_TOP;
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
  return timer_carried + ((uint64_t)wraps << MPS2_TIMER_BITS) +
         (TIMER_TOP - value);
}

/* A wrap runs cortexm_board_irq, whose instructions count in the sample it
 * falls in: every sample starts at the top of a period (port.h), so a
 * sample crosses its wraps at the same points whatever ran before it. A
 * wrap already pending is counted first; the ticks of the period cut
 * short are carried. */
#define NVIC_ICPR0 CM_REG(0xE000E280u)
void mport_counter_restart(void) {
  uint32_t primask;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  uint32_t value = TIMER_VALUE;
  if (NVIC_ISPR0 & (1u << TIMER0_IRQ)) {
    TIMER_INTCLEAR = 1u;
    NVIC_ICPR0 = 1u << TIMER0_IRQ;
    timer_wraps++;
    value = TIMER_VALUE;
  }
  TIMER_VALUE = TIMER_TOP;
  timer_carried += TIMER_TOP - value;
  __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
}

void cortexm_board_putc(char c) {
  while (UART_STATE & 1u) /* TX buffer full */
    ;
  UART_DATA = (uint8_t)c;
}
