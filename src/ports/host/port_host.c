/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host (Linux) port: CLOCK_MONOTONIC_RAW in nanoseconds (not slewed by NTP),
 * console on stdout. The runner runs on a thread whose stack this port maps
 * itself, with a no-access guard page below it: the stack meter knows its
 * bounds, and an overflow is a SIGSEGV in the guard, reported as such.
 *
 * Figures that hold still (docs/host.md, "Host timing"): the runner thread
 * is pinned to one CPU (the last of those the process may use, or
 * MERLIN_HOST_CPU), asks for a raised priority (nice -10; SCHED_FIFO when
 * MERLIN_HOST_SCHED=fifo) and the provenance records what it got; where the
 * CPU has an invariant TSC it is read beside the clock around the
 * interleaved control (mport_cycles_read), its rate measured against
 * CLOCK_MONOTONIC_RAW: TSC cycles, not core cycles.
 */
#define _GNU_SOURCE /* syscall(), CPU_SET, pthread_setaffinity_np */
#include "port.h"
#include "runner.h"
#include "wire_out.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
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

static void install_fault_handlers(void);
static void probe_insn_count(void);

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

/* ---- figures that hold still ------------------------------------------ */

static char pin_note[96] = "not pinned", prio_note[96] = "default";

/* Pin the calling thread to one CPU: MERLIN_HOST_CPU, else the last CPU the
 * process may run on (CPU 0 takes most of the interrupts). */
static void pin_runner(void) {
  cpu_set_t allowed, one;
  int cpu = -1;
  const char *env = getenv("MERLIN_HOST_CPU");
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
    snprintf(pin_note, sizeof pin_note, "not pinned: sched_getaffinity: %s",
             strerror(errno));
    return;
  }
  if (env && *env)
    cpu = atoi(env);
  else
    for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; c--)
      if (CPU_ISSET(c, &allowed))
        cpu = c;
  CPU_ZERO(&one);
  if (cpu >= 0 && cpu < CPU_SETSIZE)
    CPU_SET(cpu, &one);
  int e = cpu >= 0 && cpu < CPU_SETSIZE
              ? pthread_setaffinity_np(pthread_self(), sizeof one, &one)
              : EINVAL;
  if (e)
    snprintf(pin_note, sizeof pin_note, "not pinned: cpu %d: %s", cpu,
             strerror(e));
  else
    snprintf(pin_note, sizeof pin_note, "cpu %d of %d allowed", cpu,
             CPU_COUNT(&allowed));
}

/* A raised priority where permitted: nice -10 for this thread (Linux
 * priorities are per thread), or SCHED_FIFO 1 when MERLIN_HOST_SCHED=fifo
 * (it would starve the other work of its CPU: opt-in). */
static void raise_priority(void) {
  const char *want = getenv("MERLIN_HOST_SCHED");
  if (want && strcmp(want, "fifo") == 0) {
    struct sched_param sp = {.sched_priority = 1};
    int e = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
    if (!e) {
      snprintf(prio_note, sizeof prio_note, "SCHED_FIFO 1: granted");
      return;
    }
    snprintf(prio_note, sizeof prio_note, "SCHED_FIFO 1: refused (%s); ",
             strerror(e));
  }
  size_t at = strlen(prio_note);
  if (strcmp(prio_note, "default") == 0)
    at = 0;
  pid_t tid = (pid_t)syscall(SYS_gettid);
  if (setpriority(PRIO_PROCESS, (id_t)tid, -10) == 0)
    snprintf(prio_note + at, sizeof prio_note - at, "nice -10: granted");
  else
    snprintf(prio_note + at, sizeof prio_note - at, "nice -10: refused (%s)",
             strerror(errno));
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
static int have_tsc;
static char tsc_note[160];

/* The invariant TSC (CPUID 0x80000007 EDX bit 8: constant rate in every
 * P-, C- and T-state), its rate measured against CLOCK_MONOTONIC_RAW over
 * 20 ms. */
static void probe_tsc(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(0x80000007u, &a, &b, &c, &d) || !(d & (1u << 8))) {
    snprintf(tsc_note, sizeof tsc_note, "none: no invariant TSC");
    return;
  }
  uint64_t n0 = mport_counter_read(), t0 = __rdtsc();
  struct timespec nap = {0, 20000000};
  nanosleep(&nap, NULL);
  uint64_t n1 = mport_counter_read(), t1 = __rdtsc();
  double hz = (double)(t1 - t0) * 1e9 / (double)(n1 - n0);
  have_tsc = 1;
  snprintf(tsc_note, sizeof tsc_note,
           "invariant TSC, %.0f Hz (measured against CLOCK_MONOTONIC_RAW): "
           "TSC cycles, not core cycles",
           hz);
}

