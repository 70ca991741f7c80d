/* SPDX-License-Identifier: Apache-2.0 */
/* Register use of Thumb / Thumb-2 instructions (ARMv7-M ARM DDI 0403E,
 * A5.2 16-bit encodings, A5.3 32-bit encodings); see regs.h. */
#include "regs.h"

#include <string.h>

#define R(n) ((uint16_t)(1u << ((n)&15u)))

static void dp16(uint16_t h, mc_regs *r) {
  unsigned op = (h >> 6) & 0xF, rdn = h & 7, rm = (h >> 3) & 7;
  r->src = R(rm);
  if (op != 0x9 && op != 0xF) /* RSB #0 and MVN read only Rm */
    r->src |= R(rdn);
  if (op != 0x8 && op != 0xA && op != 0xB) /* TST, CMP, CMN */
    r->dst = R(rdn);
  r->flags_w = 1;
  r->flags_r = op == 0x5 || op == 0x6; /* ADC, SBC */
  r->simple16 = op != 0xD;             /* MULS is a multiply */
  r->pshift = op == 0x2 || op == 0x3 || op == 0x4 || op == 0x7;
  /* AND EOR TST ORR BIC MVN: bitwise; the shifts; ADC SBC RSB CMP CMN */
  r->xc = r->pshift                                        ? MC_XC_SHIFT
          : (op <= 1 || op == 8 || op == 0xC || op >= 0xE) ? MC_XC_BITW
          : op == 0xD                                      ? MC_XC_NONE
                                                           : MC_XC_ALU;
}

static void ls16(uint16_t h, mc_regs *r) {
  unsigned rt = h & 7, rn = (h >> 3) & 7;
  if ((h & 0xF000) == 0x5000) { /* register offset */
    unsigned op = (h >> 9) & 7, rm = (h >> 6) & 7;
    r->addr = R(rn) | R(rm);
    r->regoff = 1;
    if (op <= 2)
      r->src = R(rt);
    else
      r->dst = R(rt);
    r->narrow = op == 3 || op >= 5;
  } else if ((h & 0xF000) == 0x9000) { /* SP-relative */
    rt = (h >> 8) & 7;
    r->addr = R(13);
    if (h & 0x0800)
      r->dst = R(rt);
    else
      r->src = R(rt);
  } else { /* immediate offset: word/byte (011x), halfword (1000) */
    r->addr = R(rn);
    if (h & 0x0800)
      r->dst = R(rt);
    else
      r->src = R(rt);
    r->narrow = (h & 0xF000) == 0x8000 || (h & 0x1000);
  }
  r->src |= r->addr;
}

static void misc16(uint16_t h, mc_regs *r) {
  unsigned rd = h & 7, rm = (h >> 3) & 7;
  if ((h & 0xFF00) == 0xB000) { /* ADD/SUB SP, #imm */
    r->src = r->dst = R(13);
    r->simple16 = r->simple = 1;
    r->xc = MC_XC_ALU;
  } else if ((h & 0xF500) == 0xB100) { /* CBZ, CBNZ */
    r->src = R(rd);
  } else if ((h & 0xFF00) == 0xB200 || (h & 0xFF00) == 0xBA00) {
    r->src = r->early = R(rm); /* extend, REV */
    r->dst = R(rd);
    r->simple16 = r->dsp = r->shc = 1;
    r->dsp1 = 1; /* a plain extend or REV: single stage */
    r->xc = (h & 0xFF00) == 0xBA00 ? MC_XC_SHIFT : MC_XC_SLOT0;
  } else if ((h & 0xFE00) == 0xB400) { /* PUSH */
    r->src = (uint16_t)((h & 0xFF) | ((h & 0x100) ? R(14) : 0)) | R(13);
    r->addr = r->dst = R(13);
  } else if ((h & 0xFE00) == 0xBC00) { /* POP */
    r->dst = (uint16_t)(h & 0xFF) | R(13);
    r->addr = r->src = R(13);
  }
}

