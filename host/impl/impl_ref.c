/* SPDX-License-Identifier: Apache-2.0 */
/* The NIST KAT records each implementation folder of a run must reproduce
 * (docs/bring-your-own.md, "Known answers"): from META.yml when it gives
 * nistkat-sha256, and from a host build of a reference implementation of
 * the same scheme, run for its KATs alone. */
/* realpath (X/Open), strsignal */
#define _GNU_SOURCE

#include "impl/impl_ref.h"
#include "impl/impl_ref_cache.h"

#include "impl/impl_culprit.h"

#include "util/exec.h"
#include "util/fsutil.h"
#include "wire/wire.h"

#include <dirent.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest console stream of the reference image. */
#define REF_MAX_BYTES ((size_t)16 << 20)

/* The ",stack=N" the runner appends to a record string (the stack of the
 * host run, kept in provenance, never a fitness test), cut off: the rest
 * is what a target must reproduce. */
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

/* The references of a run and the folders that use them. */
typedef struct {
  const char *root;
  mh_impl_set *set;
  mh_impl_set refs;
  unsigned char *ref_off; /* references given up */
  char **recs;            /* per reference: its records */
  size_t cap;             /* of ref_off and recs */
  char **ref_of;          /* per folder of set: its reference, or NULL */
  char ***cands;          /* per folder: the references it may have */
  size_t *pos;            /* per folder: the one it has now */
  int *self_last;         /* per folder: its last candidate is itself */
  char **tried;           /* per folder: the references given up, why */
  int quiet, no_cache;
  unsigned stall_s, timeout_s;
  const mh_impl_ref_opts *o;
} ref_run;

/* Folder i has itself as its reference now. */
static int is_self(const ref_run *rr, size_t i) {
  return rr->self_last[i] && rr->cands[i] && rr->cands[i][rr->pos[i]] &&
         !rr->cands[i][rr->pos[i] + 1];
}

/* The reference of refs (not given up) whose last two path elements
 * (<scheme>/<impl>: its backend name) are dir's, or NULL. */
static const char *same_tail(const ref_run *rr, const char *dir) {
  char *a = strdup(dir);
  char *s1 = a ? strrchr(a, '/') : NULL;
  if (s1)
    *s1 = '\0';
  char *s2 = a ? strrchr(a, '/') : NULL;
  const char *t = s2 ? dir + (s2 - a) : NULL;
  const char *found = NULL;
  for (size_t r = 0; t && !found && r < rr->refs.n; r++) {
    const char *d = rr->refs.v[r].dir;
    size_t dl = strlen(d), tl = strlen(t);
    if (!rr->ref_off[r] && dl >= tl && strcmp(d + dl - tl, t) == 0)
      found = d;
  }
  free(a);
  return found;
}

/* Note that folder i's candidate dir was given up for why. 0, or -1. */
static int note_tried(ref_run *rr, size_t i, const char *dir, const char *why) {
  mh_sb t = {0};
  mh_sb_printf(&t, "%s%s%s %s", rr->tried[i] ? rr->tried[i] : "",
               rr->tried[i] ? "; then " : "", dir, why);
  if (t.failed)
    return -1;
  free(rr->tried[i]);
  rr->tried[i] = t.s;
  return 0;
}

/* Room for one more reference. 0, or -1 (memory). */
static int grow(ref_run *rr) {
  if (rr->refs.n < rr->cap)
    return 0;
  size_t cap = rr->cap ? 2 * rr->cap : 16;
  unsigned char *o = realloc(rr->ref_off, cap);
  if (o)
    rr->ref_off = o;
  char **rc = o ? realloc(rr->recs, cap * sizeof *rc) : NULL;
  if (rc)
    rr->recs = rc;
  if (!o || !rc)
    return -1;
  memset(rr->ref_off + rr->cap, 0, cap - rr->cap);
  memset(rr->recs + rr->cap, 0, (cap - rr->cap) * sizeof *rr->recs);
  rr->cap = cap;
  return 0;
}

