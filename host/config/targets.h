/* SPDX-License-Identifier: Apache-2.0 */
/* The targets merlin can build for and run on, from their descriptors
 * (boards/<id>.board with a kind, docs/boards.md "Targets"). */
#ifndef MERLIN_HOST_TARGETS_H
#define MERLIN_HOST_TARGETS_H

#include <stddef.h>

typedef enum {
  MH_EXEC_NATIVE, /* run the image binary directly */
  MH_EXEC_QEMU,   /* run the image under qemu-system-arm with -icount */
  MH_EXEC_BOARD,  /* a real board: the user flashes the image, merlin reads
                     its serial port (--port) or a captured log (--from) */
} mh_exec_kind;

typedef struct {
  const char *id;          /* target id: boards/<id>.board */
  const char *description; /* one line for `merlin list targets` */
  mh_exec_kind kind;
  const char *image;        /* image file name inside the build directory */
  const char *qemu_machine; /* QEMU only */
  const char *qemu_cpu;     /* QEMU only */
  int icount_shift;         /* -icount shift=N; -1 when not under QEMU */
  /* kind = qemu-user: a native image run under qemu-x86_64 with the
   * merlin_insn plugin, its counter the instruction count */
  int user_qemu;
  const char *unit; /* unit of the reported values */
  /* Multiplier from counter ticks to unit; 0 means derive it from the
   * begin record: 1e9 / counter_hz / 2^icount_shift under QEMU. */
  double ticks_to_unit;
  /* Boards only: how to flash the image (a command line, IMAGE standing
   * for the image path without its extension). */
  const char *flash_hint;
  const char *toolchain, *cpu_flags; /* Cortex-M images (CMake reads them) */
  /* The cycle model `--cycles auto` picks (tools/qemu-plugin), or NULL with
   * the reason there is none. */
  const char *cycle_model, *cycle_model_why;
} mh_target;

/* Loaded from the descriptors on first use (mh_targets_init). */
extern const mh_target *mh_targets;
extern size_t mh_n_targets;

/* Load the descriptors (once; later calls return the first answer). 0, or
 * -1 with err naming the bad file. mh_target_find and mh_target_list call
 * it, and find nothing when it fails. */
int mh_targets_init(char *err, size_t errlen);

const mh_target *mh_target_find(const char *id);
/* Whether t's core has Thumb-2 (ARMv7-M, ARMv8-M mainline): what
 * impl.hash = thumb2-asm needs. */
int mh_target_has_thumb2(const mh_target *t);

/* "host, qemu-m4" */
void mh_target_list(char *out, size_t outlen);

/* The command that runs image for this target with --runs/--warmup (runs
 * = 0: --kat-only), as a malloc'd NULL-terminated argv (free with
 * mh_argv_free); NULL on allocation failure. */
char **mh_target_argv(const mh_target *t, const char *image, unsigned runs,
                      unsigned warmup);
void mh_argv_free(char **argv);

/* ticks_to_unit for a run of this target whose begin record says
 * counter_unit ("ns" or "ticks") at counter_hz. Returns 0 and sets *out, or
 * -1 with a message when the conversion cannot be made. */
int mh_target_ticks_to_unit(const mh_target *t, const char *counter_unit,
                            const char *counter_hz, double *out, char *err,
                            size_t errlen);

/* The plugin shared object: $MERLIN_QEMU_PLUGIN, else merlin_cycles.so next
 * to the merlin executable. Returns a malloc'd path, or NULL with a
 * message. */
char *mh_cycles_plugin_path(char *err, size_t errlen);

#endif
