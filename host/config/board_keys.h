/* SPDX-License-Identifier: Apache-2.0 */
/* The keys of a board file (boards/<id>.board, docs/boards.md) and the
 * values each accepts, stated once (board_keys.c): the reader
 * (config/boards.c) checks every value and every rule between keys against
 * these tables, tests/host/config/test_boards.c tries every bound, and
 * docs/boards.md lists them as rendered by mh_board_keys_md()
 * (scripts/gen-board-keys writes it, test_boards checks it). The limits
 * are what the cycle plugin (tools/qemu-plugin/memsys.c, merlin_cycles.c)
 * and the model (run/board_model.c) accept, so that a file the reader
 * accepts never fails there. Adding a key is one row of mh_board_keys
 * (and its field in mh_board, config/boards.h). */
#ifndef MERLIN_HOST_BOARD_KEYS_H
#define MERLIN_HOST_BOARD_KEYS_H

#include <stddef.h>
#include <stdint.h>

/* Which files a key is for: a part-only file (no kind), or a target of one
 * kind (qemu-user counts as native). */
enum { MH_BW_PART = 1, MH_BW_NATIVE = 2, MH_BW_QEMU = 4, MH_BW_BOARD = 8 };
#define MH_BW_TARGET (MH_BW_NATIVE | MH_BW_QEMU | MH_BW_BOARD)
#define MH_BW_CM (MH_BW_QEMU | MH_BW_BOARD) /* a Cortex-M image */
#define MH_BW_PARTS (MH_BW_PART | MH_BW_CM) /* a file that has a part */
#define MH_BW_ALL (MH_BW_PART | MH_BW_TARGET)

/* How a value is checked. */
typedef enum {
  MH_BV_TEXT,    /* printable UTF-8 text: no control character */
  MH_BV_WORD,    /* letters, digits, . _ + -, first a letter or digit */
  MH_BV_PATH,    /* one path relative to the tree */
  MH_BV_PATHS,   /* such paths, separated by spaces */
  MH_BV_FLAGS,   /* compiler flags, separated by spaces */
  MH_BV_DEFINES, /* NAME or NAME=VALUE, separated by spaces */
  MH_BV_NUM,     /* a decimal whole number from lo to hi */
  MH_BV_CHOICE,  /* one of the words of choices */
  MH_BV_CACHE,   /* BYTES/LINE/WAYS, BYTES from lo to hi */
  MH_BV_CORE,    /* a core of mh_board_cores */
  MH_BV_MODEL    /* a cycle model of mh_board_cores, or none: REASON */
} mh_bv_type;

typedef struct {
  const char *key;
  mh_bv_type type;
  size_t off;          /* of its field in mh_board (char * or uint64_t) */
  unsigned need, may;  /* MH_BW_ masks: required in, allowed in */
  uint64_t lo, hi;     /* MH_BV_NUM, MH_BV_CACHE */
  const char *choices; /* MH_BV_CHOICE: the words, space-separated */
  const char *why;     /* where the limit comes from, or NULL */
} mh_board_key;

extern const mh_board_key mh_board_keys[];
extern const size_t mh_n_board_keys;

/* A rule between keys: when key is given (with value, when value is not
 * NULL), other must be given too (MH_BR_NEEDS) or must not be
 * (MH_BR_EXCLUDES), because of why. */
typedef enum { MH_BR_NEEDS, MH_BR_EXCLUDES } mh_br_kind;
typedef struct {
  const char *key, *value;
  mh_br_kind kind;
  const char *other, *why;
} mh_board_rule;

extern const mh_board_rule mh_board_rules[];
extern const size_t mh_n_board_rules;

/* The cores merlin knows, and the cycle plugin's models of each
 * (space-separated; "" when it has none). */
typedef struct {
  const char *core, *models;
} mh_board_core;

extern const mh_board_core mh_board_cores[];
extern const size_t mh_n_board_cores;

/* The core a cycle model name models, or NULL for an unknown model. */
const char *mh_board_model_core(const char *model);

/* Index of key in mh_board_keys, or -1. */
int mh_board_key_find(const char *key, size_t len);

/* Check the value v[0..n) of key k (trimmed; it may hold any byte).
 * Returns 0 (a number into *num), or -1 with the reason and the allowed
 * values in why: "flash_miss_cycles = 2000: out of range; allowed: a whole
 * number from 0 to 1000 (...)". */
int mh_board_value_check(const mh_board_key *k, const char *v, size_t n,
                         uint64_t *num, char *why, size_t whylen);

/* What key k accepts, as text (the "allowed: ..." of a message). */
void mh_board_key_allowed(const mh_board_key *k, char *buf, size_t len);

/* s[0..n) for a message: control characters, bytes that are not UTF-8 and
 * quotes as \xNN, cut to about 80 characters with "...". */
void mh_board_show(const char *s, size_t n, char *out, size_t outlen);

/* The accepted values and the rules as the Markdown of docs/boards.md
 * ("Accepted values"), malloc'd; NULL when out of memory. */
char *mh_board_keys_md(void);

#endif
