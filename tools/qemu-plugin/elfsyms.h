/* SPDX-License-Identifier: Apache-2.0 */
/* Function symbols of a 32-bit little-endian ARM ELF image, read with the
 * tree's one ELF reader (host/image/elffile.c, on libelf, compiled into the
 * plugin). */
#ifndef MERLIN_ELFSYMS_H
#define MERLIN_ELFSYMS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t addr; /* Thumb bit cleared */
  uint32_t size; /* an assembly function's without an ELF size: up to the
                  * next symbol or its section's end (elfsyms.c) */
  uint32_t end;  /* while loading: the section's end of a sizeless one */
  char *name;
} es_sym;

typedef struct {
  es_sym *sym; /* sorted by addr */
  size_t n;
  char *strings;
} es_table;

/* Load the functions of path (STT_FUNC, and global untyped labels in
 * code; those without a size bounded by the next symbol). Returns 0, or -1
 * with a message. */
int es_load(const char *path, es_table *t, char *err, size_t errlen);
/* The same for the data objects (STT_OBJECT, nonzero size). */
int es_load_objects(const char *path, es_table *t, char *err, size_t errlen);
/* Index of the function containing addr, or -1. */
int32_t es_find(const es_table *t, uint64_t addr);
/* Index of the function named name, or -1. */
int es_lookup(const es_table *t, const char *name);

#endif
