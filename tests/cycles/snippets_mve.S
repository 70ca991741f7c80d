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
  .macro m85_fwd_chain /* five dependent ADDS and a MOV: 3 cycles */
  adds r0, r1
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

  /* semihosting SYS_EXIT, ADP_Stopped_ApplicationExit */
  movs r0, #0x18
  ldr r1, =0x20026
  bkpt 0xab
2:
  b 2b
  .pool
