/* SPDX-License-Identifier: Apache-2.0 */
/* results.json fields of the cycle model (docs/results.md): writer and
 * reader hooks for results_json.c. */
#ifndef MERLIN_HOST_CYCLES_JSON_H
#define MERLIN_HOST_CYCLES_JSON_H

#include "model/model.h"

#include <jansson.h>
#include <stddef.h>

/* Add provenance "cycle_model" (when the run has one). 0, or -1. */
/* What the energy estimate cannot see, written next to every figure. */
extern const char *const mh_energy_weakness;

int mh_cycles_prov_json(json_t *prov, const mh_run *run);
/* Add est_cycles, cycle_model, insn_classes and profile to an op object
 * (when the op has them). 0, or -1. */
int mh_cycles_op_json(json_t *o, const mh_run *run, const mh_op *op);
/* Read them back; absent fields are fine. 0, or -1 with a message. */
int mh_cycles_read_prov(json_t *prov, mh_run *run, char *err, size_t errlen);
int mh_cycles_read_op(json_t *o, mh_op *op, char *err, size_t errlen);

#endif
