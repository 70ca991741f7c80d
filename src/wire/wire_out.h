/* SPDX-License-Identifier: Apache-2.0 */
/* The wire writer (docs/wire-format.md): one record at a time, each line
 * numbered and checksummed before it reaches the console. */
#ifndef MERLIN_WIRE_OUT_H
#define MERLIN_WIRE_OUT_H

#include <stddef.h>
#include <stdint.h>

/* Record and field names come from wire.def, the definition the host's
 * reader is built from too: mcore_wire_start(MWIRE_R(op)),
 * mcore_wire_u64(MWIRE_K(op, id), id). Each is the string literal of its
 * name (nothing at run time); a name wire.def does not list does not
 * compile. */
enum {
#define MWIRE_REC(name, fields) MWIRE_R_##name,
#include "wire.def"
  MWIRE_R_COUNT
};
enum {
#define MWIRE_FLD(rec, key, need, fmt) MWIRE_K_##rec##_##key,
#define MWIRE_PFX(rec, prefix) MWIRE_P_##rec##_##prefix,
#include "wire.def"
  MWIRE_K_COUNT
};
#define MWIRE_R(name) ((void)MWIRE_R_##name, #name)
#define MWIRE_K(rec, key) ((void)MWIRE_K_##rec##_##key, #key)
/* The start of a key family: "lib." of lib.<name>. */
#define MWIRE_P(rec, prefix) ((void)MWIRE_P_##rec##_##prefix, #prefix ".")

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
