/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NUCLEO-H573ZI (STM32H573ZI, Cortex-M33 with FPU and DSP). Register level,
 * no vendor SDK; references: ST RM0481 (the reference manual) and UM3115
 * (the NUCLEO-H5 user manual). TrustZone is disabled as the part ships
 * (option byte TZEN), so the non-secure peripheral addresses apply.
 *
 * Clock (RM0481 section 11, RCC): the 64 MHz HSI (HSIDIV set to /1; it
 * resets to /2) feeds PLL1: M=16 (4 MHz reference, PLL1RGE 4-8 MHz), N=125
 * (VCO 500 MHz, wide range), P=2 -> SYSCLK 250 MHz; AHB and APB1-3 /1. The
 * HSI needs no board configuration (the HSE source of a NUCLEO depends on
 * its solder bridges). Before the switch: voltage scale VOS0 (section 10,
 * PWR_VOSCR, wait VOSRDY) and 5 flash wait states with WRHIGHFREQ = 2 for
 * 250 MHz at VOS0 (section 7, FLASH_ACR); the instruction cache ICACHE on
 * (section 8).
 *
 * Counter: DWT CYCCNT (core cycles, extended to 64 bits by
 * src/ports/boards/common/dwt.c). Independent clock: TIM2 (32-bit, section
 * 47) on the APB1 timer clock (250 MHz with APB1 /1) divided to 1 MHz.
 * Both come from the HSI, so the clock check verifies the PLL and
 * prescaler settings, not the oscillator's accuracy.
 * Console: USART3 on PD8 (TX) / PD9 (RX), AF7, on the ST-LINK virtual COM
 * port (UM3115); kernel clock PCLK1 (the reset value of RCC_CCIPR1);
 * 115200 8N1.
 * Stack guard: MSPLIM (src/ports/cortexm/startup.c).
 */
#include "board.h"
#include "port.h"
#include "stm32_tim2.h"

#define RCC 0x44020C00u
#define RCC_CR CM_REG(RCC + 0x000u)
#define RCC_CFGR1 CM_REG(RCC + 0x01Cu)
#define RCC_CFGR2 CM_REG(RCC + 0x020u)
#define RCC_PLL1CFGR CM_REG(RCC + 0x028u)
#define RCC_PLL1DIVR CM_REG(RCC + 0x034u)
#define RCC_AHB2ENR CM_REG(RCC + 0x08Cu)
#define RCC_APB1LENR CM_REG(RCC + 0x09Cu)
#define PWR 0x44020800u
#define PWR_VOSSR CM_REG(PWR + 0x0Cu)
#define PWR_VOSCR CM_REG(PWR + 0x10u)
#define FLASH_ACR CM_REG(0x40022000u)
#define ICACHE_CR CM_REG(0x40030400u)
#define ICACHE_SR CM_REG(0x40030404u)
#define GPIOD 0x42020C00u
#define GPIOD_MODER CM_REG(GPIOD + 0x00u)
#define GPIOD_OSPEEDR CM_REG(GPIOD + 0x08u)
#define GPIOD_AFRH CM_REG(GPIOD + 0x24u)
#define USART3 0x40004800u
#define USART3_CR1 CM_REG(USART3 + 0x00u)
#define USART3_BRR CM_REG(USART3 + 0x0Cu)
#define USART3_ISR CM_REG(USART3 + 0x1Cu)
#define USART3_TDR CM_REG(USART3 + 0x28u)

#define SYSCLK_HZ 250000000u
/* The part's clock is stated once, in the target's descriptor (clock_hz,
 * cmake/target.cmake); the clock set-up below is written for this value. */
_Static_assert(SYSCLK_HZ == MERLIN_PART_CLOCK_HZ,
               "clock_hz of the descriptor is not the clock this port sets up");
#define PCLK1_HZ 250000000u
#define WALL_HZ 1000000u
#define BAUD 115200u

