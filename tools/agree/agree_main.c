/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The "runner" of an agree image (tools/agree/agree.cmake): the port's
 * startup calls runner_parse_args and runner_main as in a Merlin image, and
 * here they hand the arguments to the library's own benchmark program
 * (agree_wolfcrypt.c, agree_mbedtls.c). A begin and an end line around the
 * program's own output tell the host the counter and the exit status; on a
 * bare-metal port the newlib calls stdio needs go to the port's console.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getrusage (host) */
#include "agree.h"
#include "port.h"
#include "runner.h"

#include <stdio.h>
#include <string.h>

static int agree_argc;
static char **agree_argv;

int runner_parse_args(int argc, char **argv, runner_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  agree_argc = argc;
  agree_argv = argv;
  return 0;
}

const char *merlin_agree_u64(uint64_t v, char buf[24]) {
  char *p = buf + 23;
  *p = '\0';
  do {
    *--p = (char)('0' + v % 10u);
    v /= 10u;
  } while (v);
  return p;
}

#if !MERLIN_AGREE_BARE
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static struct timespec agree_t0;

/* How much of a CPU the program got over its run (user and system time
 * over wall time): a benchmark that averages over wall time measures this
 * share as well as the code. At exit, as Mbed TLS's program exits itself. */
static void agree_cpu_share(void) {
  struct timespec t1;
  struct rusage ru;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (getrusage(RUSAGE_SELF, &ru) != 0)
    return;
  double wall = (double)(t1.tv_sec - agree_t0.tv_sec) +
                (double)(t1.tv_nsec - agree_t0.tv_nsec) / 1e9;
  double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
               (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
  if (wall > 0)
    printf("merlin-agree: cpu_share=%.3f\n", cpu / wall);
  fflush(stdout);
}
#endif

int runner_main(const runner_config *cfg) {
  (void)cfg;
#if !MERLIN_AGREE_BARE
  clock_gettime(CLOCK_MONOTONIC, &agree_t0);
  atexit(agree_cpu_share);
#endif
  const mport_part *part = mport_describe();
  char hz[24];
  printf("merlin-agree: begin target=%s counter=%s unit=%s counter_hz=%s "
         "library=%s\n",
         part->target, part->counter, part->unit,
         merlin_agree_u64(part->counter_hz, hz), MERLIN_AGREE_LIBRARY);
  fflush(stdout);
  int rc = merlin_agree_library_main(agree_argc, agree_argv);
  printf("merlin-agree: end status=%d\n", rc);
  fflush(stdout);
  return rc;
}

#if MERLIN_AGREE_BARE
/* newlib's stdio on the port's console (only what stdout needs). */
#include <errno.h>
#include <sys/stat.h>

int _write(int fd, const char *buf, int n);
int _read(int fd, char *buf, int n);
int _close(int fd);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _lseek(int fd, int off, int whence);
int _getpid(void);
int _kill(int pid, int sig);

int _write(int fd, const char *buf, int n) {
  (void)fd;
  mport_console_write(buf, (size_t)n);
  return n;
}
int _read(int fd, char *buf, int n) {
  (void)fd;
  (void)buf;
  (void)n;
  return 0;
}
int _close(int fd) {
  (void)fd;
  return -1;
}
int _fstat(int fd, struct stat *st) {
  (void)fd;
  memset(st, 0, sizeof *st);
  st->st_mode = S_IFCHR;
  return 0;
}
/* Line buffered: newlib buffers fully unless stdout is a terminal. */
int _isatty(int fd) {
  (void)fd;
  return 1;
}
int _lseek(int fd, int off, int whence) {
  (void)fd;
  (void)off;
  (void)whence;
  return 0;
}
int _getpid(void) { return 1; }
int _kill(int pid, int sig) {
  (void)pid;
  (void)sig;
  errno = EINVAL;
  return -1;
}
#endif
