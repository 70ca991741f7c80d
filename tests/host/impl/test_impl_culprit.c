/* SPDX-License-Identifier: Apache-2.0 */
/* The folder a failed image build blames (host/impl/impl_culprit.c): an
 * error in a folder's own file; an error in a file the compiler made of a
 * folder's source (the assembler's temporary .s: GCC 12 emits a dls/le
 * loop out of range for SPHINCS+-256f's wots.c on the M55), blamed on the
 * source the failed command compiles; an error in a file of no folder
 * blames none, whatever folder failed before it. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "impl/impl_culprit.h"
#include "util/fsutil.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/merlin-test-culprit-XXXXXX";

static int blame(const char *log_text, const mh_impl_set *s, size_t *k,
                 char *why, size_t wl) {
  char path[600], err[256];
  snprintf(path, sizeof path, "%s/build.log", dir);
  CHECK(mh_write_atomic(path, log_text, strlen(log_text), err, sizeof err) ==
        0);
  return mh_impl_build_culprit(path, s, NULL, k, why, wl);
}

int main(void) {
  if (!mkdtemp(dir))
    return 1;
  mh_impl v[2] = {{.dir = "/t/crypto_kem/a/ref"},
                  {.dir = "/t/crypto_sign/b/clean"}};
  mh_impl_set s = {.v = v, .n = 2};
  size_t k = 99;
  char why[512];

  /* the folder's own file */
  CHECK(blame("[3/9] Building C object x.c.obj\n"
              "FAILED: x.c.obj\n"
              "/usr/bin/arm-none-eabi-gcc -O2 -c /t/crypto_sign/b/clean/x.c\n"
              "/t/crypto_sign/b/clean/x.c:7:3: error: 'y' undeclared\n",
              &s, &k, why, sizeof why) == 0);
  CHECK(k == 1);
  CHECK_CONTAINS(why, "not built: x.c:7:3: error: 'y' undeclared");

  /* the assembler's temporary file of the folder's source */
  k = 99;
  CHECK(blame("FAILED: CMakeFiles/merlin_impl1_obj.dir/wots.c.obj\n"
              "/usr/bin/arm-none-eabi-gcc -mcpu=cortex-m55 -O2 -o "
              "wots.c.obj -c /t/crypto_sign/b/clean/wots.c\n"
              "/tmp/ccwL9qSJ.s: Assembler messages:\n"
              "/tmp/ccwL9qSJ.s:94: Error: branch out of range\n",
              &s, &k, why, sizeof why) == 0);
  CHECK(k == 1);
  CHECK_CONTAINS(why, "not built: wots.c (the code the compiler made of "
                      "it): Error: branch out of range");

  /* a failure of no folder's source after a folder's: no folder blamed */
  CHECK(blame("FAILED: a.c.obj\n"
              "/usr/bin/gcc -c /t/crypto_kem/a/ref/a.c\n"
              "FAILED: merlin.c.obj\n"
              "/usr/bin/gcc -c /src/core/merlin.c\n"
              "/tmp/cc1234.s:5: Error: bad instruction\n",
              &s, &k, why, sizeof why) != 0);

  char path[600];
  snprintf(path, sizeof path, "%s/build.log", dir);
  unlink(path);
  rmdir(dir);
  return check_report();
}