static void decode16(uint16_t h, mc_regs *r) {
  if (h < 0x1800) { /* LSL, LSR, ASR #imm (MOVS: LSL #0) */
    r->src = R((h >> 3) & 7);
    r->dst = R(h & 7);
    r->flags_w = r->simple16 = 1;
    if ((h & 0xFFC0) == 0)
      r->simple = 1;
    else
      r->pshift = 1;
    r->xc = r->pshift ? MC_XC_SHIFT : MC_XC_ALU;
  } else if (h < 0x2000) { /* ADD, SUB register / imm3 */
    r->src = R((h >> 3) & 7) | ((h & 0x400) ? 0 : R((h >> 6) & 7));
    r->dst = R(h & 7);
    r->flags_w = r->simple16 = r->simple = 1;
    r->xc = MC_XC_ALU;
  } else if (h < 0x4000) { /* MOV, CMP, ADD, SUB #imm8 */
    unsigned op = (h >> 11) & 3, rdn = (h >> 8) & 7;
    r->src = op == 0 ? 0 : R(rdn);
    r->dst = op == 1 ? 0 : R(rdn);
    r->flags_w = r->simple16 = r->simple = 1;
    r->xc = MC_XC_ALU;
  } else if ((h & 0xFC00) == 0x4000) {
    dp16(h, r);
  } else if ((h & 0xFC00) == 0x4400) { /* high registers, BX, BLX */
    unsigned op = (h >> 8) & 3, rdn = (h & 7) | ((h >> 4) & 8);
    unsigned rm = (h >> 3) & 0xF;
    r->src = R(rm) | (op <= 1 ? R(rdn) : 0);
    if (op == 0 || op == 2)
      r->dst = R(rdn);
    if (op == 3 && (h & 0x80))
      r->dst = R(14); /* BLX */
    r->flags_w = op == 1;
    r->simple16 = r->simple = op != 3 && rdn != 15;
    r->xc = op != 3 ? MC_XC_ALU : MC_XC_NONE;
  } else if ((h & 0xF800) == 0x4800) { /* LDR literal */
    r->dst = R((h >> 8) & 7);
  } else if ((h & 0xF000) == 0x5000 || (h & 0xE000) == 0x6000 ||
             (h & 0xE000) == 0x8000) {
    ls16(h, r);
  } else if ((h & 0xF000) == 0xA000) { /* ADR, ADD Rd, SP, #imm */
    r->src = (h & 0x0800) ? R(13) : 0;
    r->dst = R((h >> 8) & 7);
    r->simple16 = r->simple = 1;
    r->xc = MC_XC_ALU;
  } else if ((h & 0xF000) == 0xB000) {
    misc16(h, r);
  } else if ((h & 0xF000) == 0xC000) { /* STM, LDM */
    unsigned rn = (h >> 8) & 7;
    r->addr = R(rn);
    if (h & 0x0800)
      r->dst = (uint16_t)(h & 0xFF);
    else
      r->src = (uint16_t)(h & 0xFF);
    r->src |= R(rn);
  } else if ((h & 0xF000) == 0xD000) { /* B<cond> */
    r->flags_r = ((h >> 8) & 0xF) < 0xE;
  }
}

static void dp_imm32(uint16_t h1, uint16_t h2, mc_regs *r) {
  unsigned rn = h1 & 0xF, rd = (h2 >> 8) & 0xF;
  if (!(h1 & 0x0200)) { /* modified immediate */
    unsigned op = (h1 >> 5) & 0xF;
    /* i:imm3 of 4 or more: an 8-bit value shifted into place (a "shifted
     * constant"); 0 to 3: the byte or a repeated pattern of it */
    unsigned rot = ((h1 >> 7) & 8u) | ((h2 >> 12) & 7u);
    r->src = rn == 15 ? 0 : R(rn);
    r->dst = (rd == 15 && (h1 & 0x10)) ? 0 : R(rd);
    r->flags_w = (h1 >> 4) & 1;
    r->flags_r = op == 0xA || op == 0xB;
    r->shc = rot >= 4;
    r->simple = rot < 4 && (op == 0x8 || op == 0xD || (op == 0x2 && rn == 15));
    /* AND BIC ORR ORN EOR (TST, TEQ): bitwise; MOV, MVN and arithmetic
     * with a constant: the basic ALU */
    r->xc = op <= 4 && rn != 15 ? MC_XC_BITW : MC_XC_ALU;
    return;
  }
  unsigned op = (h1 >> 4) & 0x1F; /* plain binary immediate */
  r->src = (rn == 15 || op == 0x04) ? 0 : R(rn);
  if (op == 0x0C || op == 0x16) /* MOVT, BFI/BFC keep the other bits */
    r->src |= R(rd);
  r->dst = R(rd);
  r->simple = op == 0x00 || op == 0x0A || op == 0x04 || op == 0x0C;
  r->movwt = op == 0x04 ? 1 : op == 0x0C ? 2 : 0;
  r->xc = MC_XC_ALU;
  if (op >= 0x10) { /* saturate, bit-field: the shifter, source read early */
    r->dsp = r->shc = 1;
    r->dsp1 = op == 0x16; /* BFI, BFC */
    r->early = rn == 15 ? 0 : R(rn);
    /* SBFX, UBFX: a shift; BFI/BFC: two stages; saturation: slot 0 */
    r->xc = (op == 0x14 || op == 0x1C) ? MC_XC_SHIFT
            : op == 0x16               ? MC_XC_BFI
                                       : MC_XC_SLOT0;
    r->first = r->early;
  }
}

