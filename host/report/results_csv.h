/* SPDX-License-Identifier: Apache-2.0 */
/* results.csv: tidy long form, one row per (target, profile, alg, op,
 * bytes, backend), RFC 4180 quoting (docs/results.md). */
#ifndef MERLIN_HOST_RESULTS_CSV_H
#define MERLIN_HOST_RESULTS_CSV_H

#include "model/results.h"

/* Returns a malloc'd document, or NULL on allocation failure. */
char *mh_results_to_csv(const mh_results *r);

#endif
