/* SPDX-License-Identifier: Apache-2.0 */
/* A folder's own build options, as pqm4 and mupq take them
 * (docs/bring-your-own.md, "From a pqm4 checkout"): the folder's config.mk
 * (mupq/mk/schemes.mk includes <folder>/config.mk), whose target-specific
 * lines add preprocessor flags to the folder's builds: pqm4's MAYO m4f
 * folders `elf/crypto_sign_mayo1_m4f_%.elf: CPPFLAGS += -DMAYO_M4`. */
#include "impl/impl.h"

#include "util/fsutil.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest config.mk read. */
#define CONFIG_MAX ((size_t)1 << 16)

/* A -D or -U flag the image build can carry (cmake/MerlinImpl.cmake:
 * a CMake list element, a C string of the build directory's files). */
static int usable(const char *f, size_t n) {
  if (n < 3 || f[0] != '-' || (f[1] != 'D' && f[1] != 'U'))
    return 0;
  for (size_t i = 0; i < n; i++)
    if (f[i] <= ' ' || f[i] == 0x7f || strchr(";\"$\\|[]#'`", f[i]))
      return 0;
  return 1;
}

/* One "TARGET: CPPFLAGS += FLAGS" (or CFLAGS, or without a target) line
 * of length n: its flags into the side's list, the others named in
 * ignored. A line for the host's test-vector programs (bin-host/...) is
 * the host side's, any other the target's, as pqm4's make reads them. */
static void take_line(const char *l, size_t n, mh_sb *target, mh_sb *host,
                      mh_sb *ignored) {
  char line[1024];
  snprintf(line, sizeof line, "%.*s", (int)n, l);
  char *v = strstr(line, "FLAGS");
  if (!v || !(v = strchr(v, '=')))
    return;
  int for_host = strncmp(line, "bin-host/", 9) == 0;
  mh_sb *into = for_host ? host : target;
  for (char *f = v + 1; *f;) {
    f += strspn(f, " \t\r");
    size_t w = strcspn(f, " \t\r");
    if (!w)
      break;
    if (usable(f, w))
      mh_sb_printf(into, "%s%.*s", into->len ? ";" : "", (int)w, f);
    else
      mh_sb_printf(ignored, "%s%.*s", ignored->len ? " " : "", (int)w, f);
    f += w;
  }
}

int mh_impl_read_config(const char *dir, char **target, char **host,
                        char **ignored) {
  char *p = mh_path_join(dir, "config.mk"), *text = NULL, err[128];
  size_t len = 0;
  struct stat st;
  *target = *host = *ignored = NULL;
  if (!p)
    return -1;
  int there = stat(p, &st) == 0 && S_ISREG(st.st_mode);
  int rc = there && mh_read_file(p, CONFIG_MAX, &text, &len, err, sizeof err)
               ? -1
               : 0;
  free(p);
  mh_sb t = {0}, h = {0}, x = {0};
  for (const char *l = text; rc == 0 && l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t n = nl ? (size_t)(nl - l) : strlen(l);
    if (l[0] != '#')
      take_line(l, n, &t, &h, &x);
    l = nl ? nl + 1 : NULL;
  }
  free(text);
  if (t.failed || h.failed || x.failed)
    rc = -1;
  if (rc == 0) {
    *target = t.s;
    *host = h.s;
    *ignored = x.s;
  } else {
    mh_sb_free(&t);
    mh_sb_free(&h);
    mh_sb_free(&x);
  }
  return rc;
}
