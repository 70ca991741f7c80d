/* SPDX-License-Identifier: Apache-2.0 */
/* Implementation folders (docs/bring-your-own.md): the room host/impl/,
 * the pipeline that reads, builds, references and records folders in the
 * NIST/SUPERCOP/PQClean/pqm4 shape, and its contract. In order:
 *   read      one folder into mh_impl (mh_impl_inspect, here: api.h as the
 *             compiler sees it, sources, sizes, META.yml, the algorithm),
 *             a tree walked (mh_impl_discover), the folders of a run from
 *             its options (impls.h)
 *   common    the common code each side builds against: a pqm4/mupq
 *             checkout's own, for the target and for the host reference
 *             (impl_common.h)
 *   build     an image's folders as CMake variables (mh_impl_set_cmake,
 *             here; cmake/MerlinImpl.cmake builds them)
 *   reference the NIST KAT records each folder must reproduce, from host
 *             builds of its reference candidates (impl_ref.h; the image is
 *             built by the caller's function: the room builds none) and
 *             their cache (impl_ref_cache.h)
 *   blame     the folder a failed build or run is due to, so the run goes
 *             on without it (impl_culprit.h)
 *   record    each folder's provenance and why it was left out
 *             (impl_record.h)
 * The room uses wire/, model/, config/ and util/ (docs/host.md, layers);
 * image/ uses it to build folders, run/ to run them. */
#ifndef MERLIN_HOST_IMPL_H
#define MERLIN_HOST_IMPL_H

#include "util/strbuf.h"

#include <stddef.h>

/* How a folder's randomness is scripted where a standard fixes it
 * (src/backends/impl/mbe_impl.h, MBI_FAMILY_*). */
typedef enum {
  MH_IMPL_FAMILY_OTHER = 0,
  MH_IMPL_FAMILY_MLKEM = 1,
  MH_IMPL_FAMILY_MLDSA = 2,
  MH_IMPL_FAMILY_SLHDSA = 3
} mh_impl_family;

/* The common code a user's folder is built against instead of the pinned
 * PQClean common code (docs/bring-your-own.md, "From a pqm4 checkout"):
 * the directories of --impl-common, or of the pqm4 or mupq checkout the
 * folder is in (its common/ and mupq/common/), in that order. */
typedef struct {
  char **dirs; /* absolute: the include path, and where files come from */
  size_t n;
  /* Exactly these files (absolute), when set (the host side of a pqm4 or
   * mupq checkout: mupq's mk/host-crypto.mk); else every file of dirs. */
  char **files;
  size_t n_files;
  int pqm4;     /* a pqm4 checkout: folders compiled with -DPQM4, as pqm4 */
  int host;     /* the host reference build's side */
  char *origin; /* "--impl-common", or "the pqm4 checkout <root>" */
} mh_impl_common;

