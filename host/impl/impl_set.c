/* SPDX-License-Identifier: Apache-2.0 */
/* realpath (X/Open) */
#define _XOPEN_SOURCE 700

/* The folders of an image (mh_impl_set): each added once with its common
 * code, and the CMake variables the image build reads for them
 * (cmake/MerlinImpl.cmake). One folder's inspection is impl.c. */
#include "digest.h"
#include "impl/impl.h"
#include "impl/impl_common.h"
#include "util/strbuf.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The include path of folder dir beyond its own (mh_impl_inspect): its
 * common code's directories, Merlin's hal.h (and, for the heap-free
 * sponge, Merlin's fips202.h), then PQClean's common/. */
static void folder_incs(const mh_impl_set *s, size_t ci, int stack_fips,
                        const char *common, char *hal, char *sponge, size_t hl,
                        const char **incs) {
  size_t n = 0;
  for (size_t i = 0; ci && i < s->commons[ci - 1].n && n < 4; i++)
    incs[n++] = s->commons[ci - 1].dirs[i];
  if (s->root) {
    snprintf(hal, hl, "%s/src/backends/impl/hal", s->root);
    snprintf(sponge, hl, "%s/src/backends/impl/sponge", s->root);
    if (stack_fips && !ci)
      incs[n++] = sponge;
    incs[n++] = hal;
  }
  incs[n++] = common;
  incs[n] = NULL;
}

/* Room for one more folder in s's per-folder lists. 0, or -1 (memory). */
static int grow_lists(mh_impl_set *s) {
  char **e = realloc(s->expect, (s->n + 1) * sizeof *e);
  if (e)
    s->expect = e;
  char **f = e ? realloc(s->expect_from, (s->n + 1) * sizeof *f) : NULL;
  if (f)
    s->expect_from = f;
  char **x = f ? realloc(s->excluded, (s->n + 1) * sizeof *x) : NULL;
  if (x)
    s->excluded = x;
  return e && f && x ? 0 : -1;
}

static int set_add(mh_impl_set *s, const char *dir, const char *alg,
                   const char *cc, const char *common, const char *backend,
                   const char *variant, char *err, size_t errlen) {
  mh_impl m;
  size_t ci = 0;
  if (!backend && mh_impl_common_for(s, dir, &ci, err, errlen) != 0)
    return -2; /* not the folder's fault: the run's common code, memory */
  int stack_fips = !backend && !ci && mh_impl_stack_fips(dir);
  const char *incs[MH_IMPL_MAX_INCS + 1];
  char hal[PATH_MAX], sponge[PATH_MAX];
  folder_incs(s, ci, stack_fips, common, hal, sponge, sizeof hal, incs);
  if (mh_impl_inspect(dir, alg, cc, incs, &m, err, errlen) != 0)
    return -1;
  m.common = ci;
  m.stack_fips = stack_fips;
  if (backend) {
    char *b = strdup(backend), *v = strdup(variant);
    if (!b || !v) {
      free(b);
      free(v);
      mh_impl_free(&m);
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    free(m.backend);
    free(m.variant);
    m.backend = b;
    m.variant = v;
    m.library = 1;
  }
  for (size_t i = 0; i < s->n; i++) {
    const char *why =
        strcmp(s->v[i].dir, m.dir) == 0 ? "given twice"
        : !m.library && !s->refs && strcmp(s->v[i].backend, m.backend) == 0
            ? "has the same backend name as another folder"
            : NULL;
    if (why) {
      snprintf(err, errlen, "implementation folder %s %s (%s: %s)", dir, why,
               m.backend, s->v[i].dir);
      mh_impl_free(&m);
      return -1;
    }
  }
  mh_impl *v = realloc(s->v, (s->n + 1) * sizeof *v);
  if (v)
    s->v = v;
  if (!v || grow_lists(s) != 0) {
    mh_impl_free(&m);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  s->v[s->n] = m;
  s->expect[s->n] = strdup("");
  s->expect_from[s->n] = strdup("");
  s->excluded[s->n] = NULL;
  s->n++;
  return 0;
}

int mh_impl_set_add(mh_impl_set *s, const char *dir, const char *alg,
                    const char *cc, const char *common, char *err,
                    size_t errlen) {
  return set_add(s, dir, alg, cc, common, NULL, NULL, err, errlen);
}

int mh_impl_set_add_library(mh_impl_set *s, const char *dir, const char *alg,
                            const char *backend, const char *variant,
                            const char *common, char *err, size_t errlen) {
  return set_add(s, dir, alg, NULL, common, backend, variant, err, errlen);
}

/* The last element of path, or its element `up` levels higher
 * (malloc'd). */
static char *element(const char *path, int up) {
  size_t end = strlen(path);
  while (end > 1 && path[end - 1] == '/')
    end--;
  for (int i = 0; i < up; i++) {
    while (end > 0 && path[end - 1] != '/')
      end--;
    while (end > 1 && path[end - 1] == '/')
      end--;
  }
  size_t start = end;
  while (start > 0 && path[start - 1] != '/')
    start--;
  return strndup(path + start, end - start);
}

int mh_impl_set_add_unread(mh_impl_set *s, const char *dir, const char *why) {
  mh_impl m = {0};
  m.dir = realpath(dir, NULL);
  if (!m.dir)
    m.dir = strdup(dir);
  m.name = element(dir, 0);
  m.scheme = element(dir, 1);
  mh_sb b = {0};
  if (m.scheme && m.name)
    mh_sb_printf(&b, "impl:%s/%s", m.scheme, m.name);
  m.backend = b.s;
  m.alg = m.scheme ? strdup(m.scheme) : NULL;
  m.variant = m.name ? strdup(m.name) : NULL;
  m.ns = strdup("");
  m.from_tree = 1;
  mh_impl *v = realloc(s->v, (s->n + 1) * sizeof *v);
  if (v)
    s->v = v;
  if (!v || !m.dir || !m.backend || !m.alg || !m.variant || !m.ns ||
      grow_lists(s) != 0) {
    mh_impl_free(&m);
    return -1;
  }
  s->v[s->n] = m;
  s->expect[s->n] = strdup("");
  s->expect_from[s->n] = strdup("");
  s->excluded[s->n] = strdup(why);
  s->n++;
  return s->expect[s->n - 1] && s->expect_from[s->n - 1] &&
                 s->excluded[s->n - 1]
             ? 0
             : -1;
}

void mh_impl_set_free(mh_impl_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    mh_impl_free(&s->v[i]);
    free(s->expect[i]);
    free(s->expect_from[i]);
    free(s->excluded[i]);
  }
  free(s->excluded);
  for (size_t i = 0; i < s->n_commons; i++)
    mh_impl_common_free(&s->commons[i]);
  free(s->commons);
  mh_impl_dirs_free(s->explicit_common, s->n_explicit_common);
  mh_impl_dirs_free(s->explicit_common_host, s->n_explicit_common_host);
  free(s->v);
  free(s->expect);
  free(s->expect_from);
  memset(s, 0, sizeof *s);
}

/* One folder's MERLIN_IMPL_<k>_<FIELD> lines; common0: the number of the
 * common code of earlier sets (MERLIN_IMPL_COMMONS counts from 1). */
static void folder_cmake(const mh_impl *m, const char *expect,
                         const char *expect_from, size_t k, size_t common0,
                         int host_side, mh_sb *b) {
  const char *flags = host_side ? m->host_flags : m->flags;
  mh_sb_printf(b, "set(MERLIN_IMPL_%zu_FLAGS \"%s\")\n", k, flags ? flags : "");
  mh_sb_printf(b, "set(MERLIN_IMPL_%zu_DIR \"%s\")\n", k, m->dir);
  mh_sb_printf(b, "set(MERLIN_IMPL_%zu_SOURCES \"", k);
  for (size_t i = 0; i < m->n_sources; i++)
    mh_sb_printf(b, "%s%s", i ? ";" : "", m->sources[i]);
  mh_sb_puts(b, "\")\n");
  const struct {
    const char *field, *value;
  } text[] = {{"ALG", m->alg},
              {"ALG_ENUM", m->alg_enum},
              {"NEW_ALG", m->known ? "0" : "1"},
              {"CLASS", m->kem ? "KEM" : "SIG"},
              {"BACKEND", m->backend},
              {"NEW_BACKEND", m->library ? "0" : "1"},
              {"OWN_KAT", m->library ? "0" : "1"},
              {"VARIANT", m->variant},
              {"NS", m->ns},
              {"EXPECT", expect},
              {"EXPECT_FROM", expect_from}};
  for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
    mh_sb_printf(b, "set(MERLIN_IMPL_%zu_%s \"%s\")\n", k, text[i].field,
                 text[i].value);
  mh_sb_printf(b, "set(MERLIN_IMPL_%zu_BACKEND_ENUM ", k);
  if (m->library)
    for (const char *c = m->backend; *c; c++)
      mh_sb_putc(b, *c == '-'                  ? '_'
                    : (*c >= 'a' && *c <= 'z') ? (char)(*c - 'a' + 'A')
                                               : *c);
  else
    mh_sb_printf(b, "IMPL_%zu", k);
  mh_sb_puts(b, ")\n");
  mh_sb_printf(b,
               "set(MERLIN_IMPL_%zu_DETACHED %d)\n"
               "set(MERLIN_IMPL_%zu_SIGN_OPEN %d)\n"
               "set(MERLIN_IMPL_%zu_FAMILY %d)\nset(MERLIN_IMPL_%zu_N %u)\n",
               k, m->detached, k, m->sign_open, k, (int)m->family, k, m->n);
  mh_sb_printf(b,
               "set(MERLIN_IMPL_%zu_PK %llu)\nset(MERLIN_IMPL_%zu_SK %llu)\n"
               "set(MERLIN_IMPL_%zu_CT %llu)\nset(MERLIN_IMPL_%zu_SS %llu)\n",
               k, m->pk, k, m->sk, k, m->ct, k, m->ss);
  mh_sb_printf(b, "set(MERLIN_IMPL_%zu_COMMON \"", k);
  if (m->common)
    mh_sb_printf(b, "%zu", common0 + m->common);
  mh_sb_printf(b, "\")\nset(MERLIN_IMPL_%zu_STACK_FIPS %d)\n", k,
               m->stack_fips);
  if (!m->library)
    mh_sb_printf(b,
                 "set(MERLIN_IMPL_IMPL_%zu_LIBRARY \"impl-%zu\")\n"
                 "set(MERLIN_IMPL_IMPL_%zu_VERSION \"%.12s\")\n",
                 k, k, k, m->sha256);
}

static int is_off(const unsigned char *const *off, size_t i, size_t j) {
  return off && off[i] && off[i][j];
}

void mh_impl_set_cmake(const mh_impl_set *const *sets,
                       const unsigned char *const *off, size_t n,
                       int hash_thumb2, mh_sb *b) {
  size_t total = 0, k = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; sets[i] && j < sets[i]->n; j++)
      total += !is_off(off, i, j);
  if (!total)
    return;
  /* K is a folder's place among all the sets' folders, whether or not it
   * is left out: leaving one out keeps the others' build directories
   * (impl/<K>) and objects, so the image is relinked, not rebuilt. */
  mh_sb_printf(b, "set(MERLIN_IMPL_HASH \"%s\")\nset(MERLIN_IMPLS",
               hash_thumb2 ? "thumb2-asm" : "c");
  for (size_t i = 0, at = 0; i < n; i++)
    for (size_t j = 0; sets[i] && j < sets[i]->n; j++, at++)
      if (!is_off(off, i, j))
        mh_sb_printf(b, " %zu", at);
  mh_sb_puts(b, ")\nset(MERLIN_FOLDER_BACKENDS");
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; sets[i] && j < sets[i]->n; j++) {
      const char *be = sets[i]->v[j].backend;
      int first = sets[i]->v[j].library;
      for (size_t p = 0; first && p < j; p++)
        first = strcmp(sets[i]->v[p].backend, be) != 0;
      if (first)
        mh_sb_printf(b, " %s", be);
    }
  mh_sb_puts(b, ")\n");
  /* The common code of the folders that have their own: its directories
   * in order, and whether it is pqm4's (cmake/MerlinImpl.cmake). */
  size_t common0 = 0;
  mh_sb_puts(b, "set(MERLIN_IMPL_COMMONS");
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; sets[i] && j < sets[i]->n_commons; j++)
      mh_sb_printf(b, " %zu", ++common0);
  mh_sb_puts(b, ")\n");
  common0 = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; sets[i] && j < sets[i]->n_commons; j++) {
      const mh_impl_common *cm = &sets[i]->commons[j];
      mh_sb_printf(b, "set(MERLIN_IMPL_COMMON_%zu_DIRS \"", ++common0);
      for (size_t d = 0; d < cm->n; d++)
        mh_sb_printf(b, "%s%s", d ? ";" : "", cm->dirs[d]);
      mh_sb_printf(b, "\")\nset(MERLIN_IMPL_COMMON_%zu_FILES \"", common0);
      for (size_t f = 0; f < cm->n_files; f++)
        mh_sb_printf(b, "%s%s", f ? ";" : "", cm->files[f]);
      mh_sb_printf(b, "\")\nset(MERLIN_IMPL_COMMON_%zu_PQM4 %d)\n", common0,
                   cm->pqm4);
    }
  common0 = 0;
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; sets[i] && j < sets[i]->n; j++, k++)
      if (!is_off(off, i, j))
        folder_cmake(&sets[i]->v[j], sets[i]->expect[j],
                     sets[i]->expect_from[j], k, common0, sets[i]->host_side,
                     b);
    common0 += sets[i] ? sets[i]->n_commons : 0;
  }
}

