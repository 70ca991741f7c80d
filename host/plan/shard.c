/* SPDX-License-Identifier: Apache-2.0 */
/* A plan's identity and its slices (see plan.h; docs/scaling.md): what two
 * machines must agree on for their shards to merge into the result one
 * machine would have produced. */
#include "digest.h"
#include "plan/plan.h"
#include "util/escape.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MERLIN_VERSION
#define MERLIN_VERSION "0.0.0"
#endif

#define PLAN_FORMAT 1

static void hex(const uint8_t d[32], char out[65]) {
  for (size_t i = 0; i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* SHA-256 of a profile file's content, hex; "" without one (--from). */
static void profile_sha256(const mh_run_ctx *c, char out[65]) {
  char *buf = NULL, err[256];
  size_t len = 0;
  out[0] = '\0';
  if (!c->profile_path ||
      mh_read_file(c->profile_path, 1 << 20, &buf, &len, err, sizeof err) != 0)
    return;
  uint8_t d[32];
  mcore_sha256(d, (const uint8_t *)buf, len);
  hex(d, out);
  free(buf);
}

int mh_plan_host_timed(const mh_job *tr) {
  return tr->t->kind == MH_EXEC_NATIVE && !tr->t->user_qemu;
}

static json_t *str_or_null(const char *s) {
  return s ? json_string(s) : json_null();
}

static json_t *job_json(const mh_plan *pl, size_t i) {
  const mh_job *tr = &pl->trs[i];
  const mh_run_ctx *c = tr->ctx;
  char psha[65];
  profile_sha256(c, psha);
  json_t *impls = json_array(); /* the folders of its image */
  for (size_t k = 0; impls && k < c->impls.n; k++)
    if (!c->elsewhere || !c->elsewhere[k])
      json_array_append_new(impls, json_string(c->impls.v[k].sha256));
  json_t *j = json_pack("{s:I, s:s, s:s, s:s, s:o, s:o, s:b, s:o}", "job",
                        (json_int_t)i, "target", tr->t->id, "profile",
                        c->profile_name ? c->profile_name : MH_PROFILE_DEFAULT,
                        "profile_sha256", psha, "cc", str_or_null(tr->cc),
                        "opt", str_or_null(tr->opt), "host_timed",
                        mh_plan_host_timed(tr), "impls", impls);
  if (j && pl->cost && pl->cost[i] >= 0)
    json_object_set_new(j, "cost", json_real(pl->cost[i]));
  return j;
}

/* The options that decide what a job measures (not where it runs, how
 * many at a time, or where its results go). */
static json_t *options_json(const mh_run_opts *o) {
  json_t *common = json_array(); /* --impl-common: what folders build with */
  for (size_t i = 0; common && i < o->impl_common.n; i++)
    json_array_append_new(common, json_string(o->impl_common.v[i]));
  return json_pack(
      "{s:I, s:I, s:b, s:I, s:b, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
      "runs", (json_int_t)o->runs, "warmup", (json_int_t)o->warmup, "ct", o->ct,
      "repeat", (json_int_t)o->repeat, "kat_only", o->kat_only, "cycle_model",
      str_or_null(o->cycle_model), "flash_ws", (json_int_t)o->flash_ws, "board",
      str_or_null(o->part), "accel", str_or_null(o->accel), "impl_hash",
      str_or_null(o->impl_hash), "impl_common", common ? common : json_null(),
      "kat_corrupt", str_or_null(o->kat_corrupt), "inject_fault",
      str_or_null(o->inject_fault));
}

json_t *mh_plan_json(const mh_plan *pl) {
  json_t *jobs = json_array();
  for (size_t i = 0; jobs && i < pl->done; i++) {
    json_t *j = job_json(pl, i);
    if (!j || json_array_append_new(jobs, j) != 0) {
      json_decref(jobs);
      return NULL;
    }
  }
  return json_pack("{s:i, s:s, s:o, s:o}", "merlin_plan", PLAN_FORMAT, "merlin",
                   MERLIN_VERSION, "options", options_json(pl->o), "jobs",
                   jobs);
}

/* The hash: SHA-256 of the plan's JSON, keys sorted, no spaces. */
static int plan_hash(const mh_plan *pl, char out[65]) {
  json_t *p = mh_plan_json(pl);
  char *s =
      p ? json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17))
        : NULL;
  json_decref(p);
  if (!s)
    return -1;
  uint8_t d[32];
  mcore_sha256(d, (const uint8_t *)s, strlen(s));
  hex(d, out);
  free(s);
  return 0;
}

