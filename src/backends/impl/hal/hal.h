/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HAL header pqm4's and mupq's folders include (their common/hal.h):
 * the functions as they declare them, implemented over Merlin's port
 * (src/backends/impl/hal.c; a folder's calls are renamed to mbe_hal_*,
 * cmake/MerlinImpl.cmake). docs/bring-your-own.md, "pqm4's HAL".
 */
#ifndef HAL_H
#define HAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

enum clock_mode { CLOCK_FAST, CLOCK_BENCHMARK };

void hal_setup(const enum clock_mode clock);
void hal_send_str(const char *in);
uint64_t hal_get_time(void);
size_t hal_get_stack_size(void);
void hal_spraystack(void);
size_t hal_checkstack(void);

#endif
