/* SPDX-License-Identifier: Apache-2.0 */
#include "config/profile.h"

#include "util/errmsg.h"
#include "util/fsutil.h"
#include "util/suggest.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest profile file accepted (they are a few hundred bytes). */
#define PROFILE_MAX_BYTES (1u << 20)

static int is_space(char c) { return c == ' ' || c == '\t'; }

static void trim(const char **s, size_t *n) {
  while (*n && is_space(**s)) {
    (*s)++;
    (*n)--;
  }
  while (*n && is_space((*s)[*n - 1]))
    (*n)--;
}

static int span_eq(const char *s, size_t n, const char *lit) {
  return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* "valid: a, b, c" lists for error messages. */
static void list_algs(char *out, size_t outlen) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < MH_N_ALGS && used < outlen; i++) {
    int w = snprintf(out + used, outlen - used, "%s%s", i ? ", " : "",
                     mh_algs[i].id);
    if (w < 0)
      break;
    used += (size_t)w;
  }
}

static void list_backends(char *out, size_t outlen, int only_alg) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t b = 0; b < MH_N_BACKENDS && used < outlen; b++) {
    if (only_alg >= 0 && !mh_backend_offers(b, (size_t)only_alg))
      continue;
    int w = snprintf(out + used, outlen - used, "%s%s", used ? ", " : "",
                     mh_backends[b].name);
    if (w < 0)
      break;
    used += (size_t)w;
  }
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int
fail(char *err, size_t errlen, const char *file, size_t line, const char *fmt,
     ...) {
  char prefix[320];
  if (line)
    snprintf(prefix, sizeof prefix, "%s:%zu: ", file, line);
  else
    snprintf(prefix, sizeof prefix, "%s: ", file);
  va_list ap;
  va_start(ap, fmt);
  mh_errmsg(err, errlen, prefix, fmt, ap);
  va_end(ap);
  return -1;
}

/* From the manifests' option.* and help.* lines
 * (src/backends/<name>/backend.manifest, via src/backends/host_tables.def). */
const mh_option_def mh_profile_options[MH_N_OPTIONS] = {
#define MH_BACKEND_OPTION(backend, key, help, ...)                             \
  {backend, key, {__VA_ARGS__}, help},
#include "host_tables.def"
};

/* "<backend>.<key> = <value>": one option line. */
static int parse_option(const char *file, size_t line, const char *k, size_t kn,
                        const char *v, size_t vn, mh_profile *p,
                        size_t *opt_line, char *err, size_t errlen) {
  for (size_t o = 0; o < MH_N_OPTIONS; o++) {
    const mh_option_def *d = &mh_profile_options[o];
    size_t bn = strlen(d->backend);
    if (!(kn == bn + 1 + strlen(d->key) && memcmp(k, d->backend, bn) == 0 &&
          k[bn] == '.' && memcmp(k + bn + 1, d->key, kn - bn - 1) == 0))
      continue;
    if (opt_line[o])
      return fail(err, errlen, file, line,
                  "duplicate key '%s.%s' (first set on line %zu)", d->backend,
                  d->key, opt_line[o]);
    opt_line[o] = line;
    char valid[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < MH_OPTION_MAX_VALUES && d->values[i]; i++) {
      if (span_eq(v, vn, d->values[i])) {
        p->options[o] = (unsigned char)i;
        return 0;
      }
      int w = snprintf(valid + used, sizeof valid - used, "%s%s", i ? ", " : "",
                       d->values[i]);
      if (w > 0 && (size_t)w < sizeof valid - used)
        used += (size_t)w;
    }
    return fail(err, errlen, file, line,
                "%s.%s: unknown value '%.*s'; valid: %s", d->backend, d->key,
                (int)(vn > 60 ? 60 : vn), v, valid);
  }
  char valid[512] = "";
  size_t used = 0;
  for (size_t o = 0; o < MH_N_OPTIONS; o++) {
    int w =
        snprintf(valid + used, sizeof valid - used, "%s%s.%s", o ? ", " : "",
                 mh_profile_options[o].backend, mh_profile_options[o].key);
    if (w > 0 && (size_t)w < sizeof valid - used)
      used += (size_t)w;
  }
  return fail(err, errlen, file, line, "unknown option '%.*s'; valid: %s",
              (int)(kn > 60 ? 60 : kn), k, valid);
}

/* The next item of a comma list v[0, vn) from *start (trimmed into *item,
 * *in); 0 past the end. */
static int next_item(const char *v, size_t vn, size_t *start, const char **item,
                     size_t *in) {
  if (*start > vn)
    return 0;
  size_t end = *start;
  while (end < vn && v[end] != ',')
    end++;
  *item = v + *start;
  *in = end - *start;
  trim(item, in);
  *start = end + 1;
  return 1;
}

