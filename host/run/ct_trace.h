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

#include "model/model.h"

#include <stddef.h>
#include <stdint.h>

/* One instruction site of a secret run that may take operand-dependent
 * time on some core. */
typedef struct {
  char *function; /* the function holding it, "?" when unknown */
  char *insn;     /* "udiv", "umull" ... */
  uint32_t addr;
  uint64_t count_min, count_max; /* executions per run */
  /* Set by the verdict (ct.c): variable on the run's core, and how the
   * list took it: "accepted", "known" or "new" (NULL: not variable). */
  int variable;
  const char *listed;
} mh_ct_vl;

typedef struct mh_ct_trace {
  uint32_t runs; /* fresh secrets traced */
  int path_equal;
  int addr_equal;   /* 1, 0, or -1: differs only after the paths parted */
  int layout_equal; /* stack and first heap block at one address */
  uint64_t insns_min, insns_max, exc;
  char *path_div, *addr_div; /* where the first departing run departs */
  char *path_fn, *addr_fn;   /* the function there (list qualifier fn=) */
  mh_ct_vl *vl;
  size_t n_vl;
} mh_ct_trace;

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

void mh_ct_trace_free(mh_ct_trace *t);

#endif
