/* SPDX-License-Identifier: Apache-2.0 */
/* The plan file (see plan.h; docs/scaling.md): written by `merlin run
 * --plan-only FILE` (the plan's jobs, their estimated costs and slices, as
 * a table and as the file that `merlin run --plan FILE --shard K/N` runs
 * on any machine) and read back, by one reader, by `merlin run --plan`
 * (its parts, then its jobs' costs). */
#include "model/build.h"
#include "model/results_json.h"
#include "model/workflow.h"
#include "plan/plan.h"
#include "report/format.h"
#include "util/escape.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The run of prev that job tr would repeat: the same target, its
 * profile (a part's: its parent's), and the same compiler and level where
 * tr is a matrix row. */
static const mh_result *previous(const mh_results *prev, const mh_job *tr) {
  const mh_run_ctx *c = tr->ctx->parent ? tr->ctx->parent : tr->ctx;
  const char *pname = c->profile_name ? c->profile_name : MH_PROFILE_DEFAULT;
  for (size_t i = 0; i < prev->n_runs; i++) {
    const mh_result *x = &prev->runs[i];
    if (!x->target || strcmp(x->target, tr->t->id) != 0 || !x->profile ||
        strcmp(x->profile, pname) != 0)
      continue;
    char cc[64], want_cc[64], opt[32];
    mh_result_cc(x, cc, sizeof cc);
    mh_result_opt(x, opt, sizeof opt);
    if (tr->cc)
      mh_path_tag(tr->cc, want_cc, sizeof want_cc);
    if (!tr->cc ||
        (strcmp(cc, want_cc) == 0 && strcmp(opt + (*opt == '-'), tr->opt) == 0))
      return x;
  }
  return NULL;
}

/* Operation o of a previous run is in job tr's image: a folder's when tr's
 * profile (or part) holds that folder, the rest when tr is a profile's own
 * image (part 0). */
static int in_image(const mh_job *tr, const mh_op *o) {
  const mh_run_ctx *c = tr->ctx;
  if (!o->backend || strncmp(o->backend, "impl:", 5) != 0)
    return c->part == 0;
  for (size_t i = 0; i < c->impls.n; i++)
    if (strcmp(c->impls.v[i].backend, o->backend) == 0)
      return !c->elsewhere || !c->elsewhere[i];
  return c->part == 0;
}

/* What a job executes, from the run prev made of its target and profile:
 * every operation of its image, median times the calls the options make
 * (the KAT, the warm-ups, the samples), and, for a profile's own image,
 * every workflow's median times its samples, in the run's unit
 * (instructions under QEMU). An estimate for dealing jobs into slices, not
 * a measurement. */
static double job_cost(const mh_job *tr, const mh_result *x,
                       const mh_run_opts *o) {
  double calls = 1.0 + o->warmup + o->runs, sum = 0;
  for (size_t i = 0; i < x->run.n_ops; i++)
    if (in_image(tr, &x->run.ops[i]))
      sum += x->run.ops[i].stats.median * calls;
  for (size_t i = 0; tr->ctx->part == 0 && i < x->run.n_wfs; i++)
    sum += x->run.wfs[i].stats.median * (o->warmup + o->runs);
  return sum;
}

static int estimate(mh_plan *pl, const char *dir, char *err, size_t errlen) {
  mh_results prev;
  if (mh_results_load_arg(dir, &prev, err, errlen) != 0)
    return -1;
  pl->cost = malloc((pl->done ? pl->done : 1) * sizeof *pl->cost);
  for (size_t i = 0; pl->cost && i < pl->done; i++) {
    const mh_result *x = previous(&prev, &pl->trs[i]);
    pl->cost[i] = x ? job_cost(&pl->trs[i], x, pl->o) : -1;
  }
  mh_results_free(&prev);
  if (!pl->cost)
    snprintf(err, errlen, "out of memory");
  return pl->cost ? 0 : -1;
}