typedef struct {
  char *dir;      /* absolute, symbolic links resolved */
  char *scheme;   /* the parent folder's name, e.g. "ml-kem-512" */
  char *name;     /* the folder's name, e.g. "clean" */
  char *alg;      /* the algorithm id */
  char *alg_enum; /* its C name (ML_KEM_512) */
  int known;      /* the id is in src/ops/algs.def */
  int kem;        /* 1: KEM; 0: signature scheme */
  char *ns;       /* prefix of api.h's names ("PQCLEAN_MLKEM512_CLEAN_") */
  int detached;   /* crypto_sign_signature and crypto_sign_verify */
  int sign_open;  /* crypto_sign and crypto_sign_open */
  unsigned long long pk, sk, ct, ss; /* api.h; ct: CRYPTO_BYTES if sign */
  char *algname;                     /* CRYPTO_ALGNAME, or NULL */
  char **sources; /* *.c, *.s, *.S of the folder, sorted, relative */
  size_t n_sources;
  char sha256[65]; /* of every file of the folder (name and content) */
  mh_impl_family family;
  unsigned n; /* SLH-DSA / SPHINCS+ n (security parameter, bytes) */
  /* META.yml (PQClean's), when present beside the folder or in it. */
  char *meta_path, *meta_kat, *meta_level;
  char *backend; /* "impl:<scheme>/<name>", or the library backend's */
  char *variant; /* the folder's name, or what the manifest says */
  /* Set for a folder of a library backend of folders (kind = folders in
   * its manifest, pqclean): measured under that backend's name, gated by
   * the catalogue's vectors only (no NIST KAT of its own). */
  int library;
  /* 1 + the index of its common code in the set's commons; 0: the pinned
   * PQClean common code (docs/bring-your-own.md). */
  size_t common;
  /* It calls mupq's fips202 API as mupq has it: contexts on the caller's
   * stack, never released (no *_ctx_release call in its sources), so it
   * is built against Merlin's heap-free sponge (src/backends/impl/
   * sponge.c) when no common code of its own is given. */
  int stack_fips;
  /* Its config.mk's preprocessor flags (pqm4's `CPPFLAGS += -DMAYO_M4`:
   * host/impl/impl_config.c), ';'-separated -D and -U flags, for the
   * target's builds and for a host build, or NULL. */
  char *flags, *host_flags;
  int has_asm;   /* *.s or *.S among its sources */
  int from_tree; /* found by --impl-tree: left out, not fatal, when its
                  * known answers cannot be had or do not match */
} mh_impl;

/* Read folder dir. alg: the algorithm id to give it (a profile's key), or
 * NULL for the scheme folder's name (lower case, '_' as '-'). cc: the host
 * C compiler that evaluates api.h's size macros ("cc" when NULL). incs:
 * NULL-terminated include directories after the folder's own (its common
 * code, PQClean's common/: the headers it may include). Returns 0,
 * or -1 with a message naming the folder and the problem in err (no api.h,
 * no sources, an entry point api.h does not declare, sizes it does not
 * define, an id that is not lower case and hyphens, a class that
 * contradicts the catalogue, META.yml sizes that differ from api.h's). */
int mh_impl_inspect(const char *dir, const char *alg, const char *cc,
                    const char *const *incs, mh_impl *out, char *err,
                    size_t errlen);
void mh_impl_free(mh_impl *m);

/* The preprocessor flags of folder dir's config.mk, the file pqm4's and
 * mupq's make include for a folder (mupq/mk/schemes.mk): the -D and -U
 * flags of its CPPFLAGS and CFLAGS lines, ';'-separated, into *target
 * (lines for pqm4's elf/ and obj/ targets, or for none) and *host (lines
 * for its bin-host/ programs), the other flags (not applied) space-
 * separated into *ignored; each malloc'd or NULL when there is none. 0,
 * or -1 (config.mk unreadable, memory). */
int mh_impl_read_config(const char *dir, char **target, char **host,
                        char **ignored);

/* Implementation folder names that are host-only (x86 or Arm A-profile
 * vector code), skipped by tree discovery as pqm4/mupq's scheme discovery
 * skips them: 1 when name is one. */
int mh_impl_host_only(const char *name);

/* Every crypto_kem/<scheme>/<impl>/ and crypto_sign/<scheme>/<impl>/ folder
 * under root (or <scheme>/<impl>/ when root is itself a crypto_kem or
 * crypto_sign folder), sorted, as malloc'd absolute paths; host-only ones and
 * those matching a skip pattern (fnmatch against "<scheme>/<impl>", "<scheme>"
 * and "<impl>") left out, and counted in *skipped. Returns 0 (even when
 * none is found), or -1 with err (root unreadable, no crypto_kem or
 * crypto_sign folder in it). */
int mh_impl_discover(const char *root, char *const *skip, size_t n_skip,
                     char ***dirs, size_t *n, size_t *skipped, char *err,
                     size_t errlen);
void mh_impl_dirs_free(char **dirs, size_t n);

/* The implementation folders of one image, read, with the NIST KAT
 * records each must reproduce (docs/bring-your-own.md, "Known answers"). */
