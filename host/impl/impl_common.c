/* SPDX-License-Identifier: Apache-2.0 */
/* The common code of implementation folders (docs/bring-your-own.md, "From
 * a pqm4 checkout"): --impl-common, or the common/ and mupq/common/ of the
 * pqm4 or mupq checkout a folder is in; and whether a folder calls mupq's
 * heap-free fips202 API. */
/* realpath (X/Open) */
#define _XOPEN_SOURCE 700

#include "impl/impl_common.h"

#include "util/fsutil.h"
#include "util/strbuf.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest source file scanned for fips202 calls. */
#define SCAN_MAX ((size_t)4 << 20)

static int is_file(const char *dir, const char *name) {
  char *p = mh_path_join(dir, name);
  struct stat st;
  int ok = p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
  free(p);
  return ok;
}

static int is_dir(const char *p) {
  struct stat st;
  return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The parent of path (malloc'd), or NULL at the root. */
static char *parent_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path)
    return NULL;
  return strndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

void mh_impl_common_free(mh_impl_common *c) {
  mh_impl_dirs_free(c->dirs, c->n);
  mh_impl_dirs_free(c->files, c->n_files);
  free(c->origin);
  memset(c, 0, sizeof *c);
}

static int push_path(char ***v, size_t *n, const char *path) {
  char *r = realpath(path, NULL);
  char **nv = r ? realloc(*v, (*n + 1) * sizeof *nv) : NULL;
  if (!nv) {
    free(r);
    return -1;
  }
  *v = nv;
  nv[(*n)++] = r;
  return 0;
}

static int add_dir(mh_impl_common *c, const char *dir) {
  return push_path(&c->dirs, &c->n, dir);
}

/* Whether directory p holds nothing but hidden entries (a submodule that
 * was never checked out), or is missing. */
static int empty_dir(const char *p) {
  DIR *d = p ? opendir(p) : NULL;
  struct dirent *e;
  int empty = 1;
  while (d && empty && (e = readdir(d)) != NULL)
    empty = e->d_name[0] == '.';
  if (d)
    closedir(d);
  return empty;
}

/* A checkout whose submodules were not fetched (a clone made without
 * --recursive): root/mupq/ (pqm4's) or mupq's pqclean/ left empty. 1 with
 * err naming the empty folder and the command that fills it, else 0. */
static int broken_checkout(const char *root, const char *mupq, char *err,
                           size_t errlen) {
  char *pq = mupq ? mh_path_join(mupq, "pqclean") : NULL;
  const char *empty = mupq && is_dir(mupq) && empty_dir(mupq) ? mupq
                      : pq && is_dir(pq) && empty_dir(pq)     ? pq
                                                              : NULL;
  if (empty)
    snprintf(err, errlen,
             "the checkout %s is incomplete: %s is empty (a clone made "
             "without --recursive leaves its submodules empty); run `git "
             "submodule update --init --recursive` in %s, then again. Merlin "
             "does not build its folders on other common code instead",
             root, empty, root);
  free(pq);
  return empty != NULL;
}

/* The host side's files of a pqm4/mupq checkout: HOST_SYMCRYPTO_SRC of
 * mupq's mk/host-crypto.mk (what pqm4 builds its host test vectors
 * with: mupq's portable fips202, Keccak, sp800-185 and seed expander,
 * PQClean's aes.c and sha2.c), paths relative to the directory above
 * mupq/. 1 when found (files into c), 0 when the file is not there. */
static int host_crypto_files(const char *mupq, mh_impl_common *c) {
  char *mk = mh_path_join(mupq, "mk/host-crypto.mk"), *text = NULL;
  char *above = parent_of(mupq), rerr[64];
  size_t len = 0;
  int rc = 0;
  if (mk && above &&
      mh_read_file(mk, SCAN_MAX, &text, &len, rerr, sizeof rerr) == 0) {
    const char *v = strstr(text, "HOST_SYMCRYPTO_SRC");
    v = v ? strchr(v, '=') : NULL;
    rc = v != NULL;
    /* the words after '=', over backslash-continued lines */
    for (const char *p = v ? v + 1 : NULL; p && *p && rc == 1;) {
      p += strspn(p, " \t\\\r");
      if (*p == '\n') {
        const char *q = p;
        while (q > v && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
          q--;
        if (q[-1] != '\\')
          break;
        p++;
        continue;
      }
      size_t w = strcspn(p, " \t\\\r\n");
      if (w == 0)
        break;
      char *rel = strndup(p, w);
      char *path = rel ? mh_path_join(above, rel) : NULL;
      if (!path || push_path(&c->files, &c->n_files, path) != 0)
        rc = -1;
      free(rel);
      free(path);
      p += w;
    }
  }
  free(mk);
  free(above);
  free(text);
  return rc;
}

int mh_impl_common_find(const char *dir, int host, mh_impl_common *out,
                        char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  /* <root>/crypto_kem/<scheme>/<impl> */
  char *scheme = parent_of(dir);
  char *kind = scheme ? parent_of(scheme) : NULL;
  char *root = kind ? parent_of(kind) : NULL;
  int rc = 0;
  if (!root || (strcmp(base_of(kind), "crypto_kem") != 0 &&
                strcmp(base_of(kind), "crypto_sign") != 0))
    goto out;
  /* mupq's common/ is told by its hal.h (PQClean's has none); a folder of
   * pqm4's mupq/ submodule builds with pqm4's common/ too, as pqm4 does. */
  char *up = strcmp(base_of(root), "mupq") == 0 ? parent_of(root) : NULL;
  char *own = mh_path_join(root, "common");
  char *sub = mh_path_join(root, "mupq/common");
  char *upc = up ? mh_path_join(up, "common") : NULL;
  char *mupq_dir = mh_path_join(root, "mupq");
  const char *pqm4_root = NULL, *mupq_common = NULL, *mupq = NULL;
  if (sub && is_dir(sub) && is_file(sub, "hal.h")) {
    pqm4_root = root; /* pqm4: common/ and mupq/common/ */
    mupq_common = sub;
    mupq = mupq_dir;
  } else if (own && is_file(own, "hal.h")) {
    mupq_common = own; /* mupq itself, or pqm4's mupq/ */
    mupq = root;
    char *k1 = up ? mh_path_join(up, "crypto_kem") : NULL;
    char *k2 = up ? mh_path_join(up, "crypto_sign") : NULL;
    if (upc && is_dir(upc) && (is_dir(k1) || is_dir(k2)))
      pqm4_root = up;
    free(k1);
    free(k2);
  } else if (own && is_dir(own) && mupq_dir && is_dir(mupq_dir)) {
    /* pqm4's layout, its mupq/ not there: said, never built on other
     * common code */
    if (broken_checkout(root, mupq_dir, err, errlen))
      rc = -2;
  }
  if (mupq_common &&
      broken_checkout(pqm4_root ? pqm4_root : root, mupq, err, errlen))
    rc = -2;
  if (mupq_common && rc == 0) {
    mh_sb o = {0};
    if (pqm4_root && !host) {
      char *pc = mh_path_join(pqm4_root, "common");
      rc = pc && is_dir(pc) ? add_dir(out, pc) : 0;
      free(pc);
      out->pqm4 = 1;
    }
    if (rc == 0)
      rc = add_dir(out, mupq_common);
    int listed = host && rc == 0 ? host_crypto_files(mupq, out) : 0;
    rc = listed < 0 ? -1 : rc;
    out->host = host;
    mh_sb_printf(&o, "%sthe %s checkout %s%s", host ? "the host side of " : "",
                 pqm4_root ? "pqm4" : "mupq", pqm4_root ? pqm4_root : root,
                 listed ? " (mupq/mk/host-crypto.mk)" : "");
    out->origin = o.s;
    if (rc == 0 && !out->origin)
      rc = -1;
    if (rc == 0)
      rc = 1;
  }
  free(own);
  free(sub);
  free(upc);
  free(up);
  free(mupq_dir);
out:
  free(scheme);
  free(kind);
  free(root);
  if (rc < 0)
    mh_impl_common_free(out);
  if (rc == -1)
    snprintf(err, errlen, "out of memory");
  return rc;
}

static int same_dirs(const mh_impl_common *a, const mh_impl_common *b) {
  if (a->n != b->n || a->n_files != b->n_files || a->host != b->host)
    return 0;
  for (size_t i = 0; i < a->n; i++)
    if (strcmp(a->dirs[i], b->dirs[i]) != 0)
      return 0;
  for (size_t i = 0; i < a->n_files; i++)
    if (strcmp(a->files[i], b->files[i]) != 0)
      return 0;
  return 1;
}

/* c into s's commons (taken over), or the equal one there: 1 + its index. */
static int intern(mh_impl_set *s, mh_impl_common *c, size_t *ci) {
  for (size_t i = 0; i < s->n_commons; i++)
    if (same_dirs(&s->commons[i], c)) {
      mh_impl_common_free(c);
      *ci = i + 1;
      return 0;
    }
  mh_impl_common *nv =
      realloc(s->commons, (s->n_commons + 1) * sizeof *s->commons);
  if (!nv) {
    mh_impl_common_free(c);
    return -1;
  }
  s->commons = nv;
  s->commons[s->n_commons++] = *c;
  *ci = s->n_commons;
  return 0;
}

int mh_impl_common_for(mh_impl_set *s, const char *dir, size_t *ci, char *err,
                       size_t errlen) {
  mh_impl_common c = {0};
  *ci = 0;
  char **ex = s->host_side ? s->explicit_common_host : s->explicit_common;
  size_t n_ex = s->host_side ? s->n_explicit_common_host : s->n_explicit_common;
  const char *opt = s->host_side ? "--impl-host-common" : "--impl-common";
  if (s->host_side ? s->common_none_host : s->common_none)
    return 0;
  if (n_ex) {
    for (size_t i = 0; i < n_ex; i++) {
      if (!is_dir(ex[i])) {
        snprintf(err, errlen, "%s %s: not a directory", opt, ex[i]);
        mh_impl_common_free(&c);
        return -1;
      }
      if (add_dir(&c, ex[i]) != 0) {
        mh_impl_common_free(&c);
        snprintf(err, errlen, "out of memory");
        return -1;
      }
    }
    c.origin = strdup(opt);
    c.host = s->host_side;
  } else {
    int found = mh_impl_common_find(dir, s->host_side, &c, err, errlen);
    if (found <= 0)
      return found < 0 ? -1 : 0;
  }
  if (!c.origin || intern(s, &c, ci) != 0) {
    mh_impl_common_free(&c);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

/* Whether text holds name followed by '(' (a call or declaration). */
static int calls(const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *p = text; (p = strstr(p, name)) != NULL; p += n) {
    const char *q = p + n;
    while (*q == ' ' || *q == '\t')
      q++;
    if (*q == '(')
      return 1;
  }
  return 0;
}

int mh_impl_stack_fips(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  int uses_ctx = 0, releases = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name);
    if (e->d_name[0] == '.' || l < 3 || e->d_name[l - 2] != '.' ||
        (e->d_name[l - 1] != 'c' && e->d_name[l - 1] != 'h'))
      continue;
    char *p = mh_path_join(dir, e->d_name), *text = NULL, rerr[64];
    size_t len = 0;
    if (p && mh_read_file(p, SCAN_MAX, &text, &len, rerr, sizeof rerr) == 0) {
      /* the context calls of fips202.h: SHAKE's absorb and the
       * incremental API */
      static const char *const ctx_fns[] = {
          "shake128_absorb",   "shake256_absorb",   "shake128_inc_init",
          "shake256_inc_init", "sha3_256_inc_init", "sha3_384_inc_init",
          "sha3_512_inc_init"};
      for (size_t i = 0; i < sizeof ctx_fns / sizeof ctx_fns[0]; i++)
        uses_ctx |= calls(text, ctx_fns[i]);
      releases |= strstr(text, "_ctx_release") != NULL;
    }
    free(text);
    free(p);
  }
  closedir(d);
  return uses_ctx && !releases;
}
