/* SPDX-License-Identifier: Apache-2.0 */
#include "elfsyms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static int cmp_sym(const void *a, const void *b) {
  const es_sym *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return strcmp(x->name, y->name);
}

int es_load(const char *path, es_table *t, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot open %s", path);
    return -1;
  }
  uint8_t *buf = NULL;
  long len = -1;
  if (fseek(f, 0, SEEK_END) == 0)
    len = ftell(f);
  if (len > 52 && fseek(f, 0, SEEK_SET) == 0) {
    buf = malloc((size_t)len);
    if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
      free(buf);
      buf = NULL;
    }
  }
  fclose(f);
  if (!buf) {
    snprintf(err, errlen, "cannot read %s", path);
    return -1;
  }
  size_t size = (size_t)len;
  if (memcmp(buf, "\177ELF", 4) != 0 || buf[4] != 1 || buf[5] != 1) {
    snprintf(err, errlen, "%s is not a 32-bit little-endian ELF file", path);
    free(buf);
    return -1;
  }
  uint32_t shoff = rd32(buf + 32);
  uint16_t shentsize = rd16(buf + 46), shnum = rd16(buf + 48);
  if (shentsize < 40 || (uint64_t)shoff + (uint64_t)shnum * shentsize > size) {
    snprintf(err, errlen, "%s: bad section header table", path);
    free(buf);
    return -1;
  }
  for (uint16_t s = 0; s < shnum; s++) {
    const uint8_t *sh = buf + shoff + (size_t)s * shentsize;
    if (rd32(sh + 4) != 2) /* SHT_SYMTAB */
      continue;
    uint32_t off = rd32(sh + 16), sz = rd32(sh + 20), link = rd32(sh + 24);
    uint32_t ent = rd32(sh + 36);
    if (link >= shnum || ent < 16 || (uint64_t)off + sz > size)
      break;
    const uint8_t *lh = buf + shoff + (size_t)link * shentsize;
    uint32_t soff = rd32(lh + 16), ssz = rd32(lh + 20);
    if ((uint64_t)soff + ssz > size || ssz == 0)
      break;
    t->strings = malloc(ssz + 1u);
    t->sym = calloc(sz / ent + 1u, sizeof *t->sym);
    if (!t->strings || !t->sym)
      break;
    memcpy(t->strings, buf + soff, ssz);
    t->strings[ssz] = '\0';
    for (uint32_t k = 0; k + ent <= sz; k += ent) {
      const uint8_t *e = buf + off + k;
      uint32_t name = rd32(e), value = rd32(e + 4), fsz = rd32(e + 8);
      if ((e[12] & 0xf) != 2 || fsz == 0 || name >= ssz) /* STT_FUNC */
        continue;
      t->sym[t->n].addr = value & ~1u;
      t->sym[t->n].size = fsz;
      t->sym[t->n].name = t->strings + name;
      t->n++;
    }
    break;
  }
  free(buf);
  if (!t->sym || !t->strings) {
    free(t->sym);
    free(t->strings);
    memset(t, 0, sizeof *t);
    snprintf(err, errlen, "%s has no symbol table (stripped image?)", path);
    return -1;
  }
  qsort(t->sym, t->n, sizeof *t->sym, cmp_sym);
  return 0;
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
