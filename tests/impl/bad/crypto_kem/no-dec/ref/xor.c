/* SPDX-License-Identifier: Apache-2.0 */
#include <stdint.h>

void toy_xor32(uint8_t *out, const uint8_t *a, const uint8_t *b);

void toy_xor32(uint8_t *out, const uint8_t *a, const uint8_t *b) {
  for (int i = 0; i < 32; i++)
    out[i] = (uint8_t)(a[i] ^ b[i]);
}
