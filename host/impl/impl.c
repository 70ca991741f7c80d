/* SPDX-License-Identifier: Apache-2.0 */
/* realpath (X/Open) */
#define _XOPEN_SOURCE 700

#include "impl/impl.h"

#include "config/catalog.h"
#include "digest.h"
#include "impl/impl_common.h"
#include "util/errmsg.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Largest api.h or META.yml read (they are a few kilobytes). */
#define TEXT_MAX ((size_t)1 << 20)
/* Largest file hashed into the folder's content hash. */
#define FILE_MAX ((size_t)64 << 20)

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int
fail(char *err, size_t errlen, const char *dir, const char *fmt, ...) {
  /* a long path is shortened (head...tail), never the reason after it */
  char prefix[MH_PATH_BRIEF + 64], brief[MH_PATH_BRIEF];
  snprintf(prefix, sizeof prefix, "implementation folder %s: ",
           mh_path_brief(dir, brief, sizeof brief));
  va_list ap;
  va_start(ap, fmt);
  mh_errmsg(err, errlen, prefix, fmt, ap);
  va_end(ap);
  return -1;
}

const char *mh_impl_path_bad(const char *s, char *what, size_t wl) {
  for (const char *p = s; *p; p++) {
    unsigned char c = (unsigned char)*p;
    const char *why = NULL;
    if (c < 0x20 || c == 0x7f)
      why = "a control character";
    else if (strchr(";\"$\\", c))
      why = "CMake reads it in a list, a string or a variable";
    else if (c == '|')
      why = "the image build's lists use it as a separator";
    else if (c == '[' || c == ']')
      why = "CMake reads brackets in a list";
    else if (c == '#')
      why = "Ninja's dependency files and CMake read it as a comment";
    else if (c == '?' && p[1] == '?')
      why = "two together start a trigraph in the C strings the image "
            "carries";
    else if (c == '@' &&
             strspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"
                           "klmnopqrstuvwxyz0123456789_") &&
             p[1 + strspn(p + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
                                 "opqrstuvwxyz0123456789_")] == '@')
      why = "'@NAME@' is a variable in the files CMake generates";
    if (!why)
      continue;
    if (c < 0x20 || c == 0x7f)
      snprintf(what, wl, "byte 0x%02x at offset %zu (%s)", c, (size_t)(p - s),
               why);
    else
      snprintf(what, wl, "'%c' at offset %zu (%s)", c, (size_t)(p - s), why);
    return what;
  }
  return NULL;
}

int mh_impl_path_ok(const char *s) {
  char what[160];
  return mh_impl_path_bad(s, what, sizeof what) == NULL;
}

int mh_impl_host_only(const char *name) {
  static const char *const host_only[] = {"avx",     "avx2",   "avx512",
                                          "aarch64", "x86_64", "amd64",
                                          "neon",    "armv8",  "sse"};
  for (size_t i = 0; i < sizeof host_only / sizeof host_only[0]; i++)
    if (strcmp(name, host_only[i]) == 0)
      return 1;
  return 0;
}

/* ---- api.h -------------------------------------------------------------- */

/* The text without its comments (a comment becomes one space). */
static void strip_comments(char *s) {
  char *w = s;
  for (const char *r = s; *r;) {
    if (r[0] == '/' && r[1] == '*') {
      const char *e = strstr(r + 2, "*/");
      r = e ? e + 2 : r + strlen(r);
      *w++ = ' ';
    } else if (r[0] == '/' && r[1] == '/') {
      while (*r && *r != '\n')
        r++;
    } else {
      *w++ = *r++;
    }
  }
  *w = '\0';
}

static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

/* Whether text holds the identifier word (whole). */
static int has_ident(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *p = text; (p = strstr(p, word)) != NULL; p += n)
    if ((p == text || !ident_char(p[-1])) && !ident_char(p[n]))
      return 1;
  return 0;
}

/* The prefix of the identifier that ends in suffix (the first such), or
 * NULL when none does. */
static char *prefix_of(const char *text, const char *suffix) {
  size_t n = strlen(suffix);
  for (const char *p = text; (p = strstr(p, suffix)) != NULL; p += n) {
    if (ident_char(p[n]))
      continue;
    const char *b = p;
    while (b > text && ident_char(b[-1]))
      b--;
    return strndup(b, (size_t)(p - b));
  }
  return NULL;
}

/* Whether text holds an identifier that ends in suffix. */
static int has_suffixed(const char *text, const char *suffix) {
  char *p = prefix_of(text, suffix);
  int found = p != NULL;
  free(p);
  return found;
}

static int has_api(const char *text, const char *ns, const char *name) {
  char word[256];
  snprintf(word, sizeof word, "%s%s", ns, name);
  return has_ident(text, word);
}

/* The subfolders of dir that hold an api.h, as "a, b, c" in out (sorted,
 * cut short with "..." when out is full): a pqm4 or PQClean scheme folder
 * (crypto_kem/ml-kem-768) holds one folder per implementation (clean, m4f).
 * Returns how many were found. */
