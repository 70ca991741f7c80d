/* SPDX-License-Identifier: Apache-2.0 */
#include "crc32.h"

/* Bitwise form: small enough for an M0 image, and the wire is not hot. */
uint32_t mcore_crc32(uint32_t crc, const void *buf, size_t len) {
  const uint8_t *p = buf;
  crc = ~crc;
  while (len--) {
    crc ^= *p++;
    for (int k = 0; k < 8; k++)
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}
