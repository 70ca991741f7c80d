/* SPDX-License-Identifier: Apache-2.0 */
#include "sizes.h"

#include "fsutil.h"
#include "image_build.h"
#include "mcore.h"
#include "strbuf.h"
#include "target_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Largest image and map file read. */
#define MAX_ELF_BYTES ((size_t)256 << 20)
#define MAX_MAP_BYTES ((size_t)256 << 20)
/* Lines of the build log shown when a build fails. */

/* ---- ELF (System V gABI, "Sections" and "Symbol Table") ---------------- */

#define SHT_SYMTAB 2u
#define SHT_NOBITS 8u
#define SHF_WRITE 0x1u
#define SHF_ALLOC 0x2u
#define SHF_EXECINSTR 0x4u
#define SHN_XINDEX 0xffffu

static uint64_t rd(const mh_elf *e, size_t off, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t b = e->buf[off + (e->big_endian ? i : n - 1 - i)];
    v = (v << 8) | b;
  }
  return v;
}

void mh_elf_free(mh_elf *e) {
  if (!e)
    return;
  for (size_t i = 0; i < e->n_sec; i++)
    free(e->sec[i].name);
  free(e->sec);
  memset(e, 0, sizeof *e);
}

/* NUL-terminated string at off of section strtab, or NULL. */
static const char *elf_str(const mh_elf *e, const mh_elf_section *strtab,
                           uint64_t off) {
  if (strtab->type == SHT_NOBITS || off >= strtab->size ||
      strtab->offset > e->len || strtab->size > e->len - strtab->offset)
    return NULL;
  const char *s = (const char *)e->buf + strtab->offset + off;
  if (!memchr(s, '\0', (size_t)(strtab->size - off)))
    return NULL;
  return s;
}

int mh_elf_parse(const uint8_t *buf, size_t len, mh_elf *e, char *err,
                 size_t errlen) {
  memset(e, 0, sizeof *e);
  e->buf = buf;
  e->len = len;
  if (len < 52 || memcmp(buf, "\177ELF", 4) != 0) {
    snprintf(err, errlen, "not an ELF file");
    return -1;
  }
  if ((buf[4] != 1 && buf[4] != 2) || (buf[5] != 1 && buf[5] != 2)) {
    snprintf(err, errlen, "unknown ELF class %u or data encoding %u", buf[4],
             buf[5]);
    return -1;
  }
  e->is64 = buf[4] == 2;
  e->big_endian = buf[5] == 2;
  if (e->is64 && len < 64) {
    snprintf(err, errlen, "truncated ELF header");
    return -1;
  }
  e->type = (uint16_t)rd(e, 16, 2);
  e->machine = (uint16_t)rd(e, 18, 2);
  uint64_t shoff = e->is64 ? rd(e, 0x28, 8) : rd(e, 0x20, 4);
  size_t hdr = e->is64 ? 0x3a : 0x2e;
  uint64_t shentsize = rd(e, hdr, 2), shnum = rd(e, hdr + 2, 2),
           shstrndx = rd(e, hdr + 4, 2);
  size_t need = e->is64 ? 64 : 40;
  if (shoff == 0) {
    snprintf(err, errlen, "ELF file has no section headers");
    return -1;
  }
  if (shentsize < need || shoff > len || len - shoff < shentsize) {
    snprintf(err, errlen, "bad ELF section header table");
    return -1;
  }
  /* Extended numbering: the real counts are in section 0. */
  if (shnum == 0)
    shnum =
        e->is64 ? rd(e, (size_t)shoff + 32, 8) : rd(e, (size_t)shoff + 20, 4);
  if (shstrndx == SHN_XINDEX)
    shstrndx =
        e->is64 ? rd(e, (size_t)shoff + 40, 4) : rd(e, (size_t)shoff + 24, 4);
  if (shnum == 0 || shnum > (len - shoff) / shentsize || shstrndx >= shnum) {
    snprintf(err, errlen, "bad ELF section count (%llu) or string table index",
             (unsigned long long)shnum);
    return -1;
  }
  e->sec = calloc((size_t)shnum, sizeof *e->sec);
  if (!e->sec) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  e->n_sec = (size_t)shnum;
  uint32_t *name_off = calloc((size_t)shnum, sizeof *name_off);
  if (!name_off) {
    snprintf(err, errlen, "out of memory");
    mh_elf_free(e);
    return -1;
  }
  for (size_t i = 0; i < e->n_sec; i++) {
    size_t o = (size_t)(shoff + i * shentsize);
    mh_elf_section *s = &e->sec[i];
    name_off[i] = (uint32_t)rd(e, o, 4);
    s->type = (uint32_t)rd(e, o + 4, 4);
    if (e->is64) {
      s->flags = rd(e, o + 8, 8);
      s->addr = rd(e, o + 16, 8);
      s->offset = rd(e, o + 24, 8);
      s->size = rd(e, o + 32, 8);
      s->link = (uint32_t)rd(e, o + 40, 4);
    } else {
      s->flags = rd(e, o + 8, 4);
      s->addr = rd(e, o + 12, 4);
      s->offset = rd(e, o + 16, 4);
      s->size = rd(e, o + 20, 4);
      s->link = (uint32_t)rd(e, o + 24, 4);
    }
  }
  for (size_t i = 0; i < e->n_sec; i++) {
    const char *n = elf_str(e, &e->sec[shstrndx], name_off[i]);
    e->sec[i].name = strdup(n ? n : "");
    if (!e->sec[i].name) {
      free(name_off);
      snprintf(err, errlen, "out of memory");
      mh_elf_free(e);
      return -1;
    }
  }
  free(name_off);
  return 0;
}

