/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The constant-time pass of a QEMU target (merlin run --ct,
 * docs/constant-time.md): the timed run's image again, with --ct-only,
 * under the QEMU plugin's constant-time trace. A pass of its own, so the
 * trace's instrumentation never touches the timed run: its instruction
 * counts and cycle estimates are what they are without --ct.
 */
#ifndef MERLIN_HOST_CT_PASS_H
#define MERLIN_HOST_CT_PASS_H

#include "config/targets.h"
#include "model/model.h"
#include "util/exec.h"

#include <stddef.h>

typedef struct {
  const mh_target *t; /* a QEMU target */
  const char *image;  /* the timed run's image */
  const char *bdir;   /* where ct.side and ct-console.log go: the run's own
                       * directory (run/rundir.h) */
  const char *cwd;
  unsigned timeout_s, stall_s;
  mh_exec_hooks hooks; /* the pass's console lines as they arrive (progress) */
} mh_ct_pass;

/* Run the pass and give every operation of run (the timed run, same image)
 * that has a ct record the trace of its check. 0, or -1 with err (plugin
 * missing, QEMU failed, stream or side file rejected, other operations). */
int mh_ct_qemu_pass(const mh_ct_pass *p, mh_run *run, char *err, size_t errlen);

/* argv of a --kat-only QEMU run (mh_target_argv with runs = 0) turned into
 * a --ct-only one; NULL when it has no --kat-only argument or memory runs
 * out (argv is freed then). */
char **mh_ct_only_argv(char **argv);

#endif
