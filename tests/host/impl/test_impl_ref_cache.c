/* SPDX-License-Identifier: Apache-2.0 */
/* The host reference run's kept records (host/impl/impl_ref_cache.c): the
 * key follows the image's bytes and which references it ran; an entry
 * reads back only for the same references, in order, and only with this
 * user's tag over it: a planted, damaged, moved, linked or other user's
 * entry is not used; the user's key is made once, mode 0600, and refused
 * when open to others, a link or malformed. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "impl/impl_ref_cache.h"
#include "util/fsutil.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[] = "/tmp/merlin-test-refcache-XXXXXX";

static void put_text(const char *rel, const char *text) {
  char p[700], err[256];
  snprintf(p, sizeof p, "%s/%s", root, rel);
  CHECK(mh_write_atomic(p, text, strlen(text), err, sizeof err) == 0);
}

/* The user's key: made once, 0600 in a 0700 folder; refused when not
 * this user's alone. */
static void test_secret(unsigned char s1[32]) {
  char kpath[700], why[512];
  unsigned char s2[32];
  struct stat st;
  snprintf(kpath, sizeof kpath, "%s/cfg/merlin/ref-cache.key", root);
  setenv("MERLIN_REF_CACHE_KEY", kpath, 1);
  CHECK(mh_ref_cache_secret(s1, why, sizeof why) == 0);
  CHECK(stat(kpath, &st) == 0 && (st.st_mode & 0777) == 0600);
  char d[700];
  snprintf(d, sizeof d, "%s/cfg/merlin", root);
  CHECK(stat(d, &st) == 0 && (st.st_mode & 0777) == 0700);
  CHECK(mh_ref_cache_secret(s2, why, sizeof why) == 0);
  CHECK(memcmp(s1, s2, 32) == 0); /* kept, not made again */
  chmod(kpath, 0644);
  CHECK(mh_ref_cache_secret(s2, why, sizeof why) == -1);
  CHECK_CONTAINS(why, "open to other users");
  chmod(kpath, 0600);
  char link[700];
  snprintf(link, sizeof link, "%s/cfg/link.key", root);
  CHECK(symlink(kpath, link) == 0);
  setenv("MERLIN_REF_CACHE_KEY", link, 1);
  CHECK(mh_ref_cache_secret(s2, why, sizeof why) == -1);
  CHECK_CONTAINS(why, "a symbolic link");
  unlink(link);
  put_text("cfg/short.key", "00ff\n");
  snprintf(link, sizeof link, "%s/cfg/short.key", root);
  chmod(link, 0600);
  setenv("MERLIN_REF_CACHE_KEY", link, 1);
  CHECK(mh_ref_cache_secret(s2, why, sizeof why) == -1);
  CHECK_CONTAINS(why, "not 64 hex digits");
  unlink(link);
  setenv("MERLIN_REF_CACHE_KEY", kpath, 1);
}

