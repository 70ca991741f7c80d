/* SPDX-License-Identifier: Apache-2.0 */
/* The reader's tables, from src/wire/wire.def. */
#include "wire/wire_def.h"

#include <string.h>

/* A record's fields follow it in wire.def, so the fields before record r
 * are its slot minus the records before it. */
#define MWIRE_FIRST(name) ((size_t)(MH_WIRE_S_##name - MH_WIRE_R_##name))

const mh_wire_field mh_wire_fields[MH_WIRE_N_FIELDS] = {
#define MWIRE_FLD(rec, key, need, fmt) {MH_WIRE_R_##rec, #key, need, fmt},
#include "wire.def"
};

const mh_wire_record mh_wire_records[MH_WIRE_R_COUNT] = {
#define MWIRE_REC(name, fields) {#name, fields, MWIRE_FIRST(name)},
#include "wire.def"
};

size_t mh_wire_nfields(int r) {
  size_t n = 0;
  for (size_t i = mh_wire_records[r].first;
       i < MH_WIRE_N_FIELDS && mh_wire_fields[i].rec == r; i++)
    n++;
  return n;
}

int mh_wire_record_find(const char *s, size_t n) {
  for (int r = 0; r < MH_WIRE_R_COUNT; r++)
    if (strlen(mh_wire_records[r].name) == n &&
        memcmp(mh_wire_records[r].name, s, n) == 0)
      return r;
  return -1;
}
