/* SPDX-License-Identifier: Apache-2.0 */
/*
 * nRF5340 DK (PCA10095), application core (Cortex-M33 with FPU, DSP and
 * TrustZone). Register level, no nrfx/SDK; references: Nordic nRF5340
 * Product Specification v1.3 (PS) and the nRF5340 DK hardware guide.
 *
 * The core resets in the Secure state with every peripheral Secure, so the
 * Secure aliases (0x5xxxxxxx, PS "Instantiation" table of the application core)
 * are used. Clock (PS chapter CLOCK): HFCLK from the 32 MHz crystal oscillator
 * (TASKS_HFCLKSTART, then EVENTS_HFCLKSTARTED), and HFCLKCTRL.HCLK = Div1:
 * the core runs at 128 MHz (reset value Div2: 64 MHz). The instruction
 * cache (PS chapter CACHE) is left as reset leaves it: not verified
 * here (docs/targets.md).
 *
 * Counter: DWT CYCCNT (core cycles, extended to 64 bits by
 * src/ports/boards/common/dwt.c). Independent clock: TIMER0 (PS chapter
 * TIMER), 32-bit, on the 16 MHz HFCLK16M with PRESCALER 4: 1 MHz.
 * Console: UARTE0 (EasyDMA UART) on P1.01 (TXD) / P1.00 (RXD), the
 * application core's UART on the DK's interface MCU virtual COM port
 * (VCOM0 on DK v1, the second port on v2); 115200 8N1, no flow control.
 * Stack guard: MSPLIM (src/ports/cortexm/startup.c).
 */
#include "board.h"
#include "port.h"

#define CLOCK 0x50005000u
#define CLOCK_TASKS_HFCLKSTART CM_REG(CLOCK + 0x000u)
#define CLOCK_EVENTS_HFCLKSTARTED CM_REG(CLOCK + 0x100u)
#define CLOCK_HFCLKCTRL CM_REG(CLOCK + 0x558u)
#define UARTE0 0x50008000u
#define UARTE_TASKS_STARTTX CM_REG(UARTE0 + 0x008u)
#define UARTE_EVENTS_ENDTX CM_REG(UARTE0 + 0x120u)
#define UARTE_ENABLE CM_REG(UARTE0 + 0x500u)
#define UARTE_PSEL_RTS CM_REG(UARTE0 + 0x508u)
#define UARTE_PSEL_TXD CM_REG(UARTE0 + 0x50Cu)
#define UARTE_PSEL_CTS CM_REG(UARTE0 + 0x510u)
#define UARTE_PSEL_RXD CM_REG(UARTE0 + 0x514u)
#define UARTE_BAUDRATE CM_REG(UARTE0 + 0x524u)
#define UARTE_TXD_PTR CM_REG(UARTE0 + 0x544u)
#define UARTE_TXD_MAXCNT CM_REG(UARTE0 + 0x548u)
#define UARTE_CONFIG CM_REG(UARTE0 + 0x56Cu)
#define TIMER0 0x5000F000u
#define TIMER_TASKS_START CM_REG(TIMER0 + 0x000u)
#define TIMER_TASKS_CLEAR CM_REG(TIMER0 + 0x00Cu)
#define TIMER_TASKS_CAPTURE0 CM_REG(TIMER0 + 0x040u)
#define TIMER_MODE CM_REG(TIMER0 + 0x504u)
#define TIMER_BITMODE CM_REG(TIMER0 + 0x508u)
#define TIMER_PRESCALER CM_REG(TIMER0 + 0x510u)
#define TIMER_CC0 CM_REG(TIMER0 + 0x540u)
#define P1 0x50842800u
#define P1_OUTSET CM_REG(P1 + 0x508u)
#define P1_DIRSET CM_REG(P1 + 0x518u)

/* PSEL: PIN in bits 0-4, PORT in bit 5, CONNECT (bit 31) 0 = connected;
 * 0xFFFFFFFF disconnects. */
#define PSEL(port, pin) (((uint32_t)(port) << 5) | (uint32_t)(pin))
#define PSEL_NONE 0xFFFFFFFFu
#define UARTE_BAUD_115200 0x01D60000u
#define CORE_HZ 128000000u
/* The part's clock is stated once, in the target's descriptor (clock_hz,
 * cmake/target.cmake); the clock set-up below is written for this value. */
_Static_assert(CORE_HZ == MERLIN_PART_CLOCK_HZ,
               "clock_hz of the descriptor is not the clock this port sets up");
#define WALL_HZ 1000000u

static mport_part part = {
    .target = MERLIN_TARGET_ID,
    .core = MERLIN_CORE,
    .clock_hz = CORE_HZ,
    .counter = "dwt-cyccnt",
    .unit = "ticks", /* of counter_hz = the core clock: cycles */
    .counter_hz = CORE_HZ,
    .cycle_counter = "dwt-cyccnt",
    .min_sample_ticks = 2000,
    .budget_ticks = (uint64_t)1 << 36,
    .flash_bytes = MERLIN_PART_FLASH_BYTES,
    .ram_bytes = MERLIN_PART_RAM_BYTES,
    .wallclock = "timer0 1 MHz (HFCLK16M / 16)",
};

const mport_part *mport_describe(void) { return &part; }

static uint32_t timer0_read(void) {
  TIMER_TASKS_CAPTURE0 = 1u;
  return TIMER_CC0;
}

void cortexm_board_init(void) {
  CLOCK_EVENTS_HFCLKSTARTED = 0;
  CLOCK_TASKS_HFCLKSTART = 1u;
  while (!CLOCK_EVENTS_HFCLKSTARTED)
    ;
  CLOCK_HFCLKCTRL = 0u; /* HCLK = Div1: 128 MHz */

  /* TXD idles high: drive it before the UARTE takes the pin. */
  P1_OUTSET = 1u << 1;
  P1_DIRSET = 1u << 1;
  UARTE_PSEL_TXD = PSEL(1, 1);
  UARTE_PSEL_RXD = PSEL(1, 0);
  UARTE_PSEL_RTS = PSEL_NONE;
  UARTE_PSEL_CTS = PSEL_NONE;
  UARTE_BAUDRATE = UARTE_BAUD_115200;
  UARTE_CONFIG = 0u; /* no parity, one stop bit, no flow control */
  UARTE_ENABLE = 8u;

  TIMER_MODE = 0u;      /* timer */
  TIMER_BITMODE = 3u;   /* 32 bit */
  TIMER_PRESCALER = 4u; /* 16 MHz / 2^4 = 1 MHz */
  TIMER_TASKS_CLEAR = 1u;
  TIMER_TASKS_START = 1u;

  brd_dwt_start();
  part.clock_measured_hz =
      brd_measure_clock(brd_dwt_read, timer0_read, WALL_HZ);
}

void cortexm_board_irq(uint32_t irqn) { (void)irqn; }

/* EasyDMA reads from RAM only: one byte at a time from a RAM buffer. */
static volatile uint8_t tx_byte;

void cortexm_board_putc(char c) {
  tx_byte = (uint8_t)c;
  UARTE_TXD_PTR = (uint32_t)(uintptr_t)&tx_byte;
  UARTE_TXD_MAXCNT = 1u;
  UARTE_EVENTS_ENDTX = 0u;
  UARTE_TASKS_STARTTX = 1u;
  while (!UARTE_EVENTS_ENDTX)
    ;
}