int main(void) {
  char err[256], why[512];
  if (!mkdtemp(root))
    return 1;
  unsigned char secret[32], other[32];
  test_secret(secret);
  memset(other, 7, sizeof other);

  char img[600];
  mh_ref_cache_id k1, k2, k3;
  snprintf(img, sizeof img, "%s/image", root);
  CHECK(mh_write_atomic(img, "image one", 9, err, sizeof err) == 0);
  unsigned char off[2] = {0, 0};
  CHECK(mh_ref_cache_key(img, off, 2, &k1) == 0);
  off[1] = 1;
  CHECK(mh_ref_cache_key(img, off, 2, &k2) == 0);
  CHECK(strcmp(k1.key, k2.key) != 0); /* another reference left out */
  CHECK(strcmp(k1.image, k2.image) == 0);
  CHECK(mh_write_atomic(img, "image two", 9, err, sizeof err) == 0);
  CHECK(mh_ref_cache_key(img, off, 2, &k3) == 0);
  CHECK(strcmp(k2.key, k3.key) != 0 && strcmp(k2.image, k3.image) != 0);

  const char *names[2] = {"impl:a/clean", "impl:b/clean"};
  char *recs[2] = {"seed=00,sha256=aa", NULL}, *back[2] = {NULL, NULL};
  CHECK(mh_ref_cache_get(root, &k1, secret, names, 2, back, why, sizeof why) ==
        0); /* a miss */
  mh_ref_cache_put(root, &k1, secret, names, 2, recs);
  CHECK(mh_ref_cache_get(root, &k1, secret, names, 2, back, why, sizeof why) ==
        1);
  CHECK(back[0] && strcmp(back[0], recs[0]) == 0 && back[1] == NULL);
  free(back[0]);
  back[0] = NULL;
  const char *swapped[2] = {"impl:b/clean", "impl:a/clean"};
  CHECK(mh_ref_cache_get(root, &k1, secret, swapped, 2, back, why,
                         sizeof why) == -1);
  CHECK(mh_ref_cache_get(root, &k1, secret, names, 1, back, why, sizeof why) ==
        -1);
  /* another user's key: not this user's tag */
  CHECK(mh_ref_cache_get(root, &k1, other, names, 2, back, why, sizeof why) ==
        -1);
  CHECK_CONTAINS(why, "tag");

  char entry[700], text[4096];
  size_t len;
  char *buf = NULL;
  snprintf(entry, sizeof entry, "%s/build/cache/nistkat/%s", root, k1.key);
  CHECK(mh_read_file(entry, 1 << 20, &buf, &len, err, sizeof err) == 0);
  /* planted: the same tag, other records */
  snprintf(text, sizeof text, "%s", buf ? buf : "");
  char *rec = strstr(text, "sha256=aa");
  if (rec)
    rec[8] = 'b';
  CHECK(mh_write_atomic(entry, text, strlen(text), err, sizeof err) == 0);
  CHECK(mh_ref_cache_get(root, &k1, secret, names, 2, back, why, sizeof why) ==
        -1);
  CHECK_CONTAINS(why, "its tag is not this user's key's");
  CHECK(back[0] == NULL && back[1] == NULL);
  /* damaged, and the format of an older merlin: not used */
  CHECK(mh_write_atomic(entry, "merlin-nistkat 2\nimpl:a/clean", 29, err,
                        sizeof err) == 0);
  CHECK(mh_ref_cache_get(root, &k1, secret, names, 2, back, why, sizeof why) ==
        -1);
  CHECK_CONTAINS(why, "not an entry of this merlin");
  snprintf(text, sizeof text,
           "merlin-nistkat 1\nimpl:a/clean\tseed=00,sha256=bb\nimpl:b/"
           "clean\t-\n");
  CHECK(mh_write_atomic(entry, text, strlen(text), err, sizeof err) == 0);
  CHECK(mh_ref_cache_get(root, &k1, secret, names, 2, back, why, sizeof why) ==
        -1);
  /* a good entry moved to another key's name: its key is in the tag */
  char entry2[700];
  snprintf(entry2, sizeof entry2, "%s/build/cache/nistkat/%s", root, k2.key);
  CHECK(mh_write_atomic(entry2, buf ? buf : "", len, err, sizeof err) == 0);
  CHECK(mh_ref_cache_get(root, &k2, secret, names, 2, back, why, sizeof why) ==
        -1);
  /* a link to a good entry is not followed; a put replaces the link and
   * leaves what it named alone */
  CHECK(mh_write_atomic(img, buf ? buf : "", len, err, sizeof err) == 0);
  unlink(entry);
  CHECK(symlink(img, entry) == 0);
  CHECK(mh_ref_cache_get(root, &k1, secret, names, 2, back, why, sizeof why) ==
        -1);
  CHECK_CONTAINS(why, "a symbolic link");
  char *recs2[2] = {"seed=00,sha256=cc", "seed=00,sha256=dd"};
  mh_ref_cache_put(root, &k1, secret, names, 2, recs2);
  struct stat st;
  CHECK(lstat(entry, &st) == 0 && S_ISREG(st.st_mode));
  char *img_text = NULL;
  CHECK(mh_read_file(img, 1 << 20, &img_text, &len, err, sizeof err) == 0);
  CHECK(img_text && buf && strcmp(img_text, buf) == 0);
  free(img_text);
  CHECK(mh_ref_cache_get(root, &k1, secret, names, 2, back, why, sizeof why) ==
        1);
  CHECK(back[1] && strcmp(back[1], "seed=00,sha256=dd") == 0);
  free(back[0]);
  free(back[1]);
  free(buf);

  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  CHECK(system(cmd) == 0);
  return check_report();
}
