/* SPDX-License-Identifier: Apache-2.0 */
/* Semihosting stand-ins for the boards: a BKPT with no debugger attached
 * is a HardFault, so a board image never issues one. There are no runtime
 * arguments (the runner uses its built-in --runs/--warmup defaults) and
 * "exit" parks the core: the wire's end or fault record has already been
 * sent, and a reset starts a fresh run. */
#include "cortexm.h"

int cortexm_semihost(uint32_t op, void *arg) {
  (void)op;
  (void)arg;
  return -1;
}

int cortexm_semihost_args(char ***argv) {
  *argv = 0;
  return 0;
}

_Noreturn void cortexm_semihost_exit(int code) {
  (void)code;
  __asm__ volatile("cpsid i" ::: "memory");
  for (;;)
    __asm__ volatile("wfi");
}
