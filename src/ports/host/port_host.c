/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host (Linux) port: CLOCK_MONOTONIC_RAW in nanoseconds (not slewed by NTP),
 * console on stdout.
 */
#define _POSIX_C_SOURCE 200809L
#include "port.h"
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static mport_part part = {
    .target = "host",
    .core = "unknown",
    .clock_hz = 0,
    .counter = "clock_monotonic_raw",
    .unit = "ns",
    .counter_hz = 1000000000u,
    /* 20 us: clock_gettime costs tens of ns and jitters by about as much. */
    .min_sample_ticks = 20000,
};

static char cpu_model[128] = "unknown";

/* The CPU model for provenance, from /proc/cpuinfo where it exists. */
static void read_cpu_model(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[256];
  if (!f)
    return;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "model name", 10) == 0) {
      char *colon = strchr(line, ':');
      if (colon) {
        colon++;
        while (*colon == ' ' || *colon == '\t')
          colon++;
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(cpu_model, sizeof cpu_model, "%s", colon);
      }
      break;
    }
  }
  fclose(f);
  part.core = cpu_model;
}

void mport_init(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  read_cpu_model();
}

const mport_part *mport_describe(void) { return &part; }

uint64_t mport_counter_read(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void mport_console_write(const char *s, size_t n) {
  fwrite(s, 1, n, stdout);
  if (n && s[n - 1] == '\n')
    fflush(stdout);
}

_Noreturn void mport_exit(int code) {
  fflush(stdout);
  exit(code);
}

int main(int argc, char **argv) {
  runner_config cfg;
  mport_init(&argc, &argv);
  runner_parse_args(argc, argv, &cfg);
  mport_exit(runner_main(&cfg));
}