static int scheme_subfolders(const char *dir, char *out, size_t outlen) {
  struct dirent **names = NULL;
  int n = scandir(dir, &names, NULL, alphasort), found = 0;
  size_t used = 0;
  out[0] = '\0';
  for (int i = 0; i < n; i++) {
    const char *name = names[i]->d_name;
    char *sub = name[0] == '.' ? NULL : mh_path_join(dir, name);
    char *api = sub ? mh_path_join(sub, "api.h") : NULL;
    struct stat st;
    if (api && stat(api, &st) == 0 && S_ISREG(st.st_mode)) {
      int w =
          snprintf(out + used, outlen - used, "%s%s", found ? ", " : "", name);
      if (w < 0 || (size_t)w >= outlen - used) {
        if (outlen > 4)
          memcpy(out + outlen - 4, "...", 4);
        used = outlen - 1;
      } else {
        used += (size_t)w;
      }
      found++;
    }
    free(api);
    free(sub);
    free(names[i]);
  }
  free(names);
  return found;
}

static char *expand_api(const char *dir, const char *cc,
                        const char *const *incs, char *err, size_t errlen);

static int read_api(const char *dir, const char *cc, const char *const *incs,
                    mh_impl *m, char *err, size_t errlen) {
  char *path = mh_path_join(dir, "api.h"), *text;
  size_t len;
  struct stat st;
  if (!path)
    return fail(err, errlen, dir, "out of memory");
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
    free(path);
    char subs[256];
    if (scheme_subfolders(dir, subs, sizeof subs) > 0)
      return fail(err, errlen, dir,
                  "no api.h: this is a scheme folder; give one of its "
                  "implementation folders (%s) or --impl-tree for all",
                  subs);
    return fail(err, errlen, dir,
                "no api.h (an implementation folder holds api.h and its "
                "*.c, *.s, *.S; docs/bring-your-own.md)");
  }
  char rerr[256];
  int rc = mh_read_file(path, TEXT_MAX, &text, &len, rerr, sizeof rerr);
  free(path);
  if (rc != 0)
    return fail(err, errlen, dir, "%s", rerr);
  strip_comments(text);
  /* api.h may leave the declarations to a header it includes (pqm4's BIKE
   * and HAETAE: crypto_kem.h, sign.h): then the text the compiler sees,
   * through the folder's include path (docs/bring-your-own.md). */
  if (!has_suffixed(text, "crypto_kem_keypair") &&
      !has_suffixed(text, "crypto_sign_keypair")) {
    char *seen = expand_api(dir, cc, incs, err, errlen);
    if (!seen) {
      free(text);
      return -1;
    }
    free(text);
    text = seen;
  }
  char *kem = prefix_of(text, "crypto_kem_keypair");
  char *sig = kem ? NULL : prefix_of(text, "crypto_sign_keypair");
  rc = 0;
  if (!kem && !sig) {
    rc = fail(err, errlen, dir,
              "api.h declares neither crypto_kem_keypair nor "
              "crypto_sign_keypair, nor does a header it includes");
  } else if (kem) {
    m->kem = 1;
    m->ns = kem;
    static const char *const need[] = {"crypto_kem_enc", "crypto_kem_dec"};
    for (size_t i = 0; i < 2 && rc == 0; i++)
      if (!has_api(text, kem, need[i]))
        rc = fail(err, errlen, dir,
                  "api.h declares %scrypto_kem_keypair but no %s%s (a KEM "
                  "needs keypair, enc and dec)",
                  kem, kem, need[i]);
  } else {
    m->ns = sig;
    m->detached = has_api(text, sig, "crypto_sign_signature") &&
                  has_api(text, sig, "crypto_sign_verify");
    m->sign_open = has_api(text, sig, "crypto_sign") &&
                   has_api(text, sig, "crypto_sign_open");
    if (!m->detached && !m->sign_open)
      rc = fail(err, errlen, dir,
                "api.h declares %scrypto_sign_keypair but neither "
                "crypto_sign_signature with crypto_sign_verify nor "
                "crypto_sign with crypto_sign_open",
                sig);
  }
  if (rc == 0 && (strlen(m->ns) > 120 || !mh_impl_path_ok(m->ns)))
    rc = fail(err, errlen, dir, "api.h: unusable name prefix '%.40s'", m->ns);
  free(text);
  return rc;
}

/* ---- the sizes, from the host compiler -------------------------------- */

static void discard_line(void *ctx, const char *line, size_t len) {
  (void)ctx;
  (void)line;
  (void)len;
}

/* Run the host compiler on src with the folder's include path: cc -w
 * -I<dir> -I<each of incs>, then for PROBE_BUILD -o out src, for
 * PROBE_NO_ALGNAME the same with -DMBI_NO_ALGNAME, for PROBE_EXPAND
 * -E -dD -o out src (the text the compiler sees, macros kept); its
 * messages discarded. 0 done, 1 failed, -1 could not run it (xerr). */
