/* SPDX-License-Identifier: Apache-2.0 */
/* Progress of a running target, from its console lines as they arrive.
 * On a terminal: one updating line ("qemu-m4: 12/30 ops, sha256 hash 64 B
 * (wolfcrypt)"); otherwise a line every 10 s at most. The child's
 * stderr is passed through with a "target| " prefix. */
#ifndef MERLIN_HOST_PROGRESS_H
#define MERLIN_HOST_PROGRESS_H

#include <stddef.h>

typedef struct mh_progress mh_progress;

/* tty: draw an updating line; quiet: no progress at all (child stderr is
 * still passed through). NULL on allocation failure. */
mh_progress *mh_progress_new(const char *target, int tty, int quiet);
/* Under the job board: no progress line of its own, only the expected
 * duration and the operations that run long, as plain lines. */
void mh_progress_lines_only(mh_progress *p);
/* The constant-time pass (merlin run --ct on QEMU): after each known-answer
 * test the operation's phase is its runs with fresh secrets under the
 * trace, not the timed samples. */
void mh_progress_ct_pass(mh_progress *p);
/* One console (stdout) line of the target. */
void mh_progress_console(mh_progress *p, const char *line, size_t len);
/* One stderr line of the target. */
void mh_progress_stderr(mh_progress *p, const char *line, size_t len);
/* Called about ten times a second: names an operation that has run for a
 * while, with what it is doing. */
void mh_progress_tick(mh_progress *p);
/* Where this image's recorded durations live (read when the operations
 * are announced, to say what to expect, and to name slow operations with
 * their recorded time), and the options they hold for. */
int mh_progress_record(mh_progress *p, const char *path, const char *key);
/* Write this run's durations there (after a run that finished). */
int mh_progress_save(const mh_progress *p);
/* Erase the progress line (before printing anything else). */
void mh_progress_clear(mh_progress *p);
void mh_progress_free(mh_progress *p);

/* Adapters for mh_exec_hooks (ctx is the mh_progress). */
void mh_progress_console_hook(void *ctx, const char *line, size_t len);
void mh_progress_stderr_hook(void *ctx, const char *line, size_t len);
void mh_progress_tick_hook(void *ctx);

#endif
