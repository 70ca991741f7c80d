/* SPDX-License-Identifier: Apache-2.0 */
/* The files an HTML page of merlin inlines (report/html_page.h): the
 * charting library fetched by scripts/fetch-deps (deps.lock: vega,
 * vega-lite, vega-embed) and the page's own script and style, all under
 * the source root (MERLIN_ROOT). A missing one is a clear error that says
 * how to get it. */
#include "report/html_page.h"

#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ASSET_MAX (16u << 20)
/* The page's own script and style. */
#define PAGE "host/report/page/"

/* third_party/<dep>/.merlin-stamp's version= line, or "?". */
static void dep_version(const char *root, const char *dep, char *out,
                        size_t len) {
  char path[4096], *text = NULL, err[256];
  size_t n;
  snprintf(out, len, "?");
  snprintf(path, sizeof path, "%s/third_party/%s/.merlin-stamp", root, dep);
  if (mh_read_file(path, 1u << 16, &text, &n, err, sizeof err) != 0)
    return;
  const char *v = strstr(text, "\nversion=");
  v = v ? v + 9 : strncmp(text, "version=", 8) == 0 ? text + 8 : NULL;
  if (v)
    snprintf(out, len, "%.*s", (int)strcspn(v, "\n"), v);
  free(text);
}

static int read_asset(const char *root, const char *rel, const char *how,
                      char **out, char *err, size_t errlen) {
  char path[4096], e[1024];
  size_t n;
  snprintf(path, sizeof path, "%s/%s", root, rel);
  if (mh_read_file(path, ASSET_MAX, out, &n, e, sizeof e) != 0) {
    snprintf(err, errlen, "cannot write an HTML page: %s (%s)", e, how);
    return -1;
  }
  /* Inlined in a <script> element, which the text must not end. */
  for (const char *p = *out; (p = strchr(p, '<')) != NULL; p++)
    if (strncasecmp(p, "</script", 8) == 0) {
      snprintf(err, errlen, "cannot inline %s: it contains \"</script\"", path);
      return -1;
    }
  return 0;
}

int mh_html_assets_load(const char *root, mh_html_assets *a, char *err,
                        size_t errlen) {
  memset(a, 0, sizeof *a);
  static const char fetch[] = "the charting library is fetched by "
                              "scripts/fetch-deps, pinned in deps.lock";
  static const char tree[] = "a file of the Merlin source tree; set "
                             "MERLIN_ROOT to the tree";
  int rc = read_asset(root, "third_party/vega/build/vega.min.js", fetch,
                      &a->vega, err, errlen) ||
           read_asset(root, "third_party/vega-lite/build/vega-lite.min.js",
                      fetch, &a->vega_lite, err, errlen) ||
           read_asset(root, "third_party/vega-embed/build/vega-embed.min.js",
                      fetch, &a->vega_embed, err, errlen) ||
           read_asset(root, PAGE "merlin.js", tree, &a->script, err, errlen) ||
           read_asset(root, PAGE "merlin.css", tree, &a->style, err, errlen);
  if (rc == 0) {
    char v[3][64];
    static const char *const dep[] = {"vega", "vega-lite", "vega-embed"};
    for (int i = 0; i < 3; i++)
      dep_version(root, dep[i], v[i], sizeof v[i]);
    char buf[256];
    snprintf(buf, sizeof buf, "Vega %s, Vega-Lite %s, vega-embed %s", v[0],
             v[1], v[2]);
    a->versions = strdup(buf);
    rc = a->versions ? 0 : -1;
  }
  if (rc != 0)
    mh_html_assets_free(a);
  return rc ? -1 : 0;
}

void mh_html_assets_free(mh_html_assets *a) {
  free(a->vega);
  free(a->vega_lite);
  free(a->vega_embed);
  free(a->script);
  free(a->style);
  free(a->versions);
  memset(a, 0, sizeof *a);
}