enum { PROBE_BUILD, PROBE_NO_ALGNAME, PROBE_EXPAND };
static int probe_compile(const char *cc, const char *dir,
                         const char *const *incs, const char *src,
                         const char *out, int mode, char *xerr, size_t xl) {
  char *cargv[MH_IMPL_MAX_INCS + 10], *inc[MH_IMPL_MAX_INCS + 1] = {0};
  size_t na = 0, ni = 0;
  cargv[na++] = (char *)(cc ? cc : "cc");
  cargv[na++] = "-w";
  for (size_t i = 0; i <= MH_IMPL_MAX_INCS; i++) {
    const char *d = i == 0 ? dir : incs ? incs[i - 1] : NULL;
    if (!d)
      break;
    size_t l = strlen(d) + 3;
    if (!(inc[ni] = malloc(l)))
      break;
    snprintf(inc[ni], l, "-I%s", d);
    cargv[na++] = inc[ni++];
  }
  if (mode == PROBE_NO_ALGNAME)
    cargv[na++] = "-DMBI_NO_ALGNAME";
  if (mode == PROBE_EXPAND) {
    cargv[na++] = "-E";
    cargv[na++] = "-dD";
  }
  cargv[na++] = "-o";
  cargv[na++] = (char *)out;
  cargv[na++] = (char *)src;
  cargv[na] = NULL;
  mh_exec_spec cs = {.argv = cargv,
                     .stdout_fd = -1,
                     .stderr_fd = -1,
                     .max_capture = 1 << 16,
                     .hooks = {NULL, discard_line, discard_line, NULL}};
  mh_exec_result cr = {0};
  int rc = mh_exec(&cs, &cr, xerr, xl) != 0 ? -1
           : cr.exited && cr.exit_code == 0 ? 0
                                            : 1;
  mh_exec_result_free(&cr);
  for (size_t i = 0; i < ni; i++)
    free(inc[i]);
  return rc;
}

/* The probe's source: the sizes, then CRYPTO_ALGNAME when it is defined,
 * which must be a string (a _Generic assertion). */
static void probe_source(mh_sb *b, const char *ns, int kem) {
  const char *sz[4] = {"PUBLICKEYBYTES", "SECRETKEYBYTES",
                       kem ? "CIPHERTEXTBYTES" : "BYTES", kem ? "BYTES" : NULL};
  /* each size, then whether it has an integer type (1; 0: a floating
   * one, which the image's own checks could not take: 32.5 bytes) */
  mh_sb_printf(b, "#include \"api.h\"\n#include <stdio.h>\n"
                  "#define MBI_INT(x) _Generic((x), float: 0, double: 0, "
                  "long double: 0, default: 1)\nint main(void) {\n"
                  "  printf(\"%%llu %%llu %%llu %%llu %%d%%d%%d%%d\\n\"");
  for (int i = 0; i < 4; i++)
    if (sz[i])
      mh_sb_printf(b, ",\n         (unsigned long long)(%sCRYPTO_%s)", ns,
                   sz[i]);
    else
      mh_sb_printf(b, ",\n         0ULL");
  for (int i = 0; i < 4; i++)
    if (sz[i])
      mh_sb_printf(b, ",\n         MBI_INT(%sCRYPTO_%s)", ns, sz[i]);
    else
      mh_sb_printf(b, ",\n         1");
  mh_sb_printf(b, ");\n");
  mh_sb_printf(b,
               "#if defined(%sCRYPTO_ALGNAME) && !defined(MBI_NO_ALGNAME)\n"
               "  _Static_assert(_Generic((%sCRYPTO_ALGNAME), char *: 1, "
               "const char *: 1, default: 0), \"not a string\");\n"
               "  puts(%sCRYPTO_ALGNAME);\n#endif\n"
               "  return 0;\n}\n",
               ns, ns, ns);
}

/* Evaluate api.h's size macros (and CRYPTO_ALGNAME) by compiling and
 * running a probe with the host compiler: the macros may be expressions
 * over the folder's params.h. The image checks the same values against its
 * own compiler (src/backends/impl/entry.c). */
