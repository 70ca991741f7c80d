/* SPDX-License-Identifier: Apache-2.0 */
/* results.json fields of the constant-time trace (docs/results.md,
 * docs/constant-time.md): writer and reader hooks for results_json.c. */
#ifndef MERLIN_HOST_CT_JSON_H
#define MERLIN_HOST_CT_JSON_H

#include "model/model.h"

#include <jansson.h>
#include <stddef.h>

/* Add core, secrets, path_equal, address_equal, layout_equal and
 * variable_latency to an op's "ct" object, when its verdict used the
 * trace. 0, or -1. */
int mh_ct_trace_json(json_t *ct, const mh_run *run, const mh_op *op);
/* Read them back into op->ct_trace; absent is fine. 0, or -1 with a
 * message. */
int mh_ct_trace_read(json_t *ct, mh_op *op, char *err, size_t errlen);

#endif
