/* SPDX-License-Identifier: Apache-2.0 */
#include "config/targets.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const mh_target mh_targets[] = {
    {
        .id = "host",
        .description = "this machine: the image is a native program, "
                       "timed with a nanosecond clock",
        .kind = MH_EXEC_NATIVE,
        .image = "merlin-image",
        .icount_shift = -1,
        .unit = "ns",
        .ticks_to_unit = 1.0,
    },
    {
        .id = "qemu-m4",
        .description = "Cortex-M4 under QEMU (mps2-an386), exact "
                       "instruction counts with -icount shift=7",
        .kind = MH_EXEC_QEMU,
        .image = "merlin-image.elf",
        .qemu_machine = "mps2-an386",
        .qemu_cpu = "cortex-m4",
        .icount_shift = 7,
        .unit = "instructions",
        .ticks_to_unit = 0.0,
    },
    /* The mps2 machines below count the same 25 MHz CMSDK TIMER0 as
     * qemu-m4: at shift=7 one instruction is 128 ns and one tick 40 ns, so
     * an instruction spans 3.2 ticks (ticks_to_unit 0.3125 < 0.5) and
     * round(ticks * 40 / 128) is exact. */
    {
        .id = "qemu-m3",
        .description = "Cortex-M3 (no FPU) under QEMU (mps2-an385), exact "
                       "instruction counts with -icount shift=7",
        .kind = MH_EXEC_QEMU,
        .image = "merlin-image.elf",
        .qemu_machine = "mps2-an385",
        .qemu_cpu = "cortex-m3",
        .icount_shift = 7,
        .unit = "instructions",
        .ticks_to_unit = 0.0,
    },
    {
        .id = "qemu-m0plus",
        .description = "ARMv6-M (Cortex-M0+) image on QEMU's Cortex-M3 "
                       "(mps2-an385; QEMU has no M0+ model, the M3 executes "
                       "the v6-M instruction stream exactly), exact "
                       "instruction counts with -icount shift=7",
        .kind = MH_EXEC_QEMU,
        .image = "merlin-image.elf",
        .qemu_machine = "mps2-an385",
        .qemu_cpu = "cortex-m3",
        .icount_shift = 7,
        .unit = "instructions",
        .ticks_to_unit = 0.0,
    },
    {
        .id = "qemu-m7",
        .description = "Cortex-M7 under QEMU (mps2-an500), exact "
                       "instruction counts with -icount shift=7",
        .kind = MH_EXEC_QEMU,
        .image = "merlin-image.elf",
        .qemu_machine = "mps2-an500",
        .qemu_cpu = "cortex-m7",
        .icount_shift = 7,
        .unit = "instructions",
        .ticks_to_unit = 0.0,
    },
    /* The an505's TIMER0 counts at 20 MHz: one tick is 50 ns, so at shift=7
     * an instruction (128 ns) spans 2.56 ticks (ticks_to_unit 0.39 < 0.5)
     * and round(ticks * 50 / 128) is still exact. */
    {
        .id = "qemu-m33",
        .description = "Cortex-M33 under QEMU (mps2-an505, Secure state), "
                       "exact instruction counts with -icount shift=7",
        .kind = MH_EXEC_QEMU,
        .image = "merlin-image.elf",
        .qemu_machine = "mps2-an505",
        .qemu_cpu = "cortex-m33",
        .icount_shift = 7,
        .unit = "instructions",
        .ticks_to_unit = 0.0,
    },
    /* The an547's SSE-300 System Counter counts at 32 MHz: one tick is
     * 31.25 ns, so at shift=7 an instruction (128 ns) spans 4.096 ticks
     * (ticks_to_unit 0.244 < 0.5) and round(ticks * 31.25 / 128) is
     * exact. */
    {
        .id = "qemu-m55",
        .description = "Cortex-M55 under QEMU (mps3-an547, Secure state), "
                       "exact instruction counts with -icount shift=7",
        .kind = MH_EXEC_QEMU,
        .image = "merlin-image.elf",
        .qemu_machine = "mps3-an547",
        .qemu_cpu = "cortex-m55",
        .icount_shift = 7,
        .unit = "instructions",
        .ticks_to_unit = 0.0,
    },
    /* Real boards (docs/targets.md): built here, flashed and run by the
     * user; DWT CYCCNT (SysTick on the RP2040) counts core cycles. */
    {
        .id = "nrf5340dk-app",
        .description = "nRF5340 DK application core (Cortex-M33, 128 MHz; "
                       "real board: flash it, read it with --port)",
        .kind = MH_EXEC_BOARD,
        .image = "merlin-image.elf",
        .icount_shift = -1,
        .unit = "cycles",
        .ticks_to_unit = 1.0,
        .flash_hint = "nrfjprog -f NRF53 --coprocessor CP_APPLICATION "
                      "--program IMAGE.hex --chiperase --verify --reset",
    },
    {
        .id = "nucleo-f439zi",
        .description = "NUCLEO-F439ZI (Cortex-M4F, 168 MHz; real board: "
                       "flash it, read it with --port)",
        .kind = MH_EXEC_BOARD,
        .image = "merlin-image.elf",
        .icount_shift = -1,
        .unit = "cycles",
        .ticks_to_unit = 1.0,
        .flash_hint = "openocd -f board/st_nucleo_f4.cfg -c \"program "
                      "IMAGE.elf verify reset exit\"",
    },
    {
        .id = "rp2040-pico",
        .description = "Raspberry Pi Pico (RP2040 Cortex-M0+, 133 MHz; real "
                       "board: flash it, read it with --port)",
        .kind = MH_EXEC_BOARD,
        .image = "merlin-image.elf",
        .icount_shift = -1,
        .unit = "cycles",
        .ticks_to_unit = 1.0,
        .flash_hint = "picotool load -x IMAGE.uf2 (or copy IMAGE.uf2 to the "
                      "RPI-RP2 drive)",
    },
    {
        .id = "nucleo-h573zi",
        .description = "NUCLEO-H573ZI (Cortex-M33, 250 MHz; real board: "
                       "flash it, read it with --port)",
        .kind = MH_EXEC_BOARD,
        .image = "merlin-image.elf",
        .icount_shift = -1,
        .unit = "cycles",
        .ticks_to_unit = 1.0,
        .flash_hint = "openocd -f interface/stlink.cfg -f target/stm32h5x.cfg "
                      "-c \"program IMAGE.elf verify reset exit\"",
    },
};