static int probe_sizes(const char *dir, const char *cc, const char *const *incs,
                       mh_impl *m, char *err, size_t errlen) {
  char tmpl[] = "/tmp/merlin-probe-XXXXXX";
  if (!mkdtemp(tmpl))
    return fail(err, errlen, dir, "cannot create a temporary folder: %s",
                strerror(errno));
  char src[PATH_MAX], bin[PATH_MAX];
  snprintf(src, sizeof src, "%s/probe.c", tmpl);
  snprintf(bin, sizeof bin, "%s/probe", tmpl);
  mh_sb b = {0};
  const char *ns = m->ns;
  probe_source(&b, ns, m->kem);
  char werr[256], xerr[256];
  int rc = -1, cc_rc;
  if (b.failed) {
    fail(err, errlen, dir, "out of memory");
  } else if (mh_write_atomic(src, b.s, strlen(b.s), werr, sizeof werr) != 0) {
    fail(err, errlen, dir, "%s", werr);
  } else if ((cc_rc = probe_compile(cc, dir, incs, src, bin, PROBE_BUILD, xerr,
                                    sizeof xerr)) < 0) {
    fail(err, errlen, dir, "cannot run the host compiler: %s", xerr);
  } else if (cc_rc == 1 &&
             probe_compile(cc, dir, incs, src, bin, PROBE_NO_ALGNAME, xerr,
                           sizeof xerr) == 0) {
    fail(err, errlen, dir,
         "api.h: %sCRYPTO_ALGNAME is not a string (write it as a string "
         "literal, \"ML-KEM-768\", or leave it out: the scheme's name is "
         "then its folder's)",
         ns);
  } else if (cc_rc == 1) {
    fail(err, errlen, dir,
         "api.h's size macros do not compile on the host (%sCRYPTO_"
         "PUBLICKEYBYTES, %sCRYPTO_SECRETKEYBYTES, %s): is one missing?",
         ns, ns,
         m->kem ? "CRYPTO_CIPHERTEXTBYTES, CRYPTO_BYTES" : "CRYPTO_BYTES");
  } else {
    mh_exec_spec rs = {.argv = (char *[]){bin, NULL},
                       .stdout_fd = -1,
                       .stderr_fd = -1,
                       .timeout_s = 10,
                       .max_capture = 4096};
    mh_exec_result rr = {0};
    char ints[5] = "";
    if (mh_exec(&rs, &rr, xerr, sizeof xerr) != 0 || !rr.exited ||
        rr.exit_code != 0 ||
        sscanf(rr.out, "%llu %llu %llu %llu %4[01]", &m->pk, &m->sk, &m->ct,
               &m->ss, ints) != 5 ||
        strlen(ints) != 4) {
      fail(err, errlen, dir, "the size probe of api.h did not run");
    } else if (strchr(ints, '0')) {
      static const char *const kem_names[] = {
          "PUBLICKEYBYTES", "SECRETKEYBYTES", "CIPHERTEXTBYTES", "BYTES"};
      static const char *const sig_names[] = {"PUBLICKEYBYTES",
                                              "SECRETKEYBYTES", "BYTES", ""};
      size_t k = (size_t)(strchr(ints, '0') - ints);
      fail(err, errlen, dir,
           "api.h: %sCRYPTO_%s is not a whole number of bytes (a "
           "floating-point value): write it as an integer",
           ns, (m->kem ? kem_names : sig_names)[k]);
    } else {
      const char *nl = strchr(rr.out, '\n');
      if (nl && nl[1])
        m->algname = strndup(nl + 1, strcspn(nl + 1, "\n"));
      rc = 0;
    }
    mh_exec_result_free(&rr);
  }
  mh_sb_free(&b);
  unlink(src);
  unlink(bin);
  rmdir(tmpl);
  if (rc == 0 &&
      (m->pk == 0 || m->sk == 0 || m->ct == 0 || (m->kem && m->ss == 0)))
    rc = fail(err, errlen, dir, "api.h declares a size of 0 bytes");
  if (rc == 0 && (m->pk > (64u << 20) || m->sk > (64u << 20) ||
                  m->ct > (64u << 20) || m->ss > 4096))
    rc = fail(err, errlen, dir, "api.h declares sizes beyond any target");
  return rc;
}

/* The lines of the preprocessor's output (cc -E -dD) that come from the
 * folder's own headers and its common code: no line markers, nothing of
 * the system headers or the compiler's predefined macros. */
static void keep_own_lines(char *text) {
  char *w = text;
  int system = 1; /* the output starts with <built-in> */
  for (char *l = text; *l;) {
    char *nl = strchr(l, '\n');
    size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);
    if (l[0] == '#' && l[1] == ' ' && l[2] >= '0' && l[2] <= '9') {
      /* # <line> "<file>" <flags>: flag 3, a system header */
      const char *q = strchr(l, '"');
      const char *e = q ? strchr(q + 1, '"') : NULL;
      system = !q || !e || q[1] == '<' ||
               (e < l + n && memchr(e, '3', (size_t)(l + n - e)));
    } else if (!system) {
      memmove(w, l, n);
      w += n;
    }
    l += n;
  }
  *w = '\0';
}

/* api.h as the compiler sees it with the folder's include path: what the
 * preprocessor makes of `#include "api.h"` (malloc'd), or NULL with err. */
static char *expand_api(const char *dir, const char *cc,
                        const char *const *incs, char *err, size_t errlen) {
  char tmpl[] = "/tmp/merlin-api-XXXXXX";
  if (!mkdtemp(tmpl)) {
    fail(err, errlen, dir, "cannot create a temporary folder: %s",
         strerror(errno));
    return NULL;
  }
  char src[PATH_MAX], out[PATH_MAX], werr[256], xerr[256];
  snprintf(src, sizeof src, "%s/api.c", tmpl);
  snprintf(out, sizeof out, "%s/api.i", tmpl);
  static const char probe[] = "#include \"api.h\"\n";
  char *text = NULL;
  size_t len;
  int rc = -1;
  if (mh_write_atomic(src, probe, sizeof probe - 1, werr, sizeof werr) != 0)
    fail(err, errlen, dir, "%s", werr);
  else if ((rc = probe_compile(cc, dir, incs, src, out, PROBE_EXPAND, xerr,
                               sizeof xerr)) < 0)
    fail(err, errlen, dir, "cannot run the host compiler: %s", xerr);
  else if (rc == 1)
    fail(err, errlen, dir,
         "api.h does not preprocess on the host with the folder's include "
         "path (a header it includes is missing?)");
  else if (mh_read_file(out, TEXT_MAX * 16, &text, &len, werr, sizeof werr))
    fail(err, errlen, dir, "%s", werr);
  if (text)
    keep_own_lines(text);
  unlink(src);
  unlink(out);
  rmdir(tmpl);
  return text;
}

