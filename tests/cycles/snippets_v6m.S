/* SPDX-License-Identifier: Apache-2.0 */
/* ARMv6-M (Cortex-M0+) instruction sequences for the cycle-model tests (model_test.sh):
 * each between the sample markers the plugin brackets. Expected counts are
 * in model_test.sh, with the TRM rule that gives each. */
  .syntax unified
  .thumb

  .text
  .word 0x20010000
  .word reset

  .text
  .macro marker name
  .global \name
  .type \name, %function
  .thumb_func
\name:
  bx lr
  .size \name, . - \name
  .endm
  marker mcore_mark_sample_begin
  marker mcore_mark_sample_end

  .global reset
  .type reset, %function
  .thumb_func
reset:
  ldr r4, =0x20000000
  ldr r5, =0x20000100
  movs r1, #3
  movs r2, #5
  movs r3, #7

  /* 1: load sequence */
  bl mcore_mark_sample_begin
  ldr r0, [r4]
  ldr r0, [r4, #4]
  ldr r0, [r4, #8]
  ldr r0, [r4, #12]
  bl mcore_mark_sample_end

  /* 2: branch loop, 4 iterations */
  bl mcore_mark_sample_begin
  movs r0, #4
1:
  subs r0, #1
  bne 1b
  bl mcore_mark_sample_end

  /* 3: LDM/STM block */
  bl mcore_mark_sample_begin
  ldmia r4!, {r0-r3}
  stmia r5!, {r0-r3}
  push {r4-r7}
  pop {r4-r7}
  bl mcore_mark_sample_end

  /* 4: multiplies */
  movs r0, #9
  bl mcore_mark_sample_begin
  muls r0, r1, r0
  muls r0, r2, r0
  bl mcore_mark_sample_end

  /* 5: two stores */
  bl mcore_mark_sample_begin
  str r0, [r5]
  str r1, [r5, #4]
  bl mcore_mark_sample_end

  /* 6: call and return through POP {..., PC} */
  bl mcore_mark_sample_begin
  bl leaf
  bl mcore_mark_sample_end

  /* semihosting SYS_EXIT, ADP_Stopped_ApplicationExit */
  movs r0, #0x18
  ldr r1, =0x20026
  bkpt 0xab
2:
  b 2b

  .type leaf, %function
  .thumb_func
leaf:
  push {r4, lr}
  pop {r4, pc}
  .pool