typedef struct {
  mh_impl *v;
  size_t n;
  int hash_thumb2;    /* impl.hash = thumb2-asm (else c) */
  char **expect;      /* per folder: "seed=...,sha256=...", or "" */
  char **expect_from; /* and where it comes from */
  /* Per folder: why it is left out of every image (a folder found by
   * --impl-tree whose known answers cannot be had: host/impl/impl_ref.c),
   * or NULL. */
  char **excluded;
  /* The common code of the folders that have their own (mh_impl.common). */
  mh_impl_common *commons;
  size_t n_commons;
  /* Set before folders are added: --impl-common DIR (every user folder
   * builds against it; malloc'd, freed with the set), or --impl-common
   * none (no checkout's own common code is looked for). */
  char **explicit_common;
  size_t n_explicit_common;
  int common_none;
  /* The same for the host reference build (--impl-host-common DIR, or
   * none), and whether this set is that build's (its commons are then the
   * host side's: portable C, host/impl/impl_common.h). */
  char **explicit_common_host;
  size_t n_explicit_common_host;
  int common_none_host;
  int host_side;
  /* A set of reference folders (host/impl/impl_ref.c): two may have the
   * same backend name, the image holds one of them at a time. */
  int refs;
  /* The source root (Merlin's hal.h and sponge headers), or NULL. */
  const char *root;
} mh_impl_set;

/* Read dir into s (see mh_impl_inspect); two folders with the same
 * backend name or the same folder twice are an error. 0; -1 with err
 * naming the folder; -2 with err when what failed is not the folder's
 * (its common code: a broken checkout, an --impl-common that is no
 * directory; memory). */
int mh_impl_set_add(mh_impl_set *s, const char *dir, const char *alg,
                    const char *cc, const char *common, char *err,
                    size_t errlen);
/* The same for a folder of library backend `backend` (MH_BACKEND_FOLDER of
 * src/backends/host_tables.def). */
int mh_impl_set_add_library(mh_impl_set *s, const char *dir, const char *alg,
                            const char *backend, const char *variant,
                            const char *common, char *err, size_t errlen);
/* A folder found by --impl-tree that cannot be read or added (why: what
 * mh_impl_set_add said): kept in s, named by its path (backend
 * impl:<scheme>/<name>), and left out of every image (s->excluded), so
 * that the run goes on and reports it. 0, or -1 (memory). */
int mh_impl_set_add_unread(mh_impl_set *s, const char *dir, const char *why);
void mh_impl_set_free(mh_impl_set *s);
/* The folders of n sets (a library backend's, then the run's), numbered
 * in that order, but those whose off[set][i] is set (left out of this
 * image: not built, does not fit), as the image build reads them
 * (cmake/MerlinImpl.cmake), appended to b: MERLIN_IMPLS,
 * MERLIN_IMPL_<K>_<FIELD>, MERLIN_IMPL_HASH, MERLIN_FOLDER_BACKENDS and their
 * library names and versions. */
void mh_impl_set_cmake(const mh_impl_set *const *sets,
                       const unsigned char *const *off, size_t n,
                       int hash_thumb2, mh_sb *b);
/* A short digest of the set (its folders, hash choice): part of the build
 * directory's name, so that an image with folders does not share the
 * profile's own. buf: at least 9 bytes. */
void mh_impl_set_tag(const mh_impl_set *s, char *buf, size_t len);

/* Most include directories of a folder beyond its own. */
#define MH_IMPL_MAX_INCS 8

/* Whether s is a valid implementation folder path for the image build:
 * NULL, or the first character it cannot carry, where, and why, written
 * into what (';', '"', '$', '\\', '|', '[', ']', '#', "??" (a C trigraph),
 * "@NAME@" (a variable of CMake's generated files), control characters;
 * spaces, commas, quotes, parentheses, braces, '!', '%', '&', '~', ':' and
 * non-ASCII bytes are carried). */
const char *mh_impl_path_bad(const char *s, char *what, size_t wl);
/* 1 when mh_impl_path_bad finds nothing. */
int mh_impl_path_ok(const char *s);

#endif