/* ---- sources and the content hash -------------------------------------- */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_source(const char *name) {
  size_t n = strlen(name);
  return n > 2 && name[n - 2] == '.' &&
         (name[n - 1] == 'c' || name[n - 1] == 's' || name[n - 1] == 'S');
}

/* The regular files (dirs = 0) or sub-directories (dirs = 1) of dir, but
 * hidden ones, sorted (names malloc'd). 0, -1 (memory) or -2 (unreadable). */
static int entries(const char *dir, int dirs, char ***out, size_t *n) {
  DIR *d = opendir(dir);
  if (!d)
    return -2;
  char **v = NULL;
  size_t cnt = 0, cap = 0;
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char *p = mh_path_join(dir, e->d_name);
    struct stat st;
    int ok = p && stat(p, &st) == 0 &&
             (dirs ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
    free(p);
    if (!ok)
      continue;
    if (cnt == cap) {
      cap = cap ? 2 * cap : 32;
      char **nv = realloc(v, cap * sizeof *nv);
      if (!nv) {
        rc = -1;
        break;
      }
      v = nv;
    }
    if (!(v[cnt] = strdup(e->d_name)))
      rc = -1;
    else
      cnt++;
  }
  closedir(d);
  if (rc != 0) {
    mh_impl_dirs_free(v, cnt);
    return -1;
  }
  if (v)
    qsort(v, cnt, sizeof *v, cmp_str);
  *out = v;
  *n = cnt;
  return 0;
}

static int list_files(const char *dir, char ***out, size_t *n, char *err,
                      size_t errlen) {
  int rc = entries(dir, 0, out, n);
  if (rc == -2)
    return fail(err, errlen, dir, "cannot read it: %s", strerror(errno));
  return rc == 0 ? 0 : fail(err, errlen, dir, "out of memory");
}

/* SHA-256 over each file's name, NUL, and content, in name order: what
 * the folder was when it was measured (results.json provenance). */
static int hash_files(const char *dir, char **files, size_t n, mh_impl *m,
                      char *err, size_t errlen) {
  mcore_sha256_ctx c;
  mcore_sha256_init(&c);
  for (size_t i = 0; i < n; i++) {
    char *p = mh_path_join(dir, files[i]), *buf = NULL, rerr[256];
    size_t len = 0;
    if (!p || mh_read_file(p, FILE_MAX, &buf, &len, rerr, sizeof rerr) != 0) {
      free(p);
      return fail(err, errlen, dir, "%s", p ? rerr : "out of memory");
    }
    free(p);
    mcore_sha256_update(&c, (const uint8_t *)files[i], strlen(files[i]) + 1);
    mcore_sha256_update(&c, (const uint8_t *)buf, len);
    free(buf);
  }
  uint8_t d[32];
  mcore_sha256_final(&c, d);
  for (size_t i = 0; i < 32; i++)
    snprintf(m->sha256 + 2 * i, 3, "%02x", d[i]);
  return 0;
}

static int take_sources(const char *dir, char **files, size_t n, mh_impl *m,
                        char *err, size_t errlen) {
  for (size_t i = 0; i < n; i++) {
    if (!is_source(files[i]))
      continue;
    if (!mh_impl_path_ok(files[i]) || strchr(files[i], ' '))
      return fail(err, errlen, dir, "source file name '%s' is not usable",
                  files[i]);
    char **nv = realloc(m->sources, (m->n_sources + 1) * sizeof *nv);
    if (!nv || !(nv[m->n_sources] = strdup(files[i]))) {
      if (nv)
        m->sources = nv;
      return fail(err, errlen, dir, "out of memory");
    }
    m->sources = nv;
    m->n_sources++;
    m->has_asm |= files[i][strlen(files[i]) - 1] != 'c';
  }
  if (m->n_sources == 0)
    return fail(err, errlen, dir, "no sources (*.c, *.s, *.S) beside api.h");
  return 0;
}

/* ---- META.yml ----------------------------------------------------------- */

/* The value of a top-level "key: value" line, malloc'd, or NULL. */
static char *yml_value(const char *text, const char *key) {
  size_t n = strlen(key);
  for (const char *l = text; *l;
       l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
    if (strncmp(l, key, n) != 0 || l[n] != ':')
      continue;
    const char *v = l + n + 1;
    while (*v == ' ' || *v == '\t')
      v++;
    size_t vl = strcspn(v, "\r\n");
    while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t'))
      vl--;
    return strndup(v, vl);
  }
  return NULL;
}

/* META.yml in the folder, else beside it (PQClean keeps one per scheme).
 * Its sizes must agree with api.h's. */