/* Folder i's current candidate, or the first after it that can be read,
 * into the references (each once: a second folder <scheme>/clean, mupq's
 * PQClean beside the pinned tree's, is the same scheme's reference
 * already there), ref_of[i] its directory (NULL when none is left). 0, or
 * -1 with err. */
static int add_ref(ref_run *rr, size_t i, const char *common, char *err,
                   size_t errlen) {
  free(rr->ref_of[i]);
  rr->ref_of[i] = NULL;
  for (; rr->cands[i][rr->pos[i]]; rr->pos[i]++) {
    const char *cand = rr->cands[i][rr->pos[i]];
    const char *tail = same_tail(rr, cand);
    int gone = 0;
    for (size_t r = 0; !tail && r < rr->refs.n; r++)
      gone |= rr->ref_off[r] && strcmp(rr->refs.v[r].dir, cand) == 0;
    if (gone) { /* given up for another folder already */
      if (note_tried(rr, i, cand, "(above)") != 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
      }
      continue;
    }
    if (tail) {
      rr->ref_of[i] = strdup(tail);
      break;
    }
    char why[2048];
    if (grow(rr) != 0) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    int rc = mh_impl_set_add(&rr->refs, cand, rr->set->v[i].alg, NULL, common,
                             why, sizeof why);
    if (rc == 0) {
      rr->ref_of[i] = strdup(cand);
      break;
    }
    if (rc == -2 || note_tried(rr, i, cand, "cannot be read") != 0) {
      snprintf(err, errlen, "%s", rc == -2 ? why : "out of memory");
      return -1;
    }
  }
  if (rr->cands[i][rr->pos[i]] && !rr->ref_of[i]) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

/* Reference r failed on the host for reason why: every folder that uses
 * it goes on to its next candidate (1: run again); a folder with none left
 * is left out of every image when it was found by --impl-tree, else err
 * says why (-1). */
static int give_up(ref_run *rr, size_t r, const char *why, char *err,
                   size_t errlen) {
  char *dir = strdup(rr->refs.v[r].dir);
  char *pc = mh_path_join(rr->root, "third_party/pqclean/deps/PQClean/common");
  int rc = dir && pc ? 1 : -1;
  rr->ref_off[r] = 1;
  for (size_t i = 0; rc == 1 && i < rr->set->n; i++) {
    if (!rr->ref_of[i] || strcmp(rr->ref_of[i], dir) != 0 ||
        rr->set->excluded[i])
      continue;
    if (note_tried(rr, i, dir, why) != 0) {
      rc = -1;
      break;
    }
    if (rr->cands[i][rr->pos[i]] && rr->cands[i][rr->pos[i] + 1]) {
      rr->pos[i]++;
      if (add_ref(rr, i, pc, err, errlen) != 0) {
        rc = -1;
        break;
      }
      if (rr->ref_of[i]) {
        if (!rr->quiet)
          fprintf(stderr,
                  "merlin: %s: its reference %s %s; trying %s instead\n",
                  rr->set->v[i].backend, dir, why, rr->ref_of[i]);
        continue;
      }
    }
    free(rr->ref_of[i]);
    rr->ref_of[i] = NULL;
    if (!rr->set->v[i].from_tree) {
      snprintf(err, errlen, "implementation folder %s %s", dir, why);
      rc = -1;
      break;
    }
    mh_sb w = {0};
    mh_sb_printf(&w, "no known answers: its reference %s", rr->tried[i]);
    if (w.failed) {
      rc = -1;
      break;
    }
    fprintf(stderr, "merlin: %s left out: %s\n", rr->set->v[i].backend, w.s);
    rr->set->excluded[i] = w.s;
  }
  free(dir);
  free(pc);
  return rc;
}

/* What went wrong with the reference image's run (not an exit status: the
 * stream says that), naming the folder whose operation was running. */
static void exec_why(const mh_exec_result *res, size_t len, const ref_run *rr,
                     char *why, size_t wl, size_t *k, int *found) {
  char op[160], how[160];
  *found = mh_impl_running(res->out, len, &rr->refs, rr->ref_off, k, op,
                           sizeof op) == 0;
  if (res->stalled)
    snprintf(how, sizeof how, "hung: no console line for %u s (--stall)",
             rr->stall_s);
  else if (res->timed_out)
    snprintf(how, sizeof how, "did not finish within %u s (--timeout)",
             rr->timeout_s);
  else if (!res->exited)
    snprintf(how, sizeof how, "was killed by signal %d (%s)", res->term_signal,
             strsignal(res->term_signal));
  else
    snprintf(how, sizeof how, "exited with status %d", res->exit_code);
  snprintf(why, wl, "%s in its host known-answer run%s%s", how,
           *found ? ", during " : "", *found ? op : "");
}

static int run_refs(ref_run *rr, const char *image, char *err, size_t errlen);

/* The reference cache for image (impl/impl_ref_cache.h): 1 with its id and
 * this user's key, or 0: not used (--no-ref-cache; no key, said once). */
static int cache_open(const ref_run *rr, const char *image, int ok,
                      mh_ref_cache_id *id, unsigned char secret[32]) {
  static int said;
  char why[1024];
  if (!ok || rr->no_cache ||
      mh_ref_cache_key(image, rr->ref_off, rr->refs.n, id) != 0)
    return 0;
  if (mh_ref_cache_secret(secret, why, sizeof why) == 0)
    return 1;
  if (!said++)
    fprintf(stderr,
            "merlin: note: the reference cache is not used: %s; the "
            "references run every time\n",
            why);
  return 0;
}

/* Build the references not given up into a host image and run their
 * KATs. 0 with recs filled, 1 when a reference was given up (run again),
 * -1 with err. */
static int run_once(ref_run *rr, char *err, size_t errlen) {
  char *image = NULL, *log = NULL, why[1024];
  size_t k;
  if (rr->o->build(rr->o->ctx, &rr->refs, rr->ref_off, &image, &log, err,
                   errlen) != 0) {
    /* A reference that does not build on the host: a broken folder. */
    int rc = -1;
    if (log && mh_impl_build_culprit(log, &rr->refs, rr->ref_off, &k, why,
                                     sizeof why) == 0) {
      char w2[1536];
      snprintf(w2, sizeof w2,
               "does not build on the host, where its known answers are "
               "computed: %s (log: %s)",
               why, log);
      rc = give_up(rr, k, w2, err, errlen);
    } else if (log && rr->o->show_log) {
      rr->o->show_log(log);
    }
    free(log);
    return rc;
  }
  /* The records of this very image, kept from an earlier run (a tree's
   * shards on this machine compute them once: the lock holds the others
   * until they are kept). */
  int lock = -1;
  mh_ref_cache_id id;
  unsigned char secret[32];
  const char **names = calloc(rr->refs.n ? rr->refs.n : 1, sizeof *names);
  char *cdir = mh_path_join(rr->root, "build/cache/nistkat");
  for (size_t i = 0; names && i < rr->refs.n; i++)
    names[i] = rr->refs.v[i].backend;
  if (cache_open(rr, image, names && cdir, &id, secret))
    lock = mh_dir_lock(cdir, why, sizeof why);
  int kept = lock >= 0 ? mh_ref_cache_get(rr->root, &id, secret, names,
                                          rr->refs.n, rr->recs, why, sizeof why)
                       : 0;
  if (kept < 0) /* planted, damaged or another user's: a miss */
    fprintf(stderr, "merlin: note: %s; not used, the references run again\n",
            why);
  if (kept > 0 && !rr->quiet)
    fprintf(stderr,
            "merlin: NIST KAT records of the references kept from an "
            "earlier run of the same host image (build/cache/nistkat/"
            "%.12s)\n",
            id.key);
  int rc = kept > 0 ? 0 : run_refs(rr, image, err, errlen);
  if (rc == 0 && kept <= 0 && lock >= 0)
    mh_ref_cache_put(rr->root, &id, secret, names, rr->refs.n, rr->recs);
  OPENSSL_cleanse(secret, sizeof secret);
  mh_dir_unlock(lock);
  free(names);
  free(cdir);
  free(image);
  return rc;
}

/* The folders of the reference image (those not given up), for a message
 * that cannot say which one broke it. */
static void ref_names(const ref_run *rr, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < rr->refs.n && used < len; i++)
    if (!rr->ref_off[i])
      used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                               mh_path_display(rr->root, rr->refs.v[i].dir));
}

