/* SPDX-License-Identifier: Apache-2.0 */
/* host/image/elffile.c, host/image/linkmap.c, host/image/sizes.c: the ELF
 * reader (ELF32 and ELF64 images built in memory, files that are not ELF or are
 * cut short), the GNU ld map parser and the attribution of bytes to libraries
 * (a map fixture in ld's format), and, when the host compiler is known, a
 * real link of a small program with an archive. */
#include "check.h"
#include "image/sizes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- an ELF image in memory ---------------------------------------------- */

#define SHT_PROGBITS 1u
#define SHT_SYMTAB 2u
#define SHT_STRTAB 3u
#define SHT_NOBITS 8u
#define F_W 1u
#define F_A 2u
#define F_X 4u

typedef struct {
  const char *name;
  uint32_t type, flags;
  uint64_t addr, size;
  const uint8_t *data; /* NULL: zeros */
  uint32_t link;
} fsec;

static void put(uint8_t *b, size_t off, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; i++)
    b[off + i] = (uint8_t)(v >> (8 * i)); /* little-endian */
}

/* Header, section contents, .shstrtab (added last), section headers. */
static size_t build_elf(uint8_t *out, size_t cap, int is64, const fsec *secs,
                        size_t n) {
  size_t ehdr = is64 ? 64 : 52, shent = is64 ? 64 : 40;
  memset(out, 0, cap);
  memcpy(out, "\177ELF", 4);
  out[4] = is64 ? 2 : 1;
  out[5] = 1;
  out[6] = 1;
  put(out, 16, 2, 2);              /* ET_EXEC */
  put(out, 18, is64 ? 62 : 40, 2); /* x86-64, Arm */
  size_t off = ehdr;
  size_t offs[16];
  for (size_t i = 0; i < n; i++) {
    offs[i] = off;
    if (secs[i].type != SHT_NOBITS && secs[i].type != 0) {
      if (secs[i].data)
        memcpy(out + off, secs[i].data, (size_t)secs[i].size);
      off += (size_t)secs[i].size;
    }
  }
  /* .shstrtab */
  size_t names[16], shstr = off;
  out[off++] = 0;
  for (size_t i = 0; i <= n; i++) {
    const char *nm = i < n ? secs[i].name : ".shstrtab";
    names[i] = off - shstr;
    memcpy(out + off, nm, strlen(nm) + 1);
    off += strlen(nm) + 1;
  }
  size_t shstr_size = off - shstr;
  off = (off + 7) & ~(size_t)7;
  size_t shoff = off;
  for (size_t i = 0; i <= n; i++) {
    uint8_t *h = out + shoff + i * shent;
    int last = i == n;
    uint32_t type = last ? SHT_STRTAB : secs[i].type;
    uint64_t flags = last ? 0 : secs[i].flags;
    uint64_t addr = last ? 0 : secs[i].addr;
    uint64_t o = last ? shstr : offs[i];
    uint64_t size = last ? shstr_size : secs[i].size;
    uint32_t link = last ? 0 : secs[i].link;
    put(h, 0, i == 0 ? 0 : names[i], 4);
    put(h, 4, type, 4);
    if (is64) {
      put(h, 8, flags, 8);
      put(h, 16, addr, 8);
      put(h, 24, o, 8);
      put(h, 32, size, 8);
      put(h, 40, link, 4);
    } else {
      put(h, 8, flags, 4);
      put(h, 12, addr, 4);
      put(h, 16, o, 4);
      put(h, 20, size, 4);
      put(h, 24, link, 4);
    }
  }
  if (is64) {
    put(out, 0x28, shoff, 8);
    put(out, 0x3a, shent, 2);
    put(out, 0x3c, n + 1, 2);
    put(out, 0x3e, n, 2);
  } else {
    put(out, 0x20, shoff, 4);
    put(out, 0x2e, shent, 2);
    put(out, 0x30, n + 1, 2);
    put(out, 0x32, n, 2);
  }
  return shoff + (n + 1) * shent;
}

