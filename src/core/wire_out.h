/* SPDX-License-Identifier: Apache-2.0 */
/* The wire writer (docs/wire-format.md): one record at a time, each line
 * numbered and checksummed before it reaches the console. */
#ifndef MERLIN_WIRE_OUT_H
#define MERLIN_WIRE_OUT_H

#include <stddef.h>
#include <stdint.h>

void mcore_wire_start(const char *type); /* opens a record */
void mcore_wire_str(const char *key, const char *value);
void mcore_wire_u64(const char *key, uint64_t value);
void mcore_wire_hex(const char *key, uint32_t value); /* "0x%08x" */
/* A comma separated list of unsigned values. */
void mcore_wire_u64_list(const char *key, const uint64_t *v, size_t n);
void mcore_wire_end(void); /* appends seq/crc and writes the line */
/* Lines written so far (the next line's sequence number). */
uint32_t mcore_wire_count(void);

#endif
