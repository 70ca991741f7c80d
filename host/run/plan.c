/* SPDX-License-Identifier: Apache-2.0 */
/* See plan.h. */
#include "run/plan.h"
#include "config/hooks.h"
#include "run/impl_record.h"
#include "run/impl_ref.h"
#include "run/impls.h"
#include "run/jobs.h"
#include "run/matrix.h"
#include "util/fsutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int load_profile(mh_run_ctx *c) {
  const mh_run_opts *o = c->o;
  char err[2048];
  if ((o->from || o->port) && !o->profile)
    return 0; /* taken from the stream */
  if (o->from || o->port) {
    /* Only the name matters: the stream is compared against it. A name
     * must still be one of profiles/ (as without --from), so that a typo
     * is a usage error naming the valid ones. */
    char *root = mh_source_root(err, sizeof err);
    int bad = mh_profile_locate(root ? root : "", o->profile, &c->profile_path,
                                &c->profile_name, err, sizeof err) != 0;
    free(root);
    if (bad) {
      fprintf(stderr, "merlin: %s\n", err);
      return 2;
    }
    return 0;
  }
  if (mh_run_ctx_root(c) != 0)
    return 1;
  if (mh_profile_locate(c->root, o->profile ? o->profile : MH_PROFILE_DEFAULT,
                        &c->profile_path, &c->profile_name, err,
                        sizeof err) != 0 ||
      mh_profile_load(c->profile_path,
                      mh_path_display(c->root, c->profile_path), &c->profile,
                      err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  c->profile_loaded = 1;
  if (mh_run_impls(c->root, c->profile_path, &c->profile, o, &c->impls, err,
                   sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  if (o->kat_corrupt &&
      mh_kat_corrupt_check(o->kat_corrupt, &c->profile, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  return 0;
}

/* Split "a,b,c" into malloc'd names (NULL list entry: the default). */
static char **split_profiles(const char *arg, size_t *n) {
  size_t count = 1;
  for (const char *s = arg; s && *s; s++)
    count += *s == ',';
  char **names = calloc(count, sizeof *names);
  if (!names)
    return NULL;
  *n = 0;
  if (!arg) {
    *n = 1; /* one entry, NULL: the default profile */
    return names;
  }
  const char *start = arg;
  for (;;) {
    const char *end = strchr(start, ',');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    names[*n] = strndup(start, len);
    if (!names[*n]) {
      for (size_t i = 0; i < *n; i++)
        free(names[i]);
      free(names);
      return NULL;
    }
    (*n)++;
    if (!end)
      break;
    start = end + 1;
  }
  return names;
}

void mh_plan_free(mh_plan *pl) {
  for (size_t i = 0; pl->trs && i < pl->done; i++) {
    mh_job_free(&pl->trs[i]);
    for (size_t k = 0; pl->trs[i].impl_why && k < pl->trs[i].ctx->impls.n; k++)
      free(pl->trs[i].impl_why[k]);
    free(pl->trs[i].impl_why);
    free(pl->trs[i].impl_off);
  }
  free(pl->trs);
  for (size_t p = 0; pl->ctxs && p < pl->n_prof; p++) {
    mh_ct_list_free(&pl->ctxs[p].ct_list);
    mh_profile_free(&pl->ctxs[p].profile);
    mh_impl_set_free(&pl->ctxs[p].impls);
    free(pl->ctxs[p].profile_path);
    free(pl->ctxs[p].profile_name);
    free(pl->ctxs[p].root);
  }
  for (size_t p = 0; pl->profs && p < pl->n_prof; p++)
    free(pl->profs[p]);
  free(pl->ctxs);
  free(pl->popts);
  free(pl->slice);
  free(pl->cost);
  free(pl->profs);
  mh_matrix_free(pl->ccs, pl->n_cc);
  mh_matrix_free(pl->opts, pl->n_opt);
}

/* Split --cc, --opt and --profile and allocate the runs. Returns 0, 1 or
 * 2 (reported). */
int mh_plan_init(mh_plan *pl, const mh_run_opts *o) {
  char err[1024];
  pl->o = o;
  pl->n_cc = pl->n_opt = 1;
  pl->matrix = o->cc || o->opt;
  if (pl->matrix &&
      (mh_matrix_split("--cc", o->cc ? o->cc : MH_CC_DEFAULT, &pl->ccs,
                       &pl->n_cc, err, sizeof err) != 0 ||
       mh_matrix_split("--opt", o->opt ? o->opt : MH_OPT_DEFAULT, &pl->opts,
                       &pl->n_opt, err, sizeof err) != 0)) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  for (size_t k = 0; pl->matrix && k < pl->n_cc; k++)
    if (mh_matrix_check_cc(pl->ccs[k], err, sizeof err) != 0) {
      fprintf(stderr, "merlin: %s\n", err);
      return 1;
    }
  pl->profs = split_profiles(o->profile, &pl->n_prof);
  if (!pl->profs) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  if (o->from && pl->n_prof > 1) {
    fprintf(stderr, "merlin: --from reads one stream: give one --profile\n");
    return 2;
  }
  for (size_t p = 0; p < pl->n_prof; p++)
    for (size_t q = 0; q < p; q++)
      if (pl->profs[p] && pl->profs[q] &&
          strcmp(pl->profs[p], pl->profs[q]) == 0) {
        fprintf(stderr, "merlin: --profile lists '%s' twice\n", pl->profs[p]);
        return 2;
      }
  size_t per_prof = o->n_targets * pl->n_cc * pl->n_opt;
  pl->ctxs = calloc(pl->n_prof, sizeof *pl->ctxs);
  pl->trs = calloc(per_prof * pl->n_prof, sizeof *pl->trs);
  pl->popts = calloc(pl->n_prof, sizeof *pl->popts);
  if (!pl->trs || !pl->ctxs || !pl->popts) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  return 0;
}

/* Load profile p and set up its target runs. */
int mh_plan_profile(mh_plan *pl, size_t p, int parallel, unsigned workers) {
  const mh_run_opts *o = pl->o;
  mh_run_ctx *c = &pl->ctxs[p];
  char err[1024];
  pl->popts[p] = *o;
  pl->popts[p].profile = pl->profs[p];
  if (parallel) { /* the job board reports progress instead */
    pl->popts[p].board = !o->quiet;
    pl->popts[p].quiet = 1;
  }
  c->o = &pl->popts[p];
  int rc = load_profile(c);
  if (rc == 0 && parallel) {
    /* Loaded here, not lazily on the worker threads. */
    unsigned ncpu = mh_jobs_default();
    c->build_jobs = ncpu > workers ? ncpu / workers : 1;
    if (!o->kat_only && !c->ct_list_loaded) {
      if (mh_ct_list_load(c->root, &c->ct_list, err, sizeof err) != 0) {
        fprintf(stderr, "merlin: %s\n", err);
        rc = 1;
      }
      c->ct_list_loaded = rc == 0;
    }
  }
  size_t n_row = pl->n_cc * pl->n_opt;
  for (size_t i = 0; rc == 0 && i < o->n_targets; i++)
    for (size_t k = 0; k < n_row; k++) {
      mh_job *tr = &pl->trs[pl->done++];
      tr->t = mh_target_find(o->targets[i]);
      tr->ctx = c;
      tr->cc = pl->matrix ? pl->ccs[k / pl->n_opt] : NULL;
      tr->opt = pl->matrix ? pl->opts[k % pl->n_opt] : NULL;
      if (pl->matrix && pl->n_prof > 1)
        snprintf(tr->label, sizeof tr->label, "%s (profile %s, %s -%s)",
                 tr->t->id, c->profile_name, tr->cc, tr->opt);
      else if (pl->matrix)
        snprintf(tr->label, sizeof tr->label, "%s (%s -%s)", tr->t->id, tr->cc,
                 tr->opt);
      else
        snprintf(tr->label, sizeof tr->label, "%s", tr->t->id);
    }
  return rc;
}

int mh_plan_prepare(mh_plan *pl) {
  char err[2048];
  for (size_t p = 0; p < pl->n_prof; p++) {
    mh_run_ctx *c = &pl->ctxs[p];
    int used = 0;
    for (size_t i = 0; i < pl->done; i++)
      used |= pl->trs[i].ctx == c && mh_plan_mine(pl, i);
    mh_impl_ref_opts ro = {c->o->quiet, c->o->stall_s, c->o->timeout_s};
    if (used && c->impls.n &&
        mh_impl_expectations(c->root, &c->impls, &ro, err, sizeof err)) {
      fprintf(stderr, "merlin: %s\n", err);
      return 1;
    }
    /* the folders left out of every image (no known answers: a tree run) */
    for (size_t i = 0; used && i < pl->done; i++)
      if (pl->trs[i].ctx == c &&
          mh_impl_off_init(&c->impls, &pl->trs[i].impl_off,
                           &pl->trs[i].impl_why) != 0) {
        fprintf(stderr, "merlin: out of memory\n");
        return 1;
      }
  }
  return 0;
}