const size_t mh_n_targets = sizeof mh_targets / sizeof mh_targets[0];

const mh_target *mh_target_find(const char *id) {
  for (size_t i = 0; i < mh_n_targets; i++)
    if (strcmp(mh_targets[i].id, id) == 0)
      return &mh_targets[i];
  return NULL;
}

void mh_target_list(char *out, size_t outlen) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < mh_n_targets && used < outlen; i++) {
    int w = snprintf(out + used, outlen - used, "%s%s", i ? ", " : "",
                     mh_targets[i].id);
    if (w < 0)
      break;
    used += (size_t)w;
  }
}

void mh_argv_free(char **argv) {
  if (!argv)
    return;
  for (char **a = argv; *a; a++)
    free(*a);
  free(argv);
}

char **mh_target_argv(const mh_target *t, const char *image, unsigned runs,
                      unsigned warmup) {
  char r[16], w[16], semi[128], icount[64];
  snprintf(r, sizeof r, "%u", runs);
  snprintf(w, sizeof w, "%u", warmup);
  const char *args[24];
  size_t n = 0;
  /* runs = 0: every known-answer test, nothing timed (--kat-only). */
  if (t->kind == MH_EXEC_NATIVE) {
    args[n++] = image;
    if (runs == 0) {
      args[n++] = "--kat-only";
    } else {
      args[n++] = "--runs";
      args[n++] = r;
      args[n++] = "--warmup";
      args[n++] = w;
    }
  } else {
    /* The image's console is UART0 on stdio; semihosting passes the
     * arguments and carries the exit status (SYS_EXIT_EXTENDED). */
    if (runs == 0)
      snprintf(semi, sizeof semi,
               "enable=on,target=native,arg=merlin-image,arg=--kat-only");
    else
      snprintf(semi, sizeof semi,
               "enable=on,target=native,arg=merlin-image,arg=--runs,arg=%u,"
               "arg=--warmup,arg=%u",
               runs, warmup);
    snprintf(icount, sizeof icount, "shift=%d,align=off,sleep=off",
             t->icount_shift);
    const char *fixed[] = {"qemu-system-arm",
                           "-M",
                           t->qemu_machine,
                           "-cpu",
                           t->qemu_cpu,
                           "-display",
                           "none",
                           "-monitor",
                           "none",
                           "-serial",
                           "stdio",
                           "-semihosting-config",
                           semi,
                           "-icount",
                           icount,
                           "-kernel",
                           image};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
      args[n++] = fixed[i];
  }
  char **argv = calloc(n + 1, sizeof *argv);
  if (!argv)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    argv[i] = strdup(args[i]);
    if (!argv[i]) {
      mh_argv_free(argv);
      return NULL;
    }
  }
  return argv;
}

int mh_target_ticks_to_unit(const mh_target *t, const char *counter_unit,
                            const char *counter_hz, double *out, char *err,
                            size_t errlen) {
  double hz = 0;
  if (counter_hz) {
    char *end;
    errno = 0;
    hz = strtod(counter_hz, &end);
    if (errno || end == counter_hz || *end || !(hz > 0) || !isfinite(hz))
      hz = 0;
  }
  if (t->kind == MH_EXEC_BOARD) {
    /* A board's counter counts core cycles (DWT CYCCNT, or SysTick on the
     * processor clock): its ticks are the unit. */
    if (!counter_unit || strcmp(counter_unit, "ticks") != 0) {
      snprintf(err, errlen,
               "the image's counter counts in '%s', but a board's counts "
               "core cycles as 'ticks'",
               counter_unit ? counter_unit : "nothing");
      return -1;
    }
    *out = t->ticks_to_unit;
    return 0;
  }
  if (t->ticks_to_unit > 0) {
    /* A fixed conversion: the counter already counts in the unit (ns). */
    if (counter_unit && strcmp(counter_unit, t->unit) != 0) {
      snprintf(err, errlen,
               "the image's counter counts in '%s' but target %s reports "
               "'%s'",
               counter_unit, t->id, t->unit);
      return -1;
    }
    *out = t->ticks_to_unit;
    return 0;
  }
  if (hz == 0) {
    snprintf(err, errlen, "begin record has no valid counter_hz (got '%s')",
             counter_hz ? counter_hz : "nothing");
    return -1;
  }
  /* Under -icount shift=N every instruction advances virtual time by 2^N ns,
   * and the counter ticks at counter_hz of that virtual time. */
  *out = (1e9 / hz) / ldexp(1.0, t->icount_shift);
  /* Exact counts need an instruction to span more than two ticks, so a
   * reading off by under one tick still rounds to the right count (see
   * docs/wire-format.md). */
  if (*out >= 0.5) {
    snprintf(err, errlen,
             "counter at %.0f Hz is too coarse for exact instruction "
             "counts at -icount shift=%d",
             hz, t->icount_shift);
    return -1;
  }
  return 0;
}