/* With every job's cost known and the plan dealt into slices: the
 * heaviest slice, the whole and the heaviest job, the bound no number of
 * slices goes below (docs/scaling.md "Measured scale"); of the jobs not
 * timed by the host's clock, whose costs are instructions: a host job's
 * are nanoseconds, said apart, never added to them. */
static void slices_summary(const mh_plan *pl) {
  if (!pl->cost || !pl->slice || pl->shards < 1)
    return;
  double whole = 0, job_max = 0, host = 0;
  size_t n_host = 0;
  double *load = calloc(pl->shards, sizeof *load);
  if (!load)
    return;
  for (size_t i = 0; i < pl->done; i++) {
    if (pl->cost[i] < 0) {
      free(load);
      return;
    }
    if (mh_plan_host_timed(&pl->trs[i])) {
      host += pl->cost[i];
      n_host++;
      continue;
    }
    whole += pl->cost[i];
    job_max = pl->cost[i] > job_max ? pl->cost[i] : job_max;
    load[pl->slice[i]] += pl->cost[i];
  }
  double slice_max = 0;
  for (unsigned k = 0; k < pl->shards; k++)
    slice_max = load[k] > slice_max ? load[k] : slice_max;
  free(load);
  char a[40], b[40], c[40];
  mh_format_number(slice_max, a, sizeof a);
  mh_format_number(whole, b, sizeof b);
  mh_format_number(job_max, c, sizeof c);
  if (n_host < pl->done)
    printf("merlin: %u slice(s): the heaviest %s (estimate), %.1f%% of the "
           "plan's %s; the heaviest job, %s, bounds any number of slices\n",
           pl->shards, a, whole > 0 ? 100.0 * slice_max / whole : 0.0, b, c);
  if (n_host) {
    mh_format_number(host, a, sizeof a);
    printf("merlin: and %zu job(s) timed by the host's clock, in slice 0: "
           "%s ns (estimate), not added to the others' instructions\n",
           n_host, a);
  }
}

/* The table on stdout: job, target, profile, build, cost, slice. */
static void table(const mh_plan *pl, const mh_run_opts *o) {
  printf("merlin: plan %s: %zu job(s)%s\n", pl->hash, pl->done,
         o->shards ? "" : " (give --shard 0/N to see them dealt into N)");
  printf("  %4s  %-14s %-20s %-12s %18s  %s\n", "job", "target", "profile",
         "build", "cost (estimate)", o->shards ? "slice" : "");
  for (size_t i = 0; i < pl->done; i++) {
    const mh_job *tr = &pl->trs[i];
    char build[48], cost[40], prof[64];
    snprintf(build, sizeof build, "%s%s%s", tr->cc ? tr->cc : "default",
             tr->cc ? " -" : "", tr->opt ? tr->opt : "");
    if (pl->cost && pl->cost[i] >= 0)
      mh_format_number(pl->cost[i], cost, sizeof cost);
    else
      snprintf(cost, sizeof cost, "?");
    printf("  %4zu  %-14s %-20s %-12s %18s  ", i, tr->t->id,
           mh_esc_term_buf(tr->ctx->profile_name ? tr->ctx->profile_name
                                                 : MH_PROFILE_DEFAULT,
                           prof, sizeof prof),
           build, cost);
    if (o->shards)
      printf("%u of %u", pl->slice[i], pl->shards);
    printf("\n");
  }
  slices_summary(pl);
}

/* What a profile's ops on one backend cost in prev (its runs of that
 * profile, or of its parts, on any target): the sum over operations of
 * the median times the calls (job_cost's estimate). backend NULL: every
 * backend but the implementation folders' (the profile's own image). */
