/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The constant-time trace of the QEMU plugin (docs/constant-time.md): for
 * every run the runner brackets with mcore_mark_ct_begin/end (one run per
 * fresh secret, src/core/runner.c), a hash of the executed path and of the
 * (instruction, data address) sequence of its loads and stores, the first
 * place where a run leaves the first run's path or addresses, and the
 * executions of the instructions whose latency may depend on their operands.
 * Off unless the plugin gets ct=PATH; merlin_cycles.c calls these hooks.
 */
#ifndef MERLIN_CT_TRACE_H
#define MERLIN_CT_TRACE_H

#include "elfsyms.h"

#include <qemu-plugin.h>

#include <stddef.h>

/* A plugin argument of the trace (ct=PATH): 1 when taken, 0 when not
 * ours. */
int ct_trace_arg(const char *arg);
/* After the arguments: find the markers and the memory map in the image
 * elf (functions already in syms) and open the side file. 0, or -1 with
 * err. A no-op without ct=. */
int ct_trace_install(const char *elf, const es_table *syms, char *err,
                     size_t errlen);
/* At translation of every block: instrument it when the trace is on. */
void ct_trace_tb(struct qemu_plugin_tb *tb);
/* At exit: close the side file. */
void ct_trace_exit(void);

#endif