int mh_profile_add_impl(mh_profile *p, const char *alg, const char *path) {
  mh_profile_impl *g = realloc(p->impls, (p->n_impls + 1) * sizeof *g);
  if (!g)
    return -1;
  p->impls = g;
  mh_profile_impl *m = &g[p->n_impls];
  m->alg = alg ? strdup(alg) : NULL;
  m->path = strdup(path);
  m->line = 0;
  if ((alg && !m->alg) || !m->path) {
    free(m->alg);
    free(m->path);
    return -1;
  }
  p->n_impls++;
  return 0;
}

/* "impl:PATH", an implementation folder serving alg. */
static int add_impl(const char *file, size_t line, const char *alg,
                    const char *path, size_t n, mh_profile *p, char *err,
                    size_t errlen) {
  if (n == 0)
    return fail(err, errlen, file, line, "%s: impl: needs a folder (impl:PATH)",
                alg);
  char *copy = strndup(path, n);
  if (!copy || mh_profile_add_impl(p, alg, copy) != 0) {
    free(copy);
    return fail(err, errlen, file, line, "out of memory");
  }
  free(copy);
  for (size_t i = 0; i + 1 < p->n_impls; i++)
    if (strcmp(p->impls[i].path, p->impls[p->n_impls - 1].path) == 0)
      return fail(err, errlen, file, line, "%s: impl:%s listed twice", alg,
                  p->impls[i].path);
  p->impls[p->n_impls - 1].line = line;
  return 0;
}

int mh_profile_impl_hash(const char *s, size_t n, mh_impl_hash *out) {
  if (span_eq(s, n, "c"))
    *out = MH_IMPL_HASH_C;
  else if (span_eq(s, n, "thumb2-asm"))
    *out = MH_IMPL_HASH_THUMB2;
  else
    return -1;
  return 0;
}

/* A line whose key the catalogue does not know: only implementation
 * folders may serve it (the folder adds the algorithm). */
static int parse_new_alg(const char *file, size_t line, const char *k,
                         size_t kn, const char *v, size_t vn, mh_profile *p,
                         char *err, size_t errlen) {
  char alg[80];
  if (kn >= sizeof alg)
    return fail(err, errlen, file, line, "key too long");
  memcpy(alg, k, kn);
  alg[kn] = '\0';
  size_t start = 0, in;
  const char *item;
  while (next_item(v, vn, &start, &item, &in)) {
    if (!(in >= 5 && memcmp(item, "impl:", 5) == 0))
      return -2; /* not only folders: an unknown key after all */
    if (add_impl(file, line, alg, item + 5, in - 5, p, err, errlen) != 0)
      return -1;
  }
  return 0;
}

/* Parse the value of one route line into p->routes[a]. */
static int parse_route(const char *file, size_t line, size_t a, const char *v,
                       size_t vn, mh_profile *p, char *err, size_t errlen) {
  const char *alg = mh_algs[a].id;
  char valid[512];
  if (vn == 0) {
    list_backends(valid, sizeof valid, (int)a);
    return fail(err, errlen, file, line, "%s: no backend given; valid: %s", alg,
                valid);
  }
  size_t start = 0, in;
  const char *item;
  while (next_item(v, vn, &start, &item, &in)) {
    if (in == 0)
      return fail(err, errlen, file, line, "%s: empty backend name in the list",
                  alg);
    if (in >= 5 && memcmp(item, "impl:", 5) == 0) {
      if (add_impl(file, line, alg, item + 5, in - 5, p, err, errlen) != 0)
        return -1;
      continue;
    }
    int b = -1;
    for (size_t i = 0; i < MH_N_BACKENDS; i++)
      if (span_eq(item, in, mh_backends[i].name))
        b = (int)i;
    if (b < 0) {
      list_backends(valid, sizeof valid, -1);
      return fail(err, errlen, file, line,
                  "%s: unknown backend '%.*s'; valid: %s", alg,
                  (int)(in > 60 ? 60 : in), item, valid);
    }
    if (!mh_backend_offers((size_t)b, a)) {
      list_backends(valid, sizeof valid, (int)a);
      return fail(err, errlen, file, line,
                  "%s: backend '%s' does not offer it; valid: %s", alg,
                  mh_backends[b].name, valid);
    }
    for (size_t k = 0; k < p->n_routes[a]; k++)
      if (p->routes[a][k] == b)
        return fail(err, errlen, file, line, "%s: backend '%s' listed twice",
                    alg, mh_backends[b].name);
    p->routes[a][p->n_routes[a]++] = (unsigned char)b;
  }
  return 0;
}

