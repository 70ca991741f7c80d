/* SPDX-License-Identifier: Apache-2.0 */
/* CRC-32 (IEEE 802.3, reflected, poly 0xEDB88320): the wire line checksum,
 * shared by the target writer and the host reader. */
#ifndef MERLIN_CRC32_H
#define MERLIN_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC: start with crc = 0; equals zlib's crc32(crc, buf, len). */
uint32_t mcore_crc32(uint32_t crc, const void *buf, size_t len);

#endif
