/* SPDX-License-Identifier: Apache-2.0 */
#include "cortexm.h"

/* Operation numbers from the semihosting specification, section 5. */
#define SYS_GET_CMDLINE 0x15u
#define SYS_EXIT 0x18u
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

int cortexm_semihost(uint32_t op, void *arg) {
  register uint32_t r0 __asm__("r0") = op;
  register void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return (int)r0;
}

#define MAX_ARGS 16
static char cmdline[256];
static char *args[MAX_ARGS + 1];

int cortexm_semihost_args(char ***argv) {
  struct {
    char *buf;
    uint32_t len;
  } block = {cmdline, sizeof cmdline - 1};
  int argc = 0;
  *argv = args;
  if (cortexm_semihost(SYS_GET_CMDLINE, &block) != 0)
    return 0;
  cmdline[block.len < sizeof cmdline ? block.len : sizeof cmdline - 1] = '\0';
  for (char *p = cmdline; *p && argc < MAX_ARGS;) {
    while (*p == ' ')
      *p++ = '\0';
    if (!*p)
      break;
    args[argc++] = p;
    while (*p && *p != ' ')
      p++;
  }
  args[argc] = NULL;
  return argc;
}

_Noreturn void cortexm_semihost_exit(int code) {
  /* SYS_EXIT_EXTENDED passes the real status (QEMU returns it as its own
   * exit status); SYS_EXIT is the fallback for hosts without it. */
  uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)code};
  cortexm_semihost(SYS_EXIT_EXTENDED, block);
  cortexm_semihost(SYS_EXIT, (void *)(uintptr_t)ADP_STOPPED_APPLICATION_EXIT);
  for (;;)
    __asm__ volatile("wfi");
}
