/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pqm4's HAL (hal/hal.h) for implementation folders, over Merlin's port:
 * a folder's hal_* calls are renamed to these (cmake/MerlinImpl.cmake), so
 * pqm4's folders build unchanged on every target (docs/bring-your-own.md,
 * "pqm4's HAL").
 *   hal_setup          nothing: the port set the part up before the runner
 *   hal_send_str       dropped: the console carries Merlin's wire records,
 *                      which a folder's text would garble
 *   hal_get_time       the port's second counter (mport_cycles_read: the
 *                      host's TSC; 0 where there is none, as under QEMU),
 *                      never the sample counter: pqm4's folders read the
 *                      time inside their operations (hash profiling), and
 *                      a read of the sample counter there (interrupts
 *                      masked around a pending timer wrap) would move the
 *                      timed sample it is in
 *   hal_get_stack_size the stack free below the caller
 *   hal_spraystack,    paint the free stack, and the bytes written below
 *   hal_checkstack     the painted point since (src/core/stackmeter.c)
 */
#include "port.h"
#include "stackmeter.h"

#include <stddef.h>
#include <stdint.h>

void mbe_hal_setup(int clock);
void mbe_hal_send_str(const char *in);
uint64_t mbe_hal_get_time(void);
size_t mbe_hal_get_stack_size(void);
void mbe_hal_spraystack(void);
size_t mbe_hal_checkstack(void);

/* clock: pqm4's enum clock_mode (an int as passed) */
void mbe_hal_setup(int clock) { (void)clock; }

void mbe_hal_send_str(const char *in) { (void)in; }

uint64_t mbe_hal_get_time(void) { return mport_cycles_read(); }

size_t mbe_hal_get_stack_size(void) { return mcore_stack_free(); }

void mbe_hal_spraystack(void) { mcore_stack_spray(); }

size_t mbe_hal_checkstack(void) { return mcore_stack_check(); }