/* Jobs not host-timed, in the order they are dealt: heaviest first where
 * every cost is known (ties in plan order), else plan order. */
static const mh_plan *sort_plan;
static int heavier(const void *a, const void *b) {
  size_t i = *(const size_t *)a, k = *(const size_t *)b;
  double ci = sort_plan->cost[i], ck = sort_plan->cost[k];
  return ci > ck ? -1 : ci < ck ? 1 : i < k ? -1 : i > k;
}

int mh_plan_slice(mh_plan *pl, unsigned shards, unsigned shard, char *err,
                  size_t errlen) {
  if (!shards)
    shards = 1, shard = 0;
  if (shard >= shards) {
    snprintf(err, errlen, "--shard %u/%u: K must be below N", shard, shards);
    return -1;
  }
  size_t n = pl->done;
  if (!pl->cost && (pl->cost = malloc((n ? n : 1) * sizeof *pl->cost)))
    for (size_t i = 0; i < n; i++)
      pl->cost[i] = -1;
  pl->slice = calloc(n ? n : 1, sizeof *pl->slice);
  double *load = calloc(shards, sizeof *load);
  size_t *order = calloc(n ? n : 1, sizeof *order), m = 0;
  int known = 1, rc = -1;
  if (!pl->cost || !pl->slice || !load || !order ||
      plan_hash(pl, pl->hash) != 0) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  pl->shards = shards;
  pl->shard = shard;
  for (size_t i = 0; i < n; i++) {
    /* a host job's known cost is its clock's time, which is not weighed
     * against the others' instructions: only an unknown one counts (1) */
    if (mh_plan_host_timed(&pl->trs[i])) {
      pl->slice[i] = 0;
      load[0] += pl->cost[i] >= 0 ? 0 : 1;
    } else {
      order[m++] = i;
      known &= pl->cost[i] >= 0;
    }
  }
  sort_plan = pl;
  if (known)
    qsort(order, m, sizeof *order, heavier);
  int host0 = m < n; /* slice 0 holds host jobs: it loses ties */
  for (size_t k = 0; k < m; k++) {
    unsigned best = 0;
    for (unsigned s = 1; s < shards; s++)
      if (load[s] < load[best] || (load[s] == load[best] && best == 0 && host0))
        best = s;
    pl->slice[order[k]] = best;
    load[best] += pl->cost[order[k]] >= 0 ? pl->cost[order[k]] : 1;
  }
  rc = 0;
out:
  free(load);
  free(order);
  return rc;
}

int mh_plan_mine(const mh_plan *pl, size_t i) {
  return !pl->slice || pl->slice[i] == pl->shard;
}

mh_plan_ref mh_plan_ref_of(const mh_plan *pl) {
  mh_plan_ref r = {(char *)pl->hash, pl->done, pl->shards ? pl->shards : 1,
                   (long)pl->shard};
  return r;
}

/* The file's job i, without its cost, equals ours. */
static int same_job(const mh_plan *pl, size_t i, json_t *theirs) {
  json_t *ours = job_json(pl, i), *t = json_deep_copy(theirs);
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
  char *buf = NULL;
  size_t len;
  if (mh_read_file(path, 64u << 20, &buf, &len, err, errlen) != 0)
    return -1;
  json_error_t je;
  json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
  free(buf);
  json_t *jobs = json_object_get(root, "jobs");
  size_t n = json_array_size(jobs);
  int rc = -1;
  if (!root || !json_is_array(jobs) ||
      json_integer_value(json_object_get(root, "merlin_plan")) != PLAN_FORMAT) {
    snprintf(err, errlen, "%s: not a plan of this merlin (merlin plan --out)",
             path);
    goto out;
  }
  json_t *opts = options_json(pl->o);
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
  char *buf = NULL;
  size_t len;
  if (mh_read_file(path, 64u << 20, &buf, &len, err, errlen) != 0)
    return -1;
  json_t *root = json_loadb(buf, len, 0, NULL);
  free(buf);
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
