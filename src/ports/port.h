/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The port contract: what the runner needs from a target. Small on purpose
 * (like pqm4's HAL): a new target is a folder under src/ports/ implementing
 * these functions plus a linker script and startup where it has them.
 */
#ifndef MERLIN_PORT_H
#define MERLIN_PORT_H

#include <stddef.h>
#include <stdint.h>

/* A description of the part, for the provenance record. */
typedef struct {
  const char *target;  /* "host", "qemu-m4" */
  const char *core;    /* "cortex-m4", or the host CPU model */
  uint64_t clock_hz;   /* core clock, 0 when unknown (host) */
  const char *counter; /* "systick", "clock_monotonic_raw" */
  const char *unit;    /* the counter's own unit: "ticks" or "ns" */
  uint64_t counter_hz; /* counter ticks per second */
  /* Short operations are batched until one sample reaches this many
   * ticks, well above the counter's resolution and read overhead. */
  uint64_t min_sample_ticks;
  /* Time budget of one operation's warm-up and samples, in ticks (0: none);
   * past it the runner takes fewer samples and says so. */
  uint64_t budget_ticks;
  /* A core cycle counter beside the counter above, or why there is none
   * (e.g. "none: perf_event_open cycles: No such file or directory"). */
  const char *cycle_counter;
  uint32_t flash_bytes; /* 0 when not meaningful (host) */
  uint32_t ram_bytes;
  /* Real boards: the core clock measured at start-up against an
   * independent timer (0: not measured), and that timer ("tim2 1 MHz");
   * NULL when there is none. */
  uint64_t clock_measured_hz;
  const char *wallclock;
  /* More provenance, or NULL: key, value, ..., NULL (the host: CPU pinning,
   * priority granted, TSC), sent as they stand when the run begins. */
  const char *const *notes;
} mport_part;

/* Called first; sets up clocks, console and counter. argc/argv are the
 * runtime arguments (host command line, or semihosting on QEMU). */
void mport_init(int *argc, char ***argv);
const mport_part *mport_describe(void);
/* A monotonically increasing count in the part's counter unit, extended
 * to 64 bits (wraps are counted by the port). */
uint64_t mport_counter_read(void);
/* Optional (a no-op where the counter never interrupts: the weak default
 * of src/core/fresh.c): called outside the counter reads right before
 * every sample, so that a counter whose wraps run an interrupt handler
 * (its instructions land in the sample they fall in) wraps at the same
 * points of every sample, whatever ran before it. The count stays
 * monotonic. */
void mport_counter_restart(void);
void mport_console_write(const char *s, size_t n);
/* Optional: a second counter beside mport_counter_read (the host's
 * invariant TSC: TSC cycles, not core cycles), read around the interleaved
 * control (src/core/control.c); 0 where there is none (the weak default). */
uint64_t mport_cycles_read(void);
_Noreturn void mport_exit(int code);

/* The stack the runner runs on: [*lo, *hi), lo above any guard region.
 * The stack meter (src/core/stackmeter.h) paints between lo and the stack
 * pointer. A port must catch a write below lo (an MPU region or a guard
 * page) and report it as a fault of kind "stackoverflow". */
void mport_stack_bounds(uintptr_t *lo, uintptr_t *hi);

/* Constant-time checking (src/core/runner.c, docs/results.md): mark bytes
 * as secret (valgrind memcheck: undefined, the ctgrind technique) or public
 * again, and the number of errors the checker has reported so far; -1 when
 * no checker is watching (not under valgrind, or a port without one). */
void mport_ct_poison(const void *p, size_t n);
void mport_ct_unpoison(const void *p, size_t n);
long mport_ct_errors(void);

/* Test hook (images built with --inject-fault): fault on purpose, so the
 * tests can check that the fault is reported and the run rejected. kind:
 * "busfault" (read an unmapped address; SIGSEGV on the host),
 * "usagefault" (an undefined instruction; SIGILL), "hang" (spin). */
void mport_test_fault(const char *kind);

#endif