static int parse_line(const char *file, size_t line, const char *s, size_t n,
                      mh_profile *p, size_t *first_line, size_t *desc_line,
                      size_t *opt_line, char *err, size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      return fail(err, errlen, file, line,
                  "control character 0x%02x in the line", c);
  }
  const char *eq = memchr(s, '=', n);
  if (!eq)
    return fail(err, errlen, file, line,
                "expected 'key = value' (or a # comment), got '%.*s'",
                (int)(n > 60 ? 60 : n), s);
  const char *k = s, *v = eq + 1;
  size_t kn = (size_t)(eq - s), vn = n - kn - 1;
  trim(&k, &kn);
  trim(&v, &vn);
  if (kn == 0)
    return fail(err, errlen, file, line, "missing key before '='");
  if (span_eq(k, kn, "description")) {
    if (*desc_line)
      return fail(err, errlen, file, line,
                  "duplicate key 'description' (first set on line %zu)",
                  *desc_line);
    *desc_line = line;
    p->description = malloc(vn + 1);
    if (!p->description)
      return fail(err, errlen, file, line, "out of memory");
    memcpy(p->description, v, vn);
    p->description[vn] = '\0';
    return 0;
  }
  if (span_eq(k, kn, "impl.hash")) {
    if (p->impl_hash_line)
      return fail(err, errlen, file, line,
                  "duplicate key 'impl.hash' (first set on line %zu)",
                  p->impl_hash_line);
    p->impl_hash_line = line;
    if (mh_profile_impl_hash(v, vn, &p->impl_hash) != 0)
      return fail(err, errlen, file, line,
                  "impl.hash: unknown value '%.*s'; valid: %s",
                  (int)(vn > 60 ? 60 : vn), v, MH_IMPL_HASHES);
    return 0;
  }
  if (memchr(k, '.', kn))
    return parse_option(file, line, k, kn, v, vn, p, opt_line, err, errlen);
  int a = -1;
  for (size_t i = 0; i < MH_N_ALGS; i++)
    if (span_eq(k, kn, mh_algs[i].id))
      a = (int)i;
  int folders = a < 0 && vn
                    ? parse_new_alg(file, line, k, kn, v, vn, p, err, errlen)
                    : -2;
  if (folders != -2)
    return folders;
  if (a < 0) {
    char valid[1024];
    list_algs(valid, sizeof valid);
    return fail(err, errlen, file, line,
                "unknown key '%.*s'; valid: description, impl.hash, "
                "<backend>.<option>, <id> = impl:<folder>, %s",
                (int)(kn > 60 ? 60 : kn), k, valid);
  }
  if (first_line[a])
    return fail(err, errlen, file, line,
                "duplicate key '%s' (first set on line %zu)", mh_algs[a].id,
                first_line[a]);
  first_line[a] = line;
  return parse_route(file, line, (size_t)a, v, vn, p, err, errlen);
}

int mh_profile_parse(const char *file, const char *buf, size_t len,
                     mh_profile *p, char *err, size_t errlen) {
  size_t first_line[MH_N_ALGS] = {0};
  size_t opt_line[MH_N_OPTIONS] = {0};
  size_t desc_line = 0, line = 0, pos = 0;
  memset(p, 0, sizeof *p);
  while (pos < len) {
    const char *s = buf + pos;
    const char *nl = memchr(s, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - s) : len - pos;
    pos += n + (nl ? 1 : 0);
    line++;
    if (n && s[n - 1] == '\r')
      n--;
    trim(&s, &n);
    if (n == 0 || s[0] == '#')
      continue;
    if (parse_line(file, line, s, n, p, first_line, &desc_line, opt_line, err,
                   errlen) != 0) {
      mh_profile_free(p);
      return -1;
    }
  }
  for (size_t o = 0; o < MH_N_OPTIONS; o++) {
    int b = mh_backend_find(mh_profile_options[o].backend);
    if (opt_line[o] && (b < 0 || !mh_profile_uses(p, (size_t)b))) {
      mh_profile_free(p);
      return fail(err, errlen, file, opt_line[o],
                  "%s.%s: the profile routes nothing to backend '%s'",
                  mh_profile_options[o].backend, mh_profile_options[o].key,
                  mh_profile_options[o].backend);
    }
  }
  for (size_t a = 0; a < MH_N_ALGS; a++)
    if (p->n_routes[a])
      return 0;
  if (p->n_impls)
    return 0;
  mh_profile_free(p);
  return fail(err, errlen, file, 0,
              "no algorithm is routed; add lines such as 'sha256 = %s'",
              mh_backends[0].name);
}

void mh_profile_free(mh_profile *p) {
  free(p->description);
  for (size_t i = 0; i < p->n_impls; i++) {
    free(p->impls[i].alg);
    free(p->impls[i].path);
  }
  free(p->impls);
  memset(p, 0, sizeof *p);
}

