/* SPDX-License-Identifier: Apache-2.0 */
/* The host reference run's kept records (host/impl/impl_ref_cache.c): the
 * key follows the image's bytes and which references it ran; an entry
 * reads back only for the same references, in order; a damaged entry is a
 * miss. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "impl/impl_ref_cache.h"
#include "util/fsutil.h"

#include <stdlib.h>
#include <unistd.h>

int main(void) {
  char root[] = "/tmp/merlin-test-refcache-XXXXXX", err[256];
  if (!mkdtemp(root))
    return 1;
  char img[600], k1[65], k2[65], k3[65];
  snprintf(img, sizeof img, "%s/image", root);
  CHECK(mh_write_atomic(img, "image one", 9, err, sizeof err) == 0);
  unsigned char off[2] = {0, 0};
  CHECK(mh_ref_cache_key(img, off, 2, k1) == 0);
  off[1] = 1;
  CHECK(mh_ref_cache_key(img, off, 2, k2) == 0);
  CHECK(strcmp(k1, k2) != 0); /* another reference left out */
  CHECK(mh_write_atomic(img, "image two", 9, err, sizeof err) == 0);
  CHECK(mh_ref_cache_key(img, off, 2, k3) == 0);
  CHECK(strcmp(k2, k3) != 0); /* another image */

  const char *names[2] = {"impl:a/clean", "impl:b/clean"};
  char *recs[2] = {"seed=00,sha256=aa", NULL}, *back[2] = {NULL, NULL};
  CHECK(mh_ref_cache_get(root, k1, names, 2, back) == 0); /* a miss */
  mh_ref_cache_put(root, k1, names, 2, recs);
  CHECK(mh_ref_cache_get(root, k1, names, 2, back) == 1);
  CHECK(back[0] && strcmp(back[0], recs[0]) == 0 && back[1] == NULL);
  free(back[0]);
  back[0] = NULL;
  const char *other[2] = {"impl:b/clean", "impl:a/clean"};
  CHECK(mh_ref_cache_get(root, k1, other, 2, back) == 0);
  CHECK(mh_ref_cache_get(root, k1, names, 1, back) == 0);
  char entry[700];
  snprintf(entry, sizeof entry, "%s/build/cache/nistkat/%s", root, k1);
  CHECK(mh_write_atomic(entry, "merlin-nistkat 1\nimpl:a/clean", 29, err,
                        sizeof err) == 0);
  CHECK(mh_ref_cache_get(root, k1, names, 2, back) == 0);
  CHECK(back[0] == NULL && back[1] == NULL);
  unlink(entry);
  unlink(img);
  char d[700];
  snprintf(d, sizeof d, "%s/build/cache/nistkat", root);
  rmdir(d);
  snprintf(d, sizeof d, "%s/build/cache", root);
  rmdir(d);
  snprintf(d, sizeof d, "%s/build", root);
  rmdir(d);
  rmdir(root);
  return check_report();
}
