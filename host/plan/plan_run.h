/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin run` after its command line: plan, then every stage of every
 * job of this process's slice (run/pipeline.h), then the results
 * directory, or nothing when any job failed. Returns the exit status
 * (docs/cli.md, "Exit status"). */
#ifndef MERLIN_HOST_PLAN_PLAN_RUN_H
#define MERLIN_HOST_PLAN_PLAN_RUN_H

#include "run/run_opts.h"

int mh_plan_run(const mh_run_opts *o);

#endif