/* Calls fn on each symbol of .symtab until it returns nonzero. */
static int each_symbol(const mh_elf *e,
                       int (*fn)(void *ctx, const char *name, uint64_t value,
                                 uint64_t size),
                       void *ctx) {
  for (size_t i = 0; i < e->n_sec; i++) {
    const mh_elf_section *st = &e->sec[i];
    if (st->type != SHT_SYMTAB || st->link >= e->n_sec || st->offset > e->len ||
        st->size > e->len - st->offset)
      continue;
    size_t ent = e->is64 ? 24 : 16;
    for (uint64_t k = 1; k < st->size / ent; k++) {
      size_t o = (size_t)(st->offset + k * ent);
      const char *n = elf_str(e, &e->sec[st->link], rd(e, o, 4));
      uint64_t value = e->is64 ? rd(e, o + 8, 8) : rd(e, o + 4, 4);
      uint64_t size = e->is64 ? rd(e, o + 16, 8) : rd(e, o + 8, 4);
      if (n && fn(ctx, n, value, size))
        return 1;
    }
  }
  return 0;
}

typedef struct {
  const char *name;
  uint64_t value, size;
} sym_query;

static int by_name(void *ctx, const char *name, uint64_t value, uint64_t size) {
  sym_query *q = ctx;
  if (strcmp(name, q->name) != 0)
    return 0;
  q->value = value;
  q->size = size;
  return 1;
}

static int by_value(void *ctx, const char *name, uint64_t value,
                    uint64_t size) {
  sym_query *q = ctx;
  (void)name;
  if (value != q->value || size == 0)
    return 0;
  q->size = size;
  return 1;
}

int mh_elf_symbol(const mh_elf *e, const char *name, uint64_t *value,
                  uint64_t *size) {
  sym_query q = {.name = name};
  if (!each_symbol(e, by_name, &q))
    return -1;
  *value = q.value;
  if (size)
    *size = q.size;
  return 0;
}

int mh_elf_symbol_at(const mh_elf *e, uint64_t value, uint64_t *size) {
  sym_query q = {.value = value};
  if (!each_symbol(e, by_value, &q))
    return -1;
  *size = q.size;
  return 0;
}

int mh_elf_read(const mh_elf *e, uint64_t addr, void *out, size_t n) {
  for (size_t i = 0; i < e->n_sec; i++) {
    const mh_elf_section *s = &e->sec[i];
    if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOBITS || addr < s->addr ||
        addr - s->addr > s->size || s->size - (addr - s->addr) < n)
      continue;
    uint64_t off = s->offset + (addr - s->addr);
    if (off > e->len || e->len - off < n)
      return -1;
    memcpy(out, e->buf + off, n);
    return 0;
  }
  return -1;
}

/* The stack and heap reservations of the linker scripts (mps2.ld: .heap
 * fills the RAM between .bss and the stack, .stack is STACK_SIZE): memory
 * set aside at link time, not static data of any code. */
static const char *const RESERVED_SECTIONS[] = {".heap", ".stack",
                                                "._user_heap_stack"};

