/* SPDX-License-Identifier: Apache-2.0 */
#include "elfsyms.h"

#include "image/elffile.h"

#include <elf.h> /* SHT_SYMTAB, STT_FUNC */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_sym(const void *a, const void *b) {
  const es_sym *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* Two passes over the functions: count them and their names' bytes, then
 * copy them into t. */
typedef struct {
  es_table *t;
  const mh_elf *e;
  size_t n, bytes;
  unsigned type; /* STT_FUNC or STT_OBJECT */
} collect;

/* The symbols taken: of the type, with a size; for functions also those
 * without one, as assembly often leaves them (pqm4's keccakf1600.S: .type
 * %function, no .size), and global labels without a type in code (an
 * assembly function without .type); never the mapping symbols ($t, $d)
 * or local labels. */
static int wanted(const collect *c, const mh_elf_sym *s) {
  if (s->type == c->type && s->size != 0)
    return 1;
  if (c->type != STT_FUNC || s->name[0] == '$' || s->name[0] == '.' ||
      !s->name[0] || s->shndx == SHN_UNDEF || s->shndx >= c->e->n_sec ||
      !(c->e->sec[s->shndx].flags & SHF_EXECINSTR))
    return 0;
  return s->type == STT_FUNC ||
         (s->type == STT_NOTYPE && s->bind == STB_GLOBAL);
}

static int count_fn(void *ctx, const mh_elf_sym *s) {
  collect *c = ctx;
  if (wanted(c, s)) {
    c->n++;
    c->bytes += strlen(s->name) + 1;
  }
  return 0;
}

static int copy_fn(void *ctx, const mh_elf_sym *s) {
  collect *c = ctx;
  if (!wanted(c, s))
    return 0;
  size_t len = strlen(s->name) + 1;
  es_sym *d = &c->t->sym[c->t->n++];
  d->addr = (uint32_t)s->value & (c->type == STT_FUNC ? ~1u : ~0u);
  d->size = (uint32_t)s->size;
  /* a function without a size ends at its section's end at the latest */
  const mh_elf_section *sec = &c->e->sec[s->shndx];
  d->end = s->size ? d->addr + d->size : (uint32_t)(sec->addr + sec->size);
  d->name = memcpy(c->t->strings + c->bytes, s->name, len);
  c->bytes += len;
  return 0;
}

/* A function without an ELF size is bounded by the next symbol above it
 * (the next function starts where it ends, but for alignment padding that
 * never runs), or its section's end: the hashing profile then attributes
 * an assembly Keccak's cycles to it instead of to nothing. */
static void bound_sizeless(es_table *t) {
  for (size_t i = 0; i < t->n; i++) {
    if (t->sym[i].size)
      continue;
    uint32_t end = t->sym[i].end;
    for (size_t k = i + 1; k < t->n; k++)
      if (t->sym[k].addr > t->sym[i].addr) {
        if (t->sym[k].addr < end)
          end = t->sym[k].addr;
        break;
      }
    t->sym[i].size = end > t->sym[i].addr ? end - t->sym[i].addr : 0;
  }
}

static int load_type(const char *path, unsigned type, es_table *t, char *err,
                     size_t errlen) {
  memset(t, 0, sizeof *t);
  mh_elf e;
  if (mh_elf_open(path, &e, err, errlen) != 0)
    return -1;
  int rc = -1, has_symtab = 0;
  for (size_t i = 0; i < e.n_sec; i++)
    has_symtab |= e.sec[i].type == SHT_SYMTAB;
  collect c = {.t = t, .e = &e, .type = type};
  if (e.is64 || e.big_endian) {
    snprintf(err, errlen, "%s is not a 32-bit little-endian ELF file", path);
    goto out;
  }
  if (!has_symtab) {
    snprintf(err, errlen, "%s has no symbol table (stripped image?)", path);
    goto out;
  }
  mh_elf_each_symbol(&e, count_fn, &c);
  t->sym = calloc(c.n + 1, sizeof *t->sym);
  t->strings = malloc(c.bytes + 1);
  if (!t->sym || !t->strings) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  c.bytes = 0;
  mh_elf_each_symbol(&e, copy_fn, &c);
  qsort(t->sym, t->n, sizeof *t->sym, cmp_sym);
  bound_sizeless(t);
  rc = 0;
out:
  if (rc != 0) {
    free(t->sym);
    free(t->strings);
    memset(t, 0, sizeof *t);
  }
  mh_elf_free(&e);
  return rc;
}

int es_load(const char *path, es_table *t, char *err, size_t errlen) {
  return load_type(path, STT_FUNC, t, err, errlen);
}

int es_load_objects(const char *path, es_table *t, char *err, size_t errlen) {
  return load_type(path, STT_OBJECT, t, err, errlen);
}

int32_t es_find(const es_table *t, uint64_t addr) {
  size_t lo = 0, hi = t->n;
  while (lo < hi) { /* first symbol with sym.addr > addr */
    size_t mid = lo + (hi - lo) / 2;
    if (t->sym[mid].addr <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return -1;
  const es_sym *s = &t->sym[lo - 1];
  return addr < (uint64_t)s->addr + s->size ? (int32_t)(lo - 1) : -1;
}

int es_lookup(const es_table *t, const char *name) {
  for (size_t i = 0; i < t->n; i++)
    if (strcmp(t->sym[i].name, name) == 0)
      return (int)i;
  return -1;
}