/* The reference image's run went wrong (a hang, a signal, a stream that
 * does not parse: a crash the port reported, an exit in the middle, a
 * line of the folder's own): the folder whose operation was running is
 * given up (1, or -1 with err naming it), else err names the image's
 * folders (-1). stream: the parser's message about line (1-based), or
 * NULL (line 0). */
static int ref_broke(ref_run *rr, const mh_exec_result *res, size_t line,
                     const char *stream, char *err, size_t errlen) {
  char why[1024], names[1024];
  size_t k, len = 0;
  int found;
  /* the stream up to the line that broke it: the operation running there
   * is the culprit, whatever ran after */
  for (size_t n = 1; line && len < res->out_len && n < line; len++)
    n += res->out[len] == '\n';
  exec_why(res, line ? len : res->out_len, rr, why, sizeof why, &k, &found);
  if (stream) {
    size_t l = strlen(why);
    snprintf(why + l, sizeof why - l, "; its stream: %s", stream);
  }
  if (found)
    return give_up(rr, k, why, err, errlen);
  ref_names(rr, names, sizeof names);
  snprintf(err, errlen, "the host reference image (of %s) %s", names, why);
  return -1;
}

/* The reference image's stream parsed: a reference whose own checks fail
 * on the host is a broken folder (1, or -1); else every reference's
 * records into recs (0). */
