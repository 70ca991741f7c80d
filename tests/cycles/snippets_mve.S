/* SPDX-License-Identifier: Apache-2.0 */
/* Published Cortex-M55 and Cortex-M85 sequences as snippets (Armv8.1-M
 * with MVE, run on QEMU's mps3-an547; published_test.sh): each sequence 4
 * and 14 times in a row between the sample markers, (cycles(14) -
 * cycles(4)) / 10 its cost in a steady stream. Expected figures and their
 * sources are in published_test.sh, in this order. */
  .syntax unified
  .thumb

  .text
  .word 0x31010000
  .word reset

  .include "published.inc"

  /* r12, r5 and r1 point to zeroed RAM, r0 = 0 */
  .macro setup
  movw r12, #0x0100
  movt r12, #0x3100
  mov r5, r12
  mov r1, r12
  movs r0, #0
  .endm


  /* ---- Cortex-M55: Arm's beat diagrams (ARMScheduleM55.td) ---- */
  .macro m55_ld_add_mul_st /* VLDR;VADD;VMUL;VSTR: 5 cycles */
  vldrw.u32 q0, [r12]
  vadd.i32 q1, q0, q0
  vmul.i32 q2, q1, q1
  vstrw.32 q2, [r12, #16]
  .endm
  .macro m55_ld_ldb_add_st /* VLDR;VLDRB;VADD;VSTR: 6 cycles */
  vldrw.u32 q0, [r12]
  vldrb.u8 q3, [r12, #32]
  vadd.i32 q1, q0, q0
  vstrw.32 q1, [r12, #16]
  .endm

  /* ---- Cortex-M85 (jnk0le, RA8D1) ---- */
  .macro m85_fwd_chain /* five dependent ADDS and a MOV: 3 cycles (the
                         first from ready operands, as jnk0le's starts
                         in EX1: a copy does not wait for the last) */
  adds r0, r1, r2
  adds r0, r1
  adds r0, r1
  adds r0, r1
  adds r0, r1
  mov r11, r11
  .endm
  .macro m85_ptr_chase /* a loaded address used 2 cycles later */
  mov r10, r10
  ldr r0, [r5]
  mov r10, r10
  mov r11, r11
  ldr r1, [r5, r0]
  mov r11, r11
  .endm
  .macro m85_ldrd_ldrd /* two LDRD dual issue (TCM) */
  ldrd r2, r3, [r12]
  ldrd r6, r7, [r12, #8]
  .endm
  .macro m85_vld_veor /* a scalar op and a vector load, then a vector
                         op in the load's second beat: 2 cycles */
  mov r10, r10
  vldrw.u32 q0, [r12]
  veor q1, q2, q3
  .endm

  .macro m85_op2_rn /* a chain through operand 2's ALU input: 1 */
  eor.w r0, r0, r1
  .endm
  .macro m85_op2_rm /* through its shifter input (the second register):
                       "1 extra cycle of input latency": 2 */
  eor.w r0, r1, r0
  .endm
  .macro m85_uxtb_uxtb /* two "slot 0" instructions: not paired */
  uxtb r3, r4
  uxtb r6, r7
  .endm
  .macro m85_bfi_bfi /* "bfi ... cannot be dual issued with other bfi" */
  bfi r3, r4, #0, #8
  bfi r6, r7, #0, #8
  .endm
  .macro m85_ldr_use /* a word load to the next in EX3: paired */
  ldr r3, [r12]
  adds r4, r3, #1
  .endm
  .macro m85_ldrb_use /* byte load "1 cycle into EX3" (a MOV after it, so
                         the next load does not fill the gap) */
  ldrb r3, [r12]
  adds r4, r3, #1
  mov r10, r10
  .endm
  .macro m85_ldr_acc /* "can't forward ldr result into accumulate operand
                        in 0 cycles" */
  ldr r3, [r12]
  mla r4, r6, r7, r3
  mov r10, r10
  .endm
  .macro m85_umlal_strd /* a 64-bit-accumulator MAC and STRD: not paired */
  umlal r3, r4, r6, r7
  strd r8, r9, [r12]
  .endm
  .macro m85_umlal_str /* ... and a plain store: paired */
  umlal r3, r4, r6, r7
  str r8, [r12]
  .endm
  .macro m85_vadd_vadd /* "cannot dual issue two fp arithmetic" */
  vadd.f32 s0, s1, s2
  vadd.f32 s3, s4, s5
  .endm
  .macro m85_ldr_post /* "Two post/pre indexed loads/stores can be chained
                         back to back each cycle" */
  ldr r3, [r5], #4
  ldr r4, [r5], #4
  .endm

  .global reset
  .type reset, %function
  .thumb_func
reset:
  /* enable the FPU and MVE (CPACR CP10, CP11 full access) */
  movw r0, #0xED88
  movt r0, #0xE000
  ldr r1, [r0]
  orr r1, r1, #(0xF << 20)
  str r1, [r0]
  dsb
  isb
  movs r1, #0
  measure m55_ld_add_mul_st
  measure m55_ld_ldb_add_st
  measure m85_fwd_chain
  measure m85_ptr_chase
  measure m85_ldrd_ldrd
  measure m85_vld_veor
  measure m85_op2_rn
  measure m85_op2_rm
  measure m85_uxtb_uxtb
  measure m85_bfi_bfi
  measure m85_ldr_use
  measure m85_ldrb_use
  measure m85_ldr_acc
  measure m85_umlal_strd
  measure m85_umlal_str
  measure m85_vadd_vadd
  measure m85_ldr_post

  /* semihosting SYS_EXIT, ADP_Stopped_ApplicationExit */
  movs r0, #0x18
  ldr r1, =0x20026
  bkpt 0xab
2:
  b 2b
  .pool
