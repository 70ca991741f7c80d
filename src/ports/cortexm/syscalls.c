/* SPDX-License-Identifier: Apache-2.0 */
/* The newlib system calls an image links: the heap and _exit. Console output
 * goes through mport_console_write, never stdio. */
#include "cortexm.h"
#include "mcore.h"
#include "wire_out.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

extern char __heap_start[], __heap_end[];
void *_sbrk(ptrdiff_t incr);
void _exit(int code);

void *_sbrk(ptrdiff_t incr) {
  static char *brk = __heap_start;
  if (incr > __heap_end - brk || incr < __heap_start - brk) {
    errno = ENOMEM;
    return (void *)-1;
  }
  char *old = brk;
  brk += incr;
  return old;
}

/* A library that gives up calls exit() (PQClean's fips202.c does when an
 * allocation fails): report it on the wire so the run is marked invalid
 * with the reason, instead of stopping silently. */
void _exit(int code) {
  mcore_wire_start(MWIRE_R(fault));
  mcore_wire_str(MWIRE_K(fault, kind), "library-exit");
  mcore_wire_u64(MWIRE_K(fault, code), (uint64_t)(unsigned)code);
  mcore_wire_u64(MWIRE_K(fault, heap_failures), mcore_heap_get().failures);
  mcore_wire_end();
  cortexm_semihost_exit(5);
}
