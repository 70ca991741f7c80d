/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host (Linux) port: CLOCK_MONOTONIC_RAW in nanoseconds (not slewed by NTP),
 * console on stdout.
 */
#define _GNU_SOURCE /* syscall() */
#include "port.h"
#include "runner.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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
    .budget_ticks = 10000000000u, /* 10 s per operation */
};

static char cpu_model[128] = "unknown";
static char cycle_note[160];

/* Whether the CPU's cycle counter can be read here (perf_event_open). Many
 * virtual machines do not expose it; then the provenance says so. Reading
 * it beside the clock is not implemented yet: where it is available the
 * note says that too, so no run claims cycles it did not measure. */
static void probe_cycle_counter(void) {
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.type = PERF_TYPE_HARDWARE;
  attr.size = sizeof attr;
  attr.config = PERF_COUNT_HW_CPU_CYCLES;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
  if (fd < 0) {
    snprintf(cycle_note, sizeof cycle_note,
             "none: perf_event_open(PERF_COUNT_HW_CPU_CYCLES): %s",
             strerror(errno));
  } else {
    close((int)fd);
    snprintf(cycle_note, sizeof cycle_note,
             "available (perf_event) but not sampled by this version");
  }
  part.cycle_counter = cycle_note;
}

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
  probe_cycle_counter();
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
