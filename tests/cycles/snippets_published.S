/* SPDX-License-Identifier: Apache-2.0 */
/* Published Cortex-M7, Cortex-M33 and Cortex-M4 measurements as snippets
 * (published_test.sh; docs/cycle-model.md "Published sequences"). Each
 * sequence runs 4 and then 14 times in a row, each time between the
 * sample markers, so that (cycles(14) - cycles(4)) / 10 is its cost in a
 * steady stream: the method of quinapalus.com's Cortex-M7 tables. Loops
 * (M33) run 4 and 14 iterations instead. The expected figures, with the
 * measurement each comes from, are in published_test.sh, in this order. */
  .syntax unified
  .thumb

  .text
  .word 0x20010000
  .word reset

  .include "published.inc"

  /* registers as the sequences expect them: r12 and r1 point to zeroed
   * RAM, r0 = 0, r1 = r0 + 4, r2 = 0, the rest small numbers */
  .macro setup
  movw r12, #0x0100
  movt r12, #0x2000
  movs r0, #0
  movs r1, #4
  movs r2, #0
  movs r3, #3
  movs r4, #5
  movs r5, #6
  movw r6, #0x0400
  movt r6, #0x2000
  mov r8, r12
  .endm


  /* a loop whose body ends in BNE 1b, 4 and 14 iterations (r7 counts) */
  .macro measure_loop seq
  .balign 512
  setup
  movs r7, #4
  bl mcore_mark_sample_begin
  \seq
  bl mcore_mark_sample_end
  .balign 512
  setup
  movs r7, #14
  bl mcore_mark_sample_begin
  \seq
  bl mcore_mark_sample_end
  .endm

  /* ---- Cortex-M7 (jnk0le, STM32H743; mastodon note) ---- */
  .macro m7_early_fwd /* "the following snippet doesn't stall" */
  add.w r0, r0, r2
  eor.w r6, r0, r6, ror #22
  ldr.w r4, [r12, r0]
  ldr.w r5, [r12, r1]
  .endm
  .macro m7_movwt /* MOVW + MOVT pair with mutual dependency */
  movw r3, #0x1234
  movt r3, #0x5678
  .endm
  .macro m7_str_str /* two stores cannot dual issue */
  str.w r3, [r12]
  str.w r4, [r12, #4]
  .endm
  .macro m7_ldr_str /* a load and a store dual issue */
  ldr.w r3, [r12]
  str.w r4, [r12, #8]
  .endm
  .macro m7_mla_str /* MAC and store cannot dual issue */
  mla r3, r4, r5, r3
  str.w r9, [r12, #8]
  .endm
  .macro m7_umlal_chain /* MACs chain on the accumulator every cycle */
  umlal r3, r4, r5, r9
  .endm
  .macro m7_uxtb_uxtb /* bit-field/DSP instructions do not pair */
  uxtb.w r3, r4
  uxtb.w r5, r9
  .endm
  .macro m7_dsp_older /* DSP must be the older of a pair */
  uxtb.w r3, r4
  add.w r5, r9, r10
  .endm
  .macro m7_dsp_younger /* ... and is not the younger */
  add.w r5, r9, r10
  uxtb.w r3, r4
  uxtb.w r11, r9
  .endm
  .macro m7_sh_sh /* inline shifted + inline shifted: no */
  add.w r3, r4, r5, lsl #2
  add.w r9, r10, r11, lsl #2
  .endm
  .macro m7_simple_sh /* simple constant + inline shifted: yes */
  add.w r3, r4, #1
  add.w r9, r10, r11, ror #24
  .endm
  .macro m7_shc_pattern /* shifted constant + constant pattern: yes */
  eor.w r3, r4, #0x1fc0
  eor.w r9, r10, #0x1b1b1b1b
  .endm
  .macro m7_shc_shc /* shifted constant + shifted constant: no */
  eor.w r3, r4, #0x1fc0
  eor.w r9, r10, #0x1fc0
  .endm
  .macro m7_shift_sh /* shift by constant + inline shifted: no (and
                        inline shifted + inline shifted: no) */
  lsr.w r3, r4, #12
  add.w r9, r10, r11, ror #24
  add.w r5, r4, r5, lsl #3
  .endm
  .macro m7_sh_shift /* inline shifted + shift by constant: yes */
  add.w r9, r10, r11, ror #24
  lsr.w r3, r4, #12
  .endm
  .macro m7_ldm /* LDM: ceil(N/2) cycles, single issue */
  ldm.w r12, {r3, r4, r5, r9}
  .endm
  .macro m7_ldr_shift_use /* a word load into an early (shifted) input */
  ldr.w r3, [r12]
  add.w r4, r5, r3, lsl #2
  .endm
  .macro m7_ldrb_use /* byte load result a cycle later */
  ldrb.w r3, [r12]
  add.w r4, r3, r5
  .endm
  .macro m7_mul_use /* multiply result a cycle later */
  mul r3, r4, r5
  add.w r9, r3, r10
  .endm
  .macro m7_add3 /* three-input add (mastodon note) */
  add.w r9, r4, r5
  add.w r9, r9, r10
  .endm
  .macro m7_dsp_addr /* a DSP result as an address: a cycle later */
  uxtb.w r3, r0
  ldr.w r4, [r12, r3]
  .endm

  .global reset
  .type reset, %function
  .thumb_func
reset:
  measure m7_early_fwd
  measure m7_movwt
  measure m7_str_str
  measure m7_ldr_str
  measure m7_mla_str
  measure m7_umlal_chain
  measure m7_uxtb_uxtb
  measure m7_dsp_older
  measure m7_dsp_younger
  measure m7_sh_sh
  measure m7_simple_sh
  measure m7_shc_pattern
  measure m7_shc_shc
  measure m7_shift_sh
  measure m7_sh_shift
  measure m7_ldm
  measure m7_ldr_shift_use
  measure m7_ldrb_use
  measure m7_mul_use
  measure m7_add3
  measure m7_dsp_addr
  b m33_part

  /* ---- Cortex-M33 (jnk0le, RP2350) ---- */
  .macro m33_loop_subs_bne /* subs 1, bne 2 taken */
1:
  subs r7, #1
  bne 1b
  .endm
  .macro m33_loop_add_bne /* a 16-bit non-flag-setting op before: bne 1 */
1:
  subs r7, #1
  add r0, r1
  bne 1b
  .endm
  .macro m33_loop_ldm_bne /* branch pairs with LDM */
1:
  subs r7, #1
  ldmia r6!, {r0, r1, r2, r3}
  bne 1b
  .endm
  .macro m33_alu_alu /* two 16-bit ALU instructions do not pair */
  adds r3, r4
  adds r5, r4
  .endm
  .macro m33_nop_alu /* a NOP pairs with an ALU instruction */
  nop
  adds r3, r4
  .endm
  .macro m33_ld_use /* load to use: 2 cycles */
  ldr r3, [r6]
  adds r4, r3, #1
  .endm
  .macro m33_ldrd /* load double: 2 cycles */
  ldrd r3, r4, [r12]
  .endm
  .macro m33_mla_chain /* MACs chain on the accumulator */
  mla r3, r4, r5, r3
  .endm
  .macro m33_mul_use /* multiply result latency 2 */
  mul r3, r4, r5
  add.w r9, r3, r10
  .endm
  .macro m33_shifted_use /* shifted-operand result latency 2 */
  add.w r3, r4, r5, lsl #2
  add.w r9, r3, r10
  .endm
  .macro m33_muls /* 16-bit MULS takes 2 cycles */
  muls r3, r4
  .endm
  .macro m33_bfi_use /* BFI is single stage */
  bfi r3, r4, #4, #8
  add.w r9, r3, r10
  .endm
  .macro m33_uxtab_use /* extend-and-add: result latency 2 */
  uxtab r3, r4, r5
  add.w r9, r3, r10
  .endm

m33_part:
  measure_loop m33_loop_subs_bne
  measure_loop m33_loop_add_bne
  measure_loop m33_loop_ldm_bne
  measure m33_alu_alu
  measure m33_nop_alu
  measure m33_ld_use
  measure m33_ldrd
  measure m33_mla_chain
  measure m33_mul_use
  measure m33_shifted_use
  measure m33_muls
  measure m33_bfi_use
  measure m33_uxtab_use

  b m4_part

  /* ---- Cortex-M4 (TRM r0p1 section 3.3.2; jnk0le, STM32F407; Arm KA
   * 103488664 and compendium.i-0.nl "Alignment rules" for the fetch) ---- */
  .macro m4_loop_template /* jnk0le's CM3/CM4 template: 20 per iteration */
  .balign 4
1:
  .rept 17
  nop.w
  .endr
  subs.w r7, #1
  bne.w 1b
  .endm
  .macro m4_loop_aligned /* a 32-bit target at a word address */
  .balign 4
1:
  add.w r0, r0, #1
  nop
  subs r7, #1
  bne 1b
  .endm
  .macro m4_loop_unaligned /* the same target at a halfword address */
  .balign 4
  nop
1:
  add.w r0, r0, #1
  nop
  subs r7, #1
  bne 1b
  .endm
  .macro m4_alu_str /* STR Rx,[Ry,#imm] is always one cycle */
  adds r3, #1
  str r3, [r6, #4]
  .endm
  .macro m4_ldr_ldr /* LDR R0,[R1]; LDR R1,[R2]: three cycles */
  ldr r0, [r6]
  ldr r1, [r6, #4]
  adds r7, #1
  .endm
  .macro m4_ldr_str /* LDR R0,[R1,R2]; STR R0,[R3,#20]: three cycles */
  ldr r0, [r6, r2]
  str r0, [r6, #20]
  adds r7, #1
  .endm
  .macro m4_ldr_strreg /* LDR R0,[R1,R2]; STR R1,[R3,R2]: three cycles */
  ldr r0, [r6, r2]
  str r1, [r6, r2]
  adds r7, #1
  .endm
  .macro m4_ldr3 /* LDR R0,[R1,R5]; LDR R1,[R2]; LDR R2,[R3,#4]: four */
  ldr r0, [r6, r2]
  ldr r1, [r6]
  ldr r3, [r6, #4]
  adds r7, #1
  .endm
  .macro m4_agu /* an address from the ALU result before: a stall */
  add r8, r6, r2
  ldr r0, [r8]
  .endm
  .macro m4_str_ldr /* a load after a store: the store takes 2 */
  str r3, [r6, #8]
  ldr r0, [r6, #12]
  adds r7, #1
  .endm
  .macro m4_strreg /* a register-offset store: 2 */
  str r3, [r6, r2]
  adds r7, #1
  .endm
  .macro m4_strpost_two /* post-indexed stores, two bases: 1 each */
  str r3, [r8], #4
  str r4, [r12], #4
  .endm
  .macro m4_strpost_one /* on one base: not chained back to back */
  str r3, [r8], #4
  str r4, [r8], #4
  .endm

  .macro m4_wide_two /* two 32-bit instructions at halfword addresses */
  .balign 4
  nop
  add.w r0, r0, #1
  add.w r1, r1, #1
  nop
  .endm
  .macro m4_wide_three /* three: one cycle more */
  .balign 4
  nop
  add.w r0, r0, #1
  add.w r1, r1, #1
  add.w r3, r3, #1
  nop
  .endm
  .macro m4_wide_str_three /* three stores: none */
  .balign 4
  nop
  str.w r3, [r6, #4]
  str.w r3, [r6, #8]
  str.w r3, [r6, #12]
  nop
  .endm
  .macro m4_wide_str_four /* four stores: one */
  .balign 4
  nop
  str.w r3, [r6, #4]
  str.w r3, [r6, #8]
  str.w r3, [r6, #12]
  str.w r3, [r6, #16]
  nop
  .endm

m4_part:
  measure_loop m4_loop_template
  measure_loop m4_loop_aligned
  measure_loop m4_loop_unaligned
  measure m4_alu_str
  measure m4_ldr_ldr
  measure m4_ldr_str
  measure m4_ldr_strreg
  measure m4_ldr3
  measure m4_agu
  measure m4_str_ldr
  measure m4_strreg
  measure m4_strpost_two
  measure m4_strpost_one
  measure m4_wide_two
  measure m4_wide_three
  measure m4_wide_str_three
  measure m4_wide_str_four

  /* semihosting SYS_EXIT, ADP_Stopped_ApplicationExit */
  movs r0, #0x18
  ldr r1, =0x20026
  bkpt 0xab
2:
  b 2b
  .pool
