/* SPDX-License-Identifier: Apache-2.0 */
/* The build stage (see stages.h): leaving folders out, the board hint. */
#include "run/run_port.h"
#include "run/stages.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Leave folder k out of tr's image, for reason why. 0, or -1 (memory). */
int mh_stage_leave_out(mh_run_ctx *c, mh_job *tr, size_t k, const char *why) {
  if (!tr->impl_off)
    tr->impl_off = calloc(c->impls.n, 1);
  if (!tr->impl_why)
    tr->impl_why = calloc(c->impls.n, sizeof *tr->impl_why);
  char *w = strdup(why);
  if (!tr->impl_off || !tr->impl_why || !w) {
    free(w);
    return -1;
  }
  tr->impl_off[k] = 1;
  tr->impl_why[k] = w;
  fprintf(stderr, "merlin: %s: %s left out: %s; building without it\n",
          tr->label, c->impls.v[k].backend, why);
  free(tr->console);
  free(tr->console_copy);
  tr->console = tr->console_copy = NULL;
  tr->console_len = 0;
  return 0;
}

/* A board target with neither --port nor --from: build its image, then say
 * how to flash and read it. Returns 1 (build failed) or 2. */
int mh_stage_board_hint(mh_run_ctx *c, mh_job *tr) {
  char err[2048];
  mh_build_spec bs = mh_job_build_spec(c, tr, c->o->quiet);
  char *image = NULL;
  if (mh_image_build(&bs, &image, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s: build failed: %s\n", tr->t->id, err);
    return 1;
  }
  mh_run_board_hint(tr->t, image);
  free(image);
  return 2;
}