static int read_meta(const char *dir, mh_impl *m, char *err, size_t errlen) {
  char *here = mh_path_join(dir, "META.yml");
  char *up = mh_path_join(dir, "../META.yml");
  struct stat st;
  const char *path = here && stat(here, &st) == 0 ? here
                     : up && stat(up, &st) == 0   ? up
                                                  : NULL;
  int rc = 0;
  if (path) {
    char *text, rerr[256];
    size_t len;
    if (mh_read_file(path, TEXT_MAX, &text, &len, rerr, sizeof rerr) != 0) {
      rc = fail(err, errlen, dir, "%s", rerr);
    } else {
      m->meta_path = realpath(path, NULL);
      m->meta_kat = yml_value(text, "nistkat-sha256");
      /* PQClean's HQC KATs draw from HQC's own generator (nistkat-rng:
       * hqc), not the NIST AES-256 CTR DRBG Merlin's records use: such a
       * digest is not comparable. */
      char *rng = yml_value(text, "nistkat-rng");
      if (rng && strcmp(rng, "nist") != 0) {
        free(m->meta_kat);
        m->meta_kat = NULL;
      }
      free(rng);
      m->meta_level = yml_value(text, "claimed-nist-level");
      const struct {
        const char *key;
        unsigned long long have;
        int applies;
      } sz[] = {{"length-public-key", m->pk, 1},
                {"length-secret-key", m->sk, 1},
                {"length-ciphertext", m->ct, m->kem},
                {"length-shared-secret", m->ss, m->kem},
                {"length-signature", m->ct, !m->kem}};
      for (size_t i = 0; rc == 0 && i < sizeof sz / sizeof sz[0]; i++) {
        char *v = sz[i].applies ? yml_value(text, sz[i].key) : NULL;
        if (v && strtoull(v, NULL, 10) != sz[i].have)
          rc = fail(err, errlen, dir, "%s says %s: %s, api.h declares %llu",
                    path, sz[i].key, v, sz[i].have);
        free(v);
      }
      if (rc == 0 && m->meta_kat &&
          (strlen(m->meta_kat) != 64 ||
           strspn(m->meta_kat, "0123456789abcdef") != 64))
        rc = fail(err, errlen, dir,
                  "%s: nistkat-sha256 is not 64 lower-case hex digits", path);
      free(text);
    }
  }
  free(here);
  free(up);
  return rc;
}

/* ---- the algorithm --------------------------------------------------------
 */

/* s in lower case, '_' and ' ' as '-' (malloc'd). */
static char *as_id(const char *s) {
  char *id = strdup(s);
  for (char *c = id; c && *c; c++)
    *c = *c == '_' || *c == ' '     ? '-'
         : (*c >= 'A' && *c <= 'Z') ? (char)(*c - 'A' + 'a')
                                    : *c;
  return id;
}

/* When the scheme folder's name is no algorithm of Merlin's catalogue (a
 * checkout laid out otherwise, a copy under another name): the catalogue's
 * algorithm of the folder's class that api.h names (CRYPTO_ALGNAME, as an
 * id) or, failing that, the only one whose sizes (src/ops/sizes.def) equal
 * api.h's; why says which (malloc'd id, or NULL: a scheme of its own). */
static char *known_scheme(const mh_impl *m, char *why, size_t wl) {
  const char *cls = m->kem ? "KEM" : "SIG";
  char *id = m->algname ? as_id(m->algname) : NULL;
  int a = id ? mh_alg_find(id) : -1;
  if (a >= 0 && strcmp(mh_algs[a].cls, cls) == 0) {
    snprintf(why, wl, "its CRYPTO_ALGNAME \"%.60s\"", m->algname);
    return id;
  }
  free(id);
  int found = -1, many = 0;
  for (size_t i = 0; i < MH_N_ALGS; i++) {
    size_t v[4];
    if (strcmp(mh_algs[i].cls, cls) != 0 || mh_alg_sizes(i, v) != 0 ||
        v[0] != m->pk || v[1] != m->sk || v[2] != m->ct ||
        (m->kem && v[3] != m->ss))
      continue;
    many |= found >= 0;
    found = (int)i;
  }
  if (found < 0 || many)
    return NULL;
  snprintf(why, wl, "its api.h sizes (those of %s alone in src/ops/sizes.def)",
           mh_algs[found].id);
  return strdup(mh_algs[found].id);
}

/* The id given, or the scheme folder's name in lower case with '_' as '-'
 * when it is one Merlin knows, else known_scheme's. */
