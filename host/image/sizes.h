/* SPDX-License-Identifier: Apache-2.0 */
/* Flash and static RAM per (algorithm, backend, target): `merlin sizes`,
 * docs/sizes.md.
 *
 * For one target and profile, one image is linked per routed (algorithm,
 * backend) pair holding that pair alone, and one empty baseline image (the
 * harness without any backend), all with --gc-sections, in the build tree
 * ROOT/build/img/<target>-<profile>-sizes (cmake/MerlinImage.cmake,
 * MERLIN_SIZES). A pair's flash is its image's .text + .rodata + .data minus
 * the baseline's, its static RAM .data + .bss minus the baseline's, read
 * from the ELF section headers; the link map says which library each byte
 * of an image comes from.
 *
 * The lower layers are pure (a buffer in, records out) so that the tests can
 * feed them fixtures: mh_elf_parse (host/image/elffile.c, on libelf) reads
 * ELF32/ ELF64 section headers and symbols, mh_map_parse (host/image/linkmap.c)
 * the input sections of a GNU ld map, and mh_sizes_attribute
 * (host/image/sizes.c) combines the two; host/image/sizes_build.c builds the
 * images and measures them. */
#ifndef MERLIN_HOST_SIZES_H
#define MERLIN_HOST_SIZES_H

#include "config/profile.h"
#include "config/targets.h"
#include "image/elffile.h"
#include "image/image_build.h"
#include "image/linkmap.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* ---- sections (host/image/sizes.c)
 * ----------------------------------------------
 */

/* What an allocated section holds. RESERVED: the stack and heap the
 * linker script reserves in NOBITS sections (.heap, .stack), which are not
 * static RAM of any code. NONE: not allocated (debug, symbols). */
typedef enum {
  MH_ROLE_NONE,
  MH_ROLE_TEXT,   /* SHF_ALLOC + SHF_EXECINSTR */
  MH_ROLE_RODATA, /* SHF_ALLOC, read-only, with contents */
  MH_ROLE_DATA,   /* SHF_ALLOC + SHF_WRITE, with contents */
  MH_ROLE_BSS,    /* SHF_ALLOC, SHT_NOBITS */
  MH_ROLE_RESERVED,
} mh_section_role;
mh_section_role mh_elf_section_role(const mh_elf_section *s);

/* Bytes by role. flash = text + rodata + data (initialised data is stored
 * in flash and copied to RAM), ram = data + bss. */
typedef struct {
  uint64_t text, rodata, data, bss;
} mh_sections;
void mh_elf_sections(const mh_elf *e, mh_sections *out);
uint64_t mh_sections_flash(const mh_sections *s);
uint64_t mh_sections_ram(const mh_sections *s);

/* ---- one image (host/image/sizes.c)
 * ----------------------------------------------
 */

typedef struct {
  char *library;
  uint64_t flash_bytes, ram_bytes;
  /* Initialised data: in both (its load image in flash, its copy in RAM).
   * So text (code and read-only data, as `size` counts it) is flash_bytes
   * - data_bytes, and bss is ram_bytes - data_bytes. */
  uint64_t data_bytes;
} mh_lib_size;

typedef struct {
  char *alg, *backend, *variant; /* NULL for the baseline; variant "" when
                                    the image does not say */
  /* Minus the baseline (0 for the baseline record itself). */
  int64_t flash_bytes, ram_bytes;
  /* The whole image. .rodata that the linker script puts in the .text
   * output section (qemu-m4) is counted as rodata, from the map. */
  mh_sections image;
  uint64_t image_flash, image_ram;
  /* The whole image by library, from its map, largest flash first. */
  mh_lib_size *libs;
  size_t n_libs;
  /* image_flash minus the flash the map attributes (output-section
   * alignment the map shows no input for); a few bytes. */
  int64_t unattributed_flash;
} mh_alg_size;

