/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RP2040 second-stage boot (RP2040 Datasheet section 2.8.1.3): the bootrom
 * copies the first 256 bytes of flash to SRAM (0x20041f00), checks their
 * CRC-32 (the last 4 bytes; scripts/rp2040-image.mjs computes it at build
 * time) and runs them. This stage sets the XIP SSI (section 4.10) up for
 * plain serial 03h reads with a 24-bit address, one 32-bit frame per XIP
 * access, SCK = clk_sys / 4 (33 MHz at 133 MHz: within the W25Q16JV's
 * 50 MHz for 03h), then enters the image through its vector table at
 * 0x10000100. Position independent: only PC-relative literal loads.
 */
  .syntax unified
  .cpu cortex-m0plus
  .thumb
  .section .text
  .global merlin_boot2
  .type merlin_boot2, %function
merlin_boot2:
  push {lr}
  ldr r3, =0x18000000        /* XIP_SSI_BASE */
  movs r1, #0
  str r1, [r3, #0x08]        /* SSIENR = 0: registers writable */
  movs r1, #4
  str r1, [r3, #0x14]        /* BAUDR = 4 */
  /* CTRLR0: SPI_FRF = 0 (standard), DFS_32 = 31 (32-bit frames),
   * TMOD = 3 (EEPROM read: command and address out, data in). */
  ldr r1, =((31 << 16) | (3 << 8))
  str r1, [r3, #0x00]
  movs r1, #0
  str r1, [r3, #0x04]        /* CTRLR1: NDF = 0, one frame */
  /* SPI_CTRLR0 (offset 0xf4): XIP_CMD = 0x03, INST_L = 2 (8-bit),
   * ADDR_L = 6 (24-bit), TRANS_TYPE = 0 (command and address serial). */
  ldr r0, =0x180000f4
  ldr r1, =((0x03 << 24) | (2 << 8) | (6 << 2))
  str r1, [r0]
  movs r1, #1
  str r1, [r3, #0x08]        /* SSIENR = 1 */
  /* Entered from the bootrom, lr was 0: enter the image. A call from code
   * (to redo the XIP setup) returns. */
  pop {r0}
  cmp r0, #0
  beq 1f
  bx r0
1:
  ldr r0, =0x10000100        /* the image's vector table */
  ldr r1, =0xe000ed08        /* VTOR */
  str r0, [r1]
  ldmia r0, {r0, r1}         /* initial SP, reset vector */
  msr msp, r0
  bx r1
  .ltorg
