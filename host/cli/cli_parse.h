/* SPDX-License-Identifier: Apache-2.0 */
/* The command line's grammar, once for every command: each command
 * declares its options in a table (mh_opt_def: name, argument, help lines,
 * where its value goes, an integer's range, the valid choices) and the
 * options that cannot go together (mh_conflict); the parser, the range,
 * choice and conflict checks, `merlin CMD --help` and `merlin help
 * --options` (the list tests/check_cli_docs.sh compares with docs/cli.md)
 * all read the tables. A usage error exits 2 with the valid choices. */
#ifndef MERLIN_HOST_CLI_PARSE_H
#define MERLIN_HOST_CLI_PARSE_H

#include "run/run_opts.h"

#include <stddef.h>
#include <stdio.h>

#define MH_USAGE_EXIT 2

/* Options of the largest table (RUN_OPTS), with room. */
#define MH_MAX_OPTS 64
/* mh_opt_def.repeat: a list option (repeatable, every value kept in order in
 * an mh_strlist at `at`); 1 is --target's own accumulation. */
#define MH_OPT_LIST 2

/* One option of a command. Its value goes to the command's argument
 * struct (run_args, ...) at offset `at`: a const char * (the last value
 * given), an int set to 1 (a flag: arg NULL), or, for --target (repeat),
 * the accumulated list of the parse state. An integer option (hi > 0) is
 * also checked against lo..hi and stored as an unsigned at offset `num`;
 * "%R" in its help prints the range. An option with choices takes one of
 * them. */
typedef struct {
  const char *name;  /* "--runs" */
  const char *alias; /* a one-letter form ("-j"), or NULL */
  const char *arg;   /* "N" in the help; NULL: a flag */
  const char *help;  /* help lines, '\n' between them */
  size_t at;
  int repeat;
  unsigned lo, hi;
  size_t num;
  /* Valid values ("md, html, ..."; also the usage error's list), or
   * NULL: any. */
  const char *choices;
} mh_opt_def;

/* Options that cannot go together: given opt, any of with[] is a usage
 * error with msg. (Conflicts whose message quotes a value, and what needs
 * a count of targets, are checked in code: check_run, check_port_opts.) */
typedef struct {
  const char *opt;
  const char *with[7]; /* NULL-terminated */
  const char *msg;
} mh_conflict;

struct mh_cmd_def;

typedef struct {
  const struct mh_cmd_def *cmd;
  void *args;           /* the command's argument struct */
  const char **targets; /* accumulated --target values */
  size_t n_targets;
  const char **pos; /* positional arguments */
  size_t n_pos;
  unsigned char given[MH_MAX_OPTS]; /* given[k]: option k was given */
  /* The values of each list option (repeat == MH_OPT_LIST), in order. */
  const char **multi[MH_MAX_OPTS];
  size_t n_multi[MH_MAX_OPTS];
} mh_parse_state;

typedef struct mh_cmd_def {
  const char *name;
  const char *head; /* the --help text above "options:" */
  const mh_opt_def *opts;
  size_t n_opts;
  const mh_conflict *conflicts;
  size_t n_conflicts;
  int (*fn)(const struct mh_cmd_def *cmd, int argc, char **argv);
} mh_cmd_def;

#define MH_OPTS(t) t, sizeof t / sizeof t[0]

/* Set by mh_main_parse (the option-parser fuzzer): commands parse and check
 * their command line, then return the exit status without running. */
extern int mh_cli_parse_only;

/* "merlin CMD: <message>" and the pointer to --help on stderr; returns
 * MH_USAGE_EXIT. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int mh_cli_usage_error(const mh_parse_state *s, const char *fmt, ...);

/* A heading in an option table: name NULL, help the group's title. A
 * group whose title starts with "test hooks" is shown only by `merlin help
 * --all`. */
#define MH_OPT_GROUP(title)                                                    \
  { NULL, NULL, NULL, title, 0, 0, 0, 0, 0, NULL }

/* `merlin CMD --help` (all: the test hooks too). */
void mh_cli_print_help(const mh_cmd_def *c, FILE *f, int all);

/* v as an integer in lo..hi into *out; else a usage error naming name. */
int mh_cli_parse_uint(const mh_parse_state *s, const char *name, const char *v,
                      unsigned lo, unsigned hi, unsigned *out);

/* Parse a command's line into s->args by its table: no positional argument
 * unless allow_pos, the --target list (split on commas, each checked) into
 * *targets when targets is given, then the conflicts. Returns 0, -1 after
 * --help (printed), or an exit status. */
int mh_cli_parse_cmd(mh_parse_state *s, int argc, char **argv, int allow_pos,
                     const char ***targets, size_t *n_targets, char **store);

/* The option argv[i] is (its long name), and the slots of argv it takes
 * with its value (1 or 2); NULL when argv[i] is no option of c. */
const char *mh_cli_opt_at(const mh_cmd_def *c, int argc, char **argv, int i,
                          int *slots);

/* Was option name given? */
int mh_cli_given(const mh_parse_state *s, const char *name);

void mh_cli_state_free(mh_parse_state *s);

/* The commands (each in its cli_<command>.c), in the order of the usage. */
extern const mh_cmd_def mh_cmd_run, mh_cmd_merge, mh_cmd_db, mh_cmd_site,
    mh_cmd_build, mh_cmd_report, mh_cmd_sizes, mh_cmd_compare, mh_cmd_agree,
    mh_cmd_list;

#endif