int mh_profile_uses(const mh_profile *p, size_t b) {
  for (size_t a = 0; a < MH_N_ALGS; a++)
    for (size_t k = 0; k < p->n_routes[a]; k++)
      if (p->routes[a][k] == b)
        return 1;
  return 0;
}

int mh_profile_name_ok(const char *name) {
  if (!name[0] || name[0] == '.' || strlen(name) > MH_PROFILE_NAME_MAX)
    return 0;
  for (const char *c = name; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
          (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' || *c == '.'))
      return 0;
  return 1;
}

static const char SUFFIX[] = ".profile";

int mh_profile_locate(const char *root, const char *arg, char **path,
                      char **name, char *err, size_t errlen) {
  *path = *name = NULL;
  size_t al = strlen(arg), sl = sizeof SUFFIX - 1;
  int is_path = strchr(arg, '/') != NULL ||
                (al > sl && strcmp(arg + al - sl, SUFFIX) == 0);
  if (is_path) {
    const char *base = strrchr(arg, '/');
    base = base ? base + 1 : arg;
    size_t bl = strlen(base);
    if (bl <= sl || strcmp(base + bl - sl, SUFFIX) != 0) {
      snprintf(err, errlen, "profile file %s: name must end in %s", arg,
               SUFFIX);
      return -1;
    }
    *name = strndup(base, bl - sl);
    *path = strdup(arg);
  } else {
    *name = strdup(arg);
    size_t n = strlen(root) + al + sizeof "/profiles/" + sl;
    *path = malloc(n);
    if (*path)
      snprintf(*path, n, "%s/profiles/%s%s", root, arg, SUFFIX);
  }
  if (!*path || !*name) {
    free(*path);
    free(*name);
    *path = *name = NULL;
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  struct stat st;
  if (!mh_profile_name_ok(*name)) {
    snprintf(err, errlen,
             "invalid profile name '%s': use letters, digits, '-', '_', '.'",
             *name);
  } else if (!is_path && root[0] && stat(*path, &st) != 0) {
    char **names = NULL;
    size_t n = 0;
    int used = snprintf(err, errlen, "unknown profile '%s'; valid:", arg);
    if (mh_profile_names(root, &names, &n, err + used, errlen - (size_t)used) ==
        0) {
      size_t u = (size_t)used;
      const char *near = mh_suggest(arg, (const char *const *)names, n);
      if (near) /* "unknown profile 'x' (did you mean y?); valid:" */
        u = (size_t)snprintf(
            err, errlen, "unknown profile '%s' (did you mean %s?); valid:", arg,
            near);
      for (size_t i = 0; i < n && u < errlen; i++)
        u += (size_t)snprintf(err + u, errlen - u, "%s %s", i ? "," : "",
                              names[i]);
      if (n == 0 && u < errlen)
        snprintf(err + u, errlen - u, " none in %s/profiles", root);
      mh_profile_names_free(names, n);
    }
  } else {
    return 0;
  }
  free(*path);
  free(*name);
  *path = *name = NULL;
  return -1;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void mh_profile_names_free(char **names, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

int mh_profile_names(const char *root, char ***names, size_t *n, char *err,
                     size_t errlen) {
  *names = NULL;
  *n = 0;
  size_t dl = strlen(root) + sizeof "/profiles";
  char *dir = malloc(dl);
  if (!dir) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  snprintf(dir, dl, "%s/profiles", root);
  DIR *d = opendir(dir);
  if (!d) {
    snprintf(err, errlen, "cannot read %s", dir);
    free(dir);
    return -1;
  }
  free(dir);
  char **v = NULL;
  size_t cnt = 0, cap = 0, sl = sizeof SUFFIX - 1;
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name);
    if (l <= sl || strcmp(e->d_name + l - sl, SUFFIX) != 0 ||
        e->d_name[0] == '.')
      continue;
    if (cnt == cap) {
      cap = cap ? cap * 2 : 16;
      char **nv = realloc(v, cap * sizeof *nv);
      if (!nv) {
        rc = -1;
        break;
      }
      v = nv;
    }
    if (!(v[cnt] = strndup(e->d_name, l - sl))) {
      rc = -1;
      break;
    }
    cnt++;
  }
  closedir(d);
  if (rc != 0) {
    mh_profile_names_free(v, cnt);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  if (v)
    qsort(v, cnt, sizeof *v, cmp_str);
  *names = v;
  *n = cnt;
  return 0;
}

int mh_profile_load(const char *path, const char *display, mh_profile *p,
                    char *err, size_t errlen) {
  char *buf;
  size_t len;
  memset(p, 0, sizeof *p);
  if (mh_read_file(path, PROFILE_MAX_BYTES, &buf, &len, err, errlen) != 0)
    return -1;
  int rc = mh_profile_parse(display, buf, len, p, err, errlen);
  free(buf);
  return rc;
}
