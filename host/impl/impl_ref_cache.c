/* SPDX-License-Identifier: Apache-2.0 */
/* See impl_ref_cache.h. The entry is text: a line "merlin-nistkat 2", a
 * line "hmac-sha256 <hex>", then one "BACKEND<TAB>RECORDS" line per
 * reference ("-" for none), in the order of the run's references. The tag
 * is HMAC-SHA-256 (OpenSSL's libcrypto) under the user's key of
 * "merlin-nistkat 2\nkey <key>\nimage <image sha256>\n" and the reference
 * lines. */
#include "impl/impl_ref_cache.h"

#include "digest.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEAD "merlin-nistkat 2\n"
#define TAG "hmac-sha256 "
#define IMAGE_MAX ((size_t)512 << 20)
#define ENTRY_MAX ((size_t)64 << 20)

static void hex(const uint8_t *d, size_t n, char *out) {
  for (size_t i = 0; i < n; i++)
    snprintf(out + 2 * i, 3, "%02x", d[i]);
}

int mh_ref_cache_key(const char *image, const unsigned char *off, size_t n,
                     mh_ref_cache_id *id) {
  char *buf = NULL, err[256];
  size_t len = 0;
  if (mh_read_file(image, IMAGE_MAX, &buf, &len, err, sizeof err) != 0)
    return -1;
  uint8_t d[32];
  mcore_sha256(d, (const uint8_t *)buf, len);
  free(buf);
  hex(d, 32, id->image);
  mcore_sha256_ctx c;
  mcore_sha256_init(&c);
  mcore_sha256_update(&c, (const uint8_t *)id->image, 64);
  for (size_t i = 0; i < n; i++)
    mcore_sha256_update(
        &c, off && off[i] ? (const uint8_t *)"1" : (const uint8_t *)"0", 1);
  mcore_sha256_final(&c, d);
  hex(d, 32, id->key);
  return 0;
}

/* ---- the user's key ---------------------------------------------------- */

/* The key file's path (malloc'd), or NULL with why. */
static char *secret_path(char *why, size_t wl) {
  const char *env = getenv("MERLIN_REF_CACHE_KEY");
  if (env && *env)
    return strdup(env);
  const char *xdg = getenv("XDG_CONFIG_HOME");
  if (xdg && xdg[0] == '/')
    return mh_path_join(xdg, "merlin/ref-cache.key");
  const char *home = getenv("HOME");
  struct passwd *pw = home && home[0] == '/' ? NULL : getpwuid(getuid());
  if (pw && pw->pw_dir && pw->pw_dir[0] == '/')
    home = pw->pw_dir;
  if (!home || home[0] != '/') {
    snprintf(why, wl,
             "no home directory for its key (set HOME, XDG_CONFIG_HOME or "
             "MERLIN_REF_CACHE_KEY)");
    return NULL;
  }
  return mh_path_join(home, ".config/merlin/ref-cache.key");
}

/* A new key at path: written to a temporary name, then linked into place
 * (link fails when another merlin made it first: that one is used). */
static int make_secret(const char *path, char *why, size_t wl) {
  char *dir = strdup(path), *slash = dir ? strrchr(dir, '/') : NULL;
  if (slash && slash != dir) {
    *slash = '\0';
    char err[512];
    /* mkdir -p, then the key's own folder closed to others */
    int bad = 0;
    if (mkdir(dir, 0700) != 0 && errno == ENOENT) {
      if ((bad = mh_mkdir_p(dir, err, sizeof err) != 0))
        snprintf(why, wl, "%s", err);
      else if ((bad = chmod(dir, 0700) != 0))
        snprintf(why, wl, "cannot close %s to others: %s", dir,
                 strerror(errno));
    }
    if (bad) {
      free(dir);
      return -1;
    }
  }
  free(dir);
  unsigned char k[32];
  char text[66], tmp[4200];
  if (RAND_bytes(k, sizeof k) != 1) {
    snprintf(why, wl, "no random bytes for its key (OpenSSL RAND_bytes)");
    return -1;
  }
  hex(k, 32, text);
  OPENSSL_cleanse(k, sizeof k);
  text[64] = '\n';
  text[65] = '\0';
  snprintf(tmp, sizeof tmp, "%s.new.%ld", path, (long)getpid());
  int fd =
      open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  int bad = fd < 0 || mh_write_all(fd, text, 65) != 0 || fsync(fd) != 0;
  int e = errno;
  if (fd >= 0 && close(fd) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  if (!bad && link(tmp, path) != 0 && errno != EEXIST) {
    bad = 1;
    e = errno;
  }
  unlink(tmp);
  OPENSSL_cleanse(text, sizeof text);
  if (bad)
    snprintf(why, wl, "cannot make its key %s: %s", path, strerror(e));
  return bad ? -1 : 0;
}

/* Read the key at path, checked: 0, 1 (there is none), or -1 with why. */
static int read_secret(const char *path, unsigned char secret[32], char *why,
                       size_t wl) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && errno == ENOENT)
    return 1;
  struct stat st;
  char text[66];
  ssize_t n = -1;
  const char *bad = NULL;
  if (fd < 0)
    bad = errno == ELOOP ? "a symbolic link" : strerror(errno);
  else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    bad = "not a regular file";
  else if (st.st_uid != geteuid())
    bad = "owned by another user";
  else if (st.st_mode & 077)
    bad = "open to other users (chmod 600 it)";
  else if ((n = read(fd, text, sizeof text)) != 65 || text[64] != '\n')
    bad = "not 64 hex digits and a newline";
  for (size_t i = 0; !bad && i < 32; i++) {
    unsigned v;
    if (sscanf(text + 2 * i, "%2x", &v) != 1 ||
        !strchr("0123456789abcdef", text[2 * i]) ||
        !strchr("0123456789abcdef", text[2 * i + 1]))
      bad = "not 64 hex digits and a newline";
    else
      secret[i] = (unsigned char)v;
  }
  OPENSSL_cleanse(text, sizeof text);
  if (fd >= 0)
    close(fd);
  if (bad) {
    char brief[MH_PATH_BRIEF];
    snprintf(why, wl, "its key %s is %s",
             mh_path_brief(path, brief, sizeof brief), bad);
    OPENSSL_cleanse(secret, 32);
    return -1;
  }
  return 0;
}

