/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Registers an instruction reads and writes, from its Thumb / Thumb-2
 * encoding (ARMv7-M Architecture Reference Manual, DDI 0403E, chapter A5
 * "The Thumb Instruction Set Encoding"): what the Cortex-M33 and M7 models
 * need to see a dependency between two neighbouring instructions
 * (docs/cycle-model.md). Masks are bit n for register Rn; the PC (R15) is
 * never set: a dependency through the PC is not a data dependency.
 */
#ifndef MERLIN_REGS_H
#define MERLIN_REGS_H

#include <stdint.h>

typedef struct {
  uint16_t src;     /* registers read */
  uint16_t addr;    /* of those, read as an address (base, index) */
  uint16_t dst;     /* registers written */
  uint8_t flags_w;  /* sets the condition flags (outside an IT block) */
  uint8_t flags_r;  /* reads them (B<cond>, ADC, SBC, RRX) */
  uint8_t shifted;  /* data processing with a shifted register operand */
  uint8_t narrow;   /* byte or halfword load (LDRB/LDRH/LDRSB/LDRSH) */
  uint8_t simple16; /* a 16-bit data-processing instruction (not a
                       multiply, IT or hint) */
  /* What the Cortex-M7/M85 rules need (docs/cycle-model.md, "Cortex-M7"):
   * which inputs are read a cycle early, by the shifter or the early ALU
   * (a shifted register operand, the source of an extend, bit-field or
   * byte reverse), which are a multiply-accumulate's accumulator, and the
   * instruction's issue class. */
  uint16_t early; /* registers read a cycle early */
  uint16_t acc;   /* registers read as the accumulator of a MAC */
  uint8_t shc;    /* needs the one shifter: a shifted register or shifted
                     constant operand, or a DSP-class instruction */
  uint8_t dsp;    /* DSP class: extend, bit-field, byte reverse, saturate,
                     parallel add/subtract, CLZ, PKH */
  uint8_t dsp1;   /* of those, single-stage on the M33/M55: BFI, BFC, a
                     plain extend, REV (M33 silicon, ARMScheduleM55.td) */
  uint8_t pshift; /* a plain shift or rotate (LSL/LSR/ASR/ROR) */
  uint8_t simple; /* ADD, SUB or MOV of registers or simple immediates */
  uint8_t movwt;  /* 1: MOVW, 2: MOVT */
  uint8_t rr32;   /* 32-bit data processing with a register operand 2 */
  uint8_t regoff; /* a load or store single with a register offset */
  /* Cortex-M85 (docs/cycle-model.md "Cortex-M85"): the pipeline stages a
   * data-processing instruction may execute in (MC_XC_*), and the
   * registers it reads in its first stage when it takes two (operand 2's
   * register, a bit-field insert's or an extend-and-add's source) */
  uint8_t xc;
  uint16_t first;
} mc_regs;

/* Where a Cortex-M85 data-processing instruction executes (jnk0le,
 * doc/cortex_m85.md): any of EX1 to EX3 (basic ALU), EX2 or EX3
 * (bitwise), EX1 or EX2 (shifts, bit-field extracts, byte reverses),
 * EX2 only ("slot 0": extends, SIMD, saturation), or two stages in a row
 * (operand 2 from a register: shifter then ALU; BFI; extend-and-add). */
enum {
  MC_XC_NONE, /* not data processing: its kind decides */
  MC_XC_ALU,
  MC_XC_BITW,
  MC_XC_SHIFT,
  MC_XC_SLOT0,
  MC_XC_OP2,
  MC_XC_BFI,
  MC_XC_XTA,
  MC_XC_NOP
};

void mc_regs_of(uint16_t h1, uint16_t h2, int size, mc_regs *r);

#endif
