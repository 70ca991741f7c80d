/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NUCLEO-F439ZI (STM32F439ZI, Cortex-M4F). Register level, no vendor SDK;
 * references: ST RM0090 rev 19 (the reference manual) and UM1974 (the
 * NUCLEO-144 user manual).
 *
 * Clock (RM0090 section 6.2, RCC): HSE in bypass mode fed by the ST-LINK's
 * 8 MHz MCO (UM1974 section 6.7.1, the board's default), PLL M=4 (2 MHz VCO
 * input, as section 6.3.2 recommends), N=168 (VCO 336 MHz), P=2 -> SYSCLK
 * 168 MHz, Q=7 (48 MHz); AHB /1, APB1 /4 (42 MHz), APB2 /2 (84 MHz).
 * Voltage scale 1 is the reset value of PWR_CR.VOS (section 5.4.1), enough
 * for 168 MHz without over-drive. Flash: 5 wait states for 150 < HCLK <=
 * 168 MHz at 2.7-3.6 V (section 3.5.1, Table 11), prefetch and the ART
 * instruction and data caches on (section 3.5.2).
 *
 * Counter: DWT CYCCNT (core cycles, extended to 64 bits by
 * src/ports/boards/common/dwt.c). Independent clock: TIM2, the 32-bit
 * general-purpose timer (section 18), on the APB1 timer clock (84 MHz:
 * twice PCLK1 when APB1 is divided, section 6.2) divided to 1 MHz.
 * Console: USART3 on PD8 (TX) / PD9 (RX), AF7 (datasheet Table 12), wired
 * to the ST-LINK virtual COM port (UM1974 section 6.9); 115200 8N1.
 * Stack guard: the MPU region of src/ports/cortexm/startup.c.
 */
#include "board.h"
#include "port.h"
#include "stm32_tim2.h"

#define RCC 0x40023800u
#define RCC_CR CM_REG(RCC + 0x00u)
#define RCC_PLLCFGR CM_REG(RCC + 0x04u)
#define RCC_CFGR CM_REG(RCC + 0x08u)
#define RCC_AHB1ENR CM_REG(RCC + 0x30u)
#define RCC_APB1ENR CM_REG(RCC + 0x40u)
#define FLASH_ACR CM_REG(0x40023C00u)
#define GPIOD 0x40020C00u
#define GPIOD_MODER CM_REG(GPIOD + 0x00u)
#define GPIOD_OSPEEDR CM_REG(GPIOD + 0x08u)
#define GPIOD_AFRH CM_REG(GPIOD + 0x24u)
#define USART3 0x40004800u
#define USART3_SR CM_REG(USART3 + 0x00u)
#define USART3_DR CM_REG(USART3 + 0x04u)
#define USART3_BRR CM_REG(USART3 + 0x08u)
#define USART3_CR1 CM_REG(USART3 + 0x0Cu)

#define SYSCLK_HZ 168000000u
/* The part's clock is stated once, in the target's descriptor (clock_hz,
 * cmake/target.cmake); the clock set-up below is written for this value. */
_Static_assert(SYSCLK_HZ == MERLIN_PART_CLOCK_HZ,
               "clock_hz of the descriptor is not the clock this port sets up");
#define PCLK1_HZ 42000000u
#define TIM2_CLK_HZ 84000000u
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
    /* 2^36 cycles (about 6.8 min at 168 MHz) per operation at most. */
    .budget_ticks = (uint64_t)1 << 36,
    .flash_bytes = MERLIN_PART_FLASH_BYTES,
    .ram_bytes = MERLIN_PART_RAM_BYTES,
    .wallclock = "tim2 1 MHz (APB1 timer clock / 84)",
};

const mport_part *mport_describe(void) { return &part; }

static void clock_init(void) {
  RCC_CR |= (1u << 18) | (1u << 16); /* HSEBYP, HSEON */
  while (!(RCC_CR & (1u << 17)))     /* HSERDY */
    ;
  /* PLLM=4, PLLN=168, PLLP=2 (field 00), PLLSRC=HSE, PLLQ=7 (6.3.2). */
  RCC_PLLCFGR = 4u | (168u << 6) | (0u << 16) | (1u << 22) | (7u << 24);
  RCC_CR |= 1u << 24;            /* PLLON */
  while (!(RCC_CR & (1u << 25))) /* PLLRDY */
    ;
  /* Wait states before the clock goes up (3.5.1): LATENCY=5, PRFTEN,
   * ICEN, DCEN. */
  FLASH_ACR = 5u | (1u << 8) | (1u << 9) | (1u << 10);
  while ((FLASH_ACR & 0xFu) != 5u)
    ;
  /* HPRE /1, PPRE1 /4 (101), PPRE2 /2 (100), then SW = PLL (6.3.3). */
  RCC_CFGR = (RCC_CFGR & ~0xFCF3u) | (5u << 10) | (4u << 13);
  RCC_CFGR = (RCC_CFGR & ~3u) | 2u;
  while (((RCC_CFGR >> 2) & 3u) != 2u) /* SWS = PLL */
    ;
}

void cortexm_board_init(void) {
  clock_init();
  RCC_AHB1ENR |= 1u << 3;                /* GPIODEN */
  RCC_APB1ENR |= (1u << 18) | (1u << 0); /* USART3EN, TIM2EN */
  (void)RCC_APB1ENR;                     /* the enable takes effect */

  /* PD8, PD9: alternate function 7 (8.4.1, 8.4.10), high speed. */
  GPIOD_MODER = (GPIOD_MODER & ~(0xFu << 16)) | (0xAu << 16);
  GPIOD_OSPEEDR |= 0xFu << 16;
  GPIOD_AFRH = (GPIOD_AFRH & ~0xFFu) | 0x77u;
  /* 115200 baud, oversampling by 16: USARTDIV = 42e6 / 115200 (30.6.3). */
  USART3_BRR = (PCLK1_HZ + BAUD / 2u) / BAUD;
  USART3_CR1 = (1u << 13) | (1u << 3); /* UE, TE */

  /* TIM2: free-running 32-bit up-counter at 1 MHz (18.4). */
  TIM2_PSC = TIM2_CLK_HZ / WALL_HZ - 1u;
  TIM2_ARR = 0xFFFFFFFFu;
  TIM2_EGR = 1u; /* UG: load the prescaler */
  TIM2_CR1 = 1u; /* CEN */

  brd_dwt_start();
  part.clock_measured_hz =
      brd_measure_clock(brd_dwt_read, brd_tim2_read, WALL_HZ);
}

void cortexm_board_irq(uint32_t irqn) { (void)irqn; }

void cortexm_board_putc(char c) {
  while (!(USART3_SR & (1u << 7))) /* TXE */
    ;
  USART3_DR = (uint8_t)c;
}
