/* SPDX-License-Identifier: Apache-2.0 */
/* Running a child process (an image, QEMU, CMake): its own process group,
 * stdin from /dev/null, stdout captured or sent to a file, stderr handed
 * over line by line, a timeout and a stall bound (no line for a while) that
 * kill the whole group, and cancellation
 * on SIGINT/SIGTERM/SIGHUP. */
#ifndef MERLIN_HOST_EXEC_H
#define MERLIN_HOST_EXEC_H

#include <stddef.h>

typedef struct {
  void *ctx;
  /* Each complete line (without its '\n') as it arrives; may be NULL. */
  void (*on_stdout_line)(void *ctx, const char *line, size_t len);
  void (*on_stderr_line)(void *ctx, const char *line, size_t len);
  /* About ten times a second while the child runs; may be NULL. */
  void (*on_tick)(void *ctx);
} mh_exec_hooks;

typedef struct {
  char *const *argv;  /* argv[0] is looked up in PATH */
  const char *cwd;    /* NULL: ours */
  unsigned timeout_s; /* the whole run; 0: none */
  /* No stdout line for this long means the child is hung (0: none): a
   * healthy image prints a console line at least after every operation's
   * known-answer test, first call and samples (docs/cli.md, "Hangs"). */
  unsigned stall_s;
  int stdout_fd;      /* -1: capture into the result; else dup2'd */
  int stderr_fd;      /* -1: to on_stderr_line (or our stderr); else dup2'd */
  size_t max_capture; /* captured stdout beyond this kills the child */
  mh_exec_hooks hooks;
} mh_exec_spec;

typedef struct {
  char *out; /* captured stdout, NUL-terminated (never NULL on success) */
  size_t out_len;
  int overflow;    /* stdout exceeded max_capture: child was killed */
  int exited;      /* exited normally with exit_code */
  int exit_code;   /* when exited */
  int term_signal; /* signal that ended it, when !exited */
  int timed_out;   /* killed after timeout_s */
  int stalled;     /* killed after stall_s without a stdout line */
  int cancelled;   /* killed because we received a signal */
  double seconds;  /* wall time */
} mh_exec_result;

/* Run the child to completion. Returns 0 once it has been reaped (whatever
 * its status), -1 with err when it could not be started. */
int mh_exec(const mh_exec_spec *spec, mh_exec_result *res, char *err,
            size_t errlen);
void mh_exec_result_free(mh_exec_result *res);

/* Seconds on CLOCK_MONOTONIC: the one wall clock of the CLI's timeouts,
 * stall bounds, progress and build timings. */
double mh_now_s(void);

/* Install SIGINT/SIGTERM/SIGHUP handlers that make a running mh_exec kill
 * its child and return with cancelled set. Returns the signal received so
 * far (0 when none). */
void mh_exec_install_signal_handlers(void);
int mh_exec_signal_received(void);

#endif
