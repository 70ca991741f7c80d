/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Mbed TLS's own benchmark (programs/test/benchmark.c, unchanged; compiled
 * with -Dmain=merlin_agree_mbedtls_main, see agree.cmake) in an agree image,
 * with the library configured as in Merlin's images plus
 * agree_mbedtls_config.h. The allocator is Merlin's, as in the adapter.
 *
 * Bare-metal targets: the program times a public-key row as the calls that
 * fit in a 3-second alarm and prints operations per second, an integer,
 * and a symmetric row as 1024 calls between two reads of its hardclock,
 * printed as an integer of cycles per byte; neither carries an exact count.
 * So, through MBEDTLS_TIMING_ALT and MBEDTLS_PLATFORM_PRINTF_ALT:
 *   hardclock   the port's counter, the one Merlin's samples use;
 *   set_alarm   SysTick fires a few hundred instructions later, during the
 *               row's first call, so a public-key row's loop runs its code
 *               once;
 *   printf      reads the counter when the row's result is printed and
 *               adds one line, "merlin-agree: row=TITLE calls=N
 *               ticks=T": for a public-key row the ticks from set_alarm to
 *               the result (one call, the loop's test and the SysTick
 *               handler); for a symmetric row those between the two
 *               hardclock reads (1024 calls of 1 KiB).
 * On the host the program keeps its own alarm, clock and output.
 */
#include "agree.h"
#include "mcore.h"
#include "port.h"

#include "mbedtls/platform.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int merlin_agree_mbedtls_main(int argc, char *argv[]);

#define AGREE_SEED 0x4d65726c696e0003u

#if defined(MBEDTLS_PSA_CRYPTO_EXTERNAL_RNG)
#include "psa/crypto.h"
/* The PSA core's random source, as in the adapter (the program itself
 * draws from rand()). */
psa_status_t
mbedtls_psa_external_get_random(mbedtls_psa_external_random_context_t *context,
                                uint8_t *output, size_t output_size,
                                size_t *output_length) {
  (void)context;
  mcore_rng_fill(output, output_size);
  *output_length = output_size;
  return PSA_SUCCESS;
}
#endif

#if MERLIN_AGREE_BARE
#include "cortexm.h"

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
/* About 1,250 instructions at qemu-m4's 3.2 ticks per instruction: past
 * the loop's first test, inside the first call of any row timed here. */
#define AGREE_ALARM_TICKS 4000u

volatile int mbedtls_timing_alarmed;
void mbedtls_set_alarm(int seconds);
unsigned long mbedtls_timing_hardclock(void);
void SysTick_Handler(void);

static uint64_t alarm_at, hard_prev, hard_last;
static char row_title[40];
static int row_open;

void mbedtls_set_alarm(int seconds) {
  (void)seconds;
  SYST_CSR = 0;
  mbedtls_timing_alarmed = 0;
  row_open = 1;
  alarm_at = mport_counter_read();
  SYST_RVR = AGREE_ALARM_TICKS - 1u;
  SYST_CVR = 0;
  SYST_CSR = 7u; /* processor clock, interrupt, enable */
}

void SysTick_Handler(void) {
  SYST_CSR = 0;
  mbedtls_timing_alarmed = 1;
}

unsigned long mbedtls_timing_hardclock(void) {
  hard_prev = hard_last;
  hard_last = mport_counter_read();
  return (unsigned long)hard_last;
}

static int agree_printf(const char *fmt, ...) {
  uint64_t now = mport_counter_read();
  va_list ap;
  va_start(ap, fmt);
  if (strcmp(fmt, "  %-24s :  ") == 0) { /* HEADER_FORMAT: a row starts */
    va_list cp;
    va_copy(cp, ap);
    snprintf(row_title, sizeof row_title, "%s", va_arg(cp, const char *));
    va_end(cp);
  }
  int n = vprintf(fmt, ap);
  va_end(ap);
  if (row_open && strncmp(fmt, "%6lu ", 5) == 0 && strstr(fmt, "/s")) {
    /* TIME_PUBLIC's result; the program's own newline ends this line. */
    char t[24];
    printf("\nmerlin-agree: row=%s calls=1 ticks=%s", row_title,
           merlin_agree_u64(now - alarm_at, t));
    row_open = 0;
  } else if (row_open && strstr(fmt, "cycles/byte")) {
    /* TIME_AND_TSC's result: the 1024 calls between two hardclock reads. */
    char t[24];
    printf("merlin-agree: row=%s calls=1024 bytes=1024 ticks=%s\n", row_title,
           merlin_agree_u64(hard_last - hard_prev, t));
    row_open = 0;
  } else if (strncmp(fmt, "FAILED", 6) == 0 || strstr(fmt, "not supported") ||
             strstr(fmt, "Not Supported")) {
    row_open = 0;
  }
  return n;
}

mbedtls_ms_time_t mbedtls_ms_time(void) {
  const mport_part *part = mport_describe();
  return (mbedtls_ms_time_t)(mport_counter_read() / (part->counter_hz / 1000u));
}

static void agree_exit(int status) {
  fflush(stdout);
  mport_exit(status);
}
#endif

int merlin_agree_library_main(int argc, char **argv) {
  mcore_rng_seed(AGREE_SEED);
  if (mbedtls_platform_set_calloc_free(mcore_calloc, mcore_free) != 0)
    return 1;
#if MERLIN_AGREE_BARE
  mbedtls_platform_set_printf(agree_printf);
  mbedtls_platform_set_exit(agree_exit);
#endif
  return merlin_agree_mbedtls_main(argc, argv);
}