mh_section_role mh_elf_section_role(const mh_elf_section *s) {
  if (!(s->flags & SHF_ALLOC))
    return MH_ROLE_NONE;
  if (s->type == SHT_NOBITS) {
    for (size_t i = 0; i < sizeof RESERVED_SECTIONS / sizeof *RESERVED_SECTIONS;
         i++)
      if (strcmp(s->name, RESERVED_SECTIONS[i]) == 0)
        return MH_ROLE_RESERVED;
    return MH_ROLE_BSS;
  }
  if (s->flags & SHF_EXECINSTR)
    return MH_ROLE_TEXT;
  if (s->flags & SHF_WRITE)
    return MH_ROLE_DATA;
  return MH_ROLE_RODATA;
}

static void add_role(mh_sections *t, mh_section_role r, uint64_t n) {
  switch (r) {
  case MH_ROLE_TEXT:
    t->text += n;
    break;
  case MH_ROLE_RODATA:
    t->rodata += n;
    break;
  case MH_ROLE_DATA:
    t->data += n;
    break;
  case MH_ROLE_BSS:
    t->bss += n;
    break;
  default:
    break;
  }
}

void mh_elf_sections(const mh_elf *e, mh_sections *out) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < e->n_sec; i++)
    add_role(out, mh_elf_section_role(&e->sec[i]), e->sec[i].size);
}

uint64_t mh_sections_flash(const mh_sections *s) {
  return s->text + s->rodata + s->data;
}

uint64_t mh_sections_ram(const mh_sections *s) { return s->data + s->bss; }

/* ---- the adapter's variant string ---------------------------------------- */

/* mcore_backend ends {..., impls, n_impls} and mcore_impl {..., variant,
 * vt}, with pointer-sized fields at the end: the offsets follow from the
 * sizes of the objects (their symbols' sizes), whatever the target's enum
 * size (arm-none-eabi uses short enums: mcore_impl is 12 bytes there, 16 on
 * a 32-bit target with int enums). Checked against the host's own layout,
 * so that a change of mcore.h breaks this build rather than the reader. */
_Static_assert(offsetof(mcore_backend, impls) ==
                   sizeof(mcore_backend) - 2 * sizeof(void *),
               "mcore_backend layout changed: update mh_elf_variant");
_Static_assert(offsetof(mcore_backend, n_impls) ==
                   sizeof(mcore_backend) - sizeof(void *),
               "mcore_backend layout changed: update mh_elf_variant");
_Static_assert(offsetof(mcore_impl, variant) ==
                   sizeof(mcore_impl) - 2 * sizeof(void *),
               "mcore_impl layout changed: update mh_elf_variant");

static int read_ptr(const mh_elf *e, uint64_t addr, uint64_t *v) {
  uint8_t b[8];
  size_t p = e->is64 ? 8 : 4;
  if (mh_elf_read(e, addr, b, p) != 0)
    return -1;
  *v = 0;
  for (size_t i = 0; i < p; i++)
    *v = (*v << 8) | b[e->big_endian ? i : p - 1 - i];
  return 0;
}

char *mh_elf_variant(const mh_elf *e, const char *backend) {
  char sym[96];
  size_t n = (size_t)snprintf(sym, sizeof sym, "mbe_%s_backend", backend);
  for (size_t i = 4; i < n && i < sizeof sym; i++)
    if (sym[i] == '-')
      sym[i] = '_';
  uint64_t be, be_size, impls, impls_size, count, var;
  uint64_t p = e->is64 ? 8 : 4;
  char s[64];
  if (mh_elf_symbol(e, sym, &be, &be_size) != 0 || be_size < 2 * p ||
      read_ptr(e, be + be_size - 2 * p, &impls) ||
      read_ptr(e, be + be_size - p, &count) || count == 0 ||
      mh_elf_symbol_at(e, impls, &impls_size) != 0 || impls_size % count != 0 ||
      impls_size / count < 2 * p ||
      read_ptr(e, impls + impls_size / count - 2 * p, &var))
    return strdup("");
  size_t k = 0;
  for (; k < sizeof s; k++) {
    if (mh_elf_read(e, var + k, &s[k], 1) != 0)
      return strdup("");
    if (s[k] == '\0')
      break;
    if (s[k] < 0x20 || s[k] > 0x7e)
      return strdup(""); /* not the string we expected */
  }
  if (k == 0 || k == sizeof s)
    return strdup("");
  return strdup(s);
}

/* ---- GNU ld map ------------------------------------------------------- */

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
 * src/backends/<name>/backend.cmake, the toolchain's C library (newlib,
 * newlib-nano, glibc's static part) and libgcc. */
