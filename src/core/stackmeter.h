/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Peak stack of one call, measured by painting: fill the unused stack below
 * the caller's stack pointer with a pattern, make the call, and find the
 * lowest word it overwrote. The port says where the stack is
 * (mport_stack_bounds); the figure counts from the stack pointer at the call
 * down, so it includes the return address or saved registers the call
 * pushes (what -fstack-usage also counts), not the harness frames above.
 */
#ifndef MERLIN_STACKMETER_H
#define MERLIN_STACKMETER_H

#include <stddef.h>
#include <stdint.h>

typedef int (*mcore_stack_fn)(void *arg);

typedef struct {
  size_t used;     /* bytes below the stack pointer the call wrote */
  size_t capacity; /* bytes there were below the stack pointer */
  int rc;          /* what fn returned */
} mcore_stack_result;

/* Call fn(arg) on a painted stack. A call that wrote the lowest painted word
 * may have gone further (used == capacity): treat it as an overflow. */
mcore_stack_result mcore_stack_measure(mcore_stack_fn fn, void *arg);

/* pqm4's stack helpers for implementation folders (src/backends/impl/
 * hal.c): paint the free stack below the caller with the meter's own
 * pattern (a measurement around it stays right); the bytes below that
 * point written since; the bytes free below the caller's stack pointer. */
void mcore_stack_spray(void);
size_t mcore_stack_check(void);
size_t mcore_stack_free(void);

/* A leaf function with a fixed frame (a local buffer of about n bytes,
 * n <= 512), for checking the meter against the compiler's -fstack-usage
 * figure of this function. */
int mcore_stack_probe(void *arg);

/* Recurses until the stack runs out (--inject-fault stackoverflow): the port
 * must catch it with a guard and report kind=stackoverflow. */
int mcore_stack_exhaust(void *arg);

#endif
