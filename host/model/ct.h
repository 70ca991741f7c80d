/* SPDX-License-Identifier: Apache-2.0 */
/* Constant-time verdicts and traces as results hold them (results.json
 * "ct"; docs/constant-time.md). How they are made is run/ct.h (verdicts)
 * and run/ct_trace.h (the plugin's trace). */
#ifndef MERLIN_HOST_MODEL_CT_H
#define MERLIN_HOST_MODEL_CT_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
  MH_CT_UNCHECKED, /* no method applied (why in detail) */
  MH_CT_NONE,      /* every method applied, no finding */
  MH_CT_EXPECTED,  /* findings, each accepted in the list (why in detail) */
  MH_CT_FINDING,   /* a finding the list does not accept */
} mh_ct_status;

const char *mh_ct_status_name(int status);

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

void mh_ct_trace_free(mh_ct_trace *t);

#endif
