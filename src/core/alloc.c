/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The allocation hook every backend's allocations go through (wolfCrypt
 * XMALLOC, Mbed TLS calloc/free, PQClean's fips202 contexts). Each block
 * carries a small header holding its size, so current and peak heap use and
 * the number of allocations are exact.
 *
 * The blocks come from one arena taken from the C library once, managed
 * first-fit in address order with every free block merged with its free
 * neighbours. Such a heap is canonical: its free list is exactly the gaps
 * between the live blocks, whatever order they were allocated and freed
 * in. So an operation that starts with the same live blocks (the runner
 * resets the libraries before each one, src/core/fresh.c) gets the same
 * addresses and the same allocator work whatever ran before it, which the
 * C library's allocator (bins, a top chunk grown and trimmed as earlier
 * operations needed) does not give. The arena starts at a multiple of 64
 * bytes and blocks are multiples of 16, so a block's alignment does not
 * depend on where the linker put the heap either.
 *
 * Built with AddressSanitizer (make test-sanitize), the C library's
 * allocator serves every block instead, so that ASan sees each one.
 */
#include "mcore.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 16 bytes: the caller's block is 16-byte aligned (what malloc guarantees
 * on 64-bit hosts; more than the 8 Cortex-M needs). */
#define HDR 16u
#define ARENA_ALIGN 64u
/* What the arena leaves to the C library's own allocator (the harness's
 * own buffers come from the arena too: mcore_harness_malloc). */
#define RESERVE ((size_t)16 * 1024)
/* The largest arena asked for (128 MB on a 64-bit host, whose pages are
 * touched only where blocks go; 64 MB elsewhere). */
#define ARENA_MAX ((size_t)1 << (sizeof(void *) == 8 ? 27 : 26))

static mcore_heap_stats st;
static size_t limit = (size_t)-1; /* mcore_heap_set_limit */

void mcore_heap_set_limit(size_t bytes) { limit = bytes; }

#if defined(__SANITIZE_ADDRESS__)
#define LIBC_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LIBC_HEAP 1
#endif
#endif

/* A block's header: its whole size (header included, a multiple of HDR)
 * and, while allocated, the bytes asked for; while free, the next free
 * block (address order). */
typedef struct head {
  size_t size;
  union {
    size_t n;
    struct head *next;
  } u;
} head;
_Static_assert(sizeof(head) <= HDR, "block header larger than HDR");

#ifdef LIBC_HEAP
static void *block_get(size_t n) {
  head *h = n <= (size_t)-1 - HDR ? malloc(n + HDR) : NULL;
  if (h)
    h->u.n = n;
  return h ? (unsigned char *)h + HDR : NULL;
}

static void block_put(void *p) { free((unsigned char *)p - HDR); }
#else
static head *free_list; /* address order */
static int arena_state; /* 0: not taken yet, 1: taken, -1: none to take */
static unsigned char *arena_lo, *arena_hi; /* the blocks tile it */

/* The largest block the C library gives (bisection; each probe is freed
 * at once), less RESERVE (or a quarter of it, if smaller). The probe goes
 * through a volatile: clang removes a malloc whose block is only freed,
 * and takes it to have succeeded. */
static size_t arena_size(void) {
  size_t lo = 0, hi = ARENA_MAX;
  while (hi - lo > 4096) {
    size_t mid = lo + (hi - lo) / 2;
    void *volatile p = malloc(mid);
    if (p) {
      free(p);
      lo = mid;
    } else {
      hi = mid;
    }
  }
  size_t keep = lo / 4 < RESERVE ? lo / 4 : RESERVE;
  return lo - keep;
}

/* Once, on the first allocation: never inlined into mcore_malloc, whose
 * code (the instructions an operation's allocations execute) must not
 * change with this probing. */
