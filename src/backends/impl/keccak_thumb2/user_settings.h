/* SPDX-License-Identifier: Apache-2.0 */
/* wolfSSL's settings for its Thumb-2 Keccak-f[1600] alone
 * (wolfcrypt/src/port/arm/thumb2-sha3-asm.S, assembled by
 * src/backends/impl/keccak_thumb2.cmake): the .S file keeps BlockSha3
 * behind these switches; nothing else of wolfSSL is built from them. */
#ifndef MERLIN_IMPL_KECCAK_THUMB2_SETTINGS_H
#define MERLIN_IMPL_KECCAK_THUMB2_SETTINGS_H
#define WOLFSSL_ARMASM
#define WOLFSSL_ARMASM_THUMB2
#define WOLFSSL_ARMASM_NO_HW_CRYPTO
#define WOLFSSL_ARMASM_NO_NEON
#define WOLFSSL_SHA3
#define WOLFCRYPT_ONLY
#define NO_FILESYSTEM
#define SINGLE_THREADED
#endif
