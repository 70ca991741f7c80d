/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Added to Merlin's mbedtls_config.h (MBEDTLS_USER_CONFIG_FILE) for an
 * agree image only (tools/agree/agree.cmake). None of it changes the code
 * of an operation Merlin times:
 *   MBEDTLS_HAVE_TIME   benchmark.c needs it; in the library it enables
 *                       mbedtls_time/mbedtls_ms_time (platform.c,
 *                       platform_util.c) and the time input of PSA's own
 *                       entropy (psa_crypto_random.c), unused with
 *                       MBEDTLS_PSA_CRYPTO_EXTERNAL_RNG as configured.
 *   MBEDTLS_GENPRIME    the benchmark generates its RSA key
 *                       (mbedtls_rsa_gen_key, mbedtls_mpi_gen_prime): new
 *                       functions, the RSA operations unchanged.
 * Bare-metal targets (tools/agree/agree_mbedtls.c):
 *   MBEDTLS_TIMING_ALT  the program's alarm and hardclock on the port's
 *                       counter and SysTick;
 *   MBEDTLS_PLATFORM_PRINTF_ALT, MBEDTLS_PLATFORM_EXIT_ALT
 *                       its printf and exit through the agree image, which
 *                       reads the counter as a result line is printed;
 *   MBEDTLS_PLATFORM_MS_TIME_ALT
 *                       mbedtls_ms_time (MBEDTLS_HAVE_TIME asks for one;
 *                       nothing here calls it) from the same counter.
 */
#ifndef MERLIN_AGREE_MBEDTLS_CONFIG_H
#define MERLIN_AGREE_MBEDTLS_CONFIG_H

#define MBEDTLS_HAVE_TIME
#define MBEDTLS_GENPRIME
#if defined(MERLIN_AGREE_BARE) && MERLIN_AGREE_BARE
#define MBEDTLS_TIMING_ALT
#define MBEDTLS_PLATFORM_PRINTF_ALT
#define MBEDTLS_PLATFORM_EXIT_ALT
#define MBEDTLS_PLATFORM_MS_TIME_ALT
#endif

#endif
