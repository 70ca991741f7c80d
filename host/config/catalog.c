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
