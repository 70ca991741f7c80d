/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cortex-M startup shared by every QEMU machine and board: vector table,
 * reset (copy .data, clear .bss, enable the FPU), fault reporting on the
 * wire, and the mport_ functions common to all Cortex-M ports.
 */
#include "cortexm.h"
#include "port.h"
#include "runner.h"
#include "wire_out.h"

#include <string.h>

extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern uint32_t __stack_top[], __stack_limit[];

int main(void);
void Reset_Handler(void);
void Default_Handler(void);
void Fault_Handler(void);
void SysTick_Handler(void);
void Irq_Handler(void);
void cortexm_fault_report(const uint32_t *frame, uint32_t exc_return);

/* Armv8-M and Armv8.1-M Mainline have a main stack limit register
 * (MSPLIM); Armv6-M and Armv7-M do not (Armv8-M Baseline only in the Secure
 * state: not used here). */
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
#define CM_HAS_MSPLIM 1
#endif

typedef void (*vector)(void);

/* Armv7-M ARM B1.5.3: 16 system entries, then the device interrupts, all
 * dispatched through cortexm_board_irq. */
#define N_IRQ 32
#define IRQ4 Irq_Handler, Irq_Handler, Irq_Handler, Irq_Handler
__attribute__((section(".vectors"),
               used)) static const vector vectors[16 + N_IRQ] = {
    (vector)(uintptr_t)__stack_top,
    Reset_Handler,
    Default_Handler, /* NMI */
    Fault_Handler,   /* HardFault */
    Fault_Handler,   /* MemManage */
    Fault_Handler,   /* BusFault */
    Fault_Handler,   /* UsageFault */
    0,
    0,
    0,
    0,
    Default_Handler, /* SVCall */
    Default_Handler, /* DebugMonitor */
    0,
    Default_Handler, /* PendSV */
    SysTick_Handler,
    IRQ4,
    IRQ4,
    IRQ4,
    IRQ4,
    IRQ4,
    IRQ4,
    IRQ4,
    IRQ4, /* N_IRQ entries */
};

__attribute__((weak)) void SysTick_Handler(void) {}

void Irq_Handler(void) {
  uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  cortexm_board_irq((ipsr & 0x1FFu) - 16u);
}

/* A stack overflow must fault, not run on into the heap below the stack:
 * MPU region 0 makes the lowest CM_STACK_GUARD_BYTES of the stack
 * no-access (AP=000, XN; Armv7-M ARM B3.5.9), with the default memory map
 * everywhere else for privileged code (PRIVDEFENA). A part without an MPU
 * (MPU_TYPE.DREGION = 0) gets no guard; the stack meter's paint check
 * still flags a call that used the whole stack. */
static int stack_guarded;

static void stack_guard_init(void) {
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
  if (((CM_MPU_TYPE >> 8) & 0xFFu) == 0)
    return;
  uint32_t size_field = 0; /* region size = 2^(SIZE+1) bytes */
  while ((2u << size_field) < CM_STACK_GUARD_BYTES)
    size_field++;
  CM_MPU_RNR = 0;
  CM_MPU_RBAR = (uint32_t)(uintptr_t)__stack_limit;
  CM_MPU_RASR = (1u << 28) | (0u << 24) | (size_field << 1) | 1u;
  CM_MPU_CTRL = (1u << 2) | 1u;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
  stack_guarded = 1;
#elif defined(CM_HAS_MSPLIM)
  /* Armv8-M has no PMSAv7 (its MPU is PMSAv8) but has a stack limit
   * register: an instruction or exception entry that would move SP below
   * MSPLIM raises a UsageFault with UFSR.STKOF instead (Armv8-M ARM,
   * "Stack limit checks"). The limit sits at the top of the same
   * CM_STACK_GUARD_BYTES as on Armv7-M, so the bounds the stack meter sees
   * are the same and the fault handler has those bytes to run on. */
  uint32_t limit = (uint32_t)(uintptr_t)__stack_limit + CM_STACK_GUARD_BYTES;
  __asm__ volatile("msr msplim, %0\n\tisb" ::"r"(limit) : "memory");
  stack_guarded = 1;
#endif
}

void mport_stack_bounds(uintptr_t *lo, uintptr_t *hi) {
  *lo = (uintptr_t)__stack_limit + (stack_guarded ? CM_STACK_GUARD_BYTES : 0u);
  *hi = (uintptr_t)__stack_top;
}

void Reset_Handler(void) {
#if defined(__ARM_FP)
  /* CP10 and CP11 full access (Armv7-M ARM B3.2.20) before any FP code. */
  CM_CPACR |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  for (uint32_t *s = __data_load, *d = __data_start; d < __data_end;)
    *d++ = *s++;
  for (uint32_t *d = __bss_start; d < __bss_end;)
    *d++ = 0;
#if __ARM_ARCH >= 7 && !defined(__ARM_ARCH_8M_BASE__)
  /* Route MemManage, BusFault and UsageFault to their own vectors so the
   * report names the kind (SHCSR bits 16..18). */
  CM_SHCSR |= 7u << 16;
#endif
  stack_guard_init();
  main();
  for (;;)
    ;
}

void Default_Handler(void) { cortexm_fault_report(NULL, 0); }

