/* SPDX-License-Identifier: Apache-2.0 */
/*
 * wolfCrypt's own benchmark (wolfcrypt/benchmark/benchmark.c, unchanged) in
 * an agree image. What it needs from the platform, through its documented
 * settings:
 *   the DRBG seed    CUSTOM_RAND_GENERATE_SEED of user_settings.h, the
 *                    harness stream as in Merlin's images;
 *   current_time()   WOLFSSL_USER_CURRTIME, bare-metal targets only: the
 *                    port's counter, the one Merlin's samples use, in units
 *                    of 10^6 counter ticks. The program's "seconds" are
 *                    then millions of ticks, its totals print with six
 *                    decimals, so a row's total is an exact tick count,
 *                    which the host converts as it converts Merlin's own
 *                    samples (docs/operations.md). On the host the
 *                    program keeps its own clock.
 */
#include "agree.h"
#include "mcore.h"
#include "port.h"

#include <wolfssl/wolfcrypt/settings.h>

#include "benchmark.h"

#define AGREE_SEED 0x4d65726c696e0002u

int merlin_wolfcrypt_seed(unsigned char *output, unsigned int sz) {
  mcore_rng_fill(output, sz);
  return 0;
}

#if MERLIN_AGREE_BARE
double current_time(int reset);

double current_time(int reset) {
  (void)reset;
  return (double)mport_counter_read() / 1e6;
}
#endif

int merlin_agree_library_main(int argc, char **argv) {
  mcore_rng_seed(AGREE_SEED);
  return wolfcrypt_benchmark_main(argc, argv);
}
