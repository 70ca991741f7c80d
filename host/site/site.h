/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin site DB --out DIR`: a static site of a results database
 * (docs/results.md, "The site"), every page one self-contained file as
 * report.html is (docs/report-html.md): per core and board the tables of
 * every scheme and implementation, each operation's history across
 * revisions, one scheme across every core, and pqm4's benchmarks.md per
 * core. */
#ifndef MERLIN_HOST_SITE_H
#define MERLIN_HOST_SITE_H

#include "db/db.h"
#include "report/html_page.h"

#include <stddef.h>

typedef struct {
  const char *out;  /* the directory the site goes to */
  const char *db;   /* the database's path, named on every page */
  double threshold; /* a change in history past it is flagged (0.03: 3 %) */
} mh_site_opts;

/* Write the site of runs into o->out (made if missing; the site's own
 * files there replaced). 0, or -1 with err. */
int mh_site_write(const mh_db_runs *runs, const mh_html_assets *a,
                  const mh_site_opts *o, char *err, size_t errlen);

#endif
