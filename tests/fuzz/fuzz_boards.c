/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the board file reader (host/config/boards.c) together
 * with the cycle model's arithmetic behind it: the model's translation of
 * a part into the plugin's arguments (host/run/board_model.c), the plugin's
 * own argument checks and memory-system set-up and accesses
 * (tools/qemu-plugin/memsys.c, linked in), the energy estimate and the
 * fits verdict. A board the reader accepts must never be refused by the
 * plugin (issue 30: the plugin's checks are unreachable from a descriptor
 * merlin accepted): that is a finding (abort), as is a crash or a
 * sanitizer report anywhere on the way. */
#include "config/boards.h"
#include "memsys.h"
#include "model/model.h"
#include "run/board_model.h"
#include "run/cycles.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void finding(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_boards: %s: %s\n", what, detail);
  abort();
}

/* The plugin takes args as merlin passes them; then blocks and loads at
 * addresses taken from the input run through its caches. */
static void plugin(const char *args, uint64_t lo, uint64_t hi,
                   unsigned mispredict, int set_up, const uint8_t *data,
                   size_t size) {
  char buf[1024], err[256];
  if (strlen(args) >= sizeof buf)
    finding("arguments too long", args);
  memcpy(buf, args, strlen(args) + 1);
  mc_mem_reset();
  for (char *save = NULL, *a = strtok_r(buf, ",", &save); a;
       a = strtok_r(NULL, ",", &save))
    if (mc_mem_arg(a, err, sizeof err) != 1)
      finding("the plugin refused an argument of an accepted board", err);
  if (!set_up) { /* arguments only: see lines_of */
    mc_mem_reset();
    return;
  }
  if (mc_mem_finish(mispredict, err, sizeof err) != 0)
    finding("the plugin refused an accepted board", err);
  uint64_t span = hi - lo, cycles = 0;
  for (size_t i = 0; i + 4 <= size && i < 256; i += 4) {
    uint64_t off = (uint64_t)(data[i] | data[i + 1] << 8) * 7 % span;
    uint64_t len = 2u + (uint64_t)data[i + 2] % 64;
    uint64_t pc = lo + off, end = pc + len > hi ? hi : pc + len;
    mc_dyn d;
    /* penalty 0 is mc_mem_finish's; 1 to 15 a model's own (Cortex-M7) */
    if (mc_dyn_init(&d, pc, end, end - 2, data[i + 3] % 4,
                    (unsigned)data[i + 3] >> 4) != 0)
      finding("the plugin ran out of memory", "mc_dyn_init");
    cycles += mc_dyn_fetch(&d, NULL) + mc_dyn_fetch(&d, NULL);
    cycles += mc_dyn_branch(&d, data[i + 3] & 4 ? end : pc);
    cycles += mc_mem_load(lo + (uint64_t)data[i + 3] * 97 % span);
    cycles += mc_mem_load(hi + data[i]); /* SRAM: zero-wait */
  }
  mc_mem_describe(err, sizeof err);
  (void)cycles;
  mc_mem_reset();
}

/* The lines of a cache "BYTES/LINE/WAYS" the reader accepted (0: none).
 * The plugin's tables are per line: a cache of millions of lines costs the
 * fuzzer a sanitized allocation of hundreds of MB at every input, so such
 * boards have their arguments checked here but are set up only in
 * test_boards_plugin (tests/host/config), once. */
static uint64_t lines_of(const char *cache) {
  unsigned long long bytes = 0, line = 1;
  if (!cache || sscanf(cache, "%llu/%llu", &bytes, &line) != 2 || !line)
    return 0;
  return bytes / line;
}

/* The energy estimate of an operation of the median cycles, on b. */
static void energy(const mh_board *b, double cycles) {
  mh_cyc_op co = {.has_est = 1};
  mh_op op = {.cyc = &co};
  mh_cyc_run cr = {0};
  mh_run run = {.ops = &op, .n_ops = 1, .cyc = &cr};
  co.est.median = cycles;
  if (mh_board_model_attach(&run, b) != 0)
    finding("attach", "out of memory");
  if (!isfinite(co.est_energy_uj) || co.est_energy_uj < 0)
    finding("energy", "not a finite non-negative figure");
  mh_cyc_run_free(&cr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mh_board b;
  char err[2048], why[160];
  if (mh_board_parse("fuzz.board", "fuzz", (const char *)data, size, &b, err,
                     sizeof err) != 0)
    return 0;
  if (b.core)
    (void)mh_board_fits(&b, b.core, b.flash_bytes, b.ram_bytes, why,
                        sizeof why);
  if (b.runs_from) {
    /* the image's code region: a few bytes to 64 KiB, at a flash base */
    uint64_t lo = 0x08000000, hi = lo + 4 + b.flash_bytes % (1u << 16);
    char *args = mh_board_model_mem(&b, lo, hi);
    if (!args)
      finding("mh_board_model_mem", "out of memory");
    int set_up = lines_of(b.icache) + lines_of(b.dcache) <= 1u << 16;
    plugin(args, lo, hi, size & 1 ? 8 : 0, set_up, data, size);
    free(args);
    energy(&b, (double)(size * 1000003u));
  }
  mh_board_free(&b);
  return 0;
}
