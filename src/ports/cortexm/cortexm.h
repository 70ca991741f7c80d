/* SPDX-License-Identifier: Apache-2.0 */
/* Shared Cortex-M port pieces: startup, SysTick counter, semihosting, fault
 * reporting. A board or QEMU machine adds its console and part description
 * (cortexm_board_*), and a linker script. */
#ifndef MERLIN_CORTEXM_H
#define MERLIN_CORTEXM_H

#include <stddef.h>
#include <stdint.h>

#define CM_REG(addr) (*(volatile uint32_t *)(addr))

/* System control space (Armv7-M ARM, B3.2 and B3.3). */
#define CM_SYST_CSR CM_REG(0xE000E010u)
#define CM_SYST_RVR CM_REG(0xE000E014u)
#define CM_SYST_CVR CM_REG(0xE000E018u)
#define CM_ICSR CM_REG(0xE000ED04u)
#define CM_SHCSR CM_REG(0xE000ED24u)
#define CM_CFSR CM_REG(0xE000ED28u)
#define CM_HFSR CM_REG(0xE000ED2Cu)
#define CM_MMFAR CM_REG(0xE000ED34u)
#define CM_BFAR CM_REG(0xE000ED38u)
#define CM_CPACR CM_REG(0xE000ED88u)
/* PMSAv7 MPU (Armv7-M ARM B3.5). */
#define CM_MPU_TYPE CM_REG(0xE000ED90u)
#define CM_MPU_CTRL CM_REG(0xE000ED94u)
#define CM_MPU_RNR CM_REG(0xE000ED98u)
#define CM_MPU_RBAR CM_REG(0xE000ED9Cu)
#define CM_MPU_RASR CM_REG(0xE000EDA0u)
/* The no-access region at the bottom of the stack (a power of two, and
 * __stack_limit aligned to it): deep enough that a large frame's first
 * store lands in it rather than past it, into the heap. */
#define CM_STACK_GUARD_BYTES 4096u

/* Provided by the board/machine file. */
void cortexm_board_init(void);
void cortexm_board_putc(char c);
/* Device interrupt irqn (0-based) was taken. */
void cortexm_board_irq(uint32_t irqn);

/* Semihosting (Arm "Semihosting for AArch32 and AArch64", version 2). */
int cortexm_semihost(uint32_t op, void *arg);
/* Command line from SYS_GET_CMDLINE split into argv; argc 0 if none. */
int cortexm_semihost_args(char ***argv);
_Noreturn void cortexm_semihost_exit(int code);

#define CM_NVIC_ISER0 CM_REG(0xE000E100u)

#endif
