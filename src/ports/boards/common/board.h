/* SPDX-License-Identifier: Apache-2.0 */
/* Pieces shared by the real-board ports (src/ports/boards/<board>/): no
 * semihosting (nothing listens on a board without a debugger), the DWT cycle
 * counter extended to 64 bits, and the check of the core clock against the
 * board's independent timer. docs/targets.md describes each board. */
#ifndef MERLIN_BOARD_H
#define MERLIN_BOARD_H

#include "cortexm.h"

#include <stdint.h>

/* Armv7-M ARM C1.6.5 (DEMCR) and C1.8 (DWT); the same addresses on
 * Armv8-M Mainline (Armv8-M ARM D1.2). */
#define BRD_DEMCR CM_REG(0xE000EDFCu)
#define BRD_DWT_CTRL CM_REG(0xE0001000u)
#define BRD_DWT_CYCCNT CM_REG(0xE0001004u)

/* Start DWT CYCCNT and a SysTick interrupt every 2^24 core cycles that
 * notices its wraps, so the count extends to 64 bits even when nothing
 * reads it for longer than one wrap (2^32 cycles: 17 s at 250 MHz). */
void brd_dwt_start(void);
/* The 64-bit core cycle count (DWT CYCCNT plus its counted wraps). */
uint64_t brd_dwt_read(void);
/* The SysTick exception (the weak default of startup.c is replaced). */
void SysTick_Handler(void);

/* The core clock measured against an independent timer: counts core
 * cycles (read_cycles) across ticks of a timer of timer_hz (read_timer, a
 * free-running up-counter of at least 20 bits), for about 0.1 s. */
uint64_t brd_measure_clock(uint64_t (*read_cycles)(void),
                           uint32_t (*read_timer)(void), uint32_t timer_hz);

#endif