/* A symbol table entry. */
static void sym(uint8_t *b, size_t idx, int is64, uint32_t name, uint64_t value,
                uint64_t size) {
  size_t o = idx * (is64 ? 24 : 16);
  put(b, o, name, 4);
  if (is64) {
    b[o + 4] = 0x11; /* GLOBAL OBJECT */
    put(b, o + 6, 2, 2);
    put(b, o + 8, value, 8);
    put(b, o + 16, size, 8);
  } else {
    put(b, o + 4, value, 4);
    put(b, o + 8, size, 4);
    b[o + 12] = 0x11;
    put(b, o + 14, 2, 2);
  }
}

/* The test image: .text 0x100, .rodata 0x80 holding a variant string, an
 * mcore_impl and an mcore_backend (pointer size 4 or 8, enums of enum_size
 * bytes), .data 12, .bss 64, the .heap and .stack reservations, a debug
 * section, .symtab and .strtab. */
static size_t test_image(uint8_t *out, size_t cap, int is64, size_t enum_size) {
  uint64_t p = is64 ? 8 : 4;
  uint8_t ro[0x80] = {0};
  memcpy(ro, "c-test", 7);
  uint64_t rodata = 0x1100, impl = rodata + 8;
  /* mcore_impl {alg, backend, variant, vt} */
  size_t voff = ((2 * enum_size + p - 1) / p) * p;
  ro[8] = 3; /* alg */
  ro[8 + enum_size] = 1;
  put(ro, 8 + voff, rodata, (size_t)p);
  put(ro, 8 + voff + p, 0x1000, (size_t)p);
  uint64_t impl_size = voff + 2 * p;
  /* mcore_backend {id, library, version, init, impls, n_impls} */
  uint64_t be = impl + impl_size, be_size = 6 * p;
  put(ro, (size_t)(be - rodata + 4 * p), impl, (size_t)p);
  put(ro, (size_t)(be - rodata + 5 * p), 1, (size_t)p);
  static const char strtab[] = "\0mbe_test_be_backend\0impls\0other";
  uint8_t st[4 * 24] = {0};
  sym(st, 1, is64, 27, 0x1000, 0x10); /* other */
  sym(st, 2, is64, 21, impl, impl_size);
  sym(st, 3, is64, 1, be, be_size);
  fsec secs[] = {
      {"", 0, 0, 0, 0, NULL, 0},
      {".text", SHT_PROGBITS, F_A | F_X, 0x1000, 0x100, NULL, 0},
      {".rodata", SHT_PROGBITS, F_A, rodata, sizeof ro, ro, 0},
      {".data", SHT_PROGBITS, F_A | F_W, 0x2000, 12, NULL, 0},
      {".bss", SHT_NOBITS, F_A | F_W, 0x200c, 64, NULL, 0},
      {".heap", SHT_NOBITS, F_A | F_W, 0x2100, 0x1000, NULL, 0},
      {".stack", SHT_NOBITS, F_A | F_W, 0x3100, 0x400, NULL, 0},
      {".debug_info", SHT_PROGBITS, 0, 0, 50, NULL, 0},
      {".symtab", SHT_SYMTAB, 0, 0, 4 * (is64 ? 24u : 16u), st, 9},
      {".strtab", SHT_STRTAB, 0, 0, sizeof strtab, (const uint8_t *)strtab, 0},
  };
  return build_elf(out, cap, is64, secs, sizeof secs / sizeof secs[0]);
}