int mh_ref_cache_secret(unsigned char secret[32], char *why, size_t wl) {
  char *path = secret_path(why, wl);
  if (!path)
    return -1;
  int rc = read_secret(path, secret, why, wl);
  if (rc == 1 && make_secret(path, why, wl) == 0)
    rc = read_secret(path, secret, why, wl);
  if (rc == 1)
    rc = -1; /* made, yet gone: why says (or another merlin removed it) */
  free(path);
  return rc;
}

/* ---- entries ----------------------------------------------------------- */

/* The tag of body (the reference lines) under secret, hex into out[65]. */
static int tag_of(const mh_ref_cache_id *id, const unsigned char secret[32],
                  const char *body, size_t blen, char out[65]) {
  mh_sb b = {0};
  mh_sb_printf(&b, "%skey %s\nimage %s\n", HEAD, id->key, id->image);
  mh_sb_add(&b, body, blen);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned mdlen = 0;
  int ok = !b.failed &&
           HMAC(EVP_sha256(), secret, 32, (const uint8_t *)b.s, b.len, md,
                &mdlen) != NULL &&
           mdlen == 32;
  mh_sb_free(&b);
  if (ok)
    hex(md, 32, out);
  return ok ? 0 : -1;
}

static char *entry_path(const char *root, const char *key) {
  char rel[128];
  snprintf(rel, sizeof rel, "build/cache/nistkat/%s", key);
  return mh_path_join(root, rel);
}

/* The reference lines of body into recs: 0, or -1 when they are not the n
 * references of backends, in order. body is cut in place. */
static int parse_lines(char *line, const char *const *backends, size_t n,
                       char **recs) {
  for (size_t i = 0; i < n; i++) {
    char *nl = strchr(line, '\n'), *tab = strchr(line, '\t');
    size_t bl = strlen(backends[i]);
    if (!nl || !tab || tab > nl || (size_t)(tab - line) != bl ||
        strncmp(line, backends[i], bl) != 0)
      return -1;
    *nl = '\0';
    if (strcmp(tab + 1, "-") != 0 && !(recs[i] = strdup(tab + 1)))
      return -1;
    line = nl + 1;
  }
  return *line == '\0' ? 0 : -1;
}

int mh_ref_cache_get(const char *root, const mh_ref_cache_id *id,
                     const unsigned char secret[32],
                     const char *const *backends, size_t n, char **recs,
                     char *why, size_t wl) {
  char *path = entry_path(root, id->key), *buf = NULL, err[512], want[65];
  size_t len = 0;
  struct stat st;
  if (!path || (lstat(path, &st) != 0 && errno == ENOENT)) {
    free(path);
    return 0;
  }
  const char *bad = NULL;
  const size_t at = strlen(HEAD) + strlen(TAG); /* the tag's hex digits */
  if (mh_read_regular(path, ENTRY_MAX, &buf, &len, err, sizeof err) != 0)
    bad = err;
  else if (strlen(buf) != len || len < at + 65 ||
           strncmp(buf, HEAD, strlen(HEAD)) != 0 ||
           strncmp(buf + strlen(HEAD), TAG, strlen(TAG)) != 0 ||
           buf[at + 64] != '\n')
    bad = "not an entry of this merlin";
  else if (tag_of(id, secret, buf + at + 65, len - at - 65, want) != 0 ||
           CRYPTO_memcmp(want, buf + at, 64) != 0)
    bad = "its tag is not this user's key's over it (written by someone "
          "else, or changed)";
  else if (parse_lines(buf + at + 65, backends, n, recs) != 0)
    bad = "it names other references";
  free(buf);
  free(path);
  if (!bad)
    return 1;
  for (size_t i = 0; i < n; i++) {
    free(recs[i]);
    recs[i] = NULL;
  }
  snprintf(why, wl, "build/cache/nistkat/%.12s: %s", id->key, bad);
  return -1;
}

void mh_ref_cache_put(const char *root, const mh_ref_cache_id *id,
                      const unsigned char secret[32],
                      const char *const *backends, size_t n,
                      char *const *recs) {
  mh_sb body = {0}, b = {0};
  for (size_t i = 0; i < n; i++)
    mh_sb_printf(&body, "%s\t%s\n", backends[i], recs[i] ? recs[i] : "-");
  char tag[65];
  if (body.failed || tag_of(id, secret, body.s ? body.s : "", body.len, tag))
    goto out;
  mh_sb_printf(&b, "%s%s%s\n", HEAD, TAG, tag);
  mh_sb_add(&b, body.s ? body.s : "", body.len);
  char *dir = mh_path_join(root, "build/cache/nistkat");
  char *path = entry_path(root, id->key), err[512];
  if (!b.failed && dir && path && mh_mkdir_p(dir, err, sizeof err) == 0) {
    /* a planted link is replaced, never followed */
    (void)mh_write_replace(path, b.s, b.len, err, sizeof err);
  }
  free(dir);
  free(path);
out:
  mh_sb_free(&body);
  mh_sb_free(&b);
}
