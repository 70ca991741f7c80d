/* SPDX-License-Identifier: Apache-2.0 */
/* See cycles.h. */
#include "model/cycles.h"

#include <stdlib.h>
#include <string.h>

/* The plugin's class names, in its order (tools/qemu-plugin/cycle_model.c). */
const char *const mh_cyc_class_names[MH_CYC_CLASSES] = {
    "alu",     "mul",          "mac",
    "div",     "load",         "store",
    "ldm_stm", "branch_taken", "branch_not_taken",
    "fp"};

void mh_cyc_op_free(mh_cyc_op *c) {
  if (!c)
    return;
  free(c->est_samples);
  for (size_t i = 0; i < c->n_top; i++)
    free(c->top[i].name);
  memset(c, 0, sizeof *c);
}

void mh_cyc_run_free(mh_cyc_run *c) {
  if (!c)
    return;
  free(c->model);
  free(c->version);
  free(c->absent);
  free(c->board);
  free(c->board_name);
  free(c->memsys);
  free(c->memory_source);
  free(c->power_source);
  free(c->accel_source);
  memset(c, 0, sizeof *c);
}

const char *const mh_acc_names[MH_ACC_GROUPS] = {"keccak", "ntt", "sha256",
                                                 "aes"};

double mh_accel_project(double est, const mh_acc_group *g, const double *cost) {
  double v = est;
  /* a group whose calls would cost the accelerator more than the software
   * took keeps its software cycles: a projection never adds time */
  for (int k = 0; k < MH_ACC_GROUPS; k++)
    if (cost[k] >= 0 && g[k].calls * cost[k] < g[k].cycles)
      v += g[k].calls * cost[k] - g[k].cycles;
  return v;
}
