/* SPDX-License-Identifier: Apache-2.0 */
/* The size images' cache by content (host/image/sizes_cache.c): the key of
 * a link (ninja's inputs and command) is stable, ignores a file's time and
 * the tree's path, and changes with an input's contents; a record comes
 * back as it was kept. A build.ninja of its own: no compiler needed. */
#include "check.h"
#include "image/sizes.h"
#include "util/fsutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(const char *dir, const char *name, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* A tree whose "link" names the tree's own path, as a map option does. */
static void tree(const char *dir, const char *a) {
  char ninja[1024];
  snprintf(ninja, sizeof ninja,
           "rule link\n  command = cat $in > $out # -Map=%s/out/image.map\n"
           "build out/image.elf: link a.obj lib.a | script.ld || dep\n"
           "build dep: phony\n",
           dir);
  put(dir, "build.ninja", ninja);
  put(dir, "a.obj", a);
  put(dir, "lib.a", "archive");
  put(dir, "script.ld", "MEMORY {}");
}

static void key(const char *dir, char k[65]) {
  char err[512];
  int fd = open("/dev/null", O_WRONLY);
  int rc = mh_sizes_key(dir, "out/image.elf", fd, k, err, sizeof err);
  close(fd);
  CHECK(rc == 0);
  if (rc != 0)
    fprintf(stderr, "  %s\n", err);
}

static void test_key(void) {
  char d1[] = "/tmp/merlin-szkey-XXXXXX", d2[] = "/tmp/merlin-szkey-XXXXXX";
  char k1[65], k2[65], k3[65];
  CHECK(mkdtemp(d1) && mkdtemp(d2));
  tree(d1, "code");
  key(d1, k1);
  CHECK(strlen(k1) == 64);
  key(d1, k2);
  CHECK(strcmp(k1, k2) == 0);
  /* rewritten with the same contents: the same key (no time in it) */
  put(d1, "a.obj", "code");
  key(d1, k2);
  CHECK(strcmp(k1, k2) == 0);
  /* another tree with the same files: the same key */
  tree(d2, "code");
  key(d2, k3);
  CHECK(strcmp(k1, k3) == 0);
  /* an input's contents, the linker script's: another key */
  put(d1, "a.obj", "code2");
  key(d1, k2);
  CHECK(strcmp(k1, k2) != 0);
  put(d1, "a.obj", "code");
  put(d1, "script.ld", "MEMORY { FLASH }");
  key(d1, k2);
  CHECK(strcmp(k1, k2) != 0);
  char err[512], cmd[600];
  /* not a tree ninja knows: an error, not a key */
  int fd = open("/dev/null", O_WRONLY);
  CHECK(mh_sizes_key("/nonexistent-merlin", "out/image.elf", fd, k3, err,
                     sizeof err) != 0);
  close(fd);
  snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", d1, d2);
  CHECK(system(cmd) == 0);
}

static void test_records(void) {
  char d[] = "/tmp/merlin-szcache-XXXXXX", err[512], cmd[300];
  CHECK(mkdtemp(d) != NULL);
  mh_lib_size libs[2] = {{"wolfssl", 6000, 200, 40}, {"(merlin)", 900, 64, 8}};
  mh_alg_size s = {0}, got = {0};
  s.variant = "thumb2-asm";
  s.image = (mh_sections){1000, 200, 40, 300};
  s.image_flash = 1240;
  s.image_ram = 340;
  s.unattributed_flash = 4;
  s.libs = libs;
  s.n_libs = 2;
  const char *key =
      "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
  CHECK(mh_sizes_cache_get(d, key, &got) == 0);
  CHECK(mh_sizes_cache_put(d, key, &s, err, sizeof err) == 0);
  CHECK(mh_sizes_cache_get(d, key, &got) == 1);
  CHECK(strcmp(got.variant, "thumb2-asm") == 0 && got.alg == NULL);
  CHECK(got.image.text == 1000 && got.image.rodata == 200 &&
        got.image.data == 40 && got.image.bss == 300);
  CHECK(got.image_flash == 1240 && got.image_ram == 340 &&
        got.unattributed_flash == 4);
  CHECK(got.n_libs == 2 && strcmp(got.libs[1].library, "(merlin)") == 0 &&
        got.libs[0].flash_bytes == 6000 && got.libs[0].ram_bytes == 200 &&
        got.libs[0].data_bytes == 40);
  mh_alg_size_free(&got);
  /* a record of another version is none: measured again */
  char path[400];
  snprintf(path, sizeof path, "%s/%s.json", d, key);
  put(d, strrchr(path, '/') + 1, "{\"version\": 2}");
  CHECK(mh_sizes_cache_get(d, key, &got) == 0);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
  CHECK(system(cmd) == 0);
}

int main(void) {
  test_key();
  test_records();
  return check_report();
}
