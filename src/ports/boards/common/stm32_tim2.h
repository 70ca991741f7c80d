/* SPDX-License-Identifier: Apache-2.0 */
/* TIM2 of the STM32F4 and STM32H5, the boards' independent wall clock: the
 * same general-purpose 32-bit timer at the same address and offsets on both
 * (RM0090 section 18.4, RM0481 section 39.6). */
#ifndef MERLIN_STM32_TIM2_H
#define MERLIN_STM32_TIM2_H

#include "cortexm.h"

#include <stdint.h>

#define TIM2 0x40000000u
#define TIM2_CR1 CM_REG(TIM2 + 0x00u)
#define TIM2_EGR CM_REG(TIM2 + 0x14u)
#define TIM2_CNT CM_REG(TIM2 + 0x24u)
#define TIM2_PSC CM_REG(TIM2 + 0x28u)
#define TIM2_ARR CM_REG(TIM2 + 0x2Cu)

static inline uint32_t brd_tim2_read(void) { return TIM2_CNT; }

#endif
