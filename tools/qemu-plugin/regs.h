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
} mc_regs;

void mc_regs_of(uint16_t h1, uint16_t h2, int size, mc_regs *r);

#endif
