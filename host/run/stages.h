/* SPDX-License-Identifier: Apache-2.0 */
/* The stages of the run pipeline, a file each (docs/host.md, "The run
 * pipeline"): the plan (host/plan/) deals out the jobs; each job of this
 * process's slice goes through the stages of stages.def in order
 * (mh_stages[], pipeline.c: check, which builds and executes the image,
 * then the repeats, the constant-time passes and verdicts, the costs);
 * then write (write.c) puts the slice's results in one results directory.
 * Every stage reports its own failures on stderr and returns an exit
 * status: 0, 1 (failed), 2 (usage), 130 (interrupted), or a stage's own
 * code where it says so. */
#ifndef MERLIN_HOST_RUN_STAGES_H
#define MERLIN_HOST_RUN_STAGES_H

#include "run/job.h"

/* build.c: leave folder k out of tr's image, for reason why. 0, or -1
 * (memory). */
int mh_stage_leave_out(mh_run_ctx *c, mh_job *tr, size_t k, const char *why);

/* build.c: a board target with neither --port nor --from: build its
 * image, then say how to flash and read it. Returns 1 (build failed) or
 * 2. */
int mh_stage_board_hint(mh_run_ctx *c, mh_job *tr);

/* execute.c: build and execute the image, leaving out the run's
 * implementation folders that do not build for the target or do not fit
 * it (docs/bring-your-own.md, "Not built, does not fit"), one at a time,
 * until the image builds and runs or no folder is to blame. Fills
 * tr->console. Returns 0 when the image ran and exited 0, 2 when it exited
 * non-zero (its stream may say why), 1 when it failed otherwise
 * (reported), 130 when interrupted. */
int mh_stage_execute(mh_run_ctx *c, mh_job *tr);

/* check.c: run (or read) one job and turn its stream into a checked
 * result. Returns 0, 1 (failed, reported) or 130 (interrupted). */
int mh_stage_check(mh_run_ctx *c, mh_job *tr);

/* ct_stage.c: the memcheck pass of the constant-time check (--ct, host):
 * the same image again under valgrind with --ct-only; its ct records'
 * error counts join the timed run's operations. */
int mh_stage_memcheck(mh_run_ctx *c, mh_job *tr);

/* ct_stage.c: the constant-time pass of a QEMU target (--ct): the same
 * image again with --ct-only under the plugin's trace (run/ct_pass.h). */
int mh_stage_qemu_ct(mh_run_ctx *c, mh_job *tr);

/* ct_stage.c: every operation's constant-time verdict against the
 * expected findings (constant-time/expected-findings.txt). */
int mh_stage_judge_ct(mh_run_ctx *c, mh_job *tr);

/* costs.c: flash and static RAM per algorithm (merlin sizes, the same
 * build configuration as the image), and whether each algorithm fits
 * each described board of the run's core (boards/, docs/boards.md). */
int mh_stage_costs(mh_run_ctx *c, mh_job *tr);

/* pipeline.c: --repeat K: K-1 more runs of the same image, each a fresh
 * process (a "power cycle" of the target); the spread of each operation's
 * median across the K runs goes into the first run's operations. */
int mh_stage_repeat(mh_run_ctx *c, mh_job *tr);

/* A row of stages.def: the stage, whether a job runs it, and what it
 * reads and writes (docs/host.md, "The run pipeline"). */
typedef struct {
  const char *id;
  int (*run)(mh_run_ctx *c, mh_job *tr);
  int (*when)(mh_run_ctx *c, const mh_job *tr);
  const char *when_text, *files, *reads, *writes;
} mh_stage;

/* pipeline.c: the stages of a job, in order (stages.def). */
extern const mh_stage mh_stages[];
extern const size_t mh_n_stages;

/* write.c: a file of a results directory beside the reports. */
typedef struct {
  const char *name, *data;
  size_t len;
} mh_out_file;

/* write.c: results r (and files) into a hidden directory of OUT, then
 * renamed into place as OUT/<UTC timestamp>[-N], OUT/latest repointed:
 * a results directory is whole or absent. r's merlin version and creation
 * time are this merlin's and now. OUT/latest that is not merlin's link
 * is refused, not replaced (model/results_dir.h). Returns 0, 1
 * (reported), or 130 when a signal came while writing (SIGINT, SIGTERM,
 * SIGHUP, with mh_exec_install_signal_handlers): nothing written. */
int mh_results_dir_write(const char *out, mh_results *r,
                         const mh_out_file *files, size_t n_files);

/* write.c: the results of jobs[0..n) (a plan, or its slice plan) and
 * their console streams, as mh_results_dir_write. */
int mh_stage_write(const mh_run_opts *o, mh_job *const *jobs, size_t n,
                   const mh_plan_ref *plan);

#endif
