/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin report DIR [--format F]`: regenerate a report of DIR/results.json
 * (md: report.md, csv: results.csv, json: results.json rewritten, latex:
 * report.tex). */
#include "cli/cli.h"

#include "model/results_json.h"
#include "report/report_html.h"
#include "report/report_md.h"
#include "report/report_pqm4.h"
#include "report/report_tex.h"
#include "report/results_csv.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int mh_cli_report(const char *dir, const char *format) {
  char err[2048];
  struct stat st;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "merlin: report: %s is not a results directory\n", dir);
    return 1;
  }
  char *json = mh_path_join(dir, "results.json");
  const char *name = strcmp(format, "csv") == 0     ? "results.csv"
                     : strcmp(format, "json") == 0  ? "results.json"
                     : strcmp(format, "latex") == 0 ? "report.tex"
                     : strcmp(format, "html") == 0  ? "report.html"
                     : strcmp(format, "pqm4") == 0  ? "benchmarks-pqm4.md"
                                                    : "report.md";
  char *md_path = mh_path_join(dir, name);
  mh_results r;
  memset(&r, 0, sizeof r);
  int rc = 1;
  if (!json || !md_path) {
    fprintf(stderr, "merlin: out of memory\n");
    goto out;
  }
  if (mh_results_load(json, &r, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: report: %s\n", err);
    goto out;
  }
  char *md = strcmp(format, "csv") == 0 ? mh_results_to_csv(&r)
             : strcmp(format, "json") == 0
                 ? mh_results_to_json(&r, err, sizeof err)
             : strcmp(format, "latex") == 0 ? mh_report_tex(&r)
             : strcmp(format, "html") == 0  ? mh_report_html(&r)
             : strcmp(format, "pqm4") == 0  ? mh_report_pqm4(&r)
                                            : mh_report_md(&r);
  if (!md) {
    fprintf(stderr, "merlin: out of memory\n");
    goto out;
  }
  if (mh_write_atomic(md_path, md, strlen(md), err, sizeof err) != 0)
    fprintf(stderr, "merlin: report: %s\n", err);
  else {
    if (strcmp(format, "pqm4") == 0) /* the tables themselves to stdout */
      fputs(md, stdout);
    fprintf(strcmp(format, "pqm4") == 0 ? stderr : stdout, "merlin: wrote %s\n",
            md_path);
    rc = 0;
  }
  free(md);
out:
  mh_results_free(&r);
  free(json);
  free(md_path);
  return rc;
}
