/* SPDX-License-Identifier: Apache-2.0 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

const char *mh_run_prov(const mh_run *run, const char *key) {
  if (!run || !key)
    return NULL;
  for (size_t i = 0; i < run->n_prov; i++)
    if (run->prov[i].key && strcmp(run->prov[i].key, key) == 0)
      return run->prov[i].value;
  return NULL;
}

/* Tolerates a partly built run (the wire reader frees its state this way on
 * every error path), so every pointer may be NULL. */
void mh_run_free(mh_run *run) {
  if (!run)
    return;
  for (size_t i = 0; i < run->n_prov; i++) {
    free(run->prov[i].key);
    free(run->prov[i].value);
  }
  free(run->prov);
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_op *op = &run->ops[i];
    free(op->alg);
    free(op->op);
    free(op->backend);
    free(op->variant);
    free(op->kat_detail);
    free(op->raw);
    free(op->error_msg);
    free(op->samples);
  }
  free(run->ops);
  free(run->error_msg);
  free(run->unit);
  memset(run, 0, sizeof *run);
}