static double backend_cost(const mh_results *prev, const char *profile,
                           const char *backend, const mh_run_opts *o) {
  double calls = 1.0 + o->warmup + o->runs, sum = 0;
  size_t pl = strlen(profile);
  for (size_t r = 0; r < prev->n_runs; r++) {
    const mh_result *x = &prev->runs[r];
    if (!x->profile || strncmp(x->profile, profile, pl) != 0 ||
        (x->profile[pl] && strncmp(x->profile + pl, ".part", 5) != 0))
      continue;
    for (size_t i = 0; i < x->run.n_ops; i++) {
      const char *b = x->run.ops[i].backend;
      if (backend ? (b && strcmp(b, backend) == 0)
                  : (!b || strncmp(b, "impl:", 5) != 0))
        sum += x->run.ops[i].stats.median * calls;
    }
  }
  return sum;
}

/* Heavy folders apart (docs/scaling.md, "Heavy folders"): profile p's
 * folders, heaviest first, each into the first part whose work stays
 * within the heaviest single item (a folder, or the profile's own
 * algorithms, which stay in part 0): no job longer than that must be. */
static int split_folders(mh_plan *pl, size_t p, const mh_results *prev) {
  mh_run_ctx *c = &pl->ctxs[p];
  size_t n = c->impls.n;
  const char *name = c->profile_name ? c->profile_name : MH_PROFILE_DEFAULT;
  double *cost = calloc(n ? n : 1, sizeof *cost), own, cap;
  double *load = calloc(n + 1, sizeof *load);
  unsigned *group = calloc(n ? n : 1, sizeof *group), n_groups = 1;
  size_t *order = calloc(n ? n : 1, sizeof *order), m = 0;
  int rc = -1;
  if (!cost || !load || !group || !order)
    goto out;
  cap = own = backend_cost(prev, name, NULL, pl->o);
  for (size_t i = 0; i < n; i++)
    if (!c->impls.v[i].library) {
      cost[i] = backend_cost(prev, name, c->impls.v[i].backend, pl->o);
      cap = cost[i] > cap ? cost[i] : cap;
      size_t k = m++; /* insertion by cost, heaviest first, then by order */
      while (k > 0 && cost[order[k - 1]] < cost[i]) {
        order[k] = order[k - 1];
        k--;
      }
      order[k] = i;
    }
  load[0] = own;
  for (size_t k = 0; k < m; k++) {
    unsigned g = 0;
    while (g < n_groups && load[g] + cost[order[k]] > cap)
      g++;
    if (g == n_groups)
      n_groups++;
    group[order[k]] = g;
    load[g] += cost[order[k]];
  }
  rc = mh_plan_split(pl, p, group, n_groups);
out:
  free(cost);
  free(load);
  free(group);
  free(order);
  return rc;
}

static int split_all(mh_plan *pl, const char *dir, char *err, size_t errlen) {
  mh_results prev;
  if (mh_results_load_arg(dir, &prev, err, errlen) != 0)
    return -1;
  int rc = 0;
  for (size_t p = 0; rc == 0 && p < pl->n_prof; p++)
    rc = split_folders(pl, p, &prev);
  mh_results_free(&prev);
  if (rc != 0)
    snprintf(err, errlen, "out of memory");
  return rc;
}

