/* SPDX-License-Identifier: Apache-2.0 */
#include "config/catalog.h"

#include <string.h>

const mh_alg_info mh_algs[MH_N_ALGS] = {
#define X(e, id, cls) {#e, id, #cls},
#include "algs.def"
#undef X
};

const mh_backend_info mh_backends[MH_N_BACKENDS] = {
#define X(e, name, algs) {#e, name, algs},
#include "backends.def"
#undef X
};

/* The object sizes the standards fix (src/ops/sizes.def), by C name. */
static const struct {
  const char *enum_name;
  size_t v[4];
} std_sizes[] = {
#define X(e, a, b, c, d) {#e, {a, b, c, d}},
#include "sizes.def"
#undef X
};

int mh_alg_sizes(size_t a, size_t out[4]) {
  for (size_t i = 0; i < sizeof std_sizes / sizeof std_sizes[0]; i++)
    if (strcmp(std_sizes[i].enum_name, mh_algs[a].enum_name) == 0) {
      memcpy(out, std_sizes[i].v, sizeof std_sizes[i].v);
      return 0;
    }
  return -1;
}

int mh_alg_find(const char *id) {
  for (size_t i = 0; i < MH_N_ALGS; i++)
    if (strcmp(mh_algs[i].id, id) == 0)
      return (int)i;
  return -1;
}

int mh_backend_find(const char *name) {
  for (size_t i = 0; i < MH_N_BACKENDS; i++)
    if (strcmp(mh_backends[i].name, name) == 0)
      return (int)i;
  return -1;
}

int mh_backend_offers(size_t b, size_t a) {
  const char *p = mh_backends[b].algs;
  const char *id = mh_algs[a].id;
  size_t n = strlen(id);
  while (*p) {
    while (*p == ' ')
      p++;
    size_t w = strcspn(p, " ");
    if (w == n && memcmp(p, id, n) == 0)
      return 1;
    p += w;
  }
  return 0;
}
