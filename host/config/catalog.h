/* SPDX-License-Identifier: Apache-2.0 */
/* The algorithm and backend catalogues (src/ops/algs.def,
 * src/backends/backends.def) as host-side tables, with lookups. */
#ifndef MERLIN_HOST_CATALOG_H
#define MERLIN_HOST_CATALOG_H

#include <stddef.h>

enum {
  MH_N_ALGS = 0
#define X(e, id, cls) +1
#include "algs.def"
#undef X
};

enum {
  MH_N_BACKENDS = 0
#define X(e, name, algs) +1
#include "backends.def"
#undef X
};

typedef struct {
  const char *enum_name; /* "ML_KEM_512" */
  const char *id;        /* "ml-kem-512" */
  const char *cls;       /* "KEM" */
} mh_alg_info;

typedef struct {
  const char *enum_name; /* "WOLFCRYPT" */
  const char *name;      /* "wolfcrypt" */
  const char *algs;      /* space separated algorithm ids it can serve */
} mh_backend_info;

extern const mh_alg_info mh_algs[MH_N_ALGS];
extern const mh_backend_info mh_backends[MH_N_BACKENDS];

/* The sizes src/ops/sizes.def fixes for algorithm a (index), in its
 * class's slot order (SIG: pk, sk, sig; KEM: pk, sk, ct, ss; 0: not
 * fixed). 0, or -1 when it has no line. */
int mh_alg_sizes(size_t a, size_t out[4]);

/* Index into mh_algs / mh_backends, or -1. */
int mh_alg_find(const char *id);
int mh_backend_find(const char *name);
/* 1 when backend b (index) lists algorithm a (index) in backends.def. */
int mh_backend_offers(size_t b, size_t a);

#endif
