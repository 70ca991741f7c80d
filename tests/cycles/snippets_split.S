/* SPDX-License-Identifier: Apache-2.0 */
/* Straight-line code that QEMU cuts into blocks where the host's timing
 * says (model_test.sh, "Exact estimates"; docs/cycle-model.md): the
 * estimate must not depend on where. Sample 1 is 700 instructions of
 * loads, stores, multiplies and ALU instructions without a branch,
 * crossing a 1 KB page boundary (QEMU's Arm page: a block ends there,
 * and the instruction before the page end reports the halfword read
 * ahead as its own), with 16- and 32-bit instructions on both sides of
 * it; sample 2 a loop whose body crosses the boundary. Run once as QEMU
 * translates it and once with every instruction its own block
 * (-singlestep), the side files must be identical. */
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

  /* 7 instructions of dependent and independent work, 16- and 32-bit */
  .macro mix
  ldr r1, [r4, #4]
  adds r2, r1, r2
  str r2, [r5, #8]
  ldr.w r3, [r4, #12]
  mul r6, r3, r2
  add.w r7, r6, r1, lsl #2
  strh r7, [r5, #2]
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
  b 1f
  .ltorg

  /* 1: 100 x 7 = 700 instructions, the page end 1 KB in */
  .balign 1024
  .space 900
1:
  bl mcore_mark_sample_begin
  .rept 100
  mix
  .endr
  bl mcore_mark_sample_end

  /* 2: 20 iterations of a body of 35 instructions across the next page end */
  movs r0, #20
  b 2f
  .balign 1024
  .space 1000
2:
  bl mcore_mark_sample_begin
3:
  .rept 5
  mix
  .endr
  subs r0, #1
  bne 3b
  bl mcore_mark_sample_end

  /* semihosting SYS_EXIT (ADP_Stopped_ApplicationExit) */
  movs r0, #0x18
  ldr r1, =0x20026
  bkpt #0xab
  .ltorg
