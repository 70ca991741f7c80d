/* SPDX-License-Identifier: Apache-2.0 */
/* Implementation folders (host/impl/impl.c, impl_set.c, impl_common.c): which
 * path characters the image build carries, a pqm4/mupq checkout's common code
 * found from a folder's place, and mupq's heap-free fips202 API told from
 * PQClean's. */
/* mkdtemp */
#define _XOPEN_SOURCE 700

#include "check.h"
#include "impl/impl.h"
#include "impl/impl_common.h"
#include "impl/impl_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void bad(const char *path, const char *needle) {
  char what[200];
  const char *w = mh_impl_path_bad(path, what, sizeof what);
  CHECK(w != NULL);
  if (w)
    CHECK_CONTAINS(w, needle);
  CHECK(!mh_impl_path_ok(path));
}

static void test_paths(void) {
  /* what the build carries (a folder with all of these built and passed
   * its known-answer test: impl-folders-paths) */
  const char *good[] = {"/a b/c",
                        "/x,y/z",
                        "/q'r",
                        "/p(1)/{2}",
                        "/e!%&~:=+^`",
                        "/u@host/v",
                        "/\xc3\xa9t\xc3\xa9",
                        "/a?b"};
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    char what[200];
    CHECK(mh_impl_path_bad(good[i], what, sizeof what) == NULL);
  }
  bad("/a|b", "'|' at offset 2 (the image build's lists use it");
  bad("/a[b", "'[' at offset 2 (CMake reads brackets");
  bad("/ab]", "']' at offset 3");
  bad("/a#b", "'#' at offset 2 (Ninja's dependency files");
  bad("/a?\?-b", "'?' at offset 2 (two together start a trigraph");
  bad("/x/@FOO_1@/y", "'@' at offset 3 ('@NAME@' is a variable");
  bad("/a;b", "';' at offset 2");
  bad("/a$b", "'$' at offset 2");
  bad("/a\\b", "'\\' at offset 2");
  bad("/q'r\"", "'\"' at offset 4");
  bad("/a\tb", "byte 0x09 at offset 2 (a control character)");
  bad("/a\x7f", "byte 0x7f at offset 2");
}

static char *tmp_tree(void) {
  char *t = strdup("/tmp/merlin-test-impl-XXXXXX");
  CHECK(t && mkdtemp(t));
  return t;
}