uint64_t mport_cycles_read(void) { return have_tsc ? __rdtsc() : 0; }
#else
static char tsc_note[32] = "none: not x86";
static void probe_tsc(void) {}
#endif

/* Provenance beside the part's own fields (begin record). */
static const char *host_notes[] = {
    "host_cpu", pin_note, "host_priority", prio_note, "tsc", tsc_note, NULL};

static void wire_apart(void);

/* The runner's stack size (below, mport_stack_bounds). */
#define RUNNER_STACK_BYTES ((size_t)8 << 20)
static size_t runner_stack = RUNNER_STACK_BYTES;

void mport_init(int *argc, char ***argv) {
  static const char opt[] = "--host-stack-mb=";
  if (*argc > 1 && strncmp((*argv)[1], opt, sizeof opt - 1) == 0) {
    unsigned long mb = strtoul((*argv)[1] + sizeof opt - 1, NULL, 10);
    if (mb >= 1 && mb <= 4096)
      runner_stack = (size_t)mb << 20;
    (*argv)[1] = (*argv)[0];
    (*argv)++;
    (*argc)--;
  }
  wire_apart();
  read_cpu_model();
  probe_cycle_counter();
  probe_tsc();
  probe_insn_count();
  part.notes = host_notes;
  install_fault_handlers();
}

const mport_part *mport_describe(void) { return &part; }

/* Exact host counts (target host-insn, docs/host.md): under qemu-x86_64
 * with the merlin_insn plugin (tools/hostcount), a system call QEMU does
 * not implement asks the plugin for the count of executed instructions,
 * which it writes into v. Natively the call fails with ENOSYS and v stays
 * 0, so the port keeps its clock. */
#define MERLIN_INSN_SYSCALL 0x4d52
#define MERLIN_INSN_MAGIC 0x4d65726c696e4943ull
static int count_insns;

static uint64_t insn_count(void) {
  volatile uint64_t v = 0;
  syscall(MERLIN_INSN_SYSCALL, &v, MERLIN_INSN_MAGIC);
  return v;
}

static void probe_insn_count(void) {
  if (!insn_count())
    return;
  count_insns = 1;
  part.target = "host-insn";
  part.counter = "merlin_insn plugin under qemu-x86_64 (instruction count)";
  part.unit = "ticks"; /* one per instruction: the target says so */
  part.counter_hz = 1; /* one tick per instruction; no time */
  part.min_sample_ticks = 1000;
  part.budget_ticks = (uint64_t)1 << 34; /* as under qemu-system-arm */
}

uint64_t mport_counter_read(void) {
  if (count_insns)
    return insn_count();
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The runner's stack: 8 MB (glibc's default thread stack), the guard page
 * below it; --host-stack-mb=N (the first argument, taken by the port) asks
 * for N MB: the host builds that compute implementation folders' known
 * answers run with 64 (host/impl/impl_ref.c), a reference is no fitness
 * test. */
static uintptr_t stack_lo, stack_hi, guard_lo;

void mport_stack_bounds(uintptr_t *lo, uintptr_t *hi) {
  *lo = stack_lo;
  *hi = stack_hi;
}

/* Under valgrind memcheck, secret bytes are marked undefined: a branch or
 * a memory index that depends on them is reported as an error (ctgrind).
 * The client requests are no-ops when not under valgrind. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HAVE_MEMCHECK 1
#endif
#endif

void mport_ct_poison(const void *p, size_t n) {
#ifdef HAVE_MEMCHECK
  VALGRIND_MAKE_MEM_UNDEFINED(p, n);
#else
  (void)p;
  (void)n;
#endif
}

void mport_ct_unpoison(const void *p, size_t n) {
#ifdef HAVE_MEMCHECK
  VALGRIND_MAKE_MEM_DEFINED(p, n);
#else
  (void)p;
  (void)n;
#endif
}

long mport_ct_errors(void) {
#ifdef HAVE_MEMCHECK
  if (RUNNING_ON_VALGRIND)
    return (long)VALGRIND_COUNT_ERRORS;
#endif
  return -1;
}

static volatile sig_atomic_t in_fault;

/* The wire's own descriptor: a copy of stdout made at start-up, stdout
 * itself then going to /dev/null, so that what an implementation folder
 * prints (printf, puts) never garbles the records (Cortex-M images drop it
 * the same way: src/ports/cortexm/syscalls.c). */
static int wire_fd = STDOUT_FILENO;
static FILE *wire_out;

