/* SPDX-License-Identifier: Apache-2.0 */
#include "impl/impl_record.h"

#include "util/fsutil.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rest of backend's line "BACKEND<TAB>FLAGS -- reason" in text (the
 * build directory's compiler-workarounds.txt), copied to out; 0 when none. */
static int applied_workaround(const char *text, const char *backend, char *out,
                              size_t outlen) {
  size_t bl = strlen(backend);
  for (const char *l = text; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    if (len > bl && strncmp(l, backend, bl) == 0 && l[bl] == '\t') {
      snprintf(out, outlen, "%.*s", (int)(len - bl - 1), l + bl + 1);
      return 1;
    }
    l = nl ? nl + 1 : NULL;
  }
  return 0;
}

/* The files of common code j in the build directory's impl-common.txt
 * ("<j><TAB><file>;<file>..."): malloc'd, or NULL. */
static char *common_files(const char *text, size_t j) {
  char key[32];
  int kl = snprintf(key, sizeof key, "%zu\t", j);
  for (const char *l = text; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    if (len > (size_t)kl && strncmp(l, key, (size_t)kl) == 0)
      return strndup(l + kl, len - (size_t)kl);
    l = nl ? nl + 1 : NULL;
  }
  return NULL;
}

/* hash: the Keccak behind folder m's fips202.h; common: its common code
 * (malloc'd, or NULL for the pinned PQClean tree's). */
static void folder_hash(const mh_impl_set *s, const mh_impl *m,
                        const char *ctext, size_t j0, char *hash, size_t hl,
                        char **common) {
  const char *h = s->hash_thumb2 && !m->library ? "thumb2-asm" : "c";
  *common = NULL;
  if (m->common) {
    char *files = ctext ? common_files(ctext, j0 + m->common) : NULL;
    const mh_impl_common *c = &s->commons[m->common - 1];
    /* the file of the permutation: keccakf1600.S, else fips202.c */
    const char *kf = NULL;
    for (const char *p = files; p && *p;) {
      const char *e = strchr(p, ';');
      size_t l = e ? (size_t)(e - p) : strlen(p);
      const char *b = p + l;
      while (b > p && b[-1] != '/')
        b--;
      if (strncmp(b, "keccak", 6) == 0 ||
          (!kf && strncmp(b, "fips202", 7) == 0))
        kf = p;
      p = e ? e + 1 : p + l;
    }
    if (kf)
      snprintf(hash, hl, "%.*s", (int)strcspn(kf, ";"), kf);
    else
      snprintf(hash, hl, "the common code of %s", c->origin);
    mh_sb b = {0};
    mh_sb_printf(&b, "%s: ", c->origin);
    for (const char *p = files; p && *p; p++)
      if (*p == ';')
        mh_sb_puts(&b, ", ");
      else
        mh_sb_putc(&b, *p);
    if (!files)
      for (size_t d = 0; d < c->n; d++)
        mh_sb_printf(&b, "%s%s", d ? ", " : "", c->dirs[d]);
    free(files);
    *common = b.failed ? NULL : b.s;
  } else if (m->stack_fips) {
    snprintf(hash, hl, "%s (heap-free sponge)", h);
  } else {
    snprintf(hash, hl, "%s", h);
  }
}

/* A folder's own hashing files (cmake/MerlinImpl.cmake, MBI_HASH_FILES: a
 * name that starts with sha3, fips202, keccak, sha2, sha256 or sha512),
 * as ", "-separated names into out; 0 when it has none. */
static int own_hash_files(const mh_impl *m, char *out, size_t outlen) {
  static const char *const stems[] = {"sha3", "fips202", "keccak",
                                      "sha2", "sha256",  "sha512"};
  size_t used = 0;
  int n = 0;
  out[0] = '\0';
  for (size_t i = 0; i < m->n_sources; i++) {
    const char *b = strrchr(m->sources[i], '/');
    b = b ? b + 1 : m->sources[i];
    int hit = 0;
    for (size_t k = 0; !hit && k < sizeof stems / sizeof stems[0]; k++)
      hit = strncmp(b, stems[k], strlen(stems[k])) == 0;
    if (!hit)
      continue;
    int w = snprintf(out + used, outlen - used, "%s%s", n ? ", " : "", b);
    if (w > 0 && (size_t)w < outlen - used)
      used += (size_t)w;
    n++;
  }
  return n;
}

int mh_impl_record(const mh_impl_set *s, const char *bdir,
                   const unsigned char *off, char *const *why, mh_result *res) {
  char *was = NULL, *ctext = NULL, err[256];
  size_t wlen = 0;
  char *wpath = bdir ? mh_path_join(bdir, "compiler-workarounds.txt") : NULL;
  char *cpath = bdir ? mh_path_join(bdir, "impl-common.txt") : NULL;
  if (wpath && mh_read_file(wpath, 1 << 16, &was, &wlen, err, sizeof err))
    was = NULL; /* no file: nothing applied */
  if (cpath && mh_read_file(cpath, 1 << 20, &ctext, &wlen, err, sizeof err))
    ctext = NULL; /* no file: no common code of a checkout */
  free(wpath);
  free(cpath);
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < s->n; i++) {
    const mh_impl *m = &s->v[i];
    /* a folder left out without a reason is in another part's image (a
     * split plan, plan/plan.h): not this run's */
    if (m->library || (off && off[i] && (!why || !why[i])))
      continue;
    char wa[512], hash[1024], *common = NULL;
    folder_hash(s, m, ctext, 0, hash, sizeof hash, &common);
    char own[512];
    if (own_hash_files(m, own, sizeof own)) {
      /* its own Keccak first; what its fips202.h calls go to after it */
      char behind[sizeof hash];
      memcpy(behind, hash, sizeof behind);
      mh_sb h = {0};
      mh_sb_printf(&h, "the folder's own %s (and behind its fips202.h: %s)",
                   own, behind);
      if (!h.failed)
        snprintf(hash, sizeof hash, "%.*s", (int)(sizeof hash - 1), h.s);
      mh_sb_free(&h);
    }
    mh_impl_rec r = {
        .backend = m->backend,
        .alg = m->alg,
        .path = m->dir,
        .sha256 = (char *)m->sha256,
        .hash = hash,
        .kat_reference = s->expect_from[i],
        .left_out = off && off[i] ? why[i] : NULL,
        .compiler_workaround =
            was && applied_workaround(was, m->backend, wa, sizeof wa) ? wa
                                                                      : NULL,
        .common = common,
        .flags = m->flags};
    if (mh_result_add_impl(res, &r) != 0)
      rc = -1;
    free(common);
  }
  free(was);
  free(ctext);
  return rc;
}

size_t mh_impl_print_left_out(FILE *f, const mh_result *res,
                              const char *label) {
  size_t n = 0;
  for (size_t i = 0; i < res->n_impls; i++) {
    const mh_impl_rec *m = &res->impls[i];
    if (!m->left_out)
      continue;
    if (f) /* NULL: count only */
      fprintf(f, "  %s: %s left out: %s\n", label, m->backend, m->left_out);
    n++;
  }
  return n;
}

int mh_impl_off_init(const mh_impl_set *s, unsigned char **off, char ***why) {
  for (size_t i = 0; i < s->n; i++) {
    if (!s->excluded || !s->excluded[i] || (*off && (*off)[i]))
      continue;
    if (!*off)
      *off = calloc(s->n, 1);
    if (!*why)
      *why = calloc(s->n, sizeof **why);
    if (!*off || !*why || !((*why)[i] = strdup(s->excluded[i])))
      return -1;
    (*off)[i] = 1;
  }
  return 0;
}
