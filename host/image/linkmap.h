/* SPDX-License-Identifier: Apache-2.0 */
/* GNU ld map files: the input sections of an image and the library each
 * comes from (`merlin sizes`, docs/sizes.md). Pure: text in, records out. */
#ifndef MERLIN_HOST_LINKMAP_H
#define MERLIN_HOST_LINKMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  char *output; /* output section, ".text" */
  char *input;  /* input section, ".text.foo", or "*fill*" for padding */
  char *file;   /* "libwolfssl_lib.a(sha256.c.obj)", an object path, "" */
  uint64_t addr, size; /* size as listed: before SHF_MERGE merging */
} mh_map_input;

typedef struct {
  mh_map_input *v;
  size_t n, cap;
} mh_map;

/* The input sections of the "Linker script and memory map" part of a GNU
 * ld -Map file (sections of size 0 are left out). Pure. Returns 0, or -1
 * with a message. */
int mh_map_parse(const char *text, size_t len, mh_map *m, char *err,
                 size_t errlen);
void mh_map_free(mh_map *m);

/* The library an input section comes from: "wolfcrypt", "mbedtls",
 * "impl-folder" (an implementation folder's own objects, PQClean's among
 * them), "impl-common" (the common code they call), "mlkem-native",
 * "mldsa-native", "aws-lc-fips202",
 * "libsodium", "bearssl", "merlin" (harness: core, ops, port), "adapter"
 * (the backend's Merlin adapter), "libc", "libgcc", "crt", "(linker)"
 * (sections the linker makes: PLT, GOT, dynamic symbols...), "(padding)"
 * (alignment fill); otherwise the archive or object name. Writes at most
 * outlen bytes. */
void mh_map_library(const char *input, const char *file, char *out,
                    size_t outlen);

#endif