void mh_impl_set_tag(const mh_impl_set *s, char *buf, size_t len) {
  mcore_sha256_ctx c;
  uint8_t d[32];
  mcore_sha256_init(&c);
  for (size_t k = 0; k < s->n; k++)
    mcore_sha256_update(&c, (const uint8_t *)s->v[k].dir,
                        strlen(s->v[k].dir) + 1);
  mcore_sha256_update(&c, (const uint8_t *)(s->hash_thumb2 ? "t" : "c"), 1);
  /* the common code chosen (--impl-common, none, or the checkouts') */
  for (size_t k = 0; k < s->n_commons; k++) {
    for (size_t j = 0; j < s->commons[k].n; j++)
      mcore_sha256_update(&c, (const uint8_t *)s->commons[k].dirs[j],
                          strlen(s->commons[k].dirs[j]) + 1);
    for (size_t j = 0; j < s->commons[k].n_files; j++)
      mcore_sha256_update(&c, (const uint8_t *)s->commons[k].files[j],
                          strlen(s->commons[k].files[j]) + 1);
  }
  if (s->common_none)
    mcore_sha256_update(&c, (const uint8_t *)"n", 1);
  mcore_sha256_final(&c, d);
  snprintf(buf, len, "%02x%02x%02x%02x", d[0], d[1], d[2], d[3]);
}
