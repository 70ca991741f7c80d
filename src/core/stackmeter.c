/* SPDX-License-Identifier: Apache-2.0 */
#include "stackmeter.h"

#include "port.h"

#include <string.h>

#define PAINT 0xC5A3E1F7u

/* The stack pointer of the calling frame, read directly where the
 * architecture allows (a frame address can sit above locals). */
static inline uintptr_t stack_pointer(void) {
  uintptr_t sp;
#if defined(__arm__) || defined(__aarch64__)
  __asm__ volatile("mov %0, sp" : "=r"(sp));
#elif defined(__x86_64__)
  __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
#elif defined(__i386__)
  __asm__ volatile("mov %%esp, %0" : "=r"(sp));
#else
  sp = (uintptr_t)__builtin_frame_address(0);
#endif
  return sp;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#if !defined(NO_ASAN) && defined(__SANITIZE_ADDRESS__)
#define NO_ASAN __attribute__((no_sanitize_address))
#endif
#ifndef NO_ASAN
#define NO_ASAN
#endif

/* Painting writes below the stack pointer, into memory no live frame owns:
 * no sanitizer instrumentation (ASan would see stale redzones there). The
 * loops stay in this frame so nothing else runs below the stack pointer
 * between painting and the call. */
NO_ASAN __attribute__((noinline)) mcore_stack_result
mcore_stack_measure(mcore_stack_fn fn, void *arg) {
  mcore_stack_result r = {0, 0, 0};
  uintptr_t lo, hi;
  mport_stack_bounds(&lo, &hi);
  uintptr_t sp = stack_pointer();
  lo = (lo + 3u) & ~(uintptr_t)3u;
  uintptr_t top = sp & ~(uintptr_t)3u; /* first word below sp: top - 4 */
  if (sp <= lo || sp > hi) {
    r.rc = fn(arg); /* not on the stack the port described: no figure */
    return r;
  }
  volatile uint32_t *w = (volatile uint32_t *)lo;
  volatile uint32_t *end = (volatile uint32_t *)top;
  for (volatile uint32_t *p = w; p < end; p++)
    *p = PAINT;
  r.rc = fn(arg);
  volatile uint32_t *p = w;
  while (p < end && *p == PAINT)
    p++;
  r.capacity = (size_t)(top - lo);
  r.used = (size_t)(top - (uintptr_t)p);
  return r;
}

int mcore_stack_probe(void *arg) {
  volatile unsigned char buf[256];
  size_t n = arg ? *(const size_t *)arg : sizeof buf;
  if (n > sizeof buf)
    n = sizeof buf;
  for (size_t i = 0; i < n; i++)
    buf[i] = (unsigned char)i;
  return buf[n ? n - 1 : 0];
}

int mcore_stack_exhaust(void *arg) {
  volatile unsigned char frame[1024];
  uintptr_t depth = (uintptr_t)arg;
  if (depth > ((uintptr_t)1 << 24)) /* 16 GB of frames: never reached */
    return 0;
  memset((void *)(uintptr_t)frame, (int)(depth & 0xFFu), sizeof frame);
  /* Not a tail call: the frame must stay live across the recursion. */
  return mcore_stack_exhaust((void *)(depth + 1)) + frame[depth % sizeof frame];
}

/* The top of the last mcore_stack_spray (0: none). */
static uintptr_t sprayed_top;

NO_ASAN __attribute__((noinline)) void mcore_stack_spray(void) {
  uintptr_t lo, hi;
  mport_stack_bounds(&lo, &hi);
  uintptr_t sp = stack_pointer();
  lo = (lo + 3u) & ~(uintptr_t)3u;
  sprayed_top = 0;
  if (sp <= lo || sp > hi)
    return;
  /* below this frame's own locals: a margin the painting loop may use */
  uintptr_t top = (sp - 64u) & ~(uintptr_t)3u;
  for (volatile uint32_t *p = (volatile uint32_t *)lo;
       p < (volatile uint32_t *)top; p++)
    *p = PAINT;
  sprayed_top = top;
}

NO_ASAN __attribute__((noinline)) size_t mcore_stack_check(void) {
  uintptr_t lo, hi;
  mport_stack_bounds(&lo, &hi);
  lo = (lo + 3u) & ~(uintptr_t)3u;
  if (!sprayed_top)
    return 0;
  volatile uint32_t *p = (volatile uint32_t *)lo;
  while (p < (volatile uint32_t *)sprayed_top && *p == PAINT)
    p++;
  return (size_t)(sprayed_top - (uintptr_t)p);
}

size_t mcore_stack_free(void) {
  uintptr_t lo, hi;
  mport_stack_bounds(&lo, &hi);
  uintptr_t sp = stack_pointer();
  return sp > lo && sp <= hi ? (size_t)(sp - lo) : 0;
}
