/* SPDX-License-Identifier: Apache-2.0 */
#include "image/linkmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mh_map_free(mh_map *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->n; i++) {
    free(m->v[i].output);
    free(m->v[i].input);
    free(m->v[i].file);
  }
  free(m->v);
  memset(m, 0, sizeof *m);
}

static int map_add(mh_map *m, const char *output, const char *input,
                   const char *file, size_t file_len, uint64_t addr,
                   uint64_t size) {
  if (size == 0)
    return 0;
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 256;
    mh_map_input *v = realloc(m->v, cap * sizeof *v);
    if (!v)
      return -1;
    m->v = v;
    m->cap = cap;
  }
  mh_map_input *r = &m->v[m->n];
  r->output = strdup(output);
  r->input = strdup(input);
  r->file = strndup(file, file_len);
  r->addr = addr;
  r->size = size;
  if (!r->output || !r->input || !r->file) {
    free(r->output);
    free(r->input);
    free(r->file);
    return -1;
  }
  m->n++;
  return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* A "0x..." token at *p: its value, *p moved past it and the spaces after
 * it. 0, or -1 when there is none. */
static int hex_token(const char **p, const char *end, uint64_t *v) {
  const char *s = *p;
  if (end - s < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
    return -1;
  s += 2;
  uint64_t x = 0;
  const char *d = s;
  for (; s < end; s++) {
    int c = (unsigned char)*s, h;
    if (c >= '0' && c <= '9')
      h = c - '0';
    else if (c >= 'a' && c <= 'f')
      h = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      h = c - 'A' + 10;
    else
      break;
    x = (x << 4) | (uint64_t)h;
  }
  if (s == d || (s < end && !is_space(*s)))
    return -1;
  while (s < end && is_space(*s))
    s++;
  *p = s;
  *v = x;
  return 0;
}

/* "0xADDR 0xSIZE [rest]" at p: the address, size and rest (trimmed). */
static int addr_size(const char *p, const char *end, uint64_t *addr,
                     uint64_t *size, const char **rest, size_t *rest_len) {
  if (hex_token(&p, end, addr) != 0 || hex_token(&p, end, size) != 0)
    return -1;
  const char *r = end;
  while (r > p && is_space(r[-1]))
    r--;
  *rest = p;
  *rest_len = (size_t)(r - p);
  return 0;
}

/* The GNU ld map format (ld/ldlang.c, print_output_section_statement and
 * print_input_section): an output section starts in column 0 with its name,
 * address and size; each input section is one space, its name, address,
 * size and file, where a name of 15 characters or more puts the numbers on
 * the next line; "*fill*" lines are padding; lines that start with spaces
 * and a single address are symbols and assignments; " *(...)" are the
 * script's patterns. */
int mh_map_parse(const char *text, size_t len, mh_map *m, char *err,
                 size_t errlen) {
  memset(m, 0, sizeof *m);
  static const char MARK[] = "Linker script and memory map";
  const char *p = text, *end = text + len;
  int started = 0;
  char output[256] = "", pending[256] = "";
  int pending_output = 0, have_output = 0;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    const char *line = p;
    p = nl ? nl + 1 : end;
    if (!started) {
      if ((size_t)(le - line) >= sizeof MARK - 1 &&
          memcmp(line, MARK, sizeof MARK - 1) == 0)
        started = 1;
      continue;
    }
    const char *s = line;
    while (s < le && is_space(*s))
      s++;
    if (s == le)
      continue; /* blank: a pending name may still get its numbers */
    uint64_t addr, size;
    const char *rest;
    size_t rest_len;
    if (s == line) {
      /* Column 0: an output section, or LOAD, OUTPUT(...), START GROUP. */
      const char *t = s;
      while (t < le && !is_space(*t))
        t++;
      size_t nlen = (size_t)(t - s);
      pending[0] = '\0';
      have_output = 0;
      while (t < le && is_space(*t))
        t++;
      if (nlen >= sizeof output)
        continue;
      if (t == le) {
        memcpy(pending, s, nlen);
        pending[nlen] = '\0';
        pending_output = 1;
      } else if (addr_size(t, le, &addr, &size, &rest, &rest_len) == 0) {
        memcpy(output, s, nlen);
        output[nlen] = '\0';
        have_output = 1;
      }
      continue;
    }
    if (s[0] == '0' && s + 1 < le && (s[1] == 'x' || s[1] == 'X')) {
      /* The numbers of a pending name, or a symbol or assignment. */
      if (pending[0] && addr_size(s, le, &addr, &size, &rest, &rest_len) == 0) {
        if (pending_output) {
          snprintf(output, sizeof output, "%s", pending);
          have_output = 1;
        } else if (have_output && map_add(m, output, pending, rest, rest_len,
                                          addr, size) != 0) {
          goto oom;
        }
      }
      pending[0] = '\0';
      continue;
    }
    pending[0] = '\0';
    if (!have_output)
      continue;
    if ((size_t)(le - s) >= 6 && memcmp(s, "*fill*", 6) == 0) {
      const char *f = s + 6;
      while (f < le && is_space(*f))
        f++;
      if (addr_size(f, le, &addr, &size, &rest, &rest_len) == 0 &&
          map_add(m, output, "*fill*", "", 0, addr, size) != 0)
        goto oom;
      continue;
    }
    if (s[0] == '*' || s[0] == '[')
      continue; /* a pattern of the script, or [!provide] */
    /* An input section: name, then its numbers here or on the next line. */
    const char *t = s;
    while (t < le && !is_space(*t))
      t++;
    size_t nlen = (size_t)(t - s);
    while (t < le && is_space(*t))
      t++;
    if (nlen >= sizeof pending)
      continue;
    if (t == le) {
      memcpy(pending, s, nlen);
      pending[nlen] = '\0';
      pending_output = 0;
    } else if (addr_size(t, le, &addr, &size, &rest, &rest_len) == 0) {
      char name[256];
      memcpy(name, s, nlen);
      name[nlen] = '\0';
      if (map_add(m, output, name, rest, rest_len, addr, size) != 0)
        goto oom;
    }
  }
  if (!started) {
    snprintf(err, errlen, "not a GNU ld map file (no \"%s\")", MARK);
    return -1;
  }
  return 0;
oom:
  snprintf(err, errlen, "out of memory");
  mh_map_free(m);
  return -1;
}

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends(const char *s, size_t n, const char *suffix) {
  size_t k = strlen(suffix);
  return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Archives by file name (without "lib" and ".a"): the library targets of
 * src/backends/<name>/backend.cmake (their manifests' archive lines, via
 * src/backends/host_tables.def), the toolchain's C library (newlib,
 * newlib-nano, glibc's static part) and libgcc. */
static const struct {
  const char *stem, *label;
  int prefix; /* stem is a prefix (per-pair copies: mbedtls_lib_sz3) */
} ARCHIVES[] = {
#define MH_BACKEND_ARCHIVE(stem, label, prefix) {stem, label, prefix},
#include "host_tables.def"
    /* Implementation folders (cmake/MerlinImpl.cmake): a folder's own
     * objects, and the common code folders call (PQClean's common/). */
    {"merlin_impl_common", "impl-common", 0},
    {"merlin_impl_lib", "impl-folder", 1},
    {"c", "libc", 0},
    {"c_nano", "libc", 0},
    {"g", "libc", 0},
    {"g_nano", "libc", 0},
    {"m", "libc", 0},
    {"nosys", "libc", 0},
    {"c_nonshared", "libc", 0},
    {"gcc", "libgcc", 0},
    {"gcc_eh", "libgcc", 0},
};

/* Sections the linker makes or fills itself (dynamic linking, PLT/GOT,
 * ARM interworking glue): ld names the first input file as their origin. */
static const char *const LINKER_SECTIONS[] = {
    ".interp",
    ".dynsym",
    ".dynstr",
    ".hash",
    ".gnu.hash",
    ".gnu.version",
    ".gnu.version_r",
    ".gnu.version_d",
    ".dynamic",
    ".plt",
    ".plt.got",
    ".plt.sec",
    ".iplt",
    ".got",
    ".got.plt",
    ".igot.plt",
    ".dynbss",
    ".eh_frame_hdr",
    ".note.gnu.build-id",
    ".glue_7",
    ".glue_7t",
    ".vfp11_veneer",
    ".v4_bx",
    ".relr.dyn",
};

void mh_map_library(const char *input, const char *file, char *out,
                    size_t outlen) {
  if (strcmp(input, "*fill*") == 0) {
    snprintf(out, outlen, "(padding)");
    return;
  }
  for (size_t i = 0; i < sizeof LINKER_SECTIONS / sizeof *LINKER_SECTIONS; i++)
    if (strcmp(input, LINKER_SECTIONS[i]) == 0) {
      snprintf(out, outlen, "(linker)");
      return;
    }
  if (starts(input, ".rela.") || starts(input, ".rel.") || !file[0] ||
      strcmp(file, "linker stubs") == 0) {
    snprintf(out, outlen, "(linker)");
    return;
  }
  /* An archive member: "path/libX.a(member.o)". */
  const char *paren = strchr(file, '(');
  size_t flen = paren ? (size_t)(paren - file) : strlen(file);
  const char *base = file;
  for (const char *c = file; c < file + flen; c++)
    if (*c == '/')
      base = c + 1;
  size_t blen = (size_t)(file + flen - base);
  if (paren || ends(base, blen, ".a")) {
    const char *stem = base;
    size_t slen = blen;
    if (slen > 3 && starts(stem, "lib")) {
      stem += 3;
      slen -= 3;
    }
    if (ends(stem, slen, ".a"))
      slen -= 2;
    for (size_t i = 0; i < sizeof ARCHIVES / sizeof *ARCHIVES; i++) {
      size_t k = strlen(ARCHIVES[i].stem);
      if (slen >= k && memcmp(stem, ARCHIVES[i].stem, k) == 0 &&
          (slen == k || (ARCHIVES[i].prefix && stem[k] == '_'))) {
        snprintf(out, outlen, "%s", ARCHIVES[i].label);
        return;
      }
    }
    snprintf(out, outlen, "%.*s", (int)slen, stem);
    return;
  }
  /* Objects: ours (CMake puts them under CMakeFiles/<target>.dir/), the
   * backends' adapters among them, and the C runtime's start files. */
  if (starts(file, "CMakeFiles/") || strstr(file, "/CMakeFiles/")) {
    snprintf(out, outlen, "%s",
             strstr(file, "/src/backends/") ? "adapter" : "merlin");
    return;
  }
  if (starts(base, "crt") || starts(base, "Scrt") || starts(base, "gcrt") ||
      starts(base, "rcrt")) {
    snprintf(out, outlen, "crt");
    return;
  }
  snprintf(out, outlen, "%.*s", (int)blen, base);
}
