/* SPDX-License-Identifier: Apache-2.0 */
/* The NIST KAT records each implementation folder of a run must reproduce
 * (docs/bring-your-own.md, "Known answers"): from META.yml when it gives
 * nistkat-sha256, and from a host build of a reference implementation of
 * the same scheme (the clean folder beside it, else a ref folder, else the
 * pinned PQClean tree's clean folder of that scheme, else the folder
 * itself), run for its KATs alone. */
/* realpath (X/Open) */
#define _XOPEN_SOURCE 700

#include "run/impl_ref.h"

#include "run/impl_culprit.h"

#include "config/targets.h"
#include "image/image_build.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "wire/wire.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest console stream of the reference image. */
#define REF_MAX_BYTES ((size_t)16 << 20)

static int is_dir(const char *p) {
  struct stat st;
  return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The reference folder of m (malloc'd absolute path). */
static char *reference_of(const char *root, const mh_impl *m) {
  static const char *const siblings[] = {"clean", "ref"};
  char *parent = strndup(m->dir, (size_t)(strrchr(m->dir, '/') - m->dir));
  for (size_t i = 0; parent && i < 2; i++) {
    char *p = mh_path_join(parent, siblings[i]);
    char *r = is_dir(p) ? realpath(p, NULL) : NULL;
    free(p);
    if (r) {
      free(parent);
      return r;
    }
  }
  free(parent);
  const char *kind = m->kem ? "crypto_kem" : "crypto_sign";
  char sub[512];
  snprintf(sub, sizeof sub, "third_party/pqclean/deps/PQClean/%s/%s/clean",
           kind, m->scheme);
  char *pq = mh_path_join(root, sub);
  if (is_dir(pq)) {
    char *r = realpath(pq, NULL);
    free(pq);
    return r;
  }
  free(pq);
  return strdup(m->dir);
}

/* A folder with assembly (*.s, *.S) is for its target alone: it is no
 * reference on the host. */
static int has_asm(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = 0;
  while (d && !found && (e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    found = n > 2 && e->d_name[n - 2] == '.' &&
            (e->d_name[n - 1] == 's' || e->d_name[n - 1] == 'S');
  }
  if (d)
    closedir(d);
  return found;
}

/* The ",stack=N" the runner appends to a record string (0 when absent),
 * cut off: the rest is what a target must reproduce. */
static unsigned long long stack_of(const char *rec) {
  const char *p = strstr(rec, ",stack=");
  return p ? strtoull(p + 7, NULL, 10) : 0;
}

static void cut_stack(char *rec) {
  char *p = strstr(rec, ",stack=");
  if (p)
    *p = '\0';
}

/* The value of "sha256=" in a record string, or NULL. */
static const char *records_sha256(const char *rec) {
  const char *p = strstr(rec, "sha256=");
  return p ? p + 7 : NULL;
}

/* Build the reference folders into a host image and run its KATs; the
 * records of each reference folder into recs (malloc'd; NULL when it gave
 * none). */
static int run_references(const char *root, mh_impl_set *refs, char **recs,
                          int quiet, char *err, size_t errlen) {
  const mh_target *host = mh_target_find("host");
  mh_profile none = {0};
  if (!host) {
    snprintf(err, errlen, "no host target (boards/host.board)");
    return -1;
  }
  mh_build_spec bs = {.root = root,
                      .target = host,
                      .profile_name = "nistkat-ref",
                      .profile = &none,
                      .quiet = quiet,
                      .impls = refs,
                      .defer_log = 1};
  char *image = NULL;
  if (mh_image_build(&bs, &image, err, errlen) != 0) {
    /* A reference that does not build on the host: a broken folder. */
    char *bdir = mh_build_dir(&bs), why[512];
    char *log = bdir ? mh_path_join(bdir, "build.log") : NULL;
    size_t k;
    if (log && mh_impl_build_culprit(log, refs, NULL, &k, why, sizeof why) == 0)
      snprintf(err, errlen,
               "implementation folder %s does not build on the host, where "
               "its known answers are computed: %s (log: %s)",
               refs->v[k].dir, why, log);
    else if (log)
      mh_build_log_tail(log);
    free(log);
    free(bdir);
    return -1;
  }
  char *argv[] = {image, "--kat-only", NULL};
  mh_exec_spec es = {.argv = argv,
                     .stdout_fd = -1,
                     .stderr_fd = -1,
                     .stall_s = 600,
                     .max_capture = REF_MAX_BYTES};
  mh_exec_result res = {0};
  mh_run run = {0};
  mh_wire_error werr = {0};
  int rc = -1;
  if (mh_exec(&es, &res, err, errlen) != 0) {
    free(image);
    return -1;
  }
  if (mh_wire_parse(res.out, res.out_len, &run, &werr) != 0) {
    snprintf(err, errlen, "the reference image's stream: line %zu: %s",
             werr.line, werr.msg);
  } else {
    rc = 0;
    /* A reference whose own checks fail on the host is a broken folder. */
    for (size_t k = 0; rc == 0 && k < run.n_ops; k++)
      for (size_t i = 0; rc == 0 && i < refs->n; i++)
        if (run.ops[k].kat == MH_KAT_FAIL &&
            strcmp(run.ops[k].backend, refs->v[i].backend) == 0) {
          snprintf(err, errlen,
                   "implementation folder %s fails its known-answer test on "
                   "the host, where its known answers are computed: %s %s: %s",
                   refs->v[i].dir, run.ops[k].alg, run.ops[k].op,
                   run.ops[k].kat_detail ? run.ops[k].kat_detail : "failed");
          rc = -1;
        }
    for (size_t i = 0; rc == 0 && i < refs->n; i++) {
      char key[512];
      snprintf(key, sizeof key, "nistkat.%s", refs->v[i].backend);
      const char *v = mh_run_prov(&run, key);
      recs[i] = v && strstr(v, "sha256=") ? strdup(v) : NULL;
    }
  }
  mh_run_free(&run);
  mh_exec_result_free(&res);
  free(image);
  return rc;
}

static int set_expect(mh_impl_set *s, size_t i, const char *expect,
                      const char *from) {
  char *e = strdup(expect), *f = strdup(from);
  if (!e || !f) {
    free(e);
    free(f);
    return -1;
  }
  free(s->expect[i]);
  free(s->expect_from[i]);
  s->expect[i] = e;
  s->expect_from[i] = f;
  return 0;
}

/* Each folder's records: its reference's, checked against META.yml, or
 * META.yml's alone when no reference gave records. */
static int assign(const char *root, mh_impl_set *set, const mh_impl_set *refs,
                  char **ref_of, char **recs, char *err, size_t errlen) {
  for (size_t i = 0; i < set->n; i++) {
    const mh_impl *m = &set->v[i];
    if (m->library)
      continue;
    const char *rec = NULL;
    for (size_t r = 0; r < refs->n; r++)
      if (strcmp(refs->v[r].dir, ref_of[i]) == 0)
        rec = recs[r];
    const char *meta = m->meta_kat;
    char from[1024];
    if (rec && meta && strncmp(records_sha256(rec), meta, 64) != 0) {
      snprintf(err, errlen,
               "implementation folder %s: the NIST KAT records of its "
               "reference %s (host build) hash to %.16s..., but %s says "
               "nistkat-sha256: %.16s...",
               m->dir, mh_path_display(root, ref_of[i]), records_sha256(rec),
               m->meta_path, meta);
      return -1;
    }
    if (rec) {
      set->v[i].ref_stack = stack_of(rec);
      char expect[512];
      snprintf(expect, sizeof expect, "%s", rec);
      cut_stack(expect);
      snprintf(from, sizeof from, "the host build of %s%s",
               mh_path_display(root, ref_of[i]),
               meta ? " (and its META.yml)" : "");
      if (set_expect(set, i, expect, from) != 0)
        return -1;
    } else if (meta) {
      char e[80];
      snprintf(e, sizeof e, "sha256=%s", meta);
      snprintf(from, sizeof from, "%s", m->meta_path);
      if (set_expect(set, i, e, from) != 0)
        return -1;
    } else {
      snprintf(err, errlen,
               "implementation folder %s: no known answers to check it "
               "against: its reference %s gave no NIST KAT records on the "
               "host, and it has no META.yml with nistkat-sha256",
               m->dir, mh_path_display(root, ref_of[i]));
      return -1;
    }
  }
  return 0;
}

int mh_impl_expectations(const char *root, mh_impl_set *set, int quiet,
                         char *err, size_t errlen) {
  mh_impl_set refs = {0};
  char **ref_of = calloc(set->n ? set->n : 1, sizeof *ref_of);
  char **recs = NULL;
  int rc = ref_of ? 0 : -1;
  char *common = mh_path_join(root, "third_party/pqclean/deps/PQClean/common");
  for (size_t i = 0; rc == 0 && i < set->n; i++) {
    if (set->v[i].library)
      continue;
    ref_of[i] = reference_of(root, &set->v[i]);
    int seen = 0;
    for (size_t r = 0; ref_of[i] && r < refs.n; r++)
      seen |= strcmp(refs.v[r].dir, ref_of[i]) == 0;
    if (!ref_of[i])
      rc = -1;
    else if (!seen && !has_asm(ref_of[i]))
      rc = mh_impl_set_add(&refs, ref_of[i], set->v[i].alg, NULL, common, err,
                           errlen);
  }
  if (rc == 0 && refs.n) {
    if (!quiet)
      fprintf(stderr,
              "merlin: NIST KAT records of %zu reference implementation(s), "
              "on the host\n",
              refs.n);
    recs = calloc(refs.n, sizeof *recs);
    rc = recs ? run_references(root, &refs, recs, quiet, err, errlen) : -1;
  }
  if (rc == 0)
    rc = assign(root, set, &refs, ref_of, recs, err, errlen);
  for (size_t i = 0; recs && i < refs.n; i++)
    free(recs[i]);
  for (size_t i = 0; ref_of && i < set->n; i++)
    free(ref_of[i]);
  free(recs);
  free(ref_of);
  free(common);
  mh_impl_set_free(&refs);
  return rc;
}