/* Naked: pass the stacked exception frame of whichever stack was in use. */
__attribute__((naked)) void Fault_Handler(void) {
  /* First switch the MPU off: after a stack overflow the stack pointer is in
   * the guard region, and the handler needs a stack. */
  __asm__ volatile(
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__)
      "ldr r3, =0xE000ED94\n\t"
      "movs r2, #0\n\t"
      "str r2, [r3]\n\t"
      "dsb\n\t"
      "isb\n\t"
#elif defined(CM_HAS_MSPLIM)
      /* Likewise lift the stack limit: the handler runs below it. */
      "movs r2, #0\n\t"
      "msr msplim, r2\n\t"
      "isb\n\t"
#endif
      "mov r1, lr\n\t"
      "movs r0, #4\n\t"
      "tst r0, r1\n\t"
      "bne 1f\n\t"
      "mrs r0, msp\n\t"
      "b 2f\n"
      "1:\n\t"
      "mrs r0, psp\n"
      "2:\n\t"
      "ldr r2, =cortexm_fault_report\n\t"
      "bx r2\n\t"
      ".ltorg");
}

static const char *fault_kind(uint32_t ipsr) {
  switch (ipsr) {
  case 3:
    return "hardfault";
  case 4:
    return "memmanage";
  case 5:
    return "busfault";
  case 6:
    return "usagefault";
  default:
    return "unexpected-exception";
  }
}

/* Report on the wire and stop: the host marks the run invalid. */
void cortexm_fault_report(const uint32_t *frame, uint32_t exc_return) {
  uint32_t ipsr;
  __asm__ volatile("mrs %0, ipsr" : "=r"(ipsr));
  const char *kind = fault_kind(ipsr & 0x1FFu);
#if __ARM_ARCH >= 7 && !defined(__ARM_ARCH_8M_BASE__)
  /* MemManage on the guard: a stacking error (MSTKERR), or a data access
   * (MMARVALID) inside the guard region (Armv7-M ARM B3.2.15). */
  uint32_t mmfsr = CM_CFSR & 0xFFu, guard = (uint32_t)(uintptr_t)__stack_limit;
  if (stack_guarded && (ipsr & 0x1FFu) == 4 &&
      ((mmfsr & (1u << 4)) ||
       ((mmfsr & (1u << 7)) && CM_MMFAR - guard < CM_STACK_GUARD_BYTES)))
    kind = "stackoverflow";
#if defined(CM_HAS_MSPLIM)
  /* UsageFault with UFSR.STKOF (CFSR bit 20): SP crossed MSPLIM. */
  if (stack_guarded && (ipsr & 0x1FFu) == 6 && (CM_CFSR & (1u << 20)))
    kind = "stackoverflow";
#endif
#endif
  mcore_wire_start(MWIRE_R(fault));
  mcore_wire_str(MWIRE_K(fault, kind), kind);
  mcore_wire_u64(MWIRE_K(fault, exception), ipsr & 0x1FFu);
  if (frame) {
    /* Exception frame: r0 r1 r2 r3 r12 lr pc xpsr (B1.5.6). */
    mcore_wire_hex(MWIRE_K(fault, pc), frame[6]);
    mcore_wire_hex(MWIRE_K(fault, lr), frame[5]);
    mcore_wire_hex(MWIRE_K(fault, exc_return), exc_return);
  }
#if __ARM_ARCH >= 7 && !defined(__ARM_ARCH_8M_BASE__)
  mcore_wire_hex(MWIRE_K(fault, cfsr), CM_CFSR);
  mcore_wire_hex(MWIRE_K(fault, hfsr), CM_HFSR);
  mcore_wire_hex(MWIRE_K(fault, mmfar), CM_MMFAR);
  mcore_wire_hex(MWIRE_K(fault, bfar), CM_BFAR);
#endif
  mcore_wire_end();
  cortexm_semihost_exit(4);
}

/* ---- the rest of the port contract ---------------------------------- */

static int boot_argc;
static char **boot_argv;

void mport_init(int *argc, char ***argv) {
  cortexm_board_init();
  __asm__ volatile("cpsie i" ::: "memory");
  boot_argc = cortexm_semihost_args(&boot_argv);
  *argc = boot_argc;
  *argv = boot_argv;
}

void mport_console_write(const char *s, size_t n) {
  while (n--)
    cortexm_board_putc(*s++);
}

_Noreturn void mport_exit(int code) { cortexm_semihost_exit(code); }

int main(void) {
  int argc = 0;
  char **argv = NULL;
  runner_config cfg;
  mport_init(&argc, &argv);
  runner_parse_args(argc, argv, &cfg);
  mport_exit(runner_main(&cfg));
}

#ifndef CM_TEST_UNMAPPED_ADDR
#define CM_TEST_UNMAPPED_ADDR 0x70000000u
#endif

void mport_test_fault(const char *kind) {
  if (strcmp(kind, "busfault") == 0) {
    /* Nothing answers at 0x70000000 on the mps2 machines (QEMU reports a
     * bus error, not RAZ): a precise data BusFault. A machine that maps
     * something there names another hole (CM_TEST_UNMAPPED_ADDR). */
    (void)*(volatile uint32_t *)(uintptr_t)CM_TEST_UNMAPPED_ADDR;
  } else if (strcmp(kind, "usagefault") == 0) {
    __asm__ volatile("udf #0"); /* UNDEFINSTR */
  } else if (strcmp(kind, "hang") == 0) {
    for (;;)
      __asm__ volatile("" ::: "memory");
  }
}

/* No memory checker on the MCU: the instruction-count method applies. */
void mport_ct_poison(const void *p, size_t n) {
  (void)p;
  (void)n;
}

void mport_ct_unpoison(const void *p, size_t n) {
  (void)p;
  (void)n;
}

long mport_ct_errors(void) { return -1; }