static int take_alg(const char *dir, const char *alg, mh_impl *m, char *err,
                    size_t errlen) {
  char *from_dir = alg ? NULL : as_id(m->scheme), why[160];
  char *found = from_dir && mh_alg_find(from_dir) < 0
                    ? known_scheme(m, why, sizeof why)
                    : NULL;
  if (found)
    fprintf(stderr,
            "merlin: implementation folder %s: its folder '%s' names no "
            "algorithm Merlin knows; %s is %s, from %s\n",
            dir, m->scheme, found, m->kem ? "a KEM" : "a signature scheme",
            why);
  free(from_dir);
  m->alg = found ? found : strdup(alg ? alg : m->scheme);
  if (!m->alg)
    return fail(err, errlen, dir, "out of memory");
  for (char *c = m->alg; *c; c++) {
    if (*c >= 'A' && *c <= 'Z')
      *c = (char)(*c - 'A' + 'a');
    else if (*c == '_')
      *c = '-';
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
      return fail(err, errlen, dir,
                  "algorithm id '%s' (from %s): use letters, digits, '-' "
                  "and '_' only",
                  m->alg, alg ? "the profile" : "the scheme folder's name");
  }
  if (!m->alg[0] || m->alg[0] == '-' || strlen(m->alg) > 64)
    return fail(err, errlen, dir, "algorithm id '%s' is not usable", m->alg);
  m->alg_enum = strdup(m->alg);
  if (!m->alg_enum)
    return fail(err, errlen, dir, "out of memory");
  for (char *c = m->alg_enum; *c; c++)
    *c = *c == '-' ? '_' : (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
  int a = mh_alg_find(m->alg);
  m->known = a >= 0;
  if (m->known) {
    free(m->alg_enum);
    m->alg_enum = strdup(mh_algs[a].enum_name);
    const char *want = m->kem ? "KEM" : "SIG";
    if (!m->alg_enum)
      return fail(err, errlen, dir, "out of memory");
    if (strcmp(mh_algs[a].cls, want) != 0)
      return fail(err, errlen, dir,
                  "'%s' is a %s algorithm in Merlin's catalogue "
                  "(src/ops/algs.def), but the folder is a %s",
                  m->alg, mh_algs[a].cls, m->kem ? "KEM" : "signature scheme");
  } else if (m->alg_enum[0] >= '0' && m->alg_enum[0] <= '9') {
    return fail(err, errlen, dir,
                "algorithm id '%s' starts with a digit: name the algorithm "
                "in a profile line ('<id> = impl:%s')",
                m->alg, dir);
  }
  /* The standards that fix the randomness (src/backends/impl/mbe_impl.h). */
  if (strncmp(m->alg, "ml-kem-", 7) == 0 && m->kem)
    m->family = MH_IMPL_FAMILY_MLKEM;
  else if (strncmp(m->alg, "ml-dsa-", 7) == 0 && !m->kem)
    m->family = MH_IMPL_FAMILY_MLDSA;
  else if (!m->kem && m->known &&
           (strncmp(m->alg, "slh-dsa-", 8) == 0 ||
            strncmp(m->alg, "sphincs-", 8) == 0))
    m->family = MH_IMPL_FAMILY_SLHDSA;
  m->n = m->family == MH_IMPL_FAMILY_SLHDSA ? (unsigned)(m->pk / 2) : 0;
  /* The catalogue's signature vectors are of detached signatures: a
   * folder with signed messages only is checked through its scheme's
   * signed-message layout, signature || message (SUPERCOP's Ed25519,
   * PQClean's and pqm4's crypto_sign), known for these schemes. */
  if (m->known && !m->kem && !m->detached && strcmp(m->alg, "ed25519") != 0 &&
      strncmp(m->alg, "ml-dsa-", 7) != 0 &&
      strncmp(m->alg, "slh-dsa-", 8) != 0 &&
      strncmp(m->alg, "sphincs-", 8) != 0)
    return fail(err, errlen, dir,
                "'%s' is checked against Merlin's signature vectors, which "
                "are detached signatures; api.h has only crypto_sign/"
                "crypto_sign_open, and Merlin knows the signed-message "
                "layout (signature || message) of Ed25519, ML-DSA, SLH-DSA "
                "and SPHINCS+ only",
                m->alg);
  return 0;
}

/* ---- the whole folder -----------------------------------------------------
 */

static int take_names(const char *dir, mh_impl *m, char *err, size_t errlen) {
  m->dir = realpath(dir, NULL);
  if (!m->dir)
    return fail(err, errlen, dir, "%s", strerror(errno));
  struct stat st;
  if (stat(m->dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return fail(err, errlen, dir, "not a directory");
  char what[200], brief[MH_PATH_BRIEF];
  if (mh_impl_path_bad(dir, what, sizeof what))
    return fail(err, errlen, dir,
                "its path holds %s: the image build cannot carry it (rename "
                "or link the folder elsewhere)",
                what);
  if (mh_impl_path_bad(m->dir, what, sizeof what))
    return fail(err, errlen, dir,
                "its real path %s holds %s: the image build cannot carry it "
                "(rename or link the folder elsewhere)",
                mh_path_brief(m->dir, brief, sizeof brief), what);
  const char *slash = strrchr(m->dir, '/');
  m->name = strdup(slash ? slash + 1 : m->dir);
  char *parent = strndup(m->dir, slash ? (size_t)(slash - m->dir) : 0);
  const char *ps = parent ? strrchr(parent, '/') : NULL;
  m->scheme = strdup(ps ? ps + 1 : (parent ? parent : ""));
  free(parent);
  if (!m->name || !m->scheme)
    return fail(err, errlen, dir, "out of memory");
  mh_sb b = {0};
  mh_sb_printf(&b, "impl:%s/%s", m->scheme, m->name);
  if (b.failed)
    return fail(err, errlen, dir, "out of memory");
  m->backend = b.s;
  m->variant = strdup(m->name);
  if (!m->variant)
    return fail(err, errlen, dir, "out of memory");
  return 0;
}

/* The folder's config.mk (host/impl/impl_config.c); flags it cannot
 * apply are named, not silently dropped. */
static int take_config(const char *dir, mh_impl *m, char *err, size_t errlen) {
  char *ignored = NULL;
  if (mh_impl_read_config(dir, &m->flags, &m->host_flags, &ignored) != 0)
    return fail(err, errlen, dir, "its config.mk cannot be read");
  if (ignored)
    fprintf(stderr,
            "merlin: implementation folder %s: config.mk: %s not applied "
            "(Merlin takes its -D and -U flags)\n",
            dir, ignored);
  free(ignored);
  return 0;
}

int mh_impl_inspect(const char *dir, const char *alg, const char *cc,
                    const char *const *incs, mh_impl *out, char *err,
                    size_t errlen) {
  mh_impl m = {0};
  char **files = NULL;
  size_t n_files = 0;
  int rc = take_names(dir, &m, err, errlen);
  if (rc == 0)
    rc = take_config(m.dir, &m, err, errlen);
  if (rc == 0)
    rc = read_api(m.dir, cc, incs, &m, err, errlen);
  if (rc == 0)
    rc = list_files(m.dir, &files, &n_files, err, errlen);
  if (rc == 0)
    rc = take_sources(m.dir, files, n_files, &m, err, errlen);
  if (rc == 0)
    rc = hash_files(m.dir, files, n_files, &m, err, errlen);
  if (rc == 0)
    rc = probe_sizes(m.dir, cc, incs, &m, err, errlen);
  if (rc == 0)
    rc = take_alg(m.dir, alg, &m, err, errlen);
  if (rc == 0)
    rc = read_meta(m.dir, &m, err, errlen);
  mh_impl_dirs_free(files, n_files);
  if (rc != 0) {
    mh_impl_free(&m);
    return -1;
  }
  *out = m;
  return 0;
}

void mh_impl_free(mh_impl *m) {
  free(m->dir);
  free(m->scheme);
  free(m->name);
  free(m->alg);
  free(m->alg_enum);
  free(m->ns);
  free(m->algname);
  mh_impl_dirs_free(m->sources, m->n_sources);
  free(m->meta_path);
  free(m->meta_kat);
  free(m->meta_level);
  free(m->backend);
  free(m->variant);
  free(m->flags);
  free(m->host_flags);
  memset(m, 0, sizeof *m);
}

/* ---- discovery ------------------------------------------------------------
 */

void mh_impl_dirs_free(char **dirs, size_t n) {
  for (size_t i = 0; dirs && i < n; i++)
    free(dirs[i]);
  free(dirs);
}

static int skipped_by(const char *scheme, const char *impl, char *const *skip,
                      size_t n_skip) {
  char both[512];
  snprintf(both, sizeof both, "%s/%s", scheme, impl);
  for (size_t i = 0; i < n_skip; i++)
    if (fnmatch(skip[i], both, 0) == 0 || fnmatch(skip[i], scheme, 0) == 0 ||
        fnmatch(skip[i], impl, 0) == 0)
      return 1;
  return 0;
}

static int push(char ***v, size_t *n, char *s) {
  char **nv = realloc(*v, (*n + 1) * sizeof *nv);
  if (!nv) {
    free(s);
    return -1;
  }
  nv[(*n)++] = s;
  *v = nv;
  return 0;
}

int mh_impl_discover(const char *root, char *const *skip, size_t n_skip,
                     char ***dirs, size_t *n, size_t *skipped, char *err,
                     size_t errlen) {
  static const char *const kinds[] = {"crypto_kem", "crypto_sign"};
  char **out = NULL;
  size_t cnt = 0, found_kind = 0;
  *skipped = 0;
  /* ROOT may be one of them itself (--impl-tree <pqm4>/crypto_kem) */
  const char *base = strrchr(root, '/') ? strrchr(root, '/') + 1 : root;
  int is_kind = strcmp(base, kinds[0]) == 0 || strcmp(base, kinds[1]) == 0;
  for (size_t k = 0; k < (is_kind ? 1u : 2u); k++) {
    char *kdir = is_kind ? strdup(root) : mh_path_join(root, kinds[k]),
         **schemes = NULL;
    size_t n_schemes = 0;
    if (!kdir || entries(kdir, 1, &schemes, &n_schemes) != 0) {
      free(kdir);
      continue;
    }
    found_kind++;
    for (size_t s = 0; s < n_schemes; s++) {
      char *sdir = mh_path_join(kdir, schemes[s]), **impls = NULL;
      size_t n_impls = 0;
      if (sdir && entries(sdir, 1, &impls, &n_impls) == 0) {
        for (size_t i = 0; i < n_impls; i++) {
          if (mh_impl_host_only(impls[i]) ||
              skipped_by(schemes[s], impls[i], skip, n_skip)) {
            (*skipped)++;
            continue;
          }
          char *p = mh_path_join(sdir, impls[i]);
          if (!p || push(&out, &cnt, p) != 0) {
            mh_impl_dirs_free(impls, n_impls);
            mh_impl_dirs_free(schemes, n_schemes);
            mh_impl_dirs_free(out, cnt);
            free(sdir);
            free(kdir);
            snprintf(err, errlen, "out of memory");
            return -1;
          }
        }
        mh_impl_dirs_free(impls, n_impls);
      }
      free(sdir);
    }
    mh_impl_dirs_free(schemes, n_schemes);
    free(kdir);
  }
  if (!found_kind) {
    mh_impl_dirs_free(out, cnt);
    snprintf(err, errlen,
             "--impl-tree %s: no crypto_kem/ or crypto_sign/ folder in it, "
             "nor is it one (the PQClean and pqm4 layout: crypto_kem/"
             "<scheme>/<impl>/)",
             root);
    return -1;
  }
  *dirs = out;
  *n = cnt;
  return 0;
}