static void test_elf(int is64, size_t enum_size) {
  static uint8_t img[8192];
  size_t len = test_image(img, sizeof img, is64, enum_size);
  mh_elf e;
  char err[256];
  CHECK(mh_elf_parse(img, len, &e, err, sizeof err) == 0);
  CHECK(e.is64 == is64);
  CHECK(e.n_sec == 11);
  CHECK(strcmp(e.sec[1].name, ".text") == 0);
  CHECK(strcmp(e.sec[10].name, ".shstrtab") == 0);
  CHECK(mh_elf_section_role(&e.sec[1]) == MH_ROLE_TEXT);
  CHECK(mh_elf_section_role(&e.sec[2]) == MH_ROLE_RODATA);
  CHECK(mh_elf_section_role(&e.sec[3]) == MH_ROLE_DATA);
  CHECK(mh_elf_section_role(&e.sec[4]) == MH_ROLE_BSS);
  CHECK(mh_elf_section_role(&e.sec[5]) == MH_ROLE_RESERVED);
  CHECK(mh_elf_section_role(&e.sec[6]) == MH_ROLE_RESERVED);
  CHECK(mh_elf_section_role(&e.sec[7]) == MH_ROLE_NONE);
  CHECK(mh_elf_section_role(&e.sec[8]) == MH_ROLE_NONE);
  mh_sections s;
  mh_elf_sections(&e, &s);
  CHECK(s.text == 0x100 && s.rodata == 0x80 && s.data == 12 && s.bss == 64);
  CHECK(mh_sections_flash(&s) == 0x100 + 0x80 + 12);
  CHECK(mh_sections_ram(&s) == 12 + 64); /* not the heap nor the stack */
  uint64_t v = 0, sz = 0;
  CHECK(mh_elf_symbol(&e, "impls", &v, &sz) == 0 && v == 0x1108);
  CHECK(mh_elf_symbol(&e, "missing", &v, NULL) != 0);
  CHECK(mh_elf_symbol_at(&e, 0x1000, &sz) == 0 && sz == 0x10);
  char *var = mh_elf_variant(&e, "test-be");
  CHECK(var && strcmp(var, "c-test") == 0);
  free(var);
  var = mh_elf_variant(&e, "absent");
  CHECK(var && strcmp(var, "") == 0);
  free(var);
  uint8_t b[4];
  CHECK(mh_elf_read(&e, 0x1100, b, 4) == 0 && memcmp(b, "c-te", 4) == 0);
  CHECK(mh_elf_read(&e, 0x200c, b, 4) != 0); /* NOBITS: no contents */
  mh_elf_free(&e);

  /* Damaged files are refused, not read out of bounds. */
  CHECK(mh_elf_parse(img, 40, &e, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "truncated");
  CHECK(mh_elf_parse(img, len - 8, &e, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "truncated ELF file");
  memcpy(img, "\177ELG", 4);
  CHECK(mh_elf_parse(img, len, &e, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "not an ELF");
}

/* Files that are not ELF, or cut short, give an error naming them. */
static void test_bad_files(void) {
  char dir[] = "/tmp/merlin-test-elf.XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char text[512], cut[512], map[512], missing[512];
  snprintf(text, sizeof text, "%s/notes.txt", dir);
  snprintf(cut, sizeof cut, "%s/cut.elf", dir);
  snprintf(map, sizeof map, "%s/prog.map", dir);
  snprintf(missing, sizeof missing, "%s/missing.elf", dir);
  static uint8_t img[8192];
  size_t len = test_image(img, sizeof img, 0, 1);
  FILE *f = fopen(text, "w");
  CHECK(f && fputs("this is a text file, not an image\n", f) >= 0);
  if (f)
    fclose(f);
  CHECK((f = fopen(cut, "wb")) != NULL);
  if (f) {
    CHECK(fwrite(img, 1, len / 2, f) == len / 2);
    fclose(f);
  }
  CHECK((f = fopen(map, "w")) != NULL);
  if (f) {
    fputs("Linker script and memory map\n", f);
    fclose(f);
  }
  mh_elf e;
  char err[1024];
  CHECK(mh_elf_open(text, &e, err, sizeof err) != 0);
  CHECK_CONTAINS(err, text);
  CHECK_CONTAINS(err, "not an ELF file");
  CHECK(mh_elf_open(cut, &e, err, sizeof err) != 0);
  CHECK_CONTAINS(err, cut);
  CHECK_CONTAINS(err, "truncated ELF file");
  CHECK(mh_elf_open(missing, &e, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "cannot open");
  mh_alg_size s;
  CHECK(mh_sizes_image(text, map, NULL, NULL, &s, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "not an ELF file");
  CHECK(mh_sizes_image(cut, map, NULL, NULL, &s, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "truncated ELF file");
  unlink(text);
  unlink(cut);
  unlink(map);
  rmdir(dir);
}

/* ---- the map ------------------------------------------------------------ */

/* In GNU ld's format, matching the ELF32 test image. The runner's strings
 * are merged into wolfcrypt's (same address), the .rodata.cst16 at the end
 * is merged away entirely. */
static const char MAP[] =
    "Archive member included to satisfy reference by file (symbol)\n"
    "\n"
    "libwolfssl_lib.a(sha256.c.obj)\n"
    "                              CMakeFiles/x.dir/a.c.obj (wc_Sha256)\n"
    "\n"
    "Discarded input sections\n"
    "\n"
    " .text          0x00000000        0x0 main.o\n"
    " .text.unused   0x00000000       0x40 main.o\n"
    "\n"
    "Memory Configuration\n"
    "\n"
    "Name             Origin             Length             Attributes\n"
    "FLASH            0x00000000         0x00400000         xr\n"
    "\n"
    "Linker script and memory map\n"
    "\n"
    "LOAD CMakeFiles/merlin_sz_core.dir/src/core/runner.c.obj\n"
    "LOAD libwolfssl_lib.a\n"
    "START GROUP\n"
    "LOAD /usr/lib/gcc/arm-none-eabi/12.2.1/thumb/libgcc.a\n"
    "END GROUP\n"
    "                0x00040000                STACK_SIZE = 0x40000\n"
    "\n"
    ".text           0x00001000      0x100\n"
    " *(.vectors)\n"
    " .vectors       0x00001000       0x40 "
    "CMakeFiles/merlin_sz_core.dir/src/ports/cortexm/startup.c.obj\n"
    " *(.text .text.*)\n"
    " .text.a_function_with_a_long_name\n"
    "                0x00001040       0x60 libwolfssl_lib.a(sha256.c.obj)\n"
    "                0x00001040                wc_Sha256Update\n"
    " *fill*         0x000010a0        0x4 \n"
    " .text.adapter  0x000010a4       0x1c "
    "CMakeFiles/merlin_sz_adapter_1.dir/src/backends/wolfcrypt/"
    "adapter.c.obj\n"
    " .text.memcpy   0x000010c0       0x20 /usr/lib/gcc/arm-none-eabi/"
    "12.2.1/../../../arm-none-eabi/lib/thumb/libc_nano.a(lib_a-memcpy.o)\n"
    "                0x000010c0                memcpy\n"
    " .rodata.crc_table\n"
    "                0x000010e0       0x20 "
    "CMakeFiles/merlin_sz_core.dir/src/core/crc32.c.obj\n"
    "                0x00001100                . = ALIGN (0x4)\n"
    "\n"
    ".rodata         0x00001100       0x80\n"
    " .rodata.str1.4\n"
    "                0x00001100       0x30 "
    "CMakeFiles/merlin_sz_core.dir/src/core/runner.c.obj\n"
    " .rodata.str1.4\n"
    "                0x00001100       0x40 libwolfssl_lib.a(sha256.c.obj)\n"
    " .rodata.K      0x00001140       0x40 "
    "/abs/build/libmbedtls_lib_sz3.a(sha256.c.obj)\n"
    " .rodata.cst16  0x00001180       0x10 libwolfssl_lib.a(sha256.c.obj)\n"
    "\n"
    ".data           0x00002000        0xc load address 0x00001180\n"
    "                0x00002000                __data_start = .\n"
    " *(.data .data.*)\n"
    " .data.x        0x00002000        0x8 libmerlin_impl_lib_3.a(isolated.o)\n"
    " .data          0x00002008        0x4 "
    "/usr/lib/gcc/arm-none-eabi/12.2.1/thumb/libgcc.a(_udivmoddi4.o)\n"
    "\n"
    ".bss            0x0000200c       0x40\n"
    " .bss.buf       0x0000200c       0x40 "
    "CMakeFiles/merlin-size-baseline.dir/sizes/baseline/registry.c.obj\n"
    "\n"
    ".heap           0x00002100     0x1000\n"
    "                0x00002100                __heap_start = .\n"
    " *fill*         0x00002100     0x1000 \n"
    "\n"
    ".stack          0x00003100      0x400\n"
    " *fill*         0x00003100      0x400 \n"
    "\n"
    ".note.gnu.build-id\n"
    "                0x00003000       0x24\n"
    " *(.note.gnu.build-id)\n"
    " .note.gnu.build-id\n"
    "                0x00003000       0x24 /usr/lib/x86_64-linux-gnu/"
    "Scrt1.o\n"
    "OUTPUT(image.elf elf32-littlearm)\n"
    "LOAD linker stubs\n"
    "\n"
    ".debug_info     0x00000000       0x32\n"
    " .debug_info    0x00000000       0x32 "
    "CMakeFiles/merlin_sz_core.dir/src/core/runner.c.obj\n";

static const mh_lib_size *lib(const mh_alg_size *s, const char *name) {
  for (size_t i = 0; i < s->n_libs; i++)
    if (strcmp(s->libs[i].library, name) == 0)
      return &s->libs[i];
  return NULL;
}

static void test_map(void) {
  mh_map m;
  char err[256];
  CHECK(mh_map_parse(MAP, strlen(MAP), &m, err, sizeof err) == 0);
  /* Every input of size > 0 after the marker, in order. */
  CHECK(m.n == 17);
  if (m.n == 17) {
    CHECK(strcmp(m.v[0].output, ".text") == 0);
    CHECK(strcmp(m.v[0].input, ".vectors") == 0 && m.v[0].size == 0x40);
    CHECK(strcmp(m.v[1].input, ".text.a_function_with_a_long_name") == 0);
    CHECK(strcmp(m.v[1].file, "libwolfssl_lib.a(sha256.c.obj)") == 0);
    CHECK(m.v[1].addr == 0x1040 && m.v[1].size == 0x60);
    CHECK(strcmp(m.v[2].input, "*fill*") == 0 && m.v[2].size == 4);
    CHECK(strcmp(m.v[6].output, ".rodata") == 0 && m.v[6].size == 0x30);
    CHECK(strcmp(m.v[10].output, ".data") == 0);
    CHECK(strcmp(m.v[13].output, ".heap") == 0);
    CHECK(strcmp(m.v[15].output, ".note.gnu.build-id") == 0 &&
          m.v[15].size == 0x24);
    CHECK(strcmp(m.v[16].output, ".debug_info") == 0);
  }
  for (size_t i = 0; i < m.n; i++)
    CHECK(strcmp(m.v[i].input, ".text.unused") != 0); /* discarded */

  static uint8_t img[8192];
  size_t len = test_image(img, sizeof img, 0, 1);
  mh_elf e;
  CHECK(mh_elf_parse(img, len, &e, err, sizeof err) == 0);
  mh_alg_size s;
  memset(&s, 0, sizeof s);
  CHECK(mh_sizes_attribute(&e, &m, &s, err, sizeof err) == 0);
  CHECK(s.image_flash == 0x100 + 0x80 + 12);
  CHECK(s.image_ram == 12 + 64);
  CHECK(s.unattributed_flash == 0);
  /* .rodata.crc_table sits in .text: counted as rodata. */
  CHECK(s.image.text == 0x100 - 0x20 && s.image.rodata == 0x80 + 0x20);
  const mh_lib_size *l;
  CHECK((l = lib(&s, "merlin")) && l->flash_bytes == 0x40 + 0x20 &&
        l->ram_bytes == 0x40);
  CHECK((l = lib(&s, "wolfcrypt")) && l->flash_bytes == 0x60 + 0x40);
  CHECK((l = lib(&s, "mbedtls")) && l->flash_bytes == 0x40);
  CHECK((l = lib(&s, "adapter")) && l->flash_bytes == 0x1c);
  CHECK((l = lib(&s, "libc")) && l->flash_bytes == 0x20);
  CHECK((l = lib(&s, "impl-folder")) && l->flash_bytes == 8 &&
        l->ram_bytes == 8 && l->data_bytes == 8);
  CHECK((l = lib(&s, "libgcc")) && l->flash_bytes == 4 && l->ram_bytes == 4 &&
        l->data_bytes == 4);
  /* .bss only: RAM without data. */
  CHECK((l = lib(&s, "merlin")) && l->data_bytes == 0);
  CHECK((l = lib(&s, "(padding)")) && l->flash_bytes == 4);
  CHECK(lib(&s, "crt") == NULL); /* its output section is not in the image */
  uint64_t flash = 0, ram = 0;
  for (size_t i = 0; i < s.n_libs; i++) {
    flash += s.libs[i].flash_bytes;
    ram += s.libs[i].ram_bytes;
    if (i)
      CHECK(s.libs[i - 1].flash_bytes >= s.libs[i].flash_bytes);
  }
  CHECK(flash == s.image_flash && ram == s.image_ram);
  mh_alg_size_free(&s);
  mh_elf_free(&e);
  mh_map_free(&m);

  CHECK(mh_map_parse("no map here\n", 12, &m, err, sizeof err) != 0);
  CHECK_CONTAINS(err, "not a GNU ld map");
}

static void label(const char *input, const char *file, const char *want) {
  char got[128];
  mh_map_library(input, file, got, sizeof got);
  if (strcmp(got, want) != 0)
    fprintf(stderr, "library of %s in %s: got %s, want %s\n", input, file, got,
            want);
  CHECK(strcmp(got, want) == 0);
}

static void test_labels(void) {
  label("*fill*", "", "(padding)");
  label(".text.x", "libwolfssl_lib.a(aes.c.obj)", "wolfcrypt");
  label(".text.x", "/b/libmbedtls_lib_sz12.a(ecp.c.obj)", "mbedtls");
  label(".text.x", "libmbedtls_libfoo.a(x.o)", "mbedtls_libfoo");
  label(".text.x", "libmerlin_impl_lib_12.a(isolated.o)", "impl-folder");
  label(".text.x", "libmerlin_impl_common.a(fips202.c.obj)", "impl-common");
  label(".text.x", "libmlkem_native_lib.a(m.c.obj)", "mlkem-native");
  label(".text.x", "libmldsa_native_lib.a(m.c.obj)", "mldsa-native");
  label(".text.x", "libmerlin_awslc_fips202.a(sha3.c.obj)", "aws-lc-fips202");
  label(".text.x", "liblibsodium_lib.a(core.c.obj)", "libsodium");
  label(".text.x", "libbearssl_lib.a(gcm.c.obj)", "bearssl");
  label(".text.memcpy", "/usr/lib/arm-none-eabi/lib/libc_nano.a(memcpy.o)",
        "libc");
  label(".data", "/usr/lib/arm-none-eabi/lib/libg_nano.a(lib_a-impure.o)",
        "libc");
  label(".text", "/usr/lib/x86_64-linux-gnu/libc_nonshared.a(atexit.oS)",
        "libc");
  label(".text", "/usr/lib/gcc/arm-none-eabi/12.2.1/libgcc.a(_udivsi3.o)",
        "libgcc");
  label(".text", "CMakeFiles/merlin_sz_core.dir/src/core/runner.c.obj",
        "merlin");
  label(".text", "CMakeFiles/merlin_core.dir/src/core/crc32.c.obj", "merlin");
  label(".text",
        "CMakeFiles/merlin_backend_mbedtls_sz2.dir/src/backends/mbedtls/"
        "adapter.c.obj",
        "adapter");
  label(".text", "/usr/lib/x86_64-linux-gnu/Scrt1.o", "crt");
  label(".text", "/usr/lib/gcc/x86_64-linux-gnu/12/crtbeginS.o", "crt");
  label(".dynsym", "/usr/lib/x86_64-linux-gnu/Scrt1.o", "(linker)");
  label(".rela.dyn", "CMakeFiles/x.dir/a.c.o", "(linker)");
  label(".text", "linker stubs", "(linker)");
  label(".text", "/tmp/x/foo.o", "foo.o");
  label(".text", "/tmp/x/libextra.a(e.o)", "extra");
}

/* ---- a real link --------------------------------------------------------- */

#ifdef MH_TEST_CC
/* Run fmt (one %s: dir) through the shell. */
static int sh(const char *fmt, const char *dir) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, fmt, dir);
  int rc = system(cmd);
  if (rc != 0)
    fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
  return rc;
}

/* A program and a static library linked with --gc-sections and a map, as
 * the size images are: the map must account for the image to the byte. */
static void test_real_link(void) {
  char dir[] = "/tmp/merlin-test-sizes.XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  if (!dir[0] || strstr(dir, "XXXXXX"))
    return;
  char path[512];
  snprintf(path, sizeof path, "%s/a.c", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f)
    return;
  fputs("#include <stdio.h>\n"
        "int lib_sum(const char *s);\n"
        "static const char *const names[] = {\"shared string\", \"a only\"};\n"
        "int main(int argc, char **argv) {\n"
        "  (void)argv;\n"
        "  printf(\"%d\\n\", lib_sum(names[argc & 1]));\n"
        "  return 0;\n"
        "}\n",
        f);
  fclose(f);
  snprintf(path, sizeof path, "%s/b.c", dir);
  f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f)
    return;
  fputs("#include <string.h>\n"
        "int lib_sum(const char *s);\n"
        "int lib_unused(void);\n"
        "static char big[8192];\n"
        "int lib_sum(const char *s) {\n"
        "  int n = 0;\n"
        "  strcpy(big, \"shared string\");\n"
        "  for (size_t i = 0; s[i]; i++) n += s[i] ^ big[i % sizeof big];\n"
        "  return n;\n"
        "}\n"
        "int lib_unused(void) { return (int)strlen(big) * 3; }\n",
        f);
  fclose(f);
  const char *flags = "-O2 -ffunction-sections -fdata-sections";
  char fmt[1024];
  snprintf(fmt, sizeof fmt,
           "cd %%s && " MH_TEST_CC " %s -c a.c -o a.o && " MH_TEST_CC
           " %s -c b.c -o b.o && ar rcs libbx.a b.o && " MH_TEST_CC
           " a.o libbx.a -Wl,--gc-sections -Wl,-Map=prog.map -o prog",
           flags, flags);
  if (sh(fmt, dir) == 0) {
    char elf[512], map[512];
    snprintf(elf, sizeof elf, "%s/prog", dir);
    snprintf(map, sizeof map, "%s/prog.map", dir);
    mh_alg_size s;
    char err[512];
    int rc = mh_sizes_image(elf, map, NULL, NULL, &s, err, sizeof err);
    if (rc != 0)
      fprintf(stderr, "mh_sizes_image: %s\n", err);
    CHECK(rc == 0);
    if (rc == 0) {
      const mh_lib_size *l = lib(&s, "bx");
      CHECK(l && l->flash_bytes > 0 && l->ram_bytes >= 8192);
      CHECK((l = lib(&s, "a.o")) && l->flash_bytes > 0);
      CHECK(s.image_flash > 0 && s.image.text > 0 && s.image.bss >= 8192);
      /* Merged strings and section alignment are accounted exactly. */
      CHECK(s.unattributed_flash == 0);
      if (s.unattributed_flash)
        fprintf(stderr, "unattributed: %lld\n",
                (long long)s.unattributed_flash);
      mh_alg_size_free(&s);
    }
    /* The host's own ELF64 through the same reader. */
    mh_elf e;
    uint64_t v = 0, sz = 0;
    CHECK(mh_elf_open(elf, &e, err, sizeof err) == 0);
    CHECK(e.is64 && mh_elf_symbol(&e, "lib_sum", &v, &sz) == 0 && v && sz);
    mh_elf_free(&e);
  }
  sh("rm -rf %s", dir);
}
#endif

int main(void) {
  test_elf(0, 1); /* ELF32, short enums (arm-none-eabi) */
  test_elf(0, 4); /* ELF32, int enums */
  test_elf(1, 4); /* ELF64 */
  test_bad_files();
  test_map();
  test_labels();
#ifdef MH_TEST_CC
  test_real_link();
#endif
  return check_report();
}
