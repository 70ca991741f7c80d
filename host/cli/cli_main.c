/* SPDX-License-Identifier: Apache-2.0 */
/* merlin's commands: the usage, `merlin help`, and the dispatch to each
 * command's parser (cli_<command>.c, over cli_parse.h). Documented in
 * docs/cli.md. */
#include "cli/cli.h"
#include "cli/cli_parse.h"

#include <stdio.h>
#include <string.h>

#ifndef MERLIN_VERSION
#define MERLIN_VERSION "0.0.0"
#endif

static const char USAGE[] =
    "usage: merlin <command> [options]\n"
    "\n"
    "Benchmark classical and post-quantum crypto on Cortex-M (under QEMU) "
    "and the host.\n"
    "\n"
    "commands:\n"
    "  run      build, run and measure images; write results\n"
    "  merge    join the results of the shards of one plan\n"
    "  db       keep runs of many machines and days in one database\n"
    "  site     a static site of a database: tables, history, cores\n"
    "  build    build the image of a target for a profile\n"
    "  report   regenerate report.md of a results directory\n"
    "  compare  change per operation between two results; regression gate\n"
    "  sizes    flash and static RAM per algorithm and backend\n"
    "  agree    Merlin beside a library's own benchmark program\n"
    "  list     list targets, profiles, algorithms, backends, boards or "
    "coverage\n"
    "\n"
    "  merlin <command> --help   options of one command\n"
    "  merlin help --all [cmd]   every option, the test hooks too\n"
    "  merlin --version          print the version\n";

static const mh_cmd_def *const COMMANDS[] = {
    &mh_cmd_run,   &mh_cmd_merge,  &mh_cmd_db,    &mh_cmd_site,
    &mh_cmd_build, &mh_cmd_report, &mh_cmd_sizes, &mh_cmd_compare,
    &mh_cmd_agree, &mh_cmd_list};
#define N_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

/* `merlin help --options` (not in the help: for tests/check_cli_docs.sh):
 * one line per option of every command, "CMD OPTION", aliases too. */
static int print_option_list(void) {
  for (size_t i = 0; i < N_COMMANDS; i++)
    for (size_t k = 0; k < COMMANDS[i]->n_opts; k++) {
      const mh_opt_def *d = &COMMANDS[i]->opts[k];
      if (!d->name)
        continue;
      printf("%s %s\n", COMMANDS[i]->name, d->name);
      if (d->alias)
        printf("%s %s\n", COMMANDS[i]->name, d->alias);
    }
  return 0;
}

/* A word after one that takes none (merlin version extra, merlin help run
 * merge): a usage error, never ignored. */
static int extra_word(const char *what, const char *takes, const char *word) {
  fprintf(stderr, "merlin: %s takes %s, not '%s' (see merlin --help)\n", what,
          takes, word);
  return MH_USAGE_EXIT;
}

/* `merlin help [--all] [CMD]`, `merlin help --options`. */
static int help(int argc, char **argv) {
  if (argc < 3) {
    fputs(USAGE, stdout);
    return 0;
  }
  int all = strcmp(argv[2], "--all") == 0;
  int flag = strcmp(argv[2], "--options") == 0 ||
             strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0;
  if (flag && argc > 3)
    return extra_word(argv[2], "no argument", argv[3]);
  if (argc > (all ? 4 : 3)) /* what may follow: one command */
    return extra_word("help", "at most one command", argv[all ? 4 : 3]);
  if (strcmp(argv[2], "--options") == 0)
    return print_option_list();
  if (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) {
    fputs(USAGE, stdout);
    return 0;
  }
  const char *which = all ? (argc > 3 ? argv[3] : NULL) : argv[2];
  for (size_t i = 0; i < N_COMMANDS; i++)
    if (!which || strcmp(which, COMMANDS[i]->name) == 0) {
      mh_cli_print_help(COMMANDS[i], stdout, all);
      if (which)
        return 0;
      fputs("\n", stdout);
    }
  return which ? -1 : 0; /* -1: an unknown command */
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    fputs(USAGE, stderr);
    return MH_USAGE_EXIT;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0 ||
      strcmp(cmd, "version") == 0) {
    if (argc > 2)
      return extra_word(cmd, "no argument", argv[2]);
    printf("merlin %s\n", MERLIN_VERSION);
    return 0;
  }
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    if (argc > 2)
      return extra_word(cmd, "no argument", argv[2]);
    fputs(USAGE, stdout);
    return 0;
  }
  if (strcmp(cmd, "help") == 0) {
    int rc = help(argc, argv);
    if (rc >= 0)
      return rc;
    cmd = strcmp(argv[2], "--all") == 0 ? argv[3] : argv[2];
  } else {
    for (size_t i = 0; i < N_COMMANDS; i++)
      if (strcmp(cmd, COMMANDS[i]->name) == 0)
        return COMMANDS[i]->fn(COMMANDS[i], argc - 2, argv + 2);
  }
  fprintf(stderr,
          "merlin: unknown command '%s'; valid: run, merge, db, site, build, "
          "report, compare, sizes, agree, list, help (see merlin --help)\n",
          cmd);
  return MH_USAGE_EXIT;
}

int mh_main_parse(int argc, char **argv) {
  mh_cli_parse_only = 1;
  int rc = dispatch(argc, argv);
  mh_cli_parse_only = 0;
  return rc;
}

int mh_cli_main(int argc, char **argv) { return dispatch(argc, argv); }
