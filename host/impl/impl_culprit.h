/* SPDX-License-Identifier: Apache-2.0 */
/* Which implementation folder made an image fail, and why, so that the run
 * goes on without it (docs/bring-your-own.md, "Not built, does not fit"):
 * a folder that does not build for the target, that overflows its memory
 * at link time, or whose operation overflows the stack or exhausts the heap
 * while it runs. */
#ifndef MERLIN_HOST_IMPL_CULPRIT_H
#define MERLIN_HOST_IMPL_CULPRIT_H

#include "impl/impl.h"

#include <stddef.h>

/* From the image's build log: *k the folder of s to leave out and why the
 * reason ("not built: <file>:<line>: error: ...", "does not fit: ..."; the
 * folders whose off[i] is set are out already). Returns 0, or -1 when the
 * log blames no folder. */
int mh_impl_build_culprit(const char *log, const mh_impl_set *s,
                          const unsigned char *off, size_t *k, char *why,
                          size_t wlen);

/* From the console stream of an image that failed: a stack overflow (a
 * fault of kind stackoverflow), an exhausted heap (the runner's message,
 * or exit() after failed allocations: PQClean's common code) while an
 * operation of a folder of s ran, its own known-answer test included; or,
 * without a fault, a failed known-answer test or failed check of a timed
 * sample (an operation's error) of a folder found by --impl-tree
 * (mh_impl.from_tree). Returns 0 with *k and why, or -1. */
int mh_impl_run_culprit(const char *console, size_t len, const mh_impl_set *s,
                        const unsigned char *off, size_t *k, char *why,
                        size_t wlen);

/* The folder of s (not off) whose operation was running when the image
 * whose console stream this is stopped (the first announced operation that
 * did not finish): 0 with *k and "<alg> <op>" in op, or -1. */
int mh_impl_running(const char *console, size_t len, const mh_impl_set *s,
                    const unsigned char *off, size_t *k, char *op,
                    size_t oplen);

#endif
