/* SPDX-License-Identifier: Apache-2.0 */
/* Building one image: generate the profile files, configure with the
 * target's CMake preset, build the merlin-image target. */
#ifndef MERLIN_HOST_IMAGE_BUILD_H
#define MERLIN_HOST_IMAGE_BUILD_H

#include "config/profile.h"
#include "config/targets.h"
#include "impl/impl.h"
#include "util/fsutil.h"

typedef struct {
  const char *root; /* source root (mh_source_root) */
  const mh_target *target;
  const char *profile_name;
  const mh_profile *profile;
  const char *kat_corrupt; /* "alg/op" test hook, or NULL */
  int quiet;               /* no progress lines */
  /* Test hook: build an image that faults ("busfault", "usagefault",
   * "hang") right after announcing its operations; NULL normally. */
  const char *inject_fault;
  /* Matrix row (merlin run --cc/--opt): "gcc"/"clang" and "O2"/"Os"/...;
   * NULL both outside a matrix run (the tree's defaults, old build
   * directories). Set: build dir suffix -<cc>-<opt>, configured with
   * MERLIN_CC, MERLIN_OPT and MERLIN_SIZES=ON (size images of the same
   * build: mh_sizes_measure_tree). */
  const char *cc, *opt;
  unsigned build_jobs; /* parallel compile jobs; 0: online CPUs */
  /* The run's implementation folders (docs/bring-your-own.md), or NULL:
   * none. With some, the build directory's name carries their tag. */
  const mh_impl_set *impls;
  /* impl_off[i] set: folder i of impls left out of this image (it did not
   * build for the target, or does not fit it); NULL: none. The build
   * directory stays the same. */
  const unsigned char *impl_off;
  /* On a failed build, leave the log's tail to the caller (which may
   * blame an implementation folder instead: impl/impl_culprit.h). */
  int defer_log;
} mh_build_spec;

/* Generated files (malloc'd text; NULL on allocation failure). */
char *mh_profile_header(const char *name, const mh_profile *p);
char *mh_profile_cmake(const char *name, const mh_profile *p);

/* merlin_profile.cmake of spec's image: the profile's routes and options
 * (mh_profile_cmake), then its implementation folders, those of the
 * library backends of folders it routes to (pqclean) and spec->impls
 * (cmake/MerlinImpl.cmake). malloc'd, or NULL with err. */
char *mh_image_profile_cmake(const mh_build_spec *spec, char *err,
                             size_t errlen);

/* ROOT/build/img/T-P[-katfail][-cc-opt][-impl-TAG], malloc'd. */
char *mh_build_dir(const mh_build_spec *spec);

/* The image's build tree also defines its size images (MERLIN_SIZES, the
 * libraries compiled once for both): every build but those with a test
 * hook (a corrupted KAT, an injected fault) or the sanitizers, whose size
 * images come from a tree of their own (mh_sizes_measure). */
int mh_build_has_sizes(const mh_build_spec *spec);

/* Build the image; on success *image is its malloc'd path. On failure the
 * tail of the build log has been printed and err says what failed. */
int mh_image_build(const mh_build_spec *spec, char **image, char *err,
                   size_t errlen);

/* Configure build directory bdir for target t: cmake -S root -B bdir -G
 * Ninja -DMERLIN_TARGET=<id>, then extra (NULL-terminated), logged to logfd.
 * 0, or -1 with err. */
int mh_cmake_configure(const char *root, const mh_target *t, const char *bdir,
                       char *const extra[], int logfd, char *err,
                       size_t errlen);

/* Helpers of every build the CLI runs (images, size images): */
/* Print the last lines of a build log to stderr. */
void mh_build_log_tail(const char *log);
/* Run argv in cwd with stdout and stderr appended to logfd (the command
 * line first). 0, or -1 with what failed in err. */
int mh_run_logged(char *const argv[], const char *cwd, int logfd, char *err,
                  size_t errlen);
/* Whether DIR/NAME exists. */
int mh_file_in(const char *dir, const char *name);

#endif
