/* SPDX-License-Identifier: Apache-2.0 */
/* The terminal's edge: everything merlin prints on stdout and stderr goes
 * through mh_esc_term_stream (util/escape.h), so a string from a console
 * stream, a results file or a descriptor quoted in a message cannot move
 * the cursor, retitle the window or reorder text. The one control
 * sequence merlin writes itself, clearing the progress line, goes out
 * beside the filter (mh_term_clear_line). */
#ifndef MERLIN_HOST_TERM_H
#define MERLIN_HOST_TERM_H

#include <stddef.h>

/* Replace stdout and stderr by filtering streams over descriptors 1 and 2
 * (glibc's stdout and stderr are assignable: glibc manual, "Standard
 * Streams"), with the same buffering. Call once, before anything is
 * printed. Returns 0, or -1 (the streams are left as they were). */
int mh_term_guard(void);

/* "\r" and erase-in-line (ECMA-48 EL, CSI K) on stderr, unfiltered, after
 * what stderr holds. */
void mh_term_clear_line(void);

/* The columns of the terminal on stderr (80 when it does not say): an
 * updating line must fit in one row, or clearing it leaves the rest. */
int mh_term_columns(void);

/* Appends s to buf (len bytes) cut to cols columns (UTF-8 aware: a
 * column per character). */
void mh_term_fit(char *buf, size_t len, const char *s, int cols);

#endif
