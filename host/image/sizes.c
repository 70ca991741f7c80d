/* SPDX-License-Identifier: Apache-2.0 */
#include "image/sizes.h"

#include "mcore.h"
#include "util/fsutil.h"

#include <elf.h> /* SHT_*, SHF_* */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest map file read. */
#define MAX_MAP_BYTES ((size_t)256 << 20)

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- what a section holds ------------------------------------------------ */

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

/* ---- attribution ------------------------------------------------------ */

static int lib_add(mh_alg_size *s, const char *name, uint64_t flash,
                   uint64_t ram, uint64_t data) {
  for (size_t i = 0; i < s->n_libs; i++)
    if (strcmp(s->libs[i].library, name) == 0) {
      s->libs[i].flash_bytes += flash;
      s->libs[i].ram_bytes += ram;
      s->libs[i].data_bytes += data;
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
  v[s->n_libs].data_bytes = data;
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
    if (lib_add(s, lib, flash, ram, r == MH_ROLE_DATA ? size : 0) != 0) {
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
  char *mbuf = NULL;
  size_t mlen = 0;
  mh_elf e;
  mh_map m;
  memset(&e, 0, sizeof e);
  memset(&m, 0, sizeof m);
  char sub[512];
  int rc = -1;
  if (mh_elf_open(elf_path, &e, err, errlen) != 0 ||
      mh_read_file(map_path, MAX_MAP_BYTES, &mbuf, &mlen, err, errlen) != 0)
    goto out;
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
  free(mbuf);
  return rc;
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
