/* SPDX-License-Identifier: Apache-2.0 */
/* Bare-metal start for the CoreMark images of scripts/cycle-coremark.mjs:
 * the vector table, .data and .bss, the FPU, main, and the exit status
 * through semihosting; Merlin's sample markers (the cycle plugin's region
 * boundaries, as src/core/markers.c). Linked with the QEMU targets' own
 * linker scripts (src/ports/qemu-mps2, src/ports/qemu-mps3). */
#include <stdint.h>

extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[], __stack_top[];
int main(void);
void Reset_Handler(void);
void Default_Handler(void);

typedef void (*vector)(void);
__attribute__((section(".vectors"), used)) static const vector vectors[16] = {
    (vector)(uintptr_t)__stack_top,
    Reset_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    Default_Handler,
    0,
    0,
    0,
    0,
    Default_Handler,
    Default_Handler,
    0,
    Default_Handler,
    Default_Handler};

static int semihost(uint32_t op, const void *arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return (int)r0;
}

void cm_putc(char c) { semihost(0x03u, &c); } /* SYS_WRITEC */

static void cm_exit(int code) {
  /* SYS_EXIT_EXTENDED: ADP_Stopped_ApplicationExit with the status */
  uint32_t block[2] = {0x20026u, (uint32_t)code};
  semihost(0x20u, block);
  for (;;)
    __asm__ volatile("wfi");
}

void Default_Handler(void) { cm_exit(3); }

__attribute__((noinline)) void mcore_mark_sample_begin(void) {
  __asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void mcore_mark_sample_end(void) {
  __asm__ volatile("" ::: "memory");
}

void Reset_Handler(void) {
  for (uint32_t *s = __data_load, *d = __data_start; d < __data_end;)
    *d++ = *s++;
  for (uint32_t *d = __bss_start; d < __bss_end;)
    *d++ = 0;
#if defined(__ARM_FP) || defined(__ARM_FEATURE_MVE)
  /* CPACR: full access to CP10 and CP11 (the FPU and MVE) */
  *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  cm_exit(main());
}
