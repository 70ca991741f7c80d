/* SPDX-License-Identifier: Apache-2.0 */
/* The build a run came from, as its provenance records it: the row of a
 * compiler x optimisation matrix (docs/cli.md "Compiler and optimisation
 * matrix"), which reports and comparisons group by. */
#ifndef MERLIN_HOST_MODEL_BUILD_H
#define MERLIN_HOST_MODEL_BUILD_H

#include "model/results.h"

#include <stddef.h>

/* The matrix row of a run from its provenance: the compiler family ("gcc",
 * "clang", or the compiler's first word; a driver given by its path, merlin
 * run --cc PATH: mh_path_tag of it, util/fsutil.h) and the last -O flag of
 * cflags ("-O2"; "" when none). */
void mh_result_cc(const mh_result *x, char *buf, size_t len);
void mh_result_opt(const mh_result *x, char *buf, size_t len);
/* Whether a and b are the same (target, profile, compiler, opt) row. */
int mh_result_same_row(const mh_result *a, const mh_result *b);
/* Whether the set has two runs of one (target, profile): a matrix. */
int mh_results_is_matrix(const mh_results *r);

#endif
