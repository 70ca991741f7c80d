/* SPDX-License-Identifier: Apache-2.0 */
/* Boards and parts as data (boards/<id>.board, docs/boards.md): what a
 * target or a real board offers, for "does it fit" and provenance. */
#ifndef MERLIN_HOST_BOARDS_H
#define MERLIN_HOST_BOARDS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char *id; /* file name without .board */
  char *name, *part, *core, *target, *counter, *source;
  uint64_t clock_hz, flash_bytes, ram_bytes;
} mh_board;

/* Parse one board file held in buf. file names it in messages
 * ("boards/x.board:3: ..."). Every key is required once; unknown keys and
 * malformed lines are errors. Returns 0, or -1 with err. */
int mh_board_parse(const char *file, const char *id, const char *buf,
                   size_t len, mh_board *b, char *err, size_t errlen);
void mh_board_free(mh_board *b);

/* Every ROOT/boards/NAME.board, sorted by id. Returns 0, or -1 with err (a
 * bad file is an error naming it). */
int mh_boards_load(const char *root, mh_board **boards, size_t *n, char *err,
                   size_t errlen);
void mh_boards_free(mh_board *boards, size_t n);

/* Whether an algorithm needing flash_need bytes of code and ram_need bytes
 * of RAM (static + peak stack + peak heap), measured on a run whose core is
 * run_core, fits board b. Returns 1 (fits), 0 (does not: why in reason),
 * or -1 (not evaluated: the figures come from another core; why in
 * reason). */
int mh_board_fits(const mh_board *b, const char *run_core, uint64_t flash_need,
                  uint64_t ram_need, char *reason, size_t reason_len);

#endif
