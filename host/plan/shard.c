/* SPDX-License-Identifier: Apache-2.0 */
/* A plan's identity and its slices (see plan.h; docs/scaling.md): what two
 * machines must agree on for their shards to merge into the result one
 * machine would have produced: the plan as JSON, its hash, its slices. */
#include "digest.h"
#include "plan/plan.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MERLIN_VERSION
#define MERLIN_VERSION "0.0.0"
#endif

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

json_t *mh_plan_job_json(const mh_plan *pl, size_t i) {
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

json_t *mh_plan_options_json(const mh_run_opts *o) {
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
    json_t *j = mh_plan_job_json(pl, i);
    if (!j || json_array_append_new(jobs, j) != 0) {
      json_decref(jobs);
      return NULL;
    }
  }
  return json_pack("{s:i, s:s, s:o, s:o}", "merlin_plan", MH_PLAN_FORMAT,
                   "merlin", MERLIN_VERSION, "options",
                   mh_plan_options_json(pl->o), "jobs", jobs);
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