static void wire_apart(void) {
  int fd = dup(STDOUT_FILENO);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  int nul = f ? open("/dev/null", O_WRONLY) : -1;
  if (nul < 0 || dup2(nul, STDOUT_FILENO) < 0) {
    if (f)
      fclose(f);
    else if (fd >= 0)
      close(fd);
    if (nul >= 0)
      close(nul);
    return; /* the records stay on stdout */
  }
  close(nul);
  wire_fd = fd;
  wire_out = f;
}

void mport_console_write(const char *s, size_t n) {
  if (in_fault) {
    /* From a signal handler: write(2) only; stdout's buffer is empty, as
     * every line is flushed whole. */
    while (n) {
      ssize_t w = write(wire_fd, s, n);
      if (w <= 0)
        return;
      s += w;
      n -= (size_t)w;
    }
    return;
  }
  FILE *f = wire_out ? wire_out : stdout;
  fwrite(s, 1, n, f);
  if (n && s[n - 1] == '\n')
    fflush(f);
}

/* A crash is reported on the wire like a Cortex-M fault, so the host
 * rejects the run naming it, instead of seeing a bare signal. */
static void on_fault(int sig, siginfo_t *info, void *uctx) {
  (void)uctx;
  in_fault = 1;
  uintptr_t addr = (uintptr_t)info->si_addr;
  int overflow = sig == SIGSEGV && addr >= guard_lo && addr < stack_lo;
  mcore_wire_start(MWIRE_R(fault));
  mcore_wire_str(MWIRE_K(fault, kind), overflow         ? "stackoverflow"
                                       : sig == SIGSEGV ? "sigsegv"
                                       : sig == SIGBUS  ? "sigbus"
                                       : sig == SIGILL  ? "sigill"
                                       : sig == SIGFPE  ? "sigfpe"
                                                        : "signal");
  mcore_wire_u64(MWIRE_K(fault, signal), (uint64_t)sig);
  mcore_wire_hex(MWIRE_K(fault, addr), (uint32_t)(uintptr_t)info->si_addr);
  mcore_wire_end();
  _exit(4);
}

static void install_fault_handlers(void) {
  static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  /* SA_ONSTACK: after an overflow the runner thread has no stack left. */
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    sigaction(sigs[i], &sa, NULL);
}

void mport_test_fault(const char *kind) {
  if (strcmp(kind, "busfault") == 0) {
    volatile uintptr_t addr = 8; /* the unmapped first page */
    (void)*(volatile int *)addr;
  } else if (strcmp(kind, "usagefault") == 0) {
    __builtin_trap(); /* SIGILL on x86 (ud2) and Arm */
  } else if (strcmp(kind, "hang") == 0) {
    for (;;)
      __asm__ volatile("" ::: "memory");
  }
}

_Noreturn void mport_exit(int code) {
  if (wire_out)
    fflush(wire_out);
  fflush(stdout);
  exit(code);
}

static void die(const char *what) {
  fprintf(stderr, "merlin-image: %s: %s\n", what, strerror(errno));
  exit(3);
}

typedef struct {
  runner_config cfg;
  int rc;
} runner_job;

static void *runner_thread(void *arg) {
  runner_job *job = arg;
  /* Signals are handled on an alternate stack of this thread. */
  static unsigned char alt[64 * 1024];
  stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
  if (sigaltstack(&ss, NULL) != 0)
    die("sigaltstack");
  pin_runner();
  raise_priority();
  job->rc = runner_main(&job->cfg);
  /* Not ours to free at thread exit: ASan unmaps the alternate stack it
   * finds then, so leave none behind. */
  stack_t off = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
  sigaltstack(&off, NULL);
  return NULL;
}

int main(int argc, char **argv) {
  runner_job job;
  mport_init(&argc, &argv);
  runner_parse_args(argc, argv, &job.cfg);
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  unsigned char *map = mmap(NULL, runner_stack + page, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (map == MAP_FAILED)
    die("mmap (runner stack)");
  if (mprotect(map, page, PROT_NONE) != 0)
    die("mprotect (stack guard)");
  guard_lo = (uintptr_t)map;
  stack_lo = (uintptr_t)map + page;
  stack_hi = stack_lo + runner_stack;
  pthread_attr_t attr;
  pthread_t th;
  int e = pthread_attr_init(&attr);
  if (!e)
    e = pthread_attr_setstack(&attr, map + page, runner_stack);
  if (!e)
    e = pthread_attr_setguardsize(&attr, 0); /* ours is below the stack */
  if (!e)
    e = pthread_create(&th, &attr, runner_thread, &job);
  if (!e)
    e = pthread_join(th, NULL);
  if (e) {
    errno = e;
    die("runner thread");
  }
  mport_exit(job.rc);
}