static int judge_refs(ref_run *rr, const mh_run *run, char *err,
                      size_t errlen) {
  char why[1024];
  int rc = 0;
  for (size_t o = 0; rc == 0 && o < run->n_ops; o++)
    for (size_t i = 0; rc == 0 && i < rr->refs.n; i++)
      if (run->ops[o].kat == MH_KAT_FAIL && !rr->ref_off[i] &&
          strcmp(run->ops[o].backend, rr->refs.v[i].backend) == 0) {
        snprintf(why, sizeof why,
                 "fails its known-answer test on the host, where its "
                 "known answers are computed: %s %s: %s",
                 run->ops[o].alg, run->ops[o].op,
                 run->ops[o].kat_detail ? run->ops[o].kat_detail : "failed");
        rc = give_up(rr, i, why, err, errlen);
      }
  for (size_t i = 0; rc == 0 && i < rr->refs.n; i++) {
    char key[512];
    snprintf(key, sizeof key, "nistkat.%s", rr->refs.v[i].backend);
    const char *v = mh_run_prov(run, key);
    free(rr->recs[i]);
    rr->recs[i] = v && strstr(v, "sha256=") ? strdup(v) : NULL;
  }
  return rc;
}

/* Run the reference image's KATs: 0 with recs filled, 1 when a reference
 * was given up, -1 with err. */
