/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Raspberry Pi Pico (RP2040, dual Cortex-M0+; core 0 runs the image, core 1
 * stays asleep in the bootrom). Register level, no pico-sdk; reference:
 * RP2040 Datasheet (sections below) and the Pico Datasheet.
 *
 * Clock: the 12 MHz crystal oscillator (section 2.16, XOSC; startup delay
 * for about 1 ms) drives clk_ref; PLL_SYS (section 2.18.2): REFDIV 1,
 * FBDIV 133 (VCO 1596 MHz, at most 1600), POSTDIV1 6, POSTDIV2 2 -> 133 MHz
 * for clk_sys, switched glitchlessly through clk_ref (section 2.15.3);
 * clk_peri = clk_sys. 133 MHz is within the default 1.10 V core supply.
 *
 * Counter: no DWT on the M0+. SysTick on the processor clock counts core
 * cycles; its 24-bit wraps are counted by its interrupt (every 2^24 cycles,
 * 126 ms) and a pending wrap is read from ICSR.PENDSTSET, so reads are
 * 64-bit and exact (the handler's few cycles land in any sample it
 * interrupts). Independent clock: the 64-bit system TIMER (section 4.6) at
 * 1 MHz from the watchdog tick generator (section 4.7, clk_ref / 12).
 * Console: UART0 (PL011, section 4.2) on GP0 (TX) / GP1 (RX), 115200 8N1
 * (a USB-serial adapter or a debug probe's UART on pins 1 and 2).
 * Stack guard: none (startup.c programs the MPU only on ARMv7-M).
 */
#include "board.h"
#include "port.h"

/* Atomic register aliases (section 2.1.2): write-1-to-set / -clear. */
#define SET(addr) CM_REG((addr) + 0x2000u)
#define CLR(addr) CM_REG((addr) + 0x3000u)

#define RESETS 0x4000C000u
#define RESETS_RESET (RESETS + 0x0u)
#define RESETS_DONE CM_REG(RESETS + 0x8u)
#define RST_IO_BANK0 (1u << 5)
#define RST_PADS_BANK0 (1u << 8)
#define RST_PLL_SYS (1u << 12)
#define RST_TIMER (1u << 21)
#define RST_UART0 (1u << 22)

#define XOSC 0x40024000u
#define XOSC_CTRL CM_REG(XOSC + 0x00u)
#define XOSC_STATUS CM_REG(XOSC + 0x04u)
#define XOSC_STARTUP CM_REG(XOSC + 0x0Cu)

#define CLOCKS 0x40008000u
#define CLK_REF_CTRL CM_REG(CLOCKS + 0x30u)
#define CLK_REF_SELECTED CM_REG(CLOCKS + 0x38u)
#define CLK_SYS_CTRL CM_REG(CLOCKS + 0x3Cu)
#define CLK_SYS_SELECTED CM_REG(CLOCKS + 0x44u)
#define CLK_PERI_CTRL CM_REG(CLOCKS + 0x48u)

#define PLL_SYS 0x40028000u
#define PLL_CS CM_REG(PLL_SYS + 0x0u)
#define PLL_PWR (PLL_SYS + 0x4u)
#define PLL_FBDIV_INT CM_REG(PLL_SYS + 0x8u)
#define PLL_PRIM CM_REG(PLL_SYS + 0xCu)

#define WATCHDOG_TICK CM_REG(0x40058000u + 0x2Cu)
#define TIMER_TIMERAWL CM_REG(0x40054000u + 0x28u)

#define UART0 0x40034000u
#define UART_DR CM_REG(UART0 + 0x000u)
#define UART_FR CM_REG(UART0 + 0x018u)
#define UART_IBRD CM_REG(UART0 + 0x024u)
#define UART_FBRD CM_REG(UART0 + 0x028u)
#define UART_LCR_H CM_REG(UART0 + 0x02Cu)
#define UART_CR CM_REG(UART0 + 0x030u)

#define IO_BANK0_GPIO_CTRL(n) CM_REG(0x40014000u + 0x04u + 8u * (n))

#define XOSC_HZ 12000000u
#define SYS_HZ 133000000u
/* The part's clock is stated once, in the target's descriptor (clock_hz,
 * cmake/target.cmake); the clock set-up below is written for this value. */
_Static_assert(SYS_HZ == MERLIN_PART_CLOCK_HZ,
               "clock_hz of the descriptor is not the clock this port sets up");
#define WALL_HZ 1000000u
#define BAUD 115200u

static mport_part part = {
    .target = MERLIN_TARGET_ID,
    .core = MERLIN_CORE,
    .clock_hz = SYS_HZ,
    .counter = "systick",
    .unit = "ticks", /* of counter_hz = the core clock: cycles */
    .counter_hz = SYS_HZ,
    .cycle_counter = "systick (core clock, 24-bit wraps counted)",
    .min_sample_ticks = 2000,
    .budget_ticks = (uint64_t)1 << 36,
    .flash_bytes = MERLIN_PART_FLASH_BYTES,
    .ram_bytes = MERLIN_PART_RAM_BYTES,
    .wallclock = "timer 1 MHz (watchdog tick, clk_ref / 12)",
};

const mport_part *mport_describe(void) { return &part; }

static volatile uint32_t systick_wraps;

void SysTick_Handler(void) { systick_wraps++; }

uint64_t mport_counter_read(void) {
  uint32_t primask, wraps, value;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask)::"memory");
  wraps = systick_wraps;
  value = CM_SYST_CVR;
  /* A wrap not yet serviced: count it and re-read past it. */
  if (CM_ICSR & (1u << 26)) {
    wraps++;
    value = CM_SYST_CVR;
  }
  __asm__ volatile("msr primask, %0" ::"r"(primask) : "memory");
  return ((uint64_t)wraps << 24) + (0x00FFFFFFu - (value & 0x00FFFFFFu));
}