static const struct {
  const char *stem, *label;
  int prefix; /* stem is a prefix (per-pair copies: mbedtls_lib_sz3) */
} ARCHIVES[] = {
    {"wolfssl_lib", "wolfcrypt", 0},
    {"mbedtls_lib", "mbedtls", 1},
    {"pqclean_lib", "pqclean", 0},
    {"mlkem_native_lib", "mlkem-native", 0},
    {"mldsa_native_lib", "mldsa-native", 0},
    {"merlin_awslc_fips202", "aws-lc-fips202", 0},
    {"libsodium_lib", "libsodium", 0},
    {"bearssl_lib", "bearssl", 0},
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

/* ---- attribution ------------------------------------------------------ */

static int lib_add(mh_alg_size *s, const char *name, uint64_t flash,
                   uint64_t ram) {
  for (size_t i = 0; i < s->n_libs; i++)
    if (strcmp(s->libs[i].library, name) == 0) {
      s->libs[i].flash_bytes += flash;
      s->libs[i].ram_bytes += ram;
      return 0;
    }
  mh_lib_size *v = realloc(s->libs, (s->n_libs + 1) * sizeof *v);
  if (!v)
    return -1;
  s->libs = v;
  v[s->n_libs].library = strdup(name);
  if (!v[s->n_libs].library)
    return -1;
  v[s->n_libs].flash_bytes = flash;
  v[s->n_libs].ram_bytes = ram;
  s->n_libs++;
  return 0;
}

static int lib_cmp(const void *a, const void *b) {
  const mh_lib_size *x = a, *y = b;
  if (x->flash_bytes != y->flash_bytes)
    return x->flash_bytes < y->flash_bytes ? 1 : -1;
  if (x->ram_bytes != y->ram_bytes)
    return x->ram_bytes < y->ram_bytes ? 1 : -1;
  return strcmp(x->library, y->library);
}

int mh_sizes_attribute(const mh_elf *e, const mh_map *m, mh_alg_size *s,
                       char *err, size_t errlen) {
  mh_elf_sections(e, &s->image);
  uint64_t rodata_in_text = 0, attributed = 0;
  const mh_elf_section *last = NULL;
  for (size_t i = 0; i < m->n; i++) {
    const mh_map_input *in = &m->v[i];
    if (!last || strcmp(last->name, in->output) != 0) {
      last = NULL;
      for (size_t k = 0; k < e->n_sec && !last; k++)
        if (strcmp(e->sec[k].name, in->output) == 0)
          last = &e->sec[k];
      if (!last)
        continue; /* discarded or empty output section */
    }
    mh_section_role r = mh_elf_section_role(last);
    if (r == MH_ROLE_NONE || r == MH_ROLE_RESERVED)
      continue;
    /* Merged sections (SHF_MERGE string literals): the map gives each input
     * its size before merging and places the next input at the address
     * where the merged bytes stop, so an input holds only the bytes up to
     * the next one or the end of its output section. */
    uint64_t size = in->size;
    uint64_t sec_end = last->addr + last->size;
    if (in->addr >= last->addr && in->addr <= sec_end &&
        sec_end - in->addr < size)
      size = sec_end - in->addr;
    if (i + 1 < m->n && strcmp(m->v[i + 1].output, in->output) == 0 &&
        m->v[i + 1].addr >= in->addr && m->v[i + 1].addr - in->addr < size)
      size = m->v[i + 1].addr - in->addr;
    uint64_t flash = r == MH_ROLE_BSS ? 0 : size;
    uint64_t ram = r == MH_ROLE_DATA || r == MH_ROLE_BSS ? size : 0;
    /* Read-only data placed in an executable output section (mps2.ld puts
     * *(.rodata*) in .text). */
    if (r == MH_ROLE_TEXT && starts(in->input, ".rodata"))
      rodata_in_text += size;
    char lib[128];
    mh_map_library(in->input, in->file, lib, sizeof lib);
    if (lib_add(s, lib, flash, ram) != 0) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    attributed += flash;
  }
  if (rodata_in_text <= s->image.text) {
    s->image.text -= rodata_in_text;
    s->image.rodata += rodata_in_text;
  }
  s->image_flash = mh_sections_flash(&s->image);
  s->image_ram = mh_sections_ram(&s->image);
  s->unattributed_flash = (int64_t)s->image_flash - (int64_t)attributed;
  if (s->n_libs > 1)
    qsort(s->libs, s->n_libs, sizeof *s->libs, lib_cmp);
  return 0;
}

void mh_alg_size_free(mh_alg_size *s) {
  if (!s)
    return;
  free(s->alg);
  free(s->backend);
  free(s->variant);
  for (size_t i = 0; i < s->n_libs; i++)
    free(s->libs[i].library);
  free(s->libs);
  memset(s, 0, sizeof *s);
}

int mh_sizes_image(const char *elf_path, const char *map_path, const char *alg,
                   const char *backend, mh_alg_size *out, char *err,
                   size_t errlen) {
  memset(out, 0, sizeof *out);
  char *ebuf = NULL, *mbuf = NULL;
  size_t elen = 0, mlen = 0;
  mh_elf e;
  mh_map m;
  memset(&e, 0, sizeof e);
  memset(&m, 0, sizeof m);
  char sub[512];
  int rc = -1;
  if (mh_read_file(elf_path, MAX_ELF_BYTES, &ebuf, &elen, err, errlen) != 0 ||
      mh_read_file(map_path, MAX_MAP_BYTES, &mbuf, &mlen, err, errlen) != 0)
    goto out;
  if (mh_elf_parse((const uint8_t *)ebuf, elen, &e, sub, sizeof sub) != 0) {
    snprintf(err, errlen, "%s: %s", elf_path, sub);
    goto out;
  }
  if (mh_map_parse(mbuf, mlen, &m, sub, sizeof sub) != 0) {
    snprintf(err, errlen, "%s: %s", map_path, sub);
    goto out;
  }
  if (mh_sizes_attribute(&e, &m, out, err, errlen) != 0)
    goto out;
  out->alg = alg ? strdup(alg) : NULL;
  out->backend = backend ? strdup(backend) : NULL;
  out->variant = backend ? mh_elf_variant(&e, backend) : NULL;
  if ((alg && !out->alg) || (backend && (!out->backend || !out->variant))) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  rc = 0;
out:
  if (rc != 0)
    mh_alg_size_free(out);
  mh_map_free(&m);
  mh_elf_free(&e);
  free(ebuf);
  free(mbuf);
  return rc;
}

/* ---- building the size images -------------------------------------------- */

char *mh_sizes_build_dir(const char *root, const char *target,
                         const char *profile_name) {
  mh_sb b = {0};
  mh_sb_printf(&b, "%s/build/img/%s-%s-sizes", root, target, profile_name);
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One line of sizes/manifest.txt (cmake/MerlinImage.cmake). */
typedef struct {
  char *kind, *alg, *backend, *target, *image, *map;
} manifest_entry;

static void manifest_free(manifest_entry *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].kind);
    free(v[i].alg);
    free(v[i].backend);
    free(v[i].target);
    free(v[i].image);
    free(v[i].map);
  }
  free(v);
}

