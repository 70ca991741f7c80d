/* SPDX-License-Identifier: Apache-2.0 */
/* See ct.h. */
#include "model/ct.h"

#include <stdlib.h>
#include <string.h>

const char *mh_ct_status_name(int status) {
  switch (status) {
  case MH_CT_NONE:
    return "none";
  case MH_CT_EXPECTED:
    return "expected";
  case MH_CT_FINDING:
    return "finding";
  default:
    return "unchecked";
  }
}

void mh_ct_trace_free(mh_ct_trace *t) {
  if (!t)
    return;
  for (size_t i = 0; i < t->n_vl; i++) {
    free(t->vl[i].function);
    free(t->vl[i].insn);
  }
  free(t->vl);
  free(t->path_div);
  free(t->addr_div);
  free(t->path_fn);
  free(t->addr_fn);
  memset(t, 0, sizeof *t);
}
