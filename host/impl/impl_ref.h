/* SPDX-License-Identifier: Apache-2.0 */
/* The NIST KAT records each implementation folder of a run must reproduce
 * on its target (docs/bring-your-own.md, "Known answers"). */
#ifndef MERLIN_HOST_IMPL_REF_H
#define MERLIN_HOST_IMPL_REF_H

#include "impl/impl.h"

#include <stddef.h>

typedef struct {
  int quiet;
  /* --no-ref-cache: the references run, build/cache/nistkat unread and
   * unwritten (impl/impl_ref_cache.h). */
  int no_cache;
  /* The reference image's bounds (merlin run --stall, --timeout; 0: 600 s
   * and none). */
  unsigned stall_s, timeout_s;
  /* Build the host image of the references refs (off[i]: left out): 0
   * with *image (malloc'd path), or -1 with err and *log (the malloc'd path
   * of its build log, or NULL). The run's image build (host/plan/plan.c):
   * the room builds no image itself. */
  int (*build)(void *ctx, const mh_impl_set *refs, const unsigned char *off,
               char **image, char **log, char *err, size_t errlen);
  /* Show the tail of a build log that blames no folder. */
  void (*show_log)(const char *log);
  void *ctx;
} mh_impl_ref_opts;

/* Fill set->expect and set->expect_from of every folder that is not a
 * library backend's: the records of its reference implementation built
 * and run on the host, whose SHA-256 must equal META.yml's nistkat-sha256
 * where the folder has one; META.yml's alone without a reference. The
 * reference is the first of: the clean, then the ref folder beside it; in
 * a pqm4 checkout mupq's ref or clean folder of the scheme and mupq's
 * PQClean's; the pinned PQClean tree's clean folder of its algorithm; none
 * with assembly, none the folder itself. Else the folder itself, when it
 * has no assembly (its expect_from says so). A folder found by --impl-tree
 * whose known answers cannot be had (its reference does not build, fails
 * on the host, hangs or faults there; no reference and no META.yml;
 * records that contradict META.yml) is left out of every image
 * (set->excluded) and the rest goes on. Returns 0, or -1 with err (the
 * same for a folder given otherwise: the message names the folder, and for
 * a hang or fault the operation and the signal). */
int mh_impl_expectations(const char *root, mh_impl_set *set,
                         const mh_impl_ref_opts *o, char *err, size_t errlen);

/* The folders that may serve m as its reference, in the order they are
 * tried (host/impl/impl_ref_pick.c): the folders beside it (clean, ref,
 * then the others by name, opt, ..., unless m is a clean or ref folder
 * itself), in a pqm4 checkout mupq's folders of
 * the scheme (ref, clean, the others) and mupq's PQClean's (never a
 * host-only folder, avx2, ..., nor one of pqm4's M4 folders, m4*), the
 * pinned
 * PQClean tree's clean folder of its algorithm id (or scheme folder's
 * name); none with assembly, none host-only, none twice; last the folder
 * itself when it has no assembly (*self set). A NULL-terminated list of
 * malloc'd absolute paths (possibly empty), or NULL (memory). */
char **mh_impl_ref_candidates(const char *root, const mh_impl *m, int *self);

/* 1 when folder dir holds assembly (*.s, *.S): for its target alone. */
int mh_impl_has_asm(const char *dir);

#endif
