/* SPDX-License-Identifier: Apache-2.0 */
/* The one ELF reader of the tree, on elfutils' libelf (docs/dependencies.md):
 * section headers, symbols and bytes at an address of ELF32 (the Arm images)
 * and ELF64 (host images) files. `merlin sizes` (host/image/sizes.c) and the
 * QEMU plugin (tools/qemu-plugin/elfsyms.c, which compiles this file in) use
 * it. Depends on libelf and the C library only. */
#ifndef MERLIN_HOST_ELFFILE_H
#define MERLIN_HOST_ELFFILE_H

#include <stddef.h>
#include <stdint.h>

struct Elf; /* libelf's handle (libelf.h: typedef struct Elf Elf) */

typedef struct {
  char *name;
  uint32_t type; /* SHT_* */
  uint64_t flags, addr, offset, size;
  uint32_t link;
} mh_elf_section;

typedef struct {
  int is64, big_endian;
  uint16_t machine, type;
  mh_elf_section *sec; /* every section header, index 0 included */
  size_t n_sec;
  struct Elf *elf; /* NULL once freed */
} mh_elf;

/* Read the section headers of the ELF file held in buf, which must outlive
 * e (libelf reads it in place, never writes it). Returns 0, or -1 with a
 * message ("not an ELF file", "truncated or damaged ELF file: ..."). */
int mh_elf_parse(const uint8_t *buf, size_t len, mh_elf *e, char *err,
                 size_t errlen);
/* The same for the file at path (read whole, then closed). */
int mh_elf_open(const char *path, mh_elf *e, char *err, size_t errlen);
void mh_elf_free(mh_elf *e);

/* One entry of .symtab. */
typedef struct {
  const char *name; /* valid until mh_elf_free */
  uint64_t value, size;
  unsigned type;  /* STT_* */
  unsigned bind;  /* STB_* */
  unsigned shndx; /* its section's index (SHN_* for special ones) */
} mh_elf_sym;

/* Calls fn on each symbol of .symtab but the null entry 0, in table order,
 * until it returns nonzero; returns that value, or 0. */
int mh_elf_each_symbol(const mh_elf *e,
                       int (*fn)(void *ctx, const mh_elf_sym *s), void *ctx);
/* Value (address) and size (NULL: not wanted) of the symbol called name
 * in .symtab; 0 or -1. */
int mh_elf_symbol(const mh_elf *e, const char *name, uint64_t *value,
                  uint64_t *size);
/* Size of a symbol of nonzero size at address value; 0 or -1. */
int mh_elf_symbol_at(const mh_elf *e, uint64_t value, uint64_t *size);
/* n bytes at virtual address addr of an allocated section with contents;
 * 0 or -1. */
int mh_elf_read(const mh_elf *e, uint64_t addr, void *out, size_t n);

#endif
