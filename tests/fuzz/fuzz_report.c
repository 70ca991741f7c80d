/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: a results.json through what `merlin report` and
 * `merlin compare` do with it. When the reader (host/model/results_json_read.c)
 * accepts the input: every renderer runs on it; the JSON the writer makes
 * of it must be read back and written again to the same text (results.json
 * round-trips); and `merlin compare X X` must find no regression (exit 0;
 * plain and with --force, with a Markdown summary). Anything else aborts. */
#include "cli/cli.h"
#include "model/results.h"
#include "model/results_json.h"
#include "report/report_ci.h"
#include "report/report_html.h"
#include "report/report_md.h"
#include "report/report_tex.h"
#include "report/results_csv.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], json_path[96], md_path[96];

static void cleanup(void) {
  unlink(json_path);
  unlink(md_path);
  rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  snprintf(dir, sizeof dir, "%s/merlin-fuzz-report.XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (strlen(dir) > 40 || !mkdtemp(dir)) {
    fprintf(stderr, "fuzz_report: cannot make a temporary directory\n");
    abort();
  }
  snprintf(json_path, sizeof json_path, "%s/results.json", dir);
  snprintf(md_path, sizeof md_path, "%s/compare.md", dir);
  atexit(cleanup);
  /* compare prints its table on stdout; libFuzzer reports on stderr. */
  if (!freopen("/dev/null", "w", stdout))
    abort();
  return 0;
}

static void die(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_report: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  abort();
}

static void write_input(const char *text) {
  FILE *f = fopen(json_path, "wb");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0)
    die("cannot write", json_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mh_results r, r2;
  char err[1024];
  if (mh_results_from_json((const char *)data, size, &r, err, sizeof err) != 0)
    return 0;
  free(mh_report_md(&r));
  { /* the renderer runs on stand-in assets: it only inlines them */
    mh_html_assets a = {.versions = "fuzz"};
    free(mh_report_html(&r, &a));
  }
  free(mh_report_tex(&r));
  free(mh_report_benchmark_action(&r));
  free(mh_report_junit(&r));
  free(mh_results_to_csv(&r));
  char *j1 = mh_results_to_json(&r, err, sizeof err);
  if (!j1)
    die("the writer cannot write what the reader accepted", err);
  if (mh_results_from_json(j1, strlen(j1), &r2, err, sizeof err) != 0)
    die("the reader rejects what the writer wrote", err);
  char *j2 = mh_results_to_json(&r2, err, sizeof err);
  if (!j2)
    die("the writer cannot write its own output read back", err);
  if (strcmp(j1, j2) != 0)
    die("results.json does not round-trip", NULL);
  /* compare X X: the files are what the writer made, as merlin run does. */
  write_input(j1);
  int want = r.n_runs ? 0 : 2; /* no runs: nothing in common */
  int rc = mh_cli_compare(json_path, json_path, 0.02, 0, md_path, NULL);
  if (rc != want)
    die("compare X X did not exit 0", json_path);
  rc = mh_cli_compare(json_path, json_path, 0.0, 1, NULL, NULL);
  if (rc != want)
    die("compare --force X X did not exit 0", json_path);
  free(j1);
  free(j2);
  mh_results_free(&r);
  mh_results_free(&r2);
  return 0;
}
