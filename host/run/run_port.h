/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin run` on a real board: its stream from a serial port (--port), or
 * how to flash and read it. */
#ifndef MERLIN_HOST_RUN_PORT_H
#define MERLIN_HOST_RUN_PORT_H

#include "config/targets.h"
#include "run/run_opts.h"

#include <stddef.h>

/* Capture the stream of one run from o->port (reported on stderr). Returns
 * 0 with *console (malloc'd) and *len, 1 on failure, 130 when
 * interrupted. */
int mh_run_read_port(const mh_run_opts *o, const mh_target *t, char **console,
                     size_t *len, size_t max_bytes);
/* Keep a captured stream in ROOT/build/port-<target>.log, for diagnosis
 * when it is rejected; returns the path (malloc'd) or NULL. */
char *mh_run_keep_capture(const char *root, const mh_target *t,
                          const char *data, size_t len);
/* Print how to flash the image just built and how to read the board. */
void mh_run_board_hint(const mh_target *t, const char *image);

#endif
