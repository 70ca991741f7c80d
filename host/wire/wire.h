/* SPDX-License-Identifier: Apache-2.0 */
/* The wire reader: validates a captured console stream (docs/wire-format.md)
 * and builds an mh_run. */
#ifndef MERLIN_HOST_WIRE_H
#define MERLIN_HOST_WIRE_H

#include "model/model.h"

#include <stddef.h>

typedef struct {
  size_t line; /* 1-based line number in the stream of the first failure */
  char msg[256];
} mh_wire_error;

/* Parse a whole captured stream. Returns 0 and fills *run on success.
 * Returns -1 and fills *err (and leaves *run empty) when the stream is
 * rejected: bad CRC, sequence gap, unknown id, missing end record, etc.
 * A stream whose end record says status=fail, or with a failed KAT, still
 * parses (return 0): the caller decides what a failed run means. */
int mh_wire_parse(const char *buf, size_t len, mh_run *run, mh_wire_error *err);

/* Percent-decoding of one value (docs/wire-format.md); returns a malloc'd
 * string or NULL on a malformed escape. */
char *mh_wire_decode(const char *s, size_t len);

#endif
