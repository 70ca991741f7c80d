/* SPDX-License-Identifier: Apache-2.0 */
#include "markers.h"
#include "port.h"

/* Never inlined, never folded away: the plugin needs the calls. */
#if defined(__GNUC__) && !defined(__clang__)
#define MARKER __attribute__((noinline, noipa, used))
#else
#define MARKER __attribute__((noinline, used))
#endif

MARKER void mcore_mark_sample_begin(void) { __asm__ volatile("" ::: "memory"); }

MARKER void mcore_mark_sample_end(void) { __asm__ volatile("" ::: "memory"); }

MARKER void mcore_mark_ct_begin(void) { __asm__ volatile("" ::: "memory"); }

MARKER void mcore_mark_ct_end(void) { __asm__ volatile("" ::: "memory"); }

MARKER void mcore_mark_ct_done(void) { __asm__ volatile("" ::: "memory"); }

void mcore_mark_calibrate(void) {
  mcore_mark_sample_begin();
  uint64_t t0 = mport_counter_read();
  uint64_t t1 = mport_counter_read();
  mcore_mark_sample_end();
  (void)t0;
  (void)t1;
}
