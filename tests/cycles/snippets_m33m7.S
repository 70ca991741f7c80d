/* SPDX-License-Identifier: Apache-2.0 */
/* Sequences for the Cortex-M33 and M7 rules and the board memory system
 * (model_test.sh; docs/cycle-model.md): each between the sample markers.
 * Expected counts, with the rule behind each, are in model_test.sh. */
  .syntax unified
  .thumb

  .text
  .word 0x20010000
  .word reset

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

  /* begin a sample so that the code after it starts a 16-byte line */
  .macro begin_aligned
  .balign 16
  nop.w
  nop.w
  nop.w
  bl mcore_mark_sample_begin
  .endm

  .global reset
  .type reset, %function
  .thumb_func
reset:
  ldr r4, =0x20000000
  ldr r5, =0x20000100
  movs r1, #3
  movs r2, #5
  movs r3, #7

  /* 1: load, then its result used at once */
  bl mcore_mark_sample_begin
  ldr r0, [r4]
  adds r1, r0, #1
  bl mcore_mark_sample_end

  /* 2: load, then an independent instruction */
  bl mcore_mark_sample_begin
  ldr r0, [r4]
  adds r1, r2, #1
  bl mcore_mark_sample_end

  /* 3: four independent 16-bit ALU instructions */
  bl mcore_mark_sample_begin
  adds r1, #1
  adds r2, #1
  adds r3, #1
  adds r6, #1
  bl mcore_mark_sample_end

  /* 4: four dependent 16-bit ALU instructions */
  bl mcore_mark_sample_begin
  adds r1, #1
  adds r1, #1
  adds r1, #1
  adds r1, #1
  bl mcore_mark_sample_end

  /* 5: multiply-accumulate, then its result used at once */
  bl mcore_mark_sample_begin
  mla r0, r1, r2, r3
  adds r6, r0, #1
  bl mcore_mark_sample_end

  /* 6: two stores */
  bl mcore_mark_sample_begin
  str r0, [r5]
  str r1, [r5, #4]
  bl mcore_mark_sample_end

  /* 7: two multiplies */
  bl mcore_mark_sample_begin
  mul r0, r1, r2
  mul r3, r1, r2
  bl mcore_mark_sample_end

  /* 8: byte load, then its result used at once */
  bl mcore_mark_sample_begin
  ldrb r0, [r4]
  adds r1, r0, #1
  bl mcore_mark_sample_end

  /* 9: branch loop, 4 iterations */
  bl mcore_mark_sample_begin
  movs r0, #4
1:
  subs r0, #1
  bne 1b
  bl mcore_mark_sample_end

  /* 10: a loop that stays in one cache line, 3 iterations */
  begin_aligned
  movs r0, #3
  b 3f
  .balign 16
3:
  subs r0, #1
  bne 3b
  bl mcore_mark_sample_end

  /* 11: a loop of five lines, 3 iterations */
  begin_aligned
  movs r0, #3
  b 4f
  .balign 16
4:
  .rept 38
  nop
  .endr
  subs r0, #1
  bne 4b
  bl mcore_mark_sample_end

  /* 12: loads from flash (a table in the code region) */
  ldr r1, =table
  bl mcore_mark_sample_begin
  ldr r2, [r1]
  ldr r2, [r1, #4]
  ldr r2, [r1, #16]
  ldr r2, [r1, #32]
  ldr r2, [r1]
  bl mcore_mark_sample_end

  /* semihosting SYS_EXIT, ADP_Stopped_ApplicationExit */
  movs r0, #0x18
  ldr r1, =0x20026
  bkpt 0xab
2:
  b 2b
  .pool
  .balign 64
table:
  .rept 16
  .word 0x01234567
  .endr
