/* SPDX-License-Identifier: Apache-2.0 */
/* ARMv7-M instruction sequences for the cycle-model tests (model_test.sh):
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
  ldmia.w r4, {r0-r3}
  stmia.w r5, {r0-r3}
  push {r4-r7}
  pop {r4-r7}
  bl mcore_mark_sample_end

  /* 4: multiplies */
  bl mcore_mark_sample_begin
  mul r0, r1, r2
  mla r0, r1, r2, r3
  umull r0, r6, r2, r3
  umlal r0, r6, r2, r3
  bl mcore_mark_sample_end

  /* 5: divides */
  movs r1, #100
  movs r2, #7
  bl mcore_mark_sample_begin
  udiv r0, r1, r2
  sdiv r0, r1, r2
  bl mcore_mark_sample_end

  /* 6: two stores */
  bl mcore_mark_sample_begin
  str r0, [r5]
  str r1, [r5, #4]
  bl mcore_mark_sample_end

  /* 7: call and return through POP {..., PC} */
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
