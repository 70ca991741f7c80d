/* SPDX-License-Identifier: Apache-2.0 */
/* What the workflow sections compute (docs/workflows.md): the classical
 * reference of a workflow, the bytes each way, and the fairness check of
 * the control primitives. */
#ifndef MERLIN_HOST_ANALYSIS_WORKFLOWS_H
#define MERLIN_HOST_ANALYSIS_WORKFLOWS_H

#include "model/results.h"
#include "model/workflow.h"

#include <stddef.h>
#include <stdint.h>

/* The largest difference of the control medians a fair comparison allows
 * (docs/workflows.md: within 3%). */
#define MH_AN_FAIR_LIMIT 0.03

/* The classical reference of a provisioning workflow: classical-p256 on the
 * same backend when there is one, else the first classical-p256 (with
 * samples); NULL for other workflows. */
const mh_wf *mh_an_wf_reference(const mh_run *run, const mh_wf *w);

/* The bytes of w's messages the device sent and received. */
void mh_an_wf_bytes(const mh_wf *w, uint64_t *sent, uint64_t *recv);

/* The fairness check of one target (every run of r whose target is
 * target): the largest relative difference (max / min - 1) between the
 * medians of the control primitives, over the workflows of its images
 * (the control measured after each workflow) and over its images (the
 * hkdf-sha256 and hmac-sha256 operations of one backend and payload).
 * *what names the pair that differ most. Returns the number of values
 * compared (0: nothing to compare). */
size_t mh_an_wf_fairness(const mh_results *r, const char *target,
                         double *largest, char *what, size_t what_len);

#endif