__attribute__((noinline, cold)) static void arena_take(void) {
  size_t size = arena_size();
  unsigned char *raw = size > ARENA_ALIGN + 2 * HDR ? malloc(size) : NULL;
  arena_state = -1;
  if (!raw)
    return;
  uintptr_t at =
      ((uintptr_t)raw + ARENA_ALIGN - 1) & ~(uintptr_t)(ARENA_ALIGN - 1);
  size_t usable = (size - (size_t)(at - (uintptr_t)raw)) & ~(size_t)(HDR - 1);
  free_list = (head *)at;
  free_list->size = usable;
  arena_lo = (unsigned char *)at;
  arena_hi = arena_lo + usable;
  free_list->u.next = NULL;
  arena_state = 1;
}

static void *block_get(size_t n) {
  if (!arena_state)
    arena_take();
  if (n > (size_t)-1 - 2 * HDR)
    return NULL;
  size_t need = (n + 2 * HDR - 1) & ~(size_t)(HDR - 1);
  head **link = &free_list;
  for (head *b = free_list; b; link = &b->u.next, b = b->u.next) {
    if (b->size < need)
      continue;
    if (b->size - need >= 2 * HDR) { /* split: the rest stays free */
      head *rest = (head *)((unsigned char *)b + need);
      rest->size = b->size - need;
      rest->u.next = b->u.next;
      *link = rest;
      b->size = need;
    } else {
      *link = b->u.next;
    }
    b->u.n = n;
    return (unsigned char *)b + HDR;
  }
  return NULL;
}

static void block_put(void *p) {
  head *b = (head *)((unsigned char *)p - HDR);
  head *prev = NULL, *next = free_list;
  while (next && next < b) {
    prev = next;
    next = next->u.next;
  }
  if (next && (unsigned char *)b + b->size == (unsigned char *)next) {
    b->size += next->size;
    next = next->u.next;
  }
  b->u.next = next;
  if (prev && (unsigned char *)prev + prev->size == (unsigned char *)b) {
    prev->size += b->size;
    prev->u.next = next;
  } else if (prev) {
    prev->u.next = b;
  } else {
    free_list = b;
  }
}
#endif

static size_t block_n(void *p) {
  return ((head *)((unsigned char *)p - HDR))->u.n;
}

void *mcore_malloc(size_t n) {
  if (n > (size_t)-1 - HDR || n > limit || st.current > limit - n) {
    st.failures++;
    return NULL;
  }
  void *p = block_get(n);
  if (!p) {
    st.failures++;
    return NULL;
  }
  st.current += n;
  st.allocs++;
  if (st.current > st.peak)
    st.peak = st.current;
  return p;
}

/* Through mcore_malloc, whose code stays as it is, with the limit lifted
 * and the figures put back. */
void *mcore_harness_malloc(size_t n) {
  mcore_heap_stats kept = st;
  size_t kept_limit = limit;
  limit = (size_t)-1;
  void *p = mcore_malloc(n);
  limit = kept_limit;
  st = kept;
  return p;
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
  st.current -= block_n(p);
  block_put(p);
}

void *mcore_realloc(void *p, size_t n) {
  if (!p)
    return mcore_malloc(n);
  if (!n) {
    mcore_free(p);
    return NULL;
  }
  size_t old = block_n(p);
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

/* A library whose allocation sizes depended on a poisoned secret (Mbed
 * TLS's bignums grow with the value) has tainted the counters, and the
 * arena's block headers and free list (sizes, and pointers computed from
 * them): every header is unpoisoned, block by block across the arena,
 * before its size is read. */
void mcore_heap_ct_clean(void (*unpoison)(const void *p, size_t n)) {
  unpoison(&st, sizeof st);
#ifndef LIBC_HEAP
  unpoison(&free_list, sizeof free_list);
  for (unsigned char *p = arena_lo; p && p < arena_hi; p += ((head *)p)->size) {
    unpoison(p, HDR);
    if (!((head *)p)->size)
      break;
  }
#endif
}
