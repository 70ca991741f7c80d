/* SPDX-License-Identifier: Apache-2.0 */
#include "image/elffile.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t version_once = PTHREAD_ONCE_INIT;
static int version_ok;

static void set_version(void) {
  version_ok = elf_version(EV_CURRENT) != EV_NONE;
}

void mh_elf_free(mh_elf *e) {
  if (!e)
    return;
  for (size_t i = 0; i < e->n_sec; i++)
    free(e->sec[i].name);
  free(e->sec);
  if (e->elf)
    elf_end(e->elf);
  memset(e, 0, sizeof *e);
}

/* The header and section headers of e->elf (which e owns from here). */
static int load(mh_elf *e, const char *what, char *err, size_t errlen) {
  Elf *elf = e->elf;
  if (!elf) {
    snprintf(err, errlen, "%s: %s", what, elf_errmsg(-1));
    return -1;
  }
  if (elf_kind(elf) != ELF_K_ELF) {
    snprintf(err, errlen, "not an ELF file");
    return -1;
  }
  GElf_Ehdr eh;
  const char *id = elf_getident(elf, NULL);
  if (!gelf_getehdr(elf, &eh) || !id) {
    snprintf(err, errlen, "truncated or damaged ELF header (%s)",
             elf_errmsg(-1));
    return -1;
  }
  e->is64 = gelf_getclass(elf) == ELFCLASS64;
  e->big_endian = id[EI_DATA] == ELFDATA2MSB;
  e->type = eh.e_type;
  e->machine = eh.e_machine;
  size_t shnum, shstrndx;
  if (elf_getshdrnum(elf, &shnum) != 0) {
    snprintf(err, errlen, "bad ELF section header table (%s)", elf_errmsg(-1));
    return -1;
  }
  /* libelf counts no sections when the table lies outside the file. */
  if (shnum == 0 && eh.e_shoff != 0) {
    snprintf(err, errlen,
             "truncated ELF file: its section header table (offset %llu) "
             "lies outside it",
             (unsigned long long)eh.e_shoff);
    return -1;
  }
  if (shnum == 0) {
    snprintf(err, errlen, "ELF file has no section headers");
    return -1;
  }
  if (elf_getshdrstrndx(elf, &shstrndx) != 0 || shstrndx >= shnum) {
    snprintf(err, errlen, "bad ELF section string table index");
    return -1;
  }
  e->sec = calloc(shnum, sizeof *e->sec);
  if (!e->sec) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  e->n_sec = shnum;
  for (size_t i = 0; i < shnum; i++) {
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(elf, i);
    if (!scn || !gelf_getshdr(scn, &sh)) {
      snprintf(err, errlen, "bad ELF section header %zu (%s)", i,
               elf_errmsg(-1));
      return -1;
    }
    mh_elf_section *s = &e->sec[i];
    s->type = sh.sh_type;
    s->flags = sh.sh_flags;
    s->addr = sh.sh_addr;
    s->offset = sh.sh_offset;
    s->size = sh.sh_size;
    s->link = sh.sh_link;
    const char *n = elf_strptr(elf, shstrndx, sh.sh_name);
    s->name = strdup(n ? n : "");
    if (!s->name) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
  }
  return 0;
}

static int start(mh_elf *e, char *err, size_t errlen) {
  memset(e, 0, sizeof *e);
  pthread_once(&version_once, set_version);
  if (!version_ok) {
    snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
    return -1;
  }
  return 0;
}

int mh_elf_parse(const uint8_t *buf, size_t len, mh_elf *e, char *err,
                 size_t errlen) {
  if (start(e, err, errlen) != 0)
    return -1;
  /* elf_memory reads the image in place; nothing here asks libelf to
   * update it. */
  e->elf = elf_memory((char *)(uintptr_t)buf, len);
  if (load(e, "truncated or damaged ELF file", err, errlen) != 0) {
    mh_elf_free(e);
    return -1;
  }
  return 0;
}

int mh_elf_open(const char *path, mh_elf *e, char *err, size_t errlen) {
  if (start(e, err, errlen) != 0)
    return -1;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
    return -1;
  }
  /* ELF_C_FDREAD: the whole file in memory, so that fd can be closed. */
  e->elf = elf_begin(fd, ELF_C_READ, NULL);
  if (e->elf && elf_cntl(e->elf, ELF_C_FDREAD) != 0) {
    elf_end(e->elf);
    e->elf = NULL;
  }
  close(fd);
  char sub[256];
  if (load(e, "cannot read it as ELF", sub, sizeof sub) != 0) {
    snprintf(err, errlen, "%s: %s", path, sub);
    mh_elf_free(e);
    return -1;
  }
  return 0;
}

int mh_elf_each_symbol(const mh_elf *e,
                       int (*fn)(void *ctx, const mh_elf_sym *s), void *ctx) {
  size_t ent = gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT);
  for (size_t i = 0; ent && i < e->n_sec; i++) {
    if (e->sec[i].type != SHT_SYMTAB)
      continue;
    Elf_Data *d = elf_getdata(elf_getscn(e->elf, i), NULL);
    if (!d)
      continue; /* contents outside the file */
    uint64_t n = e->sec[i].size / ent;
    for (uint64_t k = 1; k < n && k <= INT32_MAX; k++) {
      GElf_Sym s;
      if (!gelf_getsym(d, (int)k, &s))
        break;
      mh_elf_sym sym = {.name = elf_strptr(e->elf, e->sec[i].link, s.st_name),
                        .value = s.st_value,
                        .size = s.st_size,
                        .type = GELF_ST_TYPE(s.st_info),
                        .bind = GELF_ST_BIND(s.st_info),
                        .shndx = s.st_shndx};
      int r = sym.name ? fn(ctx, &sym) : 0;
      if (r)
        return r;
    }
  }
  return 0;
}

typedef struct {
  const char *name;
  uint64_t value, size;
} sym_query;

static int by_name(void *ctx, const mh_elf_sym *s) {
  sym_query *q = ctx;
  if (strcmp(s->name, q->name) != 0)
    return 0;
  q->value = s->value;
  q->size = s->size;
  return 1;
}

static int by_value(void *ctx, const mh_elf_sym *s) {
  sym_query *q = ctx;
  if (s->value != q->value || s->size == 0)
    return 0;
  q->size = s->size;
  return 1;
}

int mh_elf_symbol(const mh_elf *e, const char *name, uint64_t *value,
                  uint64_t *size) {
  sym_query q = {.name = name};
  if (!mh_elf_each_symbol(e, by_name, &q))
    return -1;
  *value = q.value;
  if (size)
    *size = q.size;
  return 0;
}

int mh_elf_symbol_at(const mh_elf *e, uint64_t value, uint64_t *size) {
  sym_query q = {.value = value};
  if (!mh_elf_each_symbol(e, by_value, &q))
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
    /* The file's bytes, unconverted (pointers are read in the image's byte
     * order by the caller). */
    Elf_Data *d = elf_rawdata(elf_getscn(e->elf, i), NULL);
    uint64_t off = addr - s->addr;
    if (!d || !d->d_buf || d->d_size < off || d->d_size - off < n)
      return -1;
    memcpy(out, (const char *)d->d_buf + off, n);
    return 0;
  }
  return -1;
}
