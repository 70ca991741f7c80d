/* SPDX-License-Identifier: Apache-2.0 */
/* The subcommands of the merlin CLI. main.c parses and validates options
 * (usage errors exit 2) and calls these; each returns the exit status. */
#ifndef MERLIN_HOST_CLI_H
#define MERLIN_HOST_CLI_H

#include "config/profile.h"
#include "impl/impl.h"
#include "report/html_page.h"
#include "run/run_opts.h"

#include <stddef.h>

typedef struct {
  const char **targets;
  size_t n_targets;
  const char *profile;
  const char *kat_corrupt;
  int quiet;
  const char *inject_fault;
} mh_build_opts;

typedef struct {
  const char **targets;
  size_t n_targets;
  const char *profile; /* NULL: default */
  const char *json;    /* write the records here too, or NULL */
  int quiet;
} mh_sizes_opts;

int mh_cli_run(const mh_run_opts *o);
/* The whole command line (argv[0] is the program name): the exit status
 * (cli_main.c). */
int mh_cli_main(int argc, char **argv);
/* Parse and check a command line as `merlin` does, run nothing, and
 * return the exit status it would give on a usage error (2), --help (0),
 * or 0 when it would go on to run. For the option-parser fuzzer
 * (tests/fuzz/fuzz_cli.c). */
int mh_main_parse(int argc, char **argv);
/* `merlin sizes`: flash and static RAM per (algorithm, backend) of each
 * target (docs/sizes.md). */
int mh_cli_sizes(const mh_sizes_opts *o);
/* `merlin list coverage [DIR]`: algorithm x backend, KAT status from
 * DIR/results.json (default results/latest). */
int mh_cli_list_coverage(const char *dir);
int mh_cli_build(const mh_build_opts *o);
/* What build and sizes start with: signal handlers (builds run in their
 * own process group), the source root in *root and profile name (NULL:
 * the default) loaded into p; *root, *path and *pname are the caller's to
 * free. Returns 0, 1 (no source root) or 2 (a bad profile: usage error),
 * with a message in err. */
int mh_cli_profile_setup(const char *name, char **root, char **path,
                         char **pname, mh_profile *p, char *err, size_t errlen);
/* what: NULL (everything), "targets", "profiles", "algorithms",
 * "backends". */
int mh_cli_list(const char *what);
/* `merlin list targets|boards --format md`: the descriptors as the Markdown
 * table docs/targets.md or docs/boards.md carries (scripts/gen-target-docs
 * writes them there). */
int mh_cli_list_md(const char *what);
/* format: md, csv, json or latex (checked by the caller). */
int mh_cli_report(const char *dir, const char *format);
/* `merlin compare OLD NEW`: 0 no regression, 1 a regression beyond
 * threshold (a fraction), 2 bad input or provenance differs without
 * force. md_path: also write a Markdown summary there (or NULL);
 * html_path: also the comparison page (report/report_compare.h). */
int mh_cli_compare(const char *old_arg, const char *new_arg, double threshold,
                   int force, const char *md_path, const char *html_path);

#endif
