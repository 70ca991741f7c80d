/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin merge` (see merge.h; docs/scaling.md): the shards of one plan
 * joined into the results directory one machine would have written, after
 * every check that they are that; anything missing, doubled or from
 * another plan, tree or toolchain is named and nothing is written. */
#include "plan/merge.h"

#include "model/build.h"
#include "model/results_dir.h"
#include "model/results_json.h"
#include "run/job.h"
#include "run/stages.h"
#include "util/escape.h"
#include "util/exec.h"
#include "util/fsutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
  const char *arg; /* as given */
  char *dir;       /* the directory holding its results.json */
  mh_results r;
} shard;

static int same_str(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The shards' plans: one plan, each slice given once, every slice given. */
static int check_plan(const shard *s, size_t n, char *err, size_t errlen) {
  char a[160], b[160];
  for (size_t i = 0; i < n; i++) {
    const mh_plan_ref *p = &s[i].r.plan;
    if (!p->hash || p->shard < 0) {
      snprintf(err, errlen,
               "%s records no slice of a plan (written without --shard, by "
               "an older merlin, by --from, or merged already): merge takes "
               "the shards of one plan",
               mh_esc_term_buf(s[i].arg, a, sizeof a));
      return -1;
    }
    if (strcmp(p->hash, s[0].r.plan.hash) != 0 ||
        p->shards != s[0].r.plan.shards || p->n_jobs != s[0].r.plan.n_jobs) {
      snprintf(err, errlen,
               "%s is a slice of plan %.12s (%u slices), %s of plan %.12s (%u "
               "slices): shards of different plans (other options, "
               "profiles, folders or merlin)",
               mh_esc_term_buf(s[i].arg, a, sizeof a), p->hash, p->shards,
               mh_esc_term_buf(s[0].arg, b, sizeof b), s[0].r.plan.hash,
               s[0].r.plan.shards);
      return -1;
    }
    for (size_t k = 0; k < i; k++)
      if (s[k].r.plan.shard == p->shard) {
        snprintf(err, errlen, "shard %ld/%u given twice: %s and %s", p->shard,
                 p->shards, mh_esc_term_buf(s[k].arg, a, sizeof a),
                 mh_esc_term_buf(s[i].arg, b, sizeof b));
        return -1;
      }
  }
  for (unsigned k = 0; k < s[0].r.plan.shards; k++) {
    int found = 0;
    for (size_t i = 0; i < n; i++)
      found |= s[i].r.plan.shard == (long)k;
    if (!found) {
      snprintf(err, errlen,
               "shard %u/%u is missing: give every one of the %u shards", k,
               s[0].r.plan.shards, s[0].r.plan.shards);
      return -1;
    }
  }
  return 0;
}

/* Every job of the plan in exactly one run; *order the runs by job. */
static int check_jobs(const shard *s, size_t n, const mh_result **order,
                      char *err, size_t errlen) {
  size_t jobs = s[0].r.plan.n_jobs;
  char a[160];
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < s[i].r.n_runs; k++) {
      const mh_result *x = &s[i].r.runs[k];
      if (x->job < 0 || (size_t)x->job >= jobs) {
        snprintf(err, errlen, "%s: a run (%s) names no job of the plan",
                 mh_esc_term_buf(s[i].arg, a, sizeof a),
                 x->target ? x->target : "?");
        return -1;
      }
      if (order[x->job]) {
        snprintf(err, errlen, "job %ld is in two shards (the second: %s)",
                 x->job, mh_esc_term_buf(s[i].arg, a, sizeof a));
        return -1;
      }
      order[x->job] = x;
    }
  for (size_t j = 0; j < jobs; j++)
    if (!order[j]) {
      snprintf(err, errlen, "job %zu of the plan is in no shard", j);
      return -1;
    }
  return 0;
}

/* A time unit: the run was timed by a clock of the machine it ran on. */
static int host_timed(const mh_result *x) {
  const char *u = x->run.unit;
  return u && (strcmp(u, "ns") == 0 || strcmp(u, "us") == 0);
}

/* x and y are built by the same compiler family for the same target. */
static int same_family(const mh_result *x, const mh_result *y) {
  char a[64], b[64];
  mh_result_cc(x, a, sizeof a);
  mh_result_cc(y, b, sizeof b);
  return same_str(x->target, y->target) && strcmp(a, b) == 0;
}

/* What must be one across the shards: merlin, the source revision, the
 * compiler of each target, the libraries, QEMU; host timings from one
 * machine. x in shard si against y in shard sk. */
static int check_pair(const shard *s, size_t si, const mh_result *x, size_t sk,
                      const mh_result *y, char *err, size_t errlen) {
  char a[160], b[160], what[96];
  const char *differs = NULL;
  if (!same_str(s[si].r.merlin, s[sk].r.merlin))
    differs = "merlin version";
  else if (!same_str(mh_run_prov(&x->run, "source"),
                     mh_run_prov(&y->run, "source")))
    differs = "source revision";
  else if (x->qemu_version && y->qemu_version &&
           strcmp(x->qemu_version, y->qemu_version) != 0)
    differs = "QEMU version";
  else if (host_timed(x) && host_timed(y) && si != sk)
    differs = "machine timing the host (host timings of two machines)";
  else if (same_family(x, y) && !same_str(mh_run_prov(&x->run, "compiler"),
                                          mh_run_prov(&y->run, "compiler")))
    differs = "compiler";
  for (size_t i = 0; !differs && i < x->run.n_prov; i++) {
    const char *k = x->run.prov[i].key, *v = mh_run_prov(&y->run, k);
    /* An implementation folder's library is named by its place in its
     * image (impl-0, impl-1: host/impl/impl_set.c), so two images of
     * different folders (a plan's parts) both have an impl-0 that differ;
     * the folders' contents are the jobs' hashes, checked with the plan. */
    if (strncmp(k, "lib.impl-", 9) == 0)
      continue;
    if (strncmp(k, "lib.", 4) == 0 && v && strcmp(v, x->run.prov[i].value)) {
      snprintf(what, sizeof what, "library version (%s)", k + 4);
      differs = what;
    }
  }
  if (!differs)
    return 0;
  snprintf(err, errlen,
           "%s (%s) and %s (%s) differ in their %s: not one machine's run",
           mh_esc_term_buf(s[si].arg, a, sizeof a), x->target,
           mh_esc_term_buf(s[sk].arg, b, sizeof b), y->target, differs);
  return -1;
}

static int check_provenance(const shard *s, size_t n, char *err,
                            size_t errlen) {
  for (size_t i = 0; i < n; i++)
    for (size_t a = 0; a < s[i].r.n_runs; a++)
      for (size_t k = i; k < n; k++)
        for (size_t b = k == i ? a + 1 : 0; b < s[k].r.n_runs; b++)
          if (check_pair(s, i, &s[i].r.runs[a], k, &s[k].r.runs[b], err,
                         errlen) != 0)
            return -1;
  return 0;
}

/* What a job of a shard wrote beside its results (host/run/write.c): the
 * four reports and the console stream of each of its runs. */
static const char *const REPORTS[] = {"results.json", "results.csv",
                                      "report.md", "report.html"};

/* The console log names run x could have (console_name in write.c):
 * console-<target>-<profile>.log, and in a matrix run
 * console-<target>-<profile>-<cc>-<opt>.log. 0, or -1 when x names no
 * file (a target or profile that could not be a name). */
static int console_names(const mh_result *x, char plain[256],
                         char matrix[256]) {
  char cc[64], opt[32];
  mh_result_cc(x, cc, sizeof cc);
  mh_result_opt(x, opt, sizeof opt);
  const char *o = opt + (*opt == '-');
  if (!x->target || !x->profile || strchr(x->target, '/') ||
      strchr(x->profile, '/'))
    return -1;
  int a = snprintf(plain, 256, "console-%s-%s.log", x->target, x->profile);
  int b = snprintf(matrix, 256, "console-%s-%s-%s-%s.log", x->target,
                   x->profile, cc, o);
  return a > 0 && a < 256 && b > 0 && b < 256 ? 0 : -1;
}

/* Shard i's console log of run x into out (its name, once across the
 * shards): the one of the two names that is there, a regular file (never
 * followed through a link), at most MH_MAX_CONSOLE_BYTES. 0 (none there:
 * a note), or -1 with err. */
static int console_of(const shard *s, size_t i, const mh_result *x,
                      mh_out_file **out, size_t *nf, char *err, size_t errlen) {
  char names[2][256], a[160], b[160], c[160];
  struct stat st;
  const char *name = NULL;
  if (console_names(x, names[0], names[1]) != 0)
    return 0;
  for (int k = 0; k < 2; k++) {
    char *p = mh_path_join(s[i].dir, names[k]);
    int there = p && lstat(p, &st) == 0;
    free(p);
    if (there && name) {
      snprintf(err, errlen, "%s holds both %s and %s for job %ld",
               mh_esc_term_buf(s[i].arg, a, sizeof a),
               mh_esc_term_buf(names[0], b, sizeof b),
               mh_esc_term_buf(names[1], c, sizeof c), x->job);
      return -1;
    }
    name = there ? names[k] : name;
  }
  if (!name) {
    fprintf(stderr, "merlin: merge: %s: no console log of job %ld (%s)\n",
            mh_esc_term_buf(s[i].arg, a, sizeof a), x->job,
            mh_esc_term_buf(names[0], b, sizeof b));
    return 0;
  }
  for (size_t k = 0; k < *nf; k++)
    if (strcmp((*out)[k].name, name) == 0) {
      snprintf(err, errlen, "%s is in two shards",
               mh_esc_term_buf(name, b, sizeof b));
      return -1;
    }
  char *p = mh_path_join(s[i].dir, name), *data = NULL, *copy = strdup(name);
  mh_out_file *grown = realloc(*out, (*nf + 1) * sizeof **out);
  size_t dlen = 0;
  if (grown)
    *out = grown;
  int rc = p && copy && grown ? mh_read_regular(p, MH_MAX_CONSOLE_BYTES, &data,
                                                &dlen, err, errlen)
                              : (snprintf(err, errlen, "out of memory"), -1);
  free(p);
  if (rc != 0) {
    free(copy);
    return -1;
  }
  (*out)[(*nf)++] = (mh_out_file){copy, data, dlen};
  return 0;
}

/* What else is in shard i's directory: said and left there (no job of
 * the plan wrote it). */
static void ignored(const shard *s, size_t i, const mh_out_file *files,
                    size_t nf) {
  DIR *d = opendir(s[i].dir);
  struct dirent *e;
  size_t n = 0;
  char a[160], b[160];
  while (d && (e = readdir(d)) != NULL) {
    int known = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    for (size_t k = 0; !known && k < 4; k++)
      known = !strcmp(e->d_name, REPORTS[k]);
    for (size_t k = 0; !known && k < nf; k++)
      known = !strcmp(e->d_name, files[k].name);
    if (!known && n++ < 8)
      fprintf(stderr,
              "merlin: merge: %s: %s ignored (no job of the plan wrote it)\n",
              mh_esc_term_buf(s[i].arg, a, sizeof a),
              mh_esc_term_buf(e->d_name, b, sizeof b));
  }
  if (n > 8)
    fprintf(stderr, "merlin: merge: %s: %zu more entries ignored\n",
            mh_esc_term_buf(s[i].arg, a, sizeof a), n - 8);
  if (d)
    closedir(d);
}

/* The console streams of the shards' jobs, to go beside the merged
 * reports; nothing else of a shard directory is read. */
static int consoles(const shard *s, size_t n, mh_out_file **out, size_t *nf,
                    char *err, size_t errlen) {
  for (size_t i = 0; i < n && !mh_exec_signal_received(); i++) {
    size_t first = *nf;
    for (size_t k = 0; k < s[i].r.n_runs; k++)
      if (console_of(s, i, &s[i].r.runs[k], out, nf, err, errlen) != 0)
        return -1;
    ignored(s, i, *out + first, *nf - first);
  }
  return 0;
}

/* The merged set: the runs of every shard by job (moved out of the
 * shards), the plan without a slice. */
static int join(shard *s, size_t n, const mh_result **order, mh_results *m) {
  size_t jobs = s[0].r.plan.n_jobs;
  m->runs = calloc(jobs ? jobs : 1, sizeof *m->runs);
  m->plan.hash = strdup(s[0].r.plan.hash);
  if (!m->runs || !m->plan.hash)
    return -1;
  m->n_runs = jobs;
  m->plan.n_jobs = jobs;
  m->plan.shards = s[0].r.plan.shards;
  m->plan.shard = -1;
  for (size_t j = 0; j < jobs; j++)
    m->runs[j] = *order[j];
  for (size_t i = 0; i < n; i++) { /* their contents are m's now */
    free(s[i].r.runs);
    s[i].r.runs = NULL;
    s[i].r.n_runs = 0;
  }
  return 0;
}

int mh_merge(const char *const *args, size_t n, const char *out) {
  char err[2048] = "out of memory";
  shard *s = calloc(n ? n : 1, sizeof *s);
  const mh_result **order = NULL;
  mh_out_file *files = NULL;
  size_t nf = 0;
  mh_results m = {0};
  int rc = 1;
  /* SIGINT, SIGTERM, SIGHUP: stop between steps, write nothing (130) */
  mh_exec_install_signal_handlers();
  char t[64];
  if (mh_rdir_latest(out, t, sizeof t, err, sizeof err) < 0)
    goto out;
  for (size_t i = 0; s && i < n && !mh_exec_signal_received(); i++) {
    s[i].arg = args[i];
    if (mh_results_load_from(args[i], &s[i].r, &s[i].dir, err, sizeof err))
      goto out;
  }
  if (mh_exec_signal_received())
    goto out;
  if (!s || check_plan(s, n, err, sizeof err) != 0)
    goto out;
  order = calloc(s[0].r.plan.n_jobs ? s[0].r.plan.n_jobs : 1, sizeof *order);
  if (!order || check_jobs(s, n, order, err, sizeof err) != 0 ||
      check_provenance(s, n, err, sizeof err) != 0 ||
      consoles(s, n, &files, &nf, err, sizeof err) != 0)
    goto out;
  if (mh_exec_signal_received())
    goto out;
  if (join(s, n, order, &m) != 0) {
    snprintf(err, sizeof err, "out of memory");
    goto out;
  }
  fprintf(stderr, "merlin: merge: %zu shard(s) of plan %.12s, %zu job(s)\n", n,
          m.plan.hash, m.n_runs);
  rc = mh_results_dir_write(out, &m, files, nf);
  err[0] = '\0';
out:
  if (mh_exec_signal_received()) {
    fprintf(stderr, "merlin: merge: interrupted; nothing written\n");
    rc = 130;
  } else if (rc != 0 && err[0]) {
    fprintf(stderr, "merlin: merge: %s; nothing written\n", err);
  }
  for (size_t i = 0; i < nf; i++) {
    free((char *)files[i].name);
    free((char *)files[i].data);
  }
  free(files);
  free(order);
  mh_results_free(&m);
  for (size_t i = 0; s && i < n; i++) {
    mh_results_free(&s[i].r);
    free(s[i].dir);
  }
  free(s);
  return rc;
}
