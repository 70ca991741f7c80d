/* SPDX-License-Identifier: Apache-2.0 */
/* A run's own directory beside an image build (issue 30, "concurrent runs
 * are safe"): two merlin processes may run the same image at once (two
 * terminals, two CI jobs on one machine), so what one run writes while
 * it runs (the cycle plugin's side file, the constant-time trace, the
 * console and valgrind logs) and the image it executes live in
 * BUILD_DIR/run-HOST-PID-N/, never in the shared build directory. When a file
 * is final it is published: renamed over BUILD_DIR/NAME, where the docs
 * say the last run's copy is kept (a rename is atomic: a reader sees one
 * run's file or another's, never a mix). The directory is removed when the
 * run ends; one left by a merlin that was killed is removed by the next
 * run of that image on the same machine (HOST: a build tree may be shared
 * between the nodes of a cluster). */
#ifndef MERLIN_HOST_RUNDIR_H
#define MERLIN_HOST_RUNDIR_H

#include <stddef.h>

typedef struct {
  char *bdir; /* the image's build directory */
  char *dir;  /* bdir/run-HOST-PID-N, or NULL before mh_rundir_open */
} mh_rundir;

/* Make the run's directory under bdir (once: a second call with the same
 * bdir does nothing), after removing those of merlin processes that no
 * longer exist. 0, or -1 with err. */
int mh_rundir_open(mh_rundir *rd, const char *bdir, char *err, size_t errlen);

/* malloc'd path of NAME in the run's directory; NULL on allocation
 * failure. */
char *mh_rundir_file(const mh_rundir *rd, const char *name);

/* The run's own link (or copy) of the built image, which the run then
 * executes: a rebuild of the image by another run replaces the build's
 * file, never this one. malloc'd path, or NULL with err. */
char *mh_rundir_image(const mh_rundir *rd, const char *image, char *err,
                      size_t errlen);

/* Rename NAME of the run's directory over bdir/NAME. Returns the malloc'd
 * bdir path (NULL when NAME is missing or on failure). */
char *mh_rundir_publish(const mh_rundir *rd, const char *name);

/* Remove the run's directory and everything in it. */
void mh_rundir_close(mh_rundir *rd);

#endif
