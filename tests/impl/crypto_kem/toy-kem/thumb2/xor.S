/* SPDX-License-Identifier: Apache-2.0 */
/* toy_xor32 in Thumb-2 (ARMv7-M): 32-bit encodings an ARMv6-M core (M0,
 * M0+) lacks, so this folder does not build there (tests/impl/README.md).
 * r0 = out, r1 = a, r2 = b; 32 bytes, word by word. */
	.syntax unified
	.thumb
	.text
	.global toy_xor32
	.type toy_xor32, %function
toy_xor32:
	push.w {r4, r5, r6}
	mov.w r3, #8
1:	ldr.w r4, [r1], #4
	ldr.w r5, [r2], #4
	eor.w r6, r4, r5
	str.w r6, [r0], #4
	subs.w r3, r3, #1
	bne.w 1b
	pop.w {r4, r5, r6}
	bx lr
	.size toy_xor32, .-toy_xor32
