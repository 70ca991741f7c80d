/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The QEMU plugin's constant-time trace (tools/qemu-plugin/ct_trace.c,
 * docs/constant-time.md): per operation with a secret input, whether every
 * fresh secret ran the same path and touched the same addresses as the
 * first, where the first one that did not departs, and the instructions
 * with operand-dependent latency it executed.
 */
#ifndef MERLIN_HOST_CT_TRACE_H
#define MERLIN_HOST_CT_TRACE_H

#include "model/ct.h"
#include "model/model.h"

#include <stddef.h>
#include <stdint.h>

/* argv (from mh_cycles_argv: its last element is the plugin's argument
 * string) with ",ct=SIDE" appended; NULL when out of memory (argv freed). */
char **mh_ct_trace_argv(char **argv, const char *side);

/* Read the trace side file of a finished run and attach one trace to each
 * operation with a ct record, in order. 0, or -1 with a message (missing,
 * cut or garbled file, a check count or run count that disagrees with the
 * console stream). */
int mh_ct_trace_attach(mh_run *run, const char *side, char *err, size_t errlen);

/* Parse side-file text (buf is modified); the checks in *out (n of them).
 * 0, or -1 with a message naming the line. */
int mh_ct_trace_parse(char *buf, size_t len, mh_ct_trace **out, size_t *n,
                      char *err, size_t errlen);

#endif
