/* SPDX-License-Identifier: Apache-2.0 */
/* Progress of a running target, from its console lines as they arrive:
 * "qemu-m4: 12/79 operations, now ml-kem-768 keygen (wolfcrypt), about
 * 40 s left" (the time left from the recorded run of the image, when
 * there is one; an operation running long also says what it is doing and
 * for how long). On a terminal one updating line, or under the job board
 * (-j, several targets) the board's line; otherwise a line every 10 s at
 * most. The child's stderr is passed through with a "target| " prefix. */
#ifndef MERLIN_HOST_PROGRESS_H
#define MERLIN_HOST_PROGRESS_H

#include <stddef.h>

typedef struct mh_progress mh_progress;

/* tty: draw an updating line; quiet: no progress at all (child stderr is
 * still passed through). NULL on allocation failure. */
mh_progress *mh_progress_new(const char *target, int tty, int quiet);
/* Under job board b as its job i (run/jobs.h): on a terminal the progress
 * goes on the board's updating line, not on a line of its own. */
struct mh_jobboard;
void mh_progress_under_board(mh_progress *p, struct mh_jobboard *b, size_t i);
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
/* The progress as its line shows it, without the target: "12/79
 * operations, now ml-kem-768 keygen (wolfcrypt); about 40 s left". */
void mh_progress_status(const mh_progress *p, char *buf, size_t len);
/* Erase the progress line (before printing anything else). */
void mh_progress_clear(mh_progress *p);
void mh_progress_free(mh_progress *p);

/* Adapters for mh_exec_hooks (ctx is the mh_progress). */
void mh_progress_console_hook(void *ctx, const char *line, size_t len);
void mh_progress_stderr_hook(void *ctx, const char *line, size_t len);
void mh_progress_tick_hook(void *ctx);

#endif