static uint32_t timer_read(void) { return TIMER_TIMERAWL; }

static void unreset(uint32_t bits) {
  CLR(RESETS_RESET) = bits;
  while ((RESETS_DONE & bits) != bits)
    ;
}

static void clock_init(void) {
  XOSC_CTRL = 0xAA0u; /* FREQ_RANGE 1-15 MHz */
  XOSC_STARTUP = ((XOSC_HZ / 1000u) + 128u) / 256u;
  SET(XOSC + 0x00u) = 0xFABu << 12;   /* ENABLE */
  while (!(XOSC_STATUS & (1u << 31))) /* STABLE */
    ;
  CLK_REF_CTRL = 2u; /* SRC = xosc_clksrc */
  while (CLK_REF_SELECTED != (1u << 2))
    ;
  CLK_SYS_CTRL = 0u; /* SRC = clk_ref while the PLL is changed */
  while (CLK_SYS_SELECTED != 1u)
    ;

  SET(RESETS_RESET) = RST_PLL_SYS;
  unreset(RST_PLL_SYS);
  PLL_CS = 1u;                          /* REFDIV */
  PLL_FBDIV_INT = 133u;                 /* VCO = 12 MHz * 133 = 1596 MHz */
  CLR(PLL_PWR) = (1u << 0) | (1u << 5); /* PD, VCOPD off */
  while (!(PLL_CS & (1u << 31)))        /* LOCK */
    ;
  PLL_PRIM = (6u << 16) | (2u << 12); /* POSTDIV1 6, POSTDIV2 2 */
  CLR(PLL_PWR) = 1u << 3;             /* POSTDIVPD off */

  CLK_SYS_CTRL = 0u << 5;        /* AUXSRC = clksrc_pll_sys */
  CLK_SYS_CTRL = (0u << 5) | 1u; /* SRC = clksrc_clk_sys_aux */
  while (CLK_SYS_SELECTED != 2u)
    ;
  CLK_PERI_CTRL = (1u << 11) | (0u << 5); /* ENABLE, AUXSRC = clk_sys */

  WATCHDOG_TICK = (XOSC_HZ / WALL_HZ) | (1u << 9); /* CYCLES, ENABLE */
}

void cortexm_board_init(void) {
  clock_init();
  unreset(RST_IO_BANK0 | RST_PADS_BANK0 | RST_TIMER | RST_UART0);

  /* PL011 divisor 8 * clk / baud as 16.6 fixed point (section 4.2.7.1):
   * IBRD 72, FBRD 10 for 115200 at 133 MHz. The LCR_H write latches it. */
  uint32_t div = 8u * SYS_HZ / BAUD;
  UART_IBRD = div >> 7;
  UART_FBRD = ((div & 0x7Fu) + 1u) / 2u;
  UART_LCR_H = (3u << 5) | (1u << 4);   /* 8 bits, FIFOs on */
  UART_CR = (1u << 9) | (1u << 8) | 1u; /* RXE, TXE, UARTEN */
  IO_BANK0_GPIO_CTRL(0) = 2u;           /* FUNCSEL uart0 TX */
  IO_BANK0_GPIO_CTRL(1) = 2u;           /* uart0 RX */

  /* SysTick on the processor clock, interrupt on every wrap. */
  CM_SYST_RVR = 0x00FFFFFFu;
  CM_SYST_CVR = 0;
  CM_SYST_CSR = 7u;
  /* Wraps come every 126 ms: take them from now on (the measurement below
   * lasts about 100 ms). */
  __asm__ volatile("cpsie i" ::: "memory");
  part.clock_measured_hz =
      brd_measure_clock(mport_counter_read, timer_read, WALL_HZ);
}

void cortexm_board_irq(uint32_t irqn) { (void)irqn; }

void cortexm_board_putc(char c) {
  while (UART_FR & (1u << 5)) /* TXFF */
    ;
  UART_DR = (uint8_t)c;
}