int mh_plan_write(mh_plan *pl, const mh_run_opts *o) {
  char err[2048];
  if (o->costs && split_all(pl, o->costs, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: --costs %s: %s\n", o->costs, err);
    return 1;
  }
  if (mh_plan_jobs(pl) != 0)
    return 1;
  if (o->costs && estimate(pl, o->costs, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: --costs %s: %s\n", o->costs, err);
    return 1;
  }
  if (mh_plan_slice(pl, o->shards, o->shard, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    return 2;
  }
  json_t *plan = mh_plan_json(pl), *args = json_array();
  for (size_t i = 0; args && i < o->n_plan_args; i++)
    json_array_append_new(args, json_string(o->plan_args[i]));
  int rc = 1;
  if (plan && args) {
    json_object_set_new(plan, "hash", json_string(pl->hash));
    json_object_set(plan, "args", args);
    char *text = json_dumps(plan, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    size_t n = text ? strlen(text) : 0;
    char *with_nl = text ? realloc(text, n + 2) : NULL;
    if (with_nl) {
      memcpy(with_nl + n, "\n", 2);
      text = with_nl;
    }
    if (text &&
        mh_write_atomic(o->plan_only, text, n + 1, err, sizeof err) == 0) {
      rc = 0;
    } else {
      fprintf(stderr, "merlin: --plan-only: %s\n",
              text ? err : "out of memory");
    }
    free(text);
  }
  json_decref(plan);
  json_decref(args);
  if (rc == 0 && strcmp(o->plan_only, "-") != 0) {
    table(pl, o);
    printf("merlin: plan written to %s; run a slice with merlin run --plan "
           "%s --shard K/N --out DIR\n",
           o->plan_only, o->plan_only);
  }
  return rc;
}

json_t *mh_plan_file_read(const char *path, char *err, size_t errlen) {
  char *buf = NULL;
  size_t len;
  if (mh_read_file(path, 64u << 20, &buf, &len, err, errlen) != 0)
    return NULL;
  json_error_t je;
  json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
  free(buf);
  if (!root || !json_is_array(json_object_get(root, "jobs")) ||
      json_integer_value(json_object_get(root, "merlin_plan")) !=
          MH_PLAN_FORMAT) {
    snprintf(err, errlen,
             "%s: not a plan of this merlin (merlin run --plan-only FILE "
             "writes one)",
             path);
    json_decref(root);
    return NULL;
  }
  return root;
}

/* The file's job i, without its cost, equals ours. */
static int same_job(const mh_plan *pl, size_t i, json_t *theirs) {
  json_t *ours = mh_plan_job_json(pl, i), *t = json_deep_copy(theirs);
  if (t)
    json_object_del(t, "cost");
  if (ours)
    json_object_del(ours, "cost");
  int same = ours && t && json_equal(ours, t);
  json_decref(ours);
  json_decref(t);
  return same;
}

int mh_plan_adopt(mh_plan *pl, const char *path, char *err, size_t errlen) {
  json_t *root = mh_plan_file_read(path, err, errlen);
  if (!root)
    return -1;
  json_t *jobs = json_object_get(root, "jobs");
  size_t n = json_array_size(jobs);
  int rc = -1;
  json_t *opts = mh_plan_options_json(pl->o);
  int same_opts = opts && json_equal(opts, json_object_get(root, "options"));
  json_decref(opts);
  if (!same_opts) {
    snprintf(err, errlen,
             "%s: its options (runs, warm-ups, cycle model, ...) are not "
             "these",
             path);
    goto out;
  }
  if (n != pl->done) {
    snprintf(err, errlen,
             "%s has %zu jobs, these options make %zu: the plan no longer "
             "matches this tree",
             path, n, pl->done);
    goto out;
  }
  pl->cost = malloc((n ? n : 1) * sizeof *pl->cost);
  for (size_t i = 0; pl->cost && i < n; i++) {
    json_t *j = json_array_get(jobs, i), *c = json_object_get(j, "cost");
    pl->cost[i] = json_is_number(c) ? json_number_value(c) : -1;
    if (!same_job(pl, i, j)) {
      snprintf(err, errlen,
               "%s: job %zu (%s, profile %s) differs from what this tree and "
               "these options plan (a profile, a folder or the build changed)",
               path, i, pl->trs[i].t->id,
               pl->trs[i].ctx->profile_name ? pl->trs[i].ctx->profile_name
                                            : MH_PROFILE_DEFAULT);
      goto out;
    }
  }
  rc = pl->cost ? 0 : -1;
  if (!pl->cost)
    snprintf(err, errlen, "out of memory");
out:
  json_decref(root);
  return rc;
}

/* Profile p's folder with this SHA-256, or -1. */
static long folder_of(const mh_run_ctx *c, const char *sha) {
  for (size_t i = 0; sha && i < c->impls.n; i++)
    if (strcmp(c->impls.v[i].sha256, sha) == 0)
      return (long)i;
  return -1;
}

/* The file's job j names part k of profile p ("<profile>.part<k>"): its
 * folders into group (k for each). 1 when it does, 0 when not, -1 (err)
 * when it names a folder that is not one of the profile's own (a library
 * backend's folders stay in part 0) or is in another part already. */
static int part_job(const mh_run_ctx *c, json_t *j, size_t ji, unsigned *group,
                    unsigned *n_groups, char *err, size_t errlen) {
  const char *name = json_string_value(json_object_get(j, "profile"));
  const char *base = c->profile_name ? c->profile_name : MH_PROFILE_DEFAULT;
  size_t bl = strlen(base);
  unsigned k;
  char tail;
  if (!name || strncmp(name, base, bl) != 0 ||
      sscanf(name + bl, ".part%u%c", &k, &tail) != 1 || k == 0 || k > 4096)
    return 0;
  json_t *impls = json_object_get(j, "impls"), *v;
  size_t i;
  json_array_foreach(impls, i, v) {
    long f = folder_of(c, json_string_value(v));
    if (f < 0 || c->impls.v[f].library || (group[f] && group[f] != k)) {
      char a[96], b[96];
      snprintf(err, errlen, "job %zu (part %s) names folder %s, %s", ji,
               mh_esc_term_buf(name, a, sizeof a),
               json_is_string(v)
                   ? mh_esc_term_buf(json_string_value(v), b, sizeof b)
                   : "(not a string)",
               f < 0 ? "which is none of its profile's folders"
               : c->impls.v[f].library
                   ? "a library backend's, which stays in the profile's image"
                   : "which another part holds");
      return -1;
    }
    group[f] = k;
  }
  *n_groups = k + 1 > *n_groups ? k + 1 : *n_groups;
  return 1;
}

/* Every part 1..n_groups-1 holds a folder: 0, or -1 with err. */
static int parts_hold_folders(const mh_run_ctx *c, const unsigned *group,
                              unsigned n_groups, char *err, size_t errlen) {
  for (unsigned k = 1; k < n_groups; k++) {
    size_t held = 0;
    for (size_t i = 0; i < c->impls.n; i++)
      held += group[i] == k;
    if (!held) {
      snprintf(err, errlen,
               "part %s.part%u of its jobs holds none of the profile's "
               "folders: a plan's parts split a profile's folders into "
               "images, and merlin makes no part without one",
               c->profile_name ? c->profile_name : MH_PROFILE_DEFAULT, k);
      return -1;
    }
  }
  return 0;
}

int mh_plan_parts_from_file(mh_plan *pl, const char *path, char *err,
                            size_t errlen) {
  json_t *root = mh_plan_file_read(path, err, errlen);
  if (!root)
    return -1;
  json_t *jobs = json_object_get(root, "jobs");
  char why[1024] = "out of memory";
  int rc = 0;
  for (size_t p = 0; rc == 0 && p < pl->n_prof; p++) {
    mh_run_ctx *c = &pl->ctxs[p];
    unsigned *group = calloc(c->impls.n ? c->impls.n : 1, sizeof *group);
    unsigned n_groups = 1;
    size_t i;
    json_t *j;
    rc = group ? 0 : -1;
    json_array_foreach(jobs, i, j) {
      if (rc == 0 && part_job(c, j, i, group, &n_groups, why, sizeof why) < 0)
        rc = -1;
    }
    if (rc == 0)
      rc = parts_hold_folders(c, group, n_groups, why, sizeof why);
    if (rc == 0 && mh_plan_split(pl, p, group, n_groups) != 0) {
      rc = -1;
      snprintf(why, sizeof why, "out of memory");
    }
    if (rc != 0)
      snprintf(err, errlen, "%s: %s", path, why);
    free(group);
  }
  json_decref(root);
  return rc;
}
