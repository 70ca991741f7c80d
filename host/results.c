/* SPDX-License-Identifier: Apache-2.0 */
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mh_results_free(mh_results *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->n_runs; i++) {
    mh_result *x = &r->runs[i];
    free(x->target);
    free(x->profile);
    free(x->qemu_version);
    free(x->host);
    mh_run_free(&x->run);
  }
  free(r->runs);
  free(r->merlin);
  free(r->created);
  memset(r, 0, sizeof *r);
}

const char *mh_op_bytes_str(const mh_op *op, char buf[24]) {
  if (op->bytes < 0)
    buf[0] = '\0';
  else
    snprintf(buf, 24, "%ld", op->bytes);
  return buf;
}