static int manifest_read(const char *path, manifest_entry **out, size_t *n,
                         char *err, size_t errlen) {
  char *buf;
  size_t len;
  *out = NULL;
  *n = 0;
  if (mh_read_file(path, (size_t)1 << 20, &buf, &len, err, errlen) != 0)
    return -1;
  manifest_entry *v = NULL;
  size_t cnt = 0;
  char *save = NULL;
  for (char *line = strtok_r(buf, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#' || !line[0])
      continue;
    char *f[6];
    size_t k = 0;
    for (char *c = line; k < 6; k++) {
      f[k] = c;
      char *tab = strchr(c, '\t');
      if (!tab)
        break;
      *tab = '\0';
      c = tab + 1;
    }
    if (k != 5) {
      snprintf(err, errlen, "%s: malformed line '%s'", path, line);
      goto fail;
    }
    manifest_entry *nv = realloc(v, (cnt + 1) * sizeof *nv);
    if (!nv)
      goto oom;
    v = nv;
    manifest_entry *e = &v[cnt++];
    e->kind = strdup(f[0]);
    e->alg = strdup(f[1]);
    e->backend = strdup(f[2]);
    e->target = strdup(f[3]);
    e->image = strdup(f[4]);
    e->map = strdup(f[5]);
    if (!e->kind || !e->alg || !e->backend || !e->target || !e->image ||
        !e->map)
      goto oom;
  }
  free(buf);
  *out = v;
  *n = cnt;
  return 0;
oom:
  snprintf(err, errlen, "out of memory");
fail:
  manifest_free(v, cnt);
  free(buf);
  return -1;
}

/* The manifest must list the baseline, then exactly the profile's routes in
 * its order (mh_profile_cmake writes MERLIN_PROFILE_ROUTES that way). */
static int manifest_check(const manifest_entry *v, size_t n,
                          const mh_profile *p, char *err, size_t errlen) {
  size_t i = 0;
  if (n == 0 || strcmp(v[0].kind, "baseline") != 0) {
    snprintf(err, errlen, "size manifest has no baseline image first");
    return -1;
  }
  i = 1;
  for (size_t a = 0; a < MH_N_ALGS; a++)
    for (size_t k = 0; k < p->n_routes[a]; k++, i++) {
      const char *b = mh_backends[p->routes[a][k]].name;
      if (i >= n || strcmp(v[i].kind, "pair") != 0 ||
          strcmp(v[i].alg, mh_algs[a].id) != 0 || strcmp(v[i].backend, b)) {
        snprintf(err, errlen,
                 "size manifest does not match the profile at %s (%s): "
                 "reconfigure by deleting the build directory",
                 mh_algs[a].id, b);
        return -1;
      }
    }
  if (i != n) {
    snprintf(err, errlen, "size manifest lists more images than routes");
    return -1;
  }
  return 0;
}

static const char STAMP[] = ".merlin-configured";

/* Build the images of the manifest one at a time, for the progress lines
 * (the libraries are compiled by the first image that needs them, the
 * others relink), then measure them. */
static int build_and_measure(const char *root, const char *bdir,
                             const mh_target *t, const mh_profile *p, int quiet,
                             int logfd, double t0, mh_sizes *out, char *err,
                             size_t errlen) {
  char *manifest = mh_path_join(bdir, "sizes/manifest.txt");
  char *img = mh_path_join(bdir, "sizes");
  manifest_entry *mf = NULL;
  size_t n_mf = 0;
  int rc = -1;
  if (!manifest || !img) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  if (manifest_read(manifest, &mf, &n_mf, err, errlen) != 0) {
    size_t l = strlen(err);
    snprintf(err + l, errlen - l, " (is %s configured with -DMERLIN_SIZES=ON?)",
             bdir);
    goto out;
  }
  if (manifest_check(mf, n_mf, p, err, errlen) != 0)
    goto out;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  char jobs[24];
  snprintf(jobs, sizeof jobs, "%ld", ncpu > 0 ? ncpu : 1);
  for (size_t i = 0; i < n_mf; i++) {
    int base = strcmp(mf[i].kind, "baseline") == 0;
    if (!quiet)
      fprintf(stderr, "sizes: %s: %zu/%zu %s (%s)\n", t->id, i + 1, n_mf,
              base ? "baseline" : mf[i].alg,
              base ? "no algorithm" : mf[i].backend);
    char *bargv[] = {"cmake",      "--build",    (char *)bdir, "--target",
                     mf[i].target, "--parallel", jobs,         NULL};
    if (mh_run_logged(bargv, root, logfd, err, errlen) != 0) {
      size_t l = strlen(err);
      snprintf(err + l, errlen - l, " (building the %s image)",
               base ? "baseline" : mf[i].alg);
      rc = -2; /* show the log */
      goto out;
    }
  }
  out->build_seconds = now_s() - t0;
  out->algs = calloc(n_mf, sizeof *out->algs);
  if (!out->algs) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < n_mf; i++) {
    int base = strcmp(mf[i].kind, "baseline") == 0;
    char *ip = mh_path_join(img, mf[i].image);
    char *mp = mh_path_join(img, mf[i].map);
    mh_alg_size *dst = base ? &out->baseline : &out->algs[out->n_algs];
    int r = ip && mp
                ? mh_sizes_image(ip, mp, base ? NULL : mf[i].alg,
                                 base ? NULL : mf[i].backend, dst, err, errlen)
                : (snprintf(err, errlen, "out of memory"), -1);
    free(ip);
    free(mp);
    if (r != 0)
      goto out;
    if (!base)
      out->n_algs++;
  }
  for (size_t i = 0; i < out->n_algs; i++) {
    mh_alg_size *a = &out->algs[i];
    a->flash_bytes =
        (int64_t)a->image_flash - (int64_t)out->baseline.image_flash;
    a->ram_bytes = (int64_t)a->image_ram - (int64_t)out->baseline.image_ram;
  }
  out->total_seconds = now_s() - t0;
  rc = 0;
out:
  manifest_free(mf, n_mf);
  free(manifest);
  free(img);
  return rc;
}