static mport_part part = {
    .target = MERLIN_TARGET_ID,
    .core = MERLIN_CORE,
    .clock_hz = SYSCLK_HZ,
    .counter = "dwt-cyccnt",
    .unit = "ticks", /* of counter_hz = the core clock: cycles */
    .counter_hz = SYSCLK_HZ,
    .cycle_counter = "dwt-cyccnt",
    .min_sample_ticks = 2000,
    .budget_ticks = (uint64_t)1 << 36,
    .flash_bytes = MERLIN_PART_FLASH_BYTES,
    .ram_bytes = MERLIN_PART_RAM_BYTES,
    .wallclock = "tim2 1 MHz (APB1 timer clock / 250)",
};

const mport_part *mport_describe(void) { return &part; }

static void clock_init(void) {
  /* VOS0 first (PWR_VOSCR.VOS = 11), then wait for VOSRDY. */
  PWR_VOSCR = 3u << 4;
  while (!(PWR_VOSSR & (1u << 3)))
    ;
  /* HSI at 64 MHz: HSIDIV = 00, wait for HSIDIVF. */
  RCC_CR &= ~(3u << 3);
  while (!(RCC_CR & (1u << 5)))
    ;
  /* PLL1: source HSI (01), RGE 4-8 MHz (10), wide VCO, M=16, P enabled;
   * N-1 = 124, P-1 = 1, Q-1 = R-1 = 1. */
  RCC_PLL1CFGR = 1u | (2u << 2) | (16u << 8) | (1u << 16);
  RCC_PLL1DIVR = 124u | (1u << 9) | (1u << 16) | (1u << 24);
  RCC_CR |= 1u << 24;            /* PLL1ON */
  while (!(RCC_CR & (1u << 25))) /* PLL1RDY */
    ;
  /* 5 wait states, WRHIGHFREQ = 2, prefetch on; read back before the
   * clock goes up. */
  FLASH_ACR = 5u | (2u << 4) | (1u << 8);
  while ((FLASH_ACR & 0x3Fu) != (5u | (2u << 4)))
    ;
  RCC_CFGR2 &= ~0x7777u; /* HPRE, PPRE1-3 /1 */
  RCC_CFGR1 = (RCC_CFGR1 & ~3u) | 3u;
  while (((RCC_CFGR1 >> 3) & 3u) != 3u) /* SWS = PLL1 */
    ;
  while (ICACHE_SR & 1u) /* BUSYF: the reset invalidation */
    ;
  ICACHE_CR |= 1u; /* EN */
}

void cortexm_board_init(void) {
  clock_init();
  RCC_AHB2ENR |= 1u << 3;                 /* GPIODEN */
  RCC_APB1LENR |= (1u << 18) | (1u << 0); /* USART3EN, TIM2EN */
  (void)RCC_APB1LENR;

  GPIOD_MODER = (GPIOD_MODER & ~(0xFu << 16)) | (0xAu << 16);
  GPIOD_OSPEEDR |= 0xFu << 16;
  GPIOD_AFRH = (GPIOD_AFRH & ~0xFFu) | 0x77u;
  USART3_BRR = (PCLK1_HZ + BAUD / 2u) / BAUD; /* oversampling by 16 */
  USART3_CR1 = (1u << 3) | 1u;                /* TE, UE */

  TIM2_PSC = PCLK1_HZ / WALL_HZ - 1u;
  TIM2_ARR = 0xFFFFFFFFu;
  TIM2_EGR = 1u;
  TIM2_CR1 = 1u;

  brd_dwt_start();
  part.clock_measured_hz =
      brd_measure_clock(brd_dwt_read, brd_tim2_read, WALL_HZ);
}

void cortexm_board_irq(uint32_t irqn) { (void)irqn; }

void cortexm_board_putc(char c) {
  while (!(USART3_ISR & (1u << 7))) /* TXE (TXFNF) */
    ;
  USART3_TDR = (uint8_t)c;
}