static void ls32(uint16_t h1, uint16_t h2, mc_regs *r) {
  unsigned rn = h1 & 0xF, rt = h2 >> 12, load = (h1 >> 4) & 1;
  unsigned size = (h1 >> 5) & 3;
  if (rn != 15)
    r->addr = R(rn);
  if (!(h1 & 0x0080) && (h2 & 0x0FC0) == 0) { /* register offset */
    r->addr |= R(h2 & 0xF);
    r->regoff = 1;
  } else if (!(h1 & 0x0080) && (h2 & 0x0900) == 0x0900)
    r->dst = R(rn); /* pre/post-indexed with writeback */
  if (load && rt != 15)
    r->dst |= R(rt);
  if (!load)
    r->src = R(rt);
  r->src |= r->addr;
  r->narrow = load && size < 2;
}

static void dd32(uint16_t h1, uint16_t h2, mc_regs *r) {
  unsigned rn = h1 & 0xF, rt = h2 >> 12, rt2 = (h2 >> 8) & 0xF;
  r->addr = R(rn);
  if ((h1 & 0xFFF0) == 0xE8D0 && (h2 & 0xFFE0) == 0xF000) { /* TBB, TBH */
    r->addr |= R(h2 & 0xF);
  } else if (h1 & 0x0120) { /* LDRD, STRD */
    if (h1 & 0x10)
      r->dst = R(rt) | R(rt2);
    else
      r->src = R(rt) | R(rt2);
    if (h1 & 0x20)
      r->dst |= R(rn);
  } else if (h1 & 0x10) { /* LDREX */
    r->dst = R(rt);
  } else { /* STREX */
    r->src = R(rt);
    r->dst = R(rt2);
  }
  r->src |= r->addr;
}

static void mul32(uint16_t h1, uint16_t h2, mc_regs *r) {
  unsigned rn = h1 & 0xF, rm = h2 & 0xF, hi = (h2 >> 8) & 0xF, lo = h2 >> 12;
  r->src = R(rn) | R(rm);
  if ((h1 & 0xFF80) == 0xFB00) { /* MUL, MLA, MLS, DSP multiplies */
    if (lo != 15)
      r->src |= r->acc = R(lo);
    r->dst = R(hi);
    return;
  }
  unsigned op1 = (h1 >> 4) & 7;
  if (op1 == 1 || op1 == 3) { /* SDIV, UDIV */
    r->dst = R(hi);
    return;
  }
  r->dst = R(lo) | R(hi);
  if (op1 >= 4) /* SMLAL, UMLAL, UMAAL, SMLALxy...: accumulate */
    r->src |= r->acc = (uint16_t)(R(lo) | R(hi));
}