/* Attribute the input sections of m to libraries using the sections of e
 * (flash: text, rodata and data sections; RAM: data and bss; reserved and
 * unallocated sections are left out), and fill s->image, image_flash,
 * image_ram, libs and unattributed_flash. Returns 0 or -1 (out of
 * memory). */
int mh_sizes_attribute(const mh_elf *e, const mh_map *m, mh_alg_size *s,
                       char *err, size_t errlen);

/* The variant string the adapter of backend registers for its first
 * algorithm in image e (mbe_<backend>_backend.impls[0].variant, found
 * through the symbol table), malloc'd; "" when the image does not say. */
char *mh_elf_variant(const mh_elf *e, const char *backend);

/* Measure one linked image: sections, libraries, and the variant of
 * backend (NULL: none). alg/backend are copied into the record. */
int mh_sizes_image(const char *elf_path, const char *map_path, const char *alg,
                   const char *backend, mh_alg_size *out, char *err,
                   size_t errlen);
void mh_alg_size_free(mh_alg_size *s);

/* ---- a target and profile (host/image/sizes_build.c)
 * ------------------------------
 */

typedef struct {
  char *target, *profile;
  char *build_dir; /* absolute */
  mh_alg_size baseline;
  mh_alg_size *algs; /* in the profile's route order */
  size_t n_algs;
  double build_seconds, total_seconds; /* wall time of the step */
  size_t n_cached; /* images taken from the cache, not linked (below) */
} mh_sizes;

/* Build (configure once, then compile what changed and relink) and measure
 * the size images of spec's target, profile and implementation folders in
 * mh_sizes_build_dir().
 * Progress lines on stderr unless quiet ("sizes: qemu-m4: 3/12 ecdsa-p256
 * (mbedtls)"). On a build failure the tail of the build log
 * (<build dir>/sizes-build.log) has been printed. Returns 0, or -1 with
 * err. */
int mh_sizes_measure(const mh_build_spec *spec, int quiet, mh_sizes *out,
                     char *err, size_t errlen);
/* The same in a tree configured by someone else with -DMERLIN_SIZES=ON
 * (for instance the benchmark image's own build directory, whose compiled
 * libraries the size images then reuse): builds and measures, never
 * configures. The log is build_dir/sizes-build.log. */
int mh_sizes_measure_tree(const mh_build_spec *spec, const char *build_dir,
                          int quiet, mh_sizes *out, char *err, size_t errlen);
void mh_sizes_free(mh_sizes *s);

/* ---- the cache by content (host/image/sizes_cache.c)
 * ------------------------------
 * A size image's measurement is kept under the SHA-256 of what its link
 * reads: the link command (the build tree's path left out) and the name
 * and contents of every input (objects, archives, linker script), as
 * ninja lists them. A run whose inputs are the same as a measured image's
 * links nothing: it takes the record (ROOT/build/size-cache/<key>.json).
 */

/* The key of size image elf (a path relative to bdir), its inputs built
 * first (ninja's output to logfd), as 64 hex digits. 0, or -1 with err. */
int mh_sizes_key(const char *bdir, const char *elf, int logfd, char key[65],
                 char *err, size_t errlen);
/* The record under key in dir: 1 and *out (its sections, libraries and
 * variant; alg and backend NULL), 0 when there is none (or it is not one
 * this merlin wrote), -1 out of memory. */
int mh_sizes_cache_get(const char *dir, const char *key, mh_alg_size *out);
/* Keep s under key in dir (written whole, then renamed). 0, or -1. */
int mh_sizes_cache_put(const char *dir, const char *key, const mh_alg_size *s,
                       char *err, size_t errlen);

/* ROOT/build/img/<target>-<profile>-sizes[-impl-TAG], malloc'd. */
char *mh_sizes_build_dir(const mh_build_spec *spec);

/* The records of one target as a JSON object (docs/sizes.md;
 * host/image/sizes.c, next to the section roles it lists); NULL on allocation
 * failure. */
json_t *mh_sizes_json(const mh_sizes *s);

#endif