static int run_refs(ref_run *rr, const char *image, char *err, size_t errlen) {
  /* A reference is a reference, not a fitness test: its runner thread
   * gets 64 MB of stack (AIMer's and PERK's host builds use up to 4 MB;
   * whether a folder fits a target is measured there). */
  char *argv[] = {(char *)image, "--host-stack-mb=64", "--kat-only", NULL};
  mh_exec_spec es = {.argv = argv,
                     .stdout_fd = -1,
                     .stderr_fd = -1,
                     .stall_s = rr->stall_s,
                     .timeout_s = rr->timeout_s,
                     .max_capture = REF_MAX_BYTES};
  mh_exec_result res = {0};
  mh_run run = {0};
  mh_wire_error werr = {0};
  int rc = -1;
  int xrc = mh_exec(&es, &res, err, errlen);
  if (xrc != 0)
    return -1;
  if (res.cancelled) {
    snprintf(err, errlen, "interrupted");
  } else if (res.stalled || res.timed_out || !res.exited) {
    rc = ref_broke(rr, &res, 0, NULL, err, errlen);
  } else if (mh_wire_parse(res.out, res.out_len, &run, &werr) != 0) {
    char msg[300];
    if (strncmp(werr.msg, "line ", 5) == 0) /* it says where already */
      snprintf(msg, sizeof msg, "%s", werr.msg);
    else
      snprintf(msg, sizeof msg, "line %zu: %s", werr.line, werr.msg);
    rc = ref_broke(rr, &res, werr.line, msg, err, errlen);
  } else {
    rc = judge_refs(rr, &run, err, errlen);
  }
  mh_run_free(&run);
  mh_exec_result_free(&res);
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

/* Folder i, found by --impl-tree, has no known answers: left out of every
 * image (1); any other folder: err (-1). */
static int no_answers(ref_run *rr, size_t i, const char *why, char *err,
                      size_t errlen) {
  const mh_impl *m = &rr->set->v[i];
  if (!m->from_tree) {
    snprintf(err, errlen, "implementation folder %s: %s", m->dir, why);
    return -1;
  }
  size_t l = strlen(why) + 32;
  char *w = malloc(l);
  if (!w)
    return -1;
  snprintf(w, l, "%s", why);
  fprintf(stderr, "merlin: %s left out: %s\n", m->backend, w);
  free(rr->set->excluded[i]);
  rr->set->excluded[i] = w;
  return 0;
}

/* Each folder's records: its reference's, checked against META.yml, or
 * META.yml's alone when no reference gave records. */
static int assign(ref_run *rr, char *err, size_t errlen) {
  mh_impl_set *set = rr->set;
  for (size_t i = 0; i < set->n; i++) {
    const mh_impl *m = &set->v[i];
    if (m->library || set->excluded[i])
      continue;
    const char *rec = NULL, *rc_origin = NULL;
    for (size_t r = 0; rr->ref_of[i] && r < rr->refs.n; r++)
      if (!rr->ref_off[r] && strcmp(rr->refs.v[r].dir, rr->ref_of[i]) == 0) {
        rec = rr->recs[r];
        size_t ci = rr->refs.v[r].common;
        rc_origin = ci ? rr->refs.commons[ci - 1].origin : NULL;
      }
    char built[700] = "";
    if (rc_origin) /* the reference's own side of the common code */
      snprintf(built, sizeof built, " (built against %s)", rc_origin);
    const char *meta = m->meta_kat;
    char from[1536], why[1536];
    const char *ref =
        rr->ref_of[i] ? mh_path_display(rr->root, rr->ref_of[i]) : "none";
    if (rec && meta && strncmp(records_sha256(rec), meta, 64) != 0) {
      snprintf(why, sizeof why,
               "the NIST KAT records of its reference %s (host build) hash "
               "to %.16s..., but %s says nistkat-sha256: %.16s...",
               ref, records_sha256(rec), m->meta_path, meta);
      if (no_answers(rr, i, why, err, errlen) != 0)
        return -1;
    } else if (rec) {
      char expect[512];
      snprintf(expect, sizeof expect, "%s", rec);
      cut_stack(expect);
      if (is_self(rr, i))
        snprintf(from, sizeof from,
                 "the host build of %s itself%s: no other reference (no "
                 "other folder of its scheme without assembly beside it, in "
                 "its checkout or the pinned PQClean tree), so the target's "
                 "build is checked against the folder's own C, not against "
                 "another implementation%s",
                 ref, meta ? " (and its META.yml)" : "", built);
      else
        snprintf(from, sizeof from, "the host build of %s%s%s", ref, built,
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
      snprintf(why, sizeof why,
               "no known answers to check it against: %s%s, and it has no "
               "META.yml with nistkat-sha256",
               rr->ref_of[i] ? "its reference "
                             : "it has assembly and no "
                               "reference without (clean, "
                               "ref, the pinned PQClean "
                               "tree's)",
               rr->ref_of[i] ? (is_self(rr, i) ? "(itself) gave no NIST KAT "
                                                 "records on the host"
                                               : "gave no NIST KAT records on "
                                                 "the host")
                             : "");
      if (no_answers(rr, i, why, err, errlen) != 0)
        return -1;
    }
  }
  return 0;
}

static void ref_run_free(ref_run *rr) {
  for (size_t i = 0; rr->recs && i < rr->refs.n; i++)
    free(rr->recs[i]);
  for (size_t i = 0; rr->ref_of && i < rr->set->n; i++) {
    free(rr->ref_of[i]);
    free(rr->tried[i]);
    char **c = rr->cands[i];
    for (size_t k = 0; c && c[k]; k++)
      free(c[k]);
    free(c);
  }
  free(rr->recs);
  free(rr->ref_of);
  free(rr->cands);
  free(rr->pos);
  free(rr->self_last);
  free(rr->tried);
  free(rr->ref_off);
  mh_impl_set_free(&rr->refs);
}

/* The references of every folder, each once (rr->refs). */
static int collect(ref_run *rr, const char *common, char *err, size_t errlen) {
  mh_impl_set *set = rr->set;
  for (size_t i = 0; i < set->n; i++) {
    if (set->v[i].library || set->excluded[i])
      continue;
    rr->cands[i] =
        mh_impl_ref_candidates(rr->root, &set->v[i], &rr->self_last[i]);
    if (!rr->cands[i]) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    if (rr->cands[i][0] && add_ref(rr, i, common, err, errlen) != 0)
      return -1;
  }
  return 0;
}

/* The host-side choices of the run's set (--impl-host-common) into the
 * references' set. 0, or -1 (memory). */
static int host_side(ref_run *rr) {
  mh_impl_set *r = &rr->refs;
  r->host_side = 1;
  r->refs = 1;
  r->common_none_host = rr->set->common_none_host;
  size_t n = rr->set->n_explicit_common_host;
  if (!n)
    return 0;
  r->explicit_common_host = calloc(n, sizeof *r->explicit_common_host);
  for (size_t k = 0; r->explicit_common_host && k < n; k++) {
    r->explicit_common_host[k] = strdup(rr->set->explicit_common_host[k]);
    if (!r->explicit_common_host[k])
      break;
    r->n_explicit_common_host++;
  }
  return r->n_explicit_common_host == n ? 0 : -1;
}

int mh_impl_expectations(const char *root, mh_impl_set *set,
                         const mh_impl_ref_opts *o, char *err, size_t errlen) {
  ref_run rr = {.root = root,
                .set = set,
                .refs = {.root = root},
                .quiet = o->quiet,
                .no_cache = o->no_cache,
                .stall_s = o->stall_s ? o->stall_s : 600,
                .timeout_s = o->timeout_s,
                .o = o};
  size_t n = set->n ? set->n : 1;
  rr.ref_of = calloc(n, sizeof *rr.ref_of);
  rr.cands = calloc(n, sizeof *rr.cands);
  rr.pos = calloc(n, sizeof *rr.pos);
  rr.self_last = calloc(n, sizeof *rr.self_last);
  rr.tried = calloc(n, sizeof *rr.tried);
  char *common = mh_path_join(root, "third_party/pqclean/deps/PQClean/common");
  int rc = rr.ref_of && rr.cands && rr.pos && rr.self_last && rr.tried &&
                   common && host_side(&rr) == 0
               ? 0
               : -1;
  if (rc != 0)
    snprintf(err, errlen, "out of memory");
  if (rc == 0)
    rc = collect(&rr, common, err, errlen);
  if (rc == 0 && rr.refs.n) {
    rc = 1;
    if (!o->quiet)
      fprintf(stderr,
              "merlin: NIST KAT records of %zu reference implementation(s), "
              "on the host\n",
              rr.refs.n);
    /* again without each reference given up (its folders on their next
     * candidates), until none is */
    for (size_t tries = 0; rc == 1 && tries <= rr.refs.n; tries++)
      rc = run_once(&rr, err, errlen);
    if (rc == 1)
      rc = -1;
  }
  if (rc == 0)
    rc = assign(&rr, err, errlen);
  free(common);
  ref_run_free(&rr);
  return rc;
}
