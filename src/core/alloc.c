/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The allocation hook every backend's allocations go through (wolfCrypt
 * XMALLOC, Mbed TLS calloc/free, PQClean's fips202 contexts). Each block
 * carries a small header holding its size, so current and peak heap use and
 * the number of allocations are exact.
 */
#include "mcore.h"

#include <stdlib.h>
#include <string.h>

/* 8 bytes keeps the caller's block 8-byte aligned on 32-bit targets; 16 on
 * 64-bit hosts where malloc guarantees 16. */
#define HDR (sizeof(void *) == 8 ? 16u : 8u)

static mcore_heap_stats st;
static size_t limit = (size_t)-1; /* mcore_heap_set_limit */

void mcore_heap_set_limit(size_t bytes) { limit = bytes; }

void *mcore_malloc(size_t n) {
  if (n > (size_t)-1 - HDR || n > limit || st.current > limit - n) {
    st.failures++;
    return NULL;
  }
  unsigned char *p = malloc(n + HDR);
  if (!p) {
    st.failures++;
    return NULL;
  }
  memcpy(p, &n, sizeof n);
  st.current += n;
  st.allocs++;
  if (st.current > st.peak)
    st.peak = st.current;
  return p + HDR;
}

void *mcore_calloc(size_t n, size_t size) {
  if (size && n > (size_t)-1 / size) {
    st.failures++;
    return NULL;
  }
  void *p = mcore_malloc(n * size);
  if (p)
    memset(p, 0, n * size);
  return p;
}

void mcore_free(void *p) {
  if (!p)
    return;
  unsigned char *base = (unsigned char *)p - HDR;
  size_t n;
  memcpy(&n, base, sizeof n);
  st.current -= n;
  free(base);
}

void *mcore_realloc(void *p, size_t n) {
  if (!p)
    return mcore_malloc(n);
  if (!n) {
    mcore_free(p);
    return NULL;
  }
  size_t old;
  memcpy(&old, (unsigned char *)p - HDR, sizeof old);
  void *q = mcore_malloc(n);
  if (!q)
    return NULL;
  memcpy(q, p, old < n ? old : n);
  mcore_free(p);
  return q;
}

void mcore_heap_reset_peak(void) {
  st.peak = st.current;
  st.allocs = 0;
  st.failures = 0;
}

mcore_heap_stats mcore_heap_get(void) { return st; }

void mcore_heap_ct_clean(void (*unpoison)(const void *p, size_t n)) {
  unpoison(&st, sizeof st);
}