static void decode32(uint16_t h1, uint16_t h2, mc_regs *r) {
  if ((h1 & 0xFE40) == 0xE800) { /* LDM, STM */
    unsigned rn = h1 & 0xF;
    r->addr = R(rn);
    r->src = R(rn);
    if (h1 & 0x10)
      r->dst = h2;
    else
      r->src |= h2;
    if (h1 & 0x20)
      r->dst |= R(rn);
  } else if ((h1 & 0xFE40) == 0xE840) {
    dd32(h1, h2, r);
  } else if ((h1 & 0xFE00) == 0xEA00) { /* data processing, shifted reg */
    unsigned op = (h1 >> 5) & 0xF, rn = h1 & 0xF, rd = (h2 >> 8) & 0xF;
    unsigned amount = ((h2 >> 10) & 0x1C) | ((h2 >> 6) & 3);
    unsigned type = (h2 >> 4) & 3;
    r->src = R(h2 & 0xF) | (rn == 15 ? 0 : R(rn));
    r->dst = (rd == 15 && (h1 & 0x10)) ? 0 : R(rd);
    r->flags_w = (h1 >> 4) & 1;
    r->flags_r = op == 0xA || op == 0xB || (type == 3 && amount == 0);
    r->shifted = rn != 15 && (amount != 0 || type == 3);
    r->rr32 = 1;
    /* operand 2 from a register: shifter, then ALU (a MOV with a shift is
     * a shift, a plain MOV the basic ALU) */
    r->xc = MC_XC_OP2;
    r->first = R(h2 & 0xF);
    if (rn == 15 && op == 0x2)
      r->xc = (amount != 0 || type == 3) ? MC_XC_SHIFT : MC_XC_ALU;
    if (op == 0x6) { /* PKHBT, PKHTB */
      r->xc = MC_XC_SLOT0;
      r->dsp = r->shc = 1;
      r->early = (uint16_t)(R(h2 & 0xF) | ((h2 & 0x20) ? R(rn) : 0));
    } else if (amount != 0 || type == 3) {
      if (rn == 15 && op == 0x2) /* MOV with a shift: LSL/LSR/ASR/ROR */
        r->pshift = 1;
      else {
        r->shc = 1;
        r->early = R(h2 & 0xF);
      }
    } else
      r->simple = op == 0x8 || op == 0xD || (op == 0x2 && rn == 15);
  } else if ((h1 & 0xEC00) == 0xEC00) { /* coprocessor: the FPU */
    if ((h1 & 0xFE00) == 0xEC00) {
      r->addr = R(h1 & 0xF);
      r->src = r->addr;
    }
  } else if ((h1 & 0xF800) == 0xF000 && (h2 & 0x8000)) {
    if ((h2 & 0xF001) == 0xC001 || h2 == 0xE001) {
      /* Armv8.1-M low-overhead loops: LE/LETP read and write LR; WLS,
       * DLS (and their TP forms) set LR from Rn */
      r->dst = R(14);
      r->src = (h1 & 0xF) == 0xF ? R(14) : R(h1 & 0xF);
    } else if ((h2 & 0x5000) == 0x5000)
      r->dst = R(14); /* BL */
    else if ((h2 & 0x5000) == 0x0000 && ((h1 >> 6) & 0xE) != 0xE)
      r->flags_r = 1; /* B<cond> */
    else if ((h1 & 0xFFE0) == 0xF380)
      r->src = R(h1 & 0xF); /* MSR */
    else if ((h1 & 0xFFE0) == 0xF3E0)
      r->dst = R((h2 >> 8) & 0xF); /* MRS */
  } else if ((h1 & 0xF800) == 0xF000) {
    dp_imm32(h1, h2, r);
  } else if ((h1 & 0xFE00) == 0xF800) {
    ls32(h1, h2, r);
  } else if ((h1 & 0xFF00) == 0xFA00) { /* register shifts, extend, DSP */
    unsigned rn = h1 & 0xF;
    r->src = R(h2 & 0xF) | (rn == 15 ? 0 : R(rn));
    r->dst = R((h2 >> 8) & 0xF);
    if ((h2 & 0xF080) == 0xF000 && !(h1 & 0x80)) {
      r->pshift = 1; /* LSL/LSR/ASR/ROR by a register */
      r->xc = MC_XC_SHIFT;
    } else {
      r->dsp = r->shc = 1;
      /* extends (with or without add), REV, RBIT: Rm through the shifter */
      if ((h2 & 0x80) && ((h1 & 0xF0) < 0x60 || (h1 & 0xF0) == 0x90))
        r->early = R(h2 & 0xF);
      /* a plain extend (no addend) or REV/REV16/REVSH: single stage */
      r->dsp1 = (h2 & 0x80) && (((h1 & 0xF0) < 0x60 && rn == 15) ||
                                ((h1 & 0xF0) == 0x90 && (h2 & 0xF0) != 0xA0));
      /* REV, REV16, RBIT, REVSH, CLZ: shifts; an extend with an addend:
       * two stages; plain extends, SIMD, saturation, SEL: slot 0 */
      int xta = (h2 & 0x80) && (h1 & 0xF0) < 0x60 && rn != 15;
      r->xc = ((h2 & 0xF0C0) == 0xF080 &&
               ((h1 & 0xF0) == 0x90 || (h1 & 0xF0) == 0xB0))
                  ? MC_XC_SHIFT
              : xta ? MC_XC_XTA
                    : MC_XC_SLOT0;
      r->first = xta ? R(h2 & 0xF) : 0;
    }
  } else if ((h1 & 0xFF00) == 0xFB00) {
    mul32(h1, h2, r);
  }
}

void mc_regs_of(uint16_t h1, uint16_t h2, int size, mc_regs *r) {
  memset(r, 0, sizeof *r);
  if (size == 2)
    decode16(h1, r);
  else
    decode32(h1, h2, r);
  r->src &= 0x7FFF; /* the PC is never a data dependency */
  r->addr &= 0x7FFF;
  r->dst &= 0x7FFF;
  r->early &= 0x7FFF;
}