static void touch(const char *root, const char *rel, const char *text) {
  char p[1024];
  snprintf(p, sizeof p, "%s/%s", root, rel);
  for (char *s = strchr(p + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = '\0';
    mkdir(p, 0755);
    *s = '/';
  }
  FILE *f = fopen(p, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void test_common(void) {
  char *t = tmp_tree(), p[1024];
  /* pqm4: common/ and mupq/common/ (mupq's, told by its hal.h) */
  touch(t, "pqm4/common/keccakf1600.S", "");
  touch(t, "pqm4/mupq/common/hal.h", "");
  touch(t, "pqm4/mupq/common/fips202.c", "");
  touch(t, "pqm4/crypto_kem/x/m4/api.h", "");
  touch(t, "pqm4/mupq/crypto_kem/x/ref/api.h", "");
  /* PQClean: common/ without hal.h, no checkout of mupq's family */
  touch(t, "pqclean/common/fips202.c", "");
  touch(t, "pqclean/crypto_kem/x/clean/api.h", "");
  mh_impl_common c;
  char ferr[512];
  snprintf(p, sizeof p, "%s/pqm4/crypto_kem/x/m4", t);
  CHECK(mh_impl_common_find(p, 0, &c, ferr, sizeof ferr) == 1);
  CHECK(c.n == 2 && c.pqm4 == 1);
  if (c.n == 2) {
    CHECK_CONTAINS(c.dirs[0], "/pqm4/common");
    CHECK_CONTAINS(c.dirs[1], "/pqm4/mupq/common");
  }
  CHECK_CONTAINS(c.origin, "the pqm4 checkout");
  mh_impl_common_free(&c);
  /* a folder of pqm4's mupq/ submodule: pqm4's common/ first, as pqm4 */
  snprintf(p, sizeof p, "%s/pqm4/mupq/crypto_kem/x/ref", t);
  CHECK(mh_impl_common_find(p, 0, &c, ferr, sizeof ferr) == 1);
  CHECK(c.n == 2 && c.pqm4 == 1);
  mh_impl_common_free(&c);
  /* the host reference build's side: mupq/common/ alone, and the files of
   * mupq's mk/host-crypto.mk (relative to pqm4's root), not -DPQM4 */
  touch(t, "pqm4/mupq/pqclean/common/aes.c", "");
  touch(t, "pqm4/mupq/mk/host-crypto.mk",
        "HOST_SYMCRYPTO_SRC = \\\n\tmupq/common/fips202.c \\\n"
        "\tmupq/pqclean/common/aes.c\n\nobj-host/x.a: y\n");
  CHECK(mh_impl_common_find(p, 1, &c, ferr, sizeof ferr) == 1);
  CHECK(c.n == 1 && c.pqm4 == 0 && c.host == 1 && c.n_files == 2);
  if (c.n == 1 && c.n_files == 2) {
    CHECK_CONTAINS(c.dirs[0], "/pqm4/mupq/common");
    CHECK_CONTAINS(c.files[0], "/pqm4/mupq/common/fips202.c");
    CHECK_CONTAINS(c.files[1], "/pqm4/mupq/pqclean/common/aes.c");
  }
  CHECK_CONTAINS(c.origin, "the host side of the pqm4 checkout");
  mh_impl_common_free(&c);
  snprintf(p, sizeof p, "%s/pqclean/crypto_kem/x/clean", t);
  CHECK(mh_impl_common_find(p, 0, &c, ferr, sizeof ferr) == 0);
  mh_impl_common_free(&c);
  /* a clone without --recursive: mupq/ empty, or mupq's pqclean/: said,
   * with the command that fills it, never built on other common code */
  touch(t, "shallow/common/keccakf1600.S", "");
  touch(t, "shallow/crypto_kem/x/m4/api.h", "");
  touch(t, "shallow/mupq/.keep", "");
  snprintf(p, sizeof p, "%s/shallow/crypto_kem/x/m4", t);
  CHECK(mh_impl_common_find(p, 0, &c, ferr, sizeof ferr) == -2);
  CHECK_CONTAINS(ferr, "/shallow/mupq is empty");
  CHECK_CONTAINS(ferr, "git submodule update --init --recursive");
  touch(t, "half/common/keccakf1600.S", "");
  touch(t, "half/crypto_kem/x/m4/api.h", "");
  touch(t, "half/mupq/common/hal.h", "");
  touch(t, "half/mupq/pqclean/.keep", "");
  snprintf(p, sizeof p, "%s/half/crypto_kem/x/m4", t);
  CHECK(mh_impl_common_find(p, 0, &c, ferr, sizeof ferr) == -2);
  CHECK_CONTAINS(ferr, "/half/mupq/pqclean is empty");
  /* --impl-common DIR,DIR: every folder, in or out of a checkout, gets
   * those (once); none: no checkout's; a DIR that is none: an error */
  char d1[1024], d2[1024], err[512], *ex[2] = {d1, d2};
  snprintf(d1, sizeof d1, "%s/pqm4/common", t);
  snprintf(d2, sizeof d2, "%s/pqm4/mupq/common", t);
  mh_impl_set s = {.explicit_common = ex, .n_explicit_common = 2};
  size_t ci = 0;
  CHECK(mh_impl_common_for(&s, p, &ci, err, sizeof err) == 0 && ci == 1);
  CHECK(mh_impl_common_for(&s, "/elsewhere", &ci, err, sizeof err) == 0 &&
        ci == 1 && s.n_commons == 1);
  CHECK(s.commons[0].n == 2 &&
        strcmp(s.commons[0].origin, "--impl-common") == 0);
  s.explicit_common = NULL; /* not the set's to free here */
  s.n_explicit_common = 0;
  s.common_none = 1;
  snprintf(p, sizeof p, "%s/pqm4/crypto_kem/x/m4", t);
  CHECK(mh_impl_common_for(&s, p, &ci, err, sizeof err) == 0 && ci == 0);
  s.common_none = 0;
  char *bad_dir[1] = {"/no/such/dir"};
  s.explicit_common = bad_dir;
  s.n_explicit_common = 1;
  CHECK(mh_impl_common_for(&s, p, &ci, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "--impl-common /no/such/dir: not a directory");
  s.explicit_common = NULL;
  s.n_explicit_common = 0;
  mh_impl_set_free(&s);
  /* mupq's API: contexts, never released; PQClean's: released */
  touch(t, "mupq-api/a.c",
        "void f(void){ shake128incctx s; shake128_inc_init(&s); }\n");
  touch(t, "pqclean-api/a.c",
        "void f(void){ shake128incctx s; shake128_inc_init(&s);\n"
        "shake128_inc_ctx_release(&s); }\n");
  touch(t, "oneshot/a.c", "void f(void){ shake256(o, 32, i, 32); }\n");
  snprintf(p, sizeof p, "%s/mupq-api", t);
  CHECK(mh_impl_stack_fips(p) == 1);
  snprintf(p, sizeof p, "%s/pqclean-api", t);
  CHECK(mh_impl_stack_fips(p) == 0);
  snprintf(p, sizeof p, "%s/oneshot", t);
  CHECK(mh_impl_stack_fips(p) == 0);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", t);
  CHECK(system(cmd) == 0);
  free(t);
}

/* The reference candidates of a folder (host/impl/impl_ref_pick.c): its
 * clean and ref siblings, its other siblings but pqm4's m4* ones, mupq's
 * folders of the scheme (ref first, then the others: opt), mupq's
 * PQClean's; none with assembly; the folder itself last when it has none. */
static void test_candidates(void) {
  char *t = tmp_tree(), p[1024];
  touch(t, "pqm4/crypto_kem/x/m4f/api.h", "");
  touch(t, "pqm4/crypto_kem/x/m4f/a.S", "");
  touch(t, "pqm4/crypto_kem/x/m4fstack/api.h", "");
  touch(t, "pqm4/crypto_kem/x/m4fstack/a.c", "");
  touch(t, "pqm4/crypto_kem/x/avx2/api.h", "");
  touch(t, "pqm4/mupq/crypto_kem/x/opt/api.h", "");
  touch(t, "pqm4/mupq/crypto_kem/x/ref/api.h", "");
  touch(t, "pqm4/mupq/crypto_kem/x/armv7m/api.h", "");
  touch(t, "pqm4/mupq/crypto_kem/x/armv7m/b.s", "");
  touch(t, "pqm4/mupq/pqclean/crypto_kem/x/clean/api.h", "");
  snprintf(p, sizeof p, "%s/pqm4/crypto_kem/x/m4f", t);
  mh_impl m = {0};
  m.dir = realpath(p, NULL);
  m.scheme = "x";
  m.alg = "x";
  m.kem = 1;
  int self = -1;
  char **c = m.dir ? mh_impl_ref_candidates("/nonexistent", &m, &self) : NULL;
  CHECK(c != NULL && self == 0);
  const char *want[] = {"/mupq/crypto_kem/x/ref", "/mupq/crypto_kem/x/opt",
                        "/mupq/pqclean/crypto_kem/x/clean", NULL};
  for (size_t i = 0; c && want[i]; i++) {
    CHECK(c[i] != NULL);
    if (c[i])
      CHECK_CONTAINS(c[i], want[i]);
  }
  CHECK(c && c[0] && c[1] && c[2] && !c[3]);
  for (size_t i = 0; c && c[i]; i++)
    free(c[i]);
  free(c);
  free(m.dir);
  /* a folder without assembly, no other candidate: itself, last */
  snprintf(p, sizeof p, "%s/pqm4/crypto_kem/x/m4fstack", t);
  m.dir = realpath(p, NULL);
  m.scheme = "y"; /* no mupq folder of this scheme */
  c = m.dir ? mh_impl_ref_candidates("/nonexistent", &m, &self) : NULL;
  CHECK(c && self == 1 && c[0] && !c[1] && strcmp(c[0], m.dir) == 0);
  for (size_t i = 0; c && c[i]; i++)
    free(c[i]);
  free(c);
  free(m.dir);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", t);
  CHECK(system(cmd) == 0);
  free(t);
}

/* A folder's config.mk as pqm4's make reads it (host/impl/impl_config.c):
 * the -D and -U flags of its target lines for the target, of its bin-host/
 * lines for the host, the rest named. */
static void test_config(void) {
  char *t = tmp_tree(), p[1024], *tg, *h, *x;
  touch(t, "f/config.mk",
        "elf/crypto_sign_mayo1_m4f_%.elf: CPPFLAGS += -DMAYO_M4 -O1\n"
        "# a comment: CPPFLAGS += -DNO\n"
        "bin-host/x_testvectors: CPPFLAGS += -DHOSTONLY -UFOO\n"
        "CFLAGS += -DA=1 -DB;rm");
  snprintf(p, sizeof p, "%s/f", t);
  CHECK(mh_impl_read_config(p, &tg, &h, &x) == 0);
  CHECK(tg && strcmp(tg, "-DMAYO_M4;-DA=1") == 0);
  CHECK(h && strcmp(h, "-DHOSTONLY;-UFOO") == 0);
  CHECK(x && strcmp(x, "-O1 -DB;rm") == 0);
  free(tg);
  free(h);
  free(x);
  snprintf(p, sizeof p, "%s/none", t);
  CHECK(mh_impl_read_config(p, &tg, &h, &x) == 0 && !tg && !h && !x);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", t);
  CHECK(system(cmd) == 0);
  free(t);
}

int main(void) {
  test_paths();
  test_config();
  test_common();
  test_candidates();
  return check_report();
}
