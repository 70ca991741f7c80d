/* SPDX-License-Identifier: Apache-2.0 */
/* The profile parser: routes, options, and every error with its line. */
#include "check.h"
#include "config/profile.h"

#include <string.h>

static int parse(const char *text, mh_profile *p, char *err, size_t n) {
  return mh_profile_parse("t.profile", text, strlen(text), p, err, n);
}

static void expect_error(const char *text, const char *needle) {
  mh_profile p;
  char err[1024] = "";
  CHECK(parse(text, &p, err, sizeof err) == -1);
  CHECK_CONTAINS(err, needle);
}

int main(void) {
  mh_profile p;
  char err[1024];
  int kem = mh_alg_find("ml-kem-512"), sha = mh_alg_find("sha256");
  int wolf = mh_backend_find("wolfcrypt"), pq = mh_backend_find("pqclean");

  /* A good profile: comments, blank lines, CRLF, lists, an option. */
  CHECK(parse("# c\r\ndescription = d e\n\nml-kem-512 = wolfcrypt, pqclean\n"
              "sha256=wolfcrypt\nwolfcrypt.variant = thumb2-asm\n",
              &p, err, sizeof err) == 0);
  CHECK(p.description && strcmp(p.description, "d e") == 0);
  CHECK(p.n_routes[kem] == 2 && p.routes[kem][0] == wolf &&
        p.routes[kem][1] == pq);
  CHECK(p.n_routes[sha] == 1);
  CHECK(p.options[0] == 1); /* wolfcrypt.variant: thumb2-asm */
  CHECK(p.options[1] == 0); /* wolfcrypt.mem: default */
  CHECK(mh_profile_uses(&p, (size_t)wolf) && mh_profile_uses(&p, (size_t)pq));
  mh_profile_free(&p);

  /* Errors name the file, the line and the valid choices. */
  expect_error("sha256 = wolfcrypt\nsha-256 = wolfcrypt\n",
               "t.profile:2: unknown key 'sha-256'");
  expect_error("sha256 = wolfcrypt\nsha-256 = wolfcrypt\n", "hkdf-sha256");
  expect_error("ml-kem-512 = mbedtls\n",
               "t.profile:1: ml-kem-512: backend 'mbedtls' does not offer it; "
               "valid: wolfcrypt, pqclean");
  expect_error("sha256 = openssl\n", "unknown backend 'openssl'; valid:");
  expect_error("sha256 = wolfcrypt\n\nsha256 = mbedtls\n",
               "t.profile:3: duplicate key 'sha256' (first set on line 1)");
  expect_error("sha256 = wolfcrypt, wolfcrypt\n", "listed twice");
  expect_error("sha256 = wolfcrypt,\n", "empty backend name");
  expect_error("sha256 wolfcrypt\n", "t.profile:1: expected 'key = value'");
  expect_error("sha256 = wolfcrypt\nwolfcrypt.variant = neon\n",
               "t.profile:2: wolfcrypt.variant: unknown value 'neon'; valid: "
               "c, thumb2-asm");
  expect_error("sha256 = wolfcrypt\nwolfcrypt.speed = max\n",
               "unknown option 'wolfcrypt.speed'; valid: wolfcrypt.variant");
  expect_error("sha256 = wolfcrypt\nmbedtls.aes_tables = rom\n",
               "t.profile:2: mbedtls.aes_tables: the profile routes nothing "
               "to backend 'mbedtls'");
  expect_error("# nothing\ndescription = x\n", "no algorithm is routed");
  expect_error("sha256 = wolf\001crypt\n", "control character 0x01");

  /* Implementation folders (docs/bring-your-own.md): beside libraries, or
   * alone for an algorithm the catalogue does not have; impl.hash. */
  CHECK(parse("ml-kem-512 = pqclean, impl:../a/clean\nhqc-128 = impl:/x/hqc\n"
              "impl.hash = thumb2-asm\n",
              &p, err, sizeof err) == 0);
  CHECK(p.n_routes[kem] == 1 && p.n_impls == 2);
  CHECK(strcmp(p.impls[0].alg, "ml-kem-512") == 0 &&
        strcmp(p.impls[0].path, "../a/clean") == 0 && p.impls[0].line == 1);
  CHECK(strcmp(p.impls[1].alg, "hqc-128") == 0 &&
        strcmp(p.impls[1].path, "/x/hqc") == 0 && p.impls[1].line == 2);
  CHECK(p.impl_hash == MH_IMPL_HASH_THUMB2);
  mh_profile_free(&p);
  CHECK(parse("hqc-128 = impl:/x/hqc\n", &p, err, sizeof err) == 0);
  CHECK(p.n_impls == 1 && p.impl_hash == MH_IMPL_HASH_C);
  mh_profile_free(&p);
  expect_error("hqc-128 = wolfcrypt\n", "unknown key 'hqc-128'");
  expect_error("hqc-128 = impl:/x, wolfcrypt\n", "unknown key 'hqc-128'");
  expect_error("sha256 = impl:\n", "t.profile:1: sha256: impl: needs a folder");
  expect_error("a = impl:/x\nb = impl:/x\n", "t.profile:2: b: impl:/x listed "
                                             "twice");
  expect_error("a = impl:/x\nimpl.hash = neon\n",
               "t.profile:2: impl.hash: unknown value 'neon'; valid: c, "
               "thumb2-asm");
  expect_error("a = impl:/x\nimpl.hash = c\nimpl.hash = c\n",
               "t.profile:3: duplicate key 'impl.hash'");
  return check_report();
}
