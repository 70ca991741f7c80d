/* SPDX-License-Identifier: Apache-2.0 */
/*
 * merlin_insn: a QEMU TCG plugin for user-mode emulation (qemu-x86_64) that
 * makes the instruction count the counter of a host image (target
 * host-insn, docs/host.md "Exact host counts"). Every translated block adds
 * its instruction count to one counter when it runs (an inline add: exact,
 * and about as fast as plain emulation). The image asks for the count with
 * a system call QEMU does not implement (MERLIN_INSN_SYSCALL, answered
 * -ENOSYS) whose first argument points at a 64-bit word and whose second is
 * MERLIN_INSN_MAGIC; the plugin sees the call before QEMU does and writes
 * the count into that word: guest memory in user mode is host memory at a
 * fixed offset, which the first translated block tells (host address minus
 * guest address of its first instruction).
 *
 * The count is of every guest thread's instructions together: the host
 * image's main thread waits in pthread_join while the runner thread runs,
 * so between two reads only the runner's instructions are counted.
 */
#include <qemu-plugin.h>

#include <stdint.h>

#define MERLIN_INSN_SYSCALL 0x4d52 /* must match src/ports/host/port_host.c */
#define MERLIN_INSN_MAGIC 0x4d65726c696e4943ull

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static uint64_t insns;
static intptr_t guest_base;
static int base_known;

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  if (!n)
    return;
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                           &insns, n);
  if (!base_known) {
    struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, 0);
    guest_base = (intptr_t)qemu_plugin_insn_haddr(in) -
                 (intptr_t)qemu_plugin_insn_vaddr(in);
    base_known = 1;
  }
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
                       uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8) {
  (void)id;
  (void)vcpu;
  (void)a3;
  (void)a4;
  (void)a5;
  (void)a6;
  (void)a7;
  (void)a8;
  if (num != MERLIN_INSN_SYSCALL || a2 != MERLIN_INSN_MAGIC || !base_known)
    return;
  *(volatile uint64_t *)(uintptr_t)((intptr_t)a1 + guest_base) = insns;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info, int argc,
                                           char **argv) {
  (void)argv;
  if (info->system_emulation || argc != 0)
    return -1; /* user mode only, and no options */
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
  qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
  return 0;
}