static int sizes_run(const char *root, const char *bdir, int configure,
                     const mh_target *t, const char *profile_name,
                     const mh_profile *p, int quiet, mh_sizes *out, char *err,
                     size_t errlen) {
  memset(out, 0, sizeof *out);
  double t0 = now_s();
  char *pdir = mh_path_join(bdir, "profile");
  char *log = mh_path_join(bdir, "sizes-build.log");
  char *stamp = mh_path_join(bdir, STAMP);
  char *hdr = mh_profile_header(profile_name, p);
  char *cml = mh_profile_cmake(profile_name, p);
  char *hp = pdir ? mh_path_join(pdir, "merlin_profile.h") : NULL;
  char *cp = pdir ? mh_path_join(pdir, "merlin_profile.cmake") : NULL;
  mh_sb def_dir = {0};
  int rc = -1, logfd = -1, ch1 = 0, ch2 = 0;
  if (!pdir || !log || !stamp || !hdr || !cml || !hp || !cp) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  out->target = strdup(t->id);
  out->profile = strdup(profile_name);
  out->build_dir = strdup(bdir);
  if (!out->target || !out->profile || !out->build_dir) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  if (configure &&
      (mh_mkdir_p(pdir, err, errlen) != 0 ||
       mh_write_if_changed(hp, hdr, strlen(hdr), &ch1, err, errlen) != 0 ||
       mh_write_if_changed(cp, cml, strlen(cml), &ch2, err, errlen) != 0))
    goto out;
  if (!configure && mh_mkdir_p(bdir, err, errlen) != 0)
    goto out;
  logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (logfd < 0) {
    snprintf(err, errlen, "cannot create %s: %s", log, strerror(errno));
    goto out;
  }
  /* Configured once; later runs let the build tool compile what changed
   * and relink. */
  if (configure && (ch1 || ch2 || !mh_file_in(bdir, "CMakeCache.txt") ||
                    !mh_file_in(bdir, STAMP))) {
    unlink(stamp);
    if (!quiet)
      fprintf(stderr, "sizes: %s: configuring %s\n", t->id,
              mh_path_display(root, bdir));
    mh_sb_printf(&def_dir, "-DMERLIN_PROFILE_DIR=%s", pdir);
    if (def_dir.failed) {
      snprintf(err, errlen, "out of memory");
      goto out;
    }
    char *argv[] = {"cmake",
                    "--preset",
                    (char *)t->id,
                    "-B",
                    (char *)bdir,
                    "-DMERLIN_IMAGE=ON",
                    "-DMERLIN_TOOLS=OFF",
                    "-DMERLIN_SIZES=ON",
                    "-DMERLIN_KAT_CORRUPT=",
                    "-DMERLIN_TEST_FAULT=",
                    def_dir.s,
                    NULL};
    if (mh_run_logged(argv, root, logfd, err, errlen) != 0)
      goto fail;
    int sfd = open(stamp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (sfd >= 0)
      close(sfd);
  }
  rc = build_and_measure(root, bdir, t, p, quiet, logfd, t0, out, err, errlen);
  if (rc == -2)
    goto fail;
  goto out;
fail:
  rc = -1;
  if (!mh_exec_signal_received())
    mh_build_log_tail(log);
  {
    size_t l = strlen(err);
    snprintf(err + l, errlen - l, "; full log: %s", log);
  }
out:
  if (logfd >= 0)
    close(logfd);
  if (rc != 0)
    mh_sizes_free(out);
  mh_sb_free(&def_dir);
  free(pdir);
  free(log);
  free(stamp);
  free(hdr);
  free(cml);
  free(hp);
  free(cp);
  return rc;
}

int mh_sizes_measure(const char *root, const mh_target *t,
                     const char *profile_name, const mh_profile *p, int quiet,
                     mh_sizes *out, char *err, size_t errlen) {
  char *bdir = mh_sizes_build_dir(root, t->id, profile_name);
  if (!bdir) {
    memset(out, 0, sizeof *out);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int rc =
      sizes_run(root, bdir, 1, t, profile_name, p, quiet, out, err, errlen);
  free(bdir);
  return rc;
}

int mh_sizes_measure_tree(const char *root, const char *build_dir,
                          const mh_target *t, const char *profile_name,
                          const mh_profile *p, int quiet, mh_sizes *out,
                          char *err, size_t errlen) {
  return sizes_run(root, build_dir, 0, t, profile_name, p, quiet, out, err,
                   errlen);
}

void mh_sizes_free(mh_sizes *s) {
  if (!s)
    return;
  free(s->target);
  free(s->profile);
  free(s->build_dir);
  mh_alg_size_free(&s->baseline);
  for (size_t i = 0; i < s->n_algs; i++)
    mh_alg_size_free(&s->algs[i]);
  free(s->algs);
  memset(s, 0, sizeof *s);
}

/* ---- JSON --------------------------------------------------------------- */

static int jset(json_t *o, const char *k, json_t *v) {
  return v ? json_object_set_new(o, k, v) : -1;
}

static json_t *sections_json(const mh_alg_size *s) {
  json_t *o = json_object();
  if (!o)
    return NULL;
  int bad = jset(o, "text", json_integer((json_int_t)s->image.text)) |
            jset(o, "rodata", json_integer((json_int_t)s->image.rodata)) |
            jset(o, "data", json_integer((json_int_t)s->image.data)) |
            jset(o, "bss", json_integer((json_int_t)s->image.bss)) |
            jset(o, "flash_bytes", json_integer((json_int_t)s->image_flash)) |
            jset(o, "ram_bytes", json_integer((json_int_t)s->image_ram)) |
            jset(o, "unattributed_flash_bytes",
                 json_integer((json_int_t)s->unattributed_flash));
  if (bad) {
    json_decref(o);
    return NULL;
  }
  return o;
}

static const mh_lib_size *find_lib(const mh_alg_size *s, const char *name) {
  for (size_t i = 0; i < s->n_libs; i++)
    if (strcmp(s->libs[i].library, name) == 0)
      return &s->libs[i];
  return NULL;
}

/* The libraries of s; with base, also what each adds to base. */
static json_t *libs_json(const mh_alg_size *s, const mh_alg_size *base) {
  json_t *a = json_array();
  if (!a)
    return NULL;
  for (size_t i = 0; i < s->n_libs; i++) {
    const mh_lib_size *l = &s->libs[i];
    json_t *o = json_object();
    int bad =
        !o ||
        jset(o, "library", json_string(l->library)) |
            jset(o, "flash_bytes", json_integer((json_int_t)l->flash_bytes)) |
            jset(o, "ram_bytes", json_integer((json_int_t)l->ram_bytes));
    if (!bad && base) {
      const mh_lib_size *b = find_lib(base, l->library);
      bad = jset(o, "flash_added",
                 json_integer((json_int_t)l->flash_bytes -
                              (json_int_t)(b ? b->flash_bytes : 0))) |
            jset(o, "ram_added",
                 json_integer((json_int_t)l->ram_bytes -
                              (json_int_t)(b ? b->ram_bytes : 0)));
    }
    if (bad || json_array_append_new(a, o) != 0) {
      if (bad)
        json_decref(o);
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

json_t *mh_sizes_json(const mh_sizes *s) {
  json_t *o = json_object(), *algs = json_array(), *base = json_object(),
         *excl = json_array();
  int bad = !o || !algs || !base || !excl;
  for (size_t i = 0;
       !bad && i < sizeof RESERVED_SECTIONS / sizeof *RESERVED_SECTIONS; i++)
    bad = json_array_append_new(excl, json_string(RESERVED_SECTIONS[i])) != 0;
  if (!bad)
    bad = jset(base, "image", sections_json(&s->baseline)) |
          jset(base, "libraries", libs_json(&s->baseline, NULL));
  for (size_t i = 0; !bad && i < s->n_algs; i++) {
    const mh_alg_size *a = &s->algs[i];
    json_t *r = json_object();
    bad = !r || jset(r, "algorithm", json_string(a->alg)) |
                    jset(r, "backend", json_string(a->backend)) |
                    jset(r, "variant", json_string(a->variant)) |
                    jset(r, "flash_bytes", json_integer(a->flash_bytes)) |
                    jset(r, "ram_bytes", json_integer(a->ram_bytes)) |
                    jset(r, "image", sections_json(a)) |
                    jset(r, "libraries", libs_json(a, &s->baseline));
    if (bad)
      json_decref(r);
    else if (json_array_append_new(algs, r) != 0) /* r is released */
      bad = 1;
  }
  if (!bad)
    bad = jset(o, "target", json_string(s->target)) |
          jset(o, "profile", json_string(s->profile)) |
          jset(o, "method",
               json_string("one image per (algorithm, backend) holding only "
                           "it, minus an empty baseline image, all linked "
                           "with --gc-sections; flash = text + rodata + "
                           "data, static RAM = data + bss (docs/sizes.md)")) |
          jset(o, "excluded_sections", excl) |
          jset(o, "build_seconds", json_real(s->build_seconds)) |
          jset(o, "baseline", base) | jset(o, "algorithms", algs);
  else {
    json_decref(excl);
    json_decref(base);
    json_decref(algs);
  }
  if (bad) {
    json_decref(o);
    return NULL;
  }
  return o;
}
