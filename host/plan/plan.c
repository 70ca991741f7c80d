/* SPDX-License-Identifier: Apache-2.0 */
/* See plan.h. */
#include "plan/plan.h"
#include "config/hooks.h"
#include "impl/impl_record.h"
#include "impl/impl_ref.h"
#include "impl/impls.h"
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
  mh_impl_opts fo = mh_run_impl_opts(o);
  if (mh_run_impls(c->root, c->profile_path, &c->profile, &fo, &c->impls, err,
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
  for (size_t k = 0; k < pl->n_parts; k++) { /* their own fields only */
    mh_ct_list_free(&pl->parts[k]->ct_list);
    free(pl->parts[k]->profile_name);
    free(pl->parts[k]->elsewhere);
    free(pl->parts[k]);
  }
  free(pl->parts);
  for (size_t p = 0; pl->ctxs && p < pl->n_prof; p++) {
    free(pl->ctxs[p].elsewhere);
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
  pl->ctxs = calloc(pl->n_prof, sizeof *pl->ctxs);
  pl->popts = calloc(pl->n_prof, sizeof *pl->popts);
  if (!pl->ctxs || !pl->popts) {
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
  return rc;
}

/* The jobs of context c: every target, every compiler and level. */
static void ctx_jobs(mh_plan *pl, mh_run_ctx *c) {
  const mh_run_opts *o = pl->o;
  size_t n_row = pl->n_cc * pl->n_opt;
  for (size_t i = 0; i < o->n_targets; i++)
    for (size_t k = 0; k < n_row; k++) {
      mh_job *tr = &pl->trs[pl->done++];
      tr->t = mh_target_find(o->targets[i]);
      tr->ctx = c;
      tr->cc = pl->matrix ? pl->ccs[k / pl->n_opt] : NULL;
      tr->opt = pl->matrix ? pl->opts[k % pl->n_opt] : NULL;
      if (pl->matrix && (pl->n_prof > 1 || c->part))
        snprintf(tr->label, sizeof tr->label, "%s (profile %s, %s -%s)",
                 tr->t->id, c->profile_name, tr->cc, tr->opt);
      else if (pl->matrix)
        snprintf(tr->label, sizeof tr->label, "%s (%s -%s)", tr->t->id, tr->cc,
                 tr->opt);
      else if (c->part)
        snprintf(tr->label, sizeof tr->label, "%s (profile %s)", tr->t->id,
                 c->profile_name);
      else
        snprintf(tr->label, sizeof tr->label, "%s", tr->t->id);
    }
}

int mh_plan_jobs(mh_plan *pl) {
  size_t per = pl->o->n_targets * pl->n_cc * pl->n_opt;
  pl->trs = calloc(per * (pl->n_prof + pl->n_parts) + 1, sizeof *pl->trs);
  if (!pl->trs) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  for (size_t p = 0; p < pl->n_prof; p++) {
    ctx_jobs(pl, &pl->ctxs[p]);
    for (size_t k = 0; k < pl->n_parts; k++)
      if (pl->parts[k]->parent == &pl->ctxs[p])
        ctx_jobs(pl, pl->parts[k]);
  }
  return 0;
}

/* Part k of c: its context, borrowing c's profile and folders; its image
 * holds only the control primitives and the folders of group k. */
static mh_run_ctx *new_part(mh_run_ctx *c, unsigned k, const unsigned *group) {
  mh_run_ctx *x = calloc(1, sizeof *x);
  char name[MH_PROFILE_NAME_MAX + 16];
  snprintf(name, sizeof name, "%s.part%u",
           c->profile_name ? c->profile_name : MH_PROFILE_DEFAULT, k);
  if (!x)
    return NULL;
  *x = *c;
  memset(&x->ct_list, 0, sizeof x->ct_list);
  x->ct_list_loaded = 0;
  memset(x->profile.n_routes, 0, sizeof x->profile.n_routes);
  x->parent = c;
  x->part = k;
  x->profile_name = strdup(name);
  x->elsewhere = calloc(c->impls.n ? c->impls.n : 1, 1);
  if (!x->profile_name || !x->elsewhere) {
    free(x->profile_name);
    free(x->elsewhere);
    free(x);
    return NULL;
  }
  for (size_t i = 0; i < c->impls.n; i++)
    x->elsewhere[i] = c->impls.v[i].library || group[i] != k;
  /* loaded now, as its parent's, not lazily on -j's worker threads */
  char err[1024];
  if (c->ct_list_loaded &&
      mh_ct_list_load(c->root, &x->ct_list, err, sizeof err) == 0)
    x->ct_list_loaded = 1;
  return x;
}

int mh_plan_split(mh_plan *pl, size_t p, const unsigned *group,
                  unsigned n_groups) {
  mh_run_ctx *c = &pl->ctxs[p];
  if (n_groups < 2)
    return 0;
  c->elsewhere = calloc(c->impls.n ? c->impls.n : 1, 1);
  mh_run_ctx **grown =
      realloc(pl->parts, (pl->n_parts + n_groups) * sizeof *pl->parts);
  if (!c->elsewhere || !grown)
    return -1;
  pl->parts = grown;
  for (size_t i = 0; i < c->impls.n; i++)
    c->elsewhere[i] = !c->impls.v[i].library && group[i] != 0;
  for (unsigned k = 1; k < n_groups; k++) {
    mh_run_ctx *x = new_part(c, k, group);
    if (!x)
      return -1;
    pl->parts[pl->n_parts++] = x;
  }
  return 0;
}

/* A folder of job tr's profile that another part's image holds: left out
 * of tr's image, without a reason (it is not a failure: mh_impl_record
 * leaves it out of the job's records). */
static int mark_elsewhere(mh_job *tr) {
  const mh_run_ctx *c = tr->ctx;
  for (size_t i = 0; c->elsewhere && i < c->impls.n; i++) {
    if (!c->elsewhere[i])
      continue;
    if (!tr->impl_off && !(tr->impl_off = calloc(c->impls.n, 1)))
      return -1;
    tr->impl_off[i] = 1;
  }
  return 0;
}

/* The host image of the references of the folders (host/impl/impl_ref.h,
 * mh_impl_ref_opts.build). */
static int build_refs(void *ctx, const mh_impl_set *refs,
                      const unsigned char *off, char **image, char **log,
                      char *err, size_t errlen) {
  const mh_run_ctx *c = ctx;
  const mh_target *host = mh_target_find("host");
  mh_profile none = {0};
  *log = NULL;
  if (!host) {
    snprintf(err, errlen, "no host target (boards/host.board)");
    return -1;
  }
  mh_build_spec bs = {.root = c->root,
                      .target = host,
                      .profile_name = "nistkat-ref",
                      .profile = &none,
                      .quiet = c->o->quiet,
                      .impls = refs,
                      .impl_off = off,
                      .defer_log = 1};
  if (mh_image_build(&bs, image, err, errlen) == 0)
    return 0;
  char *bdir = mh_build_dir(&bs);
  *log = bdir ? mh_path_join(bdir, "build.log") : NULL;
  free(bdir);
  return -1;
}

int mh_plan_prepare(mh_plan *pl) {
  char err[2048];
  for (size_t p = 0; p < pl->n_prof; p++) {
    mh_run_ctx *c = &pl->ctxs[p];
    int used = 0;
    for (size_t i = 0; i < pl->done; i++)
      used |= (pl->trs[i].ctx == c || pl->trs[i].ctx->parent == c) &&
              mh_plan_mine(pl, i);
    mh_impl_ref_opts ro = {.quiet = c->o->quiet,
                           .no_cache = c->o->no_ref_cache,
                           .stall_s = c->o->stall_s,
                           .timeout_s = c->o->timeout_s,
                           .build = build_refs,
                           .show_log = mh_build_log_tail,
                           .ctx = c};
    if (used && c->impls.n &&
        mh_impl_expectations(c->root, &c->impls, &ro, err, sizeof err)) {
      fprintf(stderr, "merlin: %s\n", err);
      return 1;
    }
    /* the parts see what the expectations set in their parent's */
    for (size_t k = 0; k < pl->n_parts; k++)
      if (pl->parts[k]->parent == c)
        pl->parts[k]->impls = c->impls;
    /* the folders left out of every image (no known answers: a tree run),
     * and those another part's image holds */
    for (size_t i = 0; used && i < pl->done; i++)
      if ((pl->trs[i].ctx == c || pl->trs[i].ctx->parent == c) &&
          (mh_impl_off_init(&c->impls, &pl->trs[i].impl_off,
                            &pl->trs[i].impl_why) != 0 ||
           mark_elsewhere(&pl->trs[i]) != 0)) {
        fprintf(stderr, "merlin: out of memory\n");
        return 1;
      }
  }
  return 0;
}
