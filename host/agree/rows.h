/* SPDX-License-Identifier: Apache-2.0 */
/* merlin agree: the rows of a library's own benchmark output and their
 * mapping onto Merlin's operations (tools/agree/rows.txt,
 * docs/operations.md). Pure functions, unit-tested (tests/unit). */
#ifndef MERLIN_HOST_AGREE_ROWS_H
#define MERLIN_HOST_AGREE_ROWS_H

#include <stddef.h>

/* One row the program printed. value: per call, or per byte for a bulk
 * row (rate = 1), in the run's counter unit: ticks on a bare-metal
 * target (the agree image's hooks), nanoseconds on the host. */
typedef struct {
  char key[96]; /* the row's name, runs of blanks as one space */
  int rate;
  double value;
} mh_ag_row;

/* Parse the console output of an agree image of library "wolfcrypt" or
 * "mbedtls"; bare: the image ran on a bare-metal target (its figures are
 * the hooks' counter ticks, docs/operations.md). Rows are appended to
 * *rows (malloc'd, *n of them). 0, or -1 with err (out of memory, or no
 * row at all). */
int mh_ag_parse(const char *library, const char *out, int bare,
                mh_ag_row **rows, size_t *n, char *err, size_t errlen);

/* One line of tools/agree/rows.txt. */
typedef struct {
  char library[16], key[96], alg[32], op[16];
  /* MH_AG_CALL: their per-call figure beside Merlin's median;
   * MH_AG_RATE: per byte of a bulk row beside Merlin's slope between its
   * 64 and 256-byte medians; MH_AG_KIB: a bulk row's 1 KiB call beside
   * Merlin's 64-byte median plus 960 times that slope. */
  int kind;
  char def[400]; /* "same", or "differs: <why>" */
} mh_ag_map;

#define MH_AG_CALL 0
#define MH_AG_RATE 1
#define MH_AG_KIB 2

/* Parse rows.txt (tab-separated: library, row, alg, op, call|rate|kib,
 * definition; # comments). 0, or -1 with err naming the line. */
int mh_ag_map_parse(const char *buf, mh_ag_map **map, size_t *n, char *err,
                    size_t errlen);

/* The row called key in rows[0..n), or NULL. */
const mh_ag_row *mh_ag_find(const mh_ag_row *rows, size_t n, const char *key);

#endif
