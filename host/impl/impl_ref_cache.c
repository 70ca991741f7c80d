/* SPDX-License-Identifier: Apache-2.0 */
/* See impl_ref_cache.h. The entry is text: a line "merlin-nistkat 1", then
 * one "BACKEND<TAB>RECORDS" line per reference ("-" for none), in the
 * order of the run's references. */
#include "impl/impl_ref_cache.h"

#include "digest.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD "merlin-nistkat 1\n"
#define IMAGE_MAX ((size_t)512 << 20)

int mh_ref_cache_key(const char *image, const unsigned char *off, size_t n,
                     char key[65]) {
  char *buf = NULL, err[256];
  size_t len = 0;
  if (mh_read_file(image, IMAGE_MAX, &buf, &len, err, sizeof err) != 0)
    return -1;
  mcore_sha256_ctx c;
  uint8_t d[32];
  mcore_sha256_init(&c);
  mcore_sha256_update(&c, (const uint8_t *)buf, len);
  for (size_t i = 0; i < n; i++)
    mcore_sha256_update(
        &c, off && off[i] ? (const uint8_t *)"1" : (const uint8_t *)"0", 1);
  mcore_sha256_final(&c, d);
  free(buf);
  for (size_t i = 0; i < 32; i++)
    snprintf(key + 2 * i, 3, "%02x", d[i]);
  return 0;
}

static char *entry_path(const char *root, const char *key) {
  char rel[128];
  snprintf(rel, sizeof rel, "build/cache/nistkat/%s", key);
  return mh_path_join(root, rel);
}

int mh_ref_cache_get(const char *root, const char *key,
                     const char *const *backends, size_t n, char **recs) {
  char *path = entry_path(root, key), *buf = NULL, err[256];
  size_t len = 0;
  int ok = path &&
           mh_read_file(path, 64u << 20, &buf, &len, err, sizeof err) == 0 &&
           strncmp(buf, HEAD, strlen(HEAD)) == 0;
  free(path);
  char *line = ok ? buf + strlen(HEAD) : NULL;
  for (size_t i = 0; ok && i < n; i++) {
    char *nl = strchr(line, '\n'), *tab = strchr(line, '\t');
    size_t bl = strlen(backends[i]);
    ok = nl && tab && tab < nl && (size_t)(tab - line) == bl &&
         strncmp(line, backends[i], bl) == 0;
    if (!ok)
      break;
    *nl = '\0';
    recs[i] = strcmp(tab + 1, "-") == 0 ? NULL : strdup(tab + 1);
    ok = !recs[i] == (strcmp(tab + 1, "-") == 0);
    line = nl + 1;
  }
  if (ok)
    ok = *line == '\0';
  for (size_t i = 0; !ok && i < n; i++) {
    free(recs[i]);
    recs[i] = NULL;
  }
  free(buf);
  return ok;
}

void mh_ref_cache_put(const char *root, const char *key,
                      const char *const *backends, size_t n,
                      char *const *recs) {
  mh_sb b = {0};
  mh_sb_puts(&b, HEAD);
  for (size_t i = 0; i < n; i++)
    mh_sb_printf(&b, "%s\t%s\n", backends[i], recs[i] ? recs[i] : "-");
  char *dir = mh_path_join(root, "build/cache/nistkat");
  char *path = entry_path(root, key), err[512];
  if (!b.failed && dir && path && mh_mkdir_p(dir, err, sizeof err) == 0)
    (void)mh_write_atomic(path, b.s, b.len, err, sizeof err);
  free(dir);
  free(path);
  mh_sb_free(&b);
}
