/* SPDX-License-Identifier: Apache-2.0 */
/* The run pipeline: every job of a plan's slice (plan/plan_run.c) through
 * the stages of stages.h. Returns the exit status of the first job that
 * failed, or 0 (docs/cli.md, "Exit status"). */
#ifndef MERLIN_HOST_RUN_PIPELINE_H
#define MERLIN_HOST_RUN_PIPELINE_H

#include "run/job.h"
#include "run/run_opts.h"

/* jobs[0..n) through the stages: with parallel, every image built on
 * workers threads, then the QEMU runs on workers threads, then the host
 * runs one at a time; else one job after the other, stopping at the first
 * that fails. */
int mh_pipeline_jobs(const mh_run_opts *o, mh_job *const *jobs, size_t n,
                     int parallel, unsigned workers);

#endif
