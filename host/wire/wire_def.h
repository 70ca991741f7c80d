/* SPDX-License-Identifier: Apache-2.0 */
/* The records of the wire as the reader knows them: tables built from
 * src/wire/wire.def, the definition the image's writer uses too. */
#ifndef MERLIN_HOST_WIRE_DEF_H
#define MERLIN_HOST_WIRE_DEF_H

#include <stddef.h>

enum { MWIRE_CLOSED, MWIRE_OPEN };
enum { MWIRE_OPT, MWIRE_REQ };
enum { MWIRE_DEC, MWIRE_TEXT, MWIRE_LIST, MWIRE_HEX };

/* Record types, in wire.def order. */
enum {
#define MWIRE_REC(name, fields) MH_WIRE_R_##name,
#include "wire.def"
  MH_WIRE_R_COUNT
};

/* Slots of records and fields in one numbering; MH_WIRE_K(rec, key) is the
 * index of a field among its record's fields. */
enum {
#define MWIRE_REC(name, fields) MH_WIRE_S_##name,
#define MWIRE_FLD(rec, key, need, fmt) MH_WIRE_S_##rec##_##key,
#include "wire.def"
  MH_WIRE_S_COUNT
};
#define MH_WIRE_K(rec, key) (MH_WIRE_S_##rec##_##key - MH_WIRE_S_##rec - 1)
#define MH_WIRE_N_FIELDS (MH_WIRE_S_COUNT - MH_WIRE_R_COUNT)
/* Most fields one record declares (tests/host/wire/test_wire_def.c). */
#define MH_WIRE_MAX_FIELDS 24

typedef struct {
  int rec; /* MH_WIRE_R_* */
  const char *key;
  int required; /* MWIRE_REQ or MWIRE_OPT */
  int fmt;      /* MWIRE_DEC ... */
} mh_wire_field;

typedef struct {
  const char *name;
  int open;     /* MWIRE_OPEN: undeclared fields too */
  size_t first; /* its first field in mh_wire_fields */
} mh_wire_record;

extern const mh_wire_record mh_wire_records[MH_WIRE_R_COUNT];
extern const mh_wire_field mh_wire_fields[MH_WIRE_N_FIELDS];

/* How many fields record r declares (they follow its first). */
size_t mh_wire_nfields(int r);
/* The record type named s[0..n), or -1. */
int mh_wire_record_find(const char *s, size_t n);

#endif
