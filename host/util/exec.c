/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE /* pipe2: close-on-exec from the start (merlin run -j) */
#include "util/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got_signal;

static void on_signal(int sig) { got_signal = sig; }

void mh_exec_install_signal_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0; /* no SA_RESTART: poll() returns EINTR */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

int mh_exec_signal_received(void) { return (int)got_signal; }

double mh_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int set_flags(int fd, int cloexec, int nonblock) {
  int fl = fcntl(fd, F_GETFD);
  if (fl < 0 || (cloexec && fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0))
    return -1;
  fl = fcntl(fd, F_GETFL);
  if (fl < 0 || (nonblock && fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0))
    return -1;
  return 0;
}

/* Close-on-exec atomically: with -j another thread may fork meanwhile,
 * and a child holding our write end would delay our end of file. */
static int make_pipe(int p[2]) {
  if (pipe2(p, O_CLOEXEC) != 0)
    return -1;
  if (set_flags(p[0], 1, 0) != 0 || set_flags(p[1], 1, 0) != 0) {
    close(p[0]);
    close(p[1]);
    return -1;
  }
  return 0;
}

static void close_fd(int *fd) {
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

/* The shim's answer to merlin's death (PR_SET_PDEATHSIG): the whole
 * process group, command and shim, is killed. */
static void orphaned(int sig) {
  (void)sig;
  kill(0, SIGKILL);
}

/* Every descriptor but 0, 1, 2 and keep: the shim never calls exec, so
 * close-on-exec does not close what it inherited (with -j, other jobs'
 * pipes, whose end of file it would hold back). */
static void close_others(int keep) {
  long max = sysconf(_SC_OPEN_MAX);
  for (int fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
    if (fd != keep)
      close(fd);
}

/* The child side, between fork and exec: async-signal-safe calls only.
 * The child is a shim (issue 30: killing merlin, even with SIGKILL, never
 * leaves a build or QEMU running): it leads the command's process group,
 * forks the command into it, and waits. When merlin dies the kernel
 * signals the shim (prctl(2) PR_SET_PDEATHSIG), which kills the group;
 * otherwise it exits as the command did. SIGINT, SIGTERM and SIGHUP sent
 * to the group reach the command; the shim ignores them and waits for
 * it. */
static void child(const mh_exec_spec *spec, int devnull, int out_w, int err_w,
                  int status_w) {
  pid_t merlin = getppid();
  setpgid(0, 0);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPIPE, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sigaction(SIGUSR1, &sa, NULL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  int out = spec->stdout_fd >= 0 ? spec->stdout_fd : out_w;
  int errfd = spec->stderr_fd >= 0 ? spec->stderr_fd : err_w;
  int e = 0;
  if (dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
    e = errno;
  if (!e && spec->cwd && chdir(spec->cwd) != 0)
    e = errno;
  pid_t cmd = -1;
  if (!e) {
    close_others(status_w);
    cmd = fork();
    if (cmd == 0) {
      execvp(spec->argv[0], spec->argv);
      e = errno;
    } else if (cmd < 0) {
      e = errno;
    }
  }
  if (e) {
    ssize_t ignored = write(status_w, &e, sizeof e);
    (void)ignored;
    _exit(127);
  }
  close(status_w); /* the command's copy closes on its exec */
  sa.sa_handler = SIG_IGN;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sa.sa_handler = orphaned;
  sigaction(SIGUSR1, &sa, NULL);
  if (prctl(PR_SET_PDEATHSIG, SIGUSR1) != 0 || getppid() != merlin)
    kill(0, SIGKILL); /* merlin is gone already */
  int st = 0;
  while (waitpid(cmd, &st, 0) < 0 && errno == EINTR)
    ;
  if (WIFEXITED(st))
    _exit(WEXITSTATUS(st));
  /* Killed by a signal: the shim dies of the same one, without a core. */
  prctl(PR_SET_DUMPABLE, 0);
  sa.sa_handler = SIG_DFL;
  sigaction(WTERMSIG(st), &sa, NULL);
  kill(getpid(), WTERMSIG(st));
  _exit(128 + WTERMSIG(st));
}

typedef struct {
  int fd;
  char buf[4096]; /* partial stderr line */
  size_t len;
} line_stream;

static void emit_err_line(const mh_exec_spec *spec, const char *s, size_t n) {
  if (spec->hooks.on_stderr_line)
    spec->hooks.on_stderr_line(spec->hooks.ctx, s, n);
  else
    fprintf(stderr, "%.*s\n", (int)n, s);
}

/* Read what is available on stderr; returns 0 at EOF. */
static int pump_stderr(const mh_exec_spec *spec, line_stream *ls) {
  char tmp[4096];
  ssize_t r = read(ls->fd, tmp, sizeof tmp);
  if (r < 0)
    return errno == EINTR || errno == EAGAIN ? 1 : 0;
  if (r == 0) {
    if (ls->len)
      emit_err_line(spec, ls->buf, ls->len);
    ls->len = 0;
    return 0;
  }
  for (ssize_t i = 0; i < r; i++) {
    if (tmp[i] == '\n' || ls->len == sizeof ls->buf) {
      size_t n = ls->len;
      if (n && ls->buf[n - 1] == '\r')
        n--;
      emit_err_line(spec, ls->buf, n);
      ls->len = 0;
      if (tmp[i] == '\n')
        continue;
    }
    ls->buf[ls->len++] = tmp[i];
  }
  return 1;
}

typedef struct {
  int fd;
  char *buf;
  size_t len, cap;
  size_t line_start; /* offset of the line being assembled */
  int overflow, oom;
  double last_line; /* when the last complete line arrived */
} capture;

/* Read what is available on stdout; returns 0 at EOF (or when full). */
static int pump_stdout(const mh_exec_spec *spec, capture *c) {
  if (c->len + 4096 + 1 > c->cap) {
    size_t ncap = c->cap ? c->cap * 2 : 65536;
    char *nb = realloc(c->buf, ncap);
    if (!nb) {
      c->oom = 1;
      return 0;
    }
    c->buf = nb;
    c->cap = ncap;
  }
  ssize_t r = read(c->fd, c->buf + c->len, 4096);
  if (r < 0)
    return errno == EINTR || errno == EAGAIN ? 1 : 0;
  size_t from = c->len;
  c->len += (size_t)r;
  c->buf[c->len] = '\0';
  for (size_t i = from; i < c->len; i++) {
    if (c->buf[i] != '\n')
      continue;
    if (spec->hooks.on_stdout_line)
      spec->hooks.on_stdout_line(spec->hooks.ctx, c->buf + c->line_start,
                                 i - c->line_start);
    c->line_start = i + 1;
    c->last_line = mh_now_s();
  }
  if (r == 0) {
    if (c->line_start < c->len && spec->hooks.on_stdout_line)
      spec->hooks.on_stdout_line(spec->hooks.ctx, c->buf + c->line_start,
                                 c->len - c->line_start);
    c->line_start = c->len;
    return 0;
  }
  if (spec->max_capture && c->len > spec->max_capture) {
    c->overflow = 1;
    return 0;
  }
  return 1;
}

/* Fork and exec spec->argv in a process group of its own, its stdout and
 * stderr on pipes (unless spec gives fds). Returns the pid with *out_fd and
 * *err_fd (-1 where spec gives an fd), or -1 with err. */
static pid_t spawn(const mh_exec_spec *spec, int *out_fd, int *err_fd,
                   char *err, size_t errlen) {
  int out_p[2] = {-1, -1}, err_p[2] = {-1, -1}, st_p[2] = {-1, -1};
  int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  int ok = devnull >= 0 && make_pipe(st_p) == 0 &&
           (spec->stdout_fd >= 0 || make_pipe(out_p) == 0) &&
           (spec->stderr_fd >= 0 || make_pipe(err_p) == 0);
  pid_t pid = ok ? fork() : -1;
  if (pid == 0)
    child(spec, devnull, out_p[1], err_p[1], st_p[1]);
  int e = errno;
  close_fd(&devnull);
  close_fd(&out_p[1]);
  close_fd(&err_p[1]);
  close_fd(&st_p[1]);
  if (pid < 0) {
    snprintf(err, errlen, "cannot start %s: %s", spec->argv[0], strerror(e));
    close_fd(&out_p[0]);
    close_fd(&err_p[0]);
    close_fd(&st_p[0]);
    return -1;
  }
  setpgid(pid, pid); /* also done by the child; whichever runs first */
  /* The status pipe closes on a successful exec, or carries errno. */
  int child_errno = 0;
  ssize_t r;
  do
    r = read(st_p[0], &child_errno, sizeof child_errno);
  while (r < 0 && errno == EINTR);
  close_fd(&st_p[0]);
  if (r > 0) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
    snprintf(err, errlen, "cannot run %s: %s", spec->argv[0],
             strerror(child_errno));
    close_fd(&out_p[0]);
    close_fd(&err_p[0]);
    return -1;
  }
  *out_fd = out_p[0];
  *err_fd = err_p[0];
  return pid;
}

int mh_exec(const mh_exec_spec *spec, mh_exec_result *res, char *err,
            size_t errlen) {
  memset(res, 0, sizeof *res);
  int out_fd = -1, err_fd = -1;
  pid_t pid = spawn(spec, &out_fd, &err_fd, err, errlen);
  if (pid < 0)
    return -1;
  double start = mh_now_s();

  capture cap = {.fd = out_fd, .last_line = start};
  line_stream ls = {.fd = err_fd};
  if (cap.fd >= 0)
    set_flags(cap.fd, 1, 1);
  if (ls.fd >= 0)
    set_flags(ls.fd, 1, 1);
  double deadline = spec->timeout_s ? start + spec->timeout_s : 0;
  double kill_at = 0, reaped_at = 0;
  int reaped = 0, status = 0, killing = 0;

  while (!reaped || cap.fd >= 0 || ls.fd >= 0) {
    struct pollfd pfd[2];
    nfds_t n = 0;
    if (cap.fd >= 0)
      pfd[n++] = (struct pollfd){.fd = cap.fd, .events = POLLIN};
    if (ls.fd >= 0)
      pfd[n++] = (struct pollfd){.fd = ls.fd, .events = POLLIN};
    int pr = poll(pfd, n, 100);
    for (nfds_t i = 0; pr > 0 && i < n; i++) {
      if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      if (pfd[i].fd == cap.fd && !pump_stdout(spec, &cap))
        close_fd(&cap.fd);
      else if (pfd[i].fd == ls.fd && !pump_stderr(spec, &ls))
        close_fd(&ls.fd);
    }
    double t = mh_now_s();
    if (spec->hooks.on_tick && !reaped)
      spec->hooks.on_tick(spec->hooks.ctx);
    if (!reaped) {
      pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid) {
        reaped = 1;
        reaped_at = t;
      }
    }
    if (!killing && !reaped) {
      if (got_signal)
        res->cancelled = 1;
      else if (deadline > 0 && t >= deadline)
        res->timed_out = 1;
      else if (spec->stall_s && cap.fd >= 0 &&
               t - cap.last_line >= spec->stall_s)
        res->stalled = 1;
      else if (cap.overflow || cap.oom)
        res->overflow = 1;
      if (res->cancelled || res->timed_out || res->stalled || res->overflow) {
        killing = 1;
        kill(-pid, SIGTERM);
        kill_at = t + 2.0;
      }
    } else if (killing && !reaped && t >= kill_at) {
      kill(-pid, SIGKILL);
      kill_at = t + 3600;
    }
    /* A grandchild that keeps the pipes open must not keep us waiting. */
    if (reaped && t - reaped_at > 0.5) {
      kill(-pid, SIGKILL);
      close_fd(&cap.fd);
      if (ls.len)
        emit_err_line(spec, ls.buf, ls.len);
      ls.len = 0;
      close_fd(&ls.fd);
    }
  }
  if (killing)
    kill(-pid, SIGKILL); /* stragglers in the group */
  res->seconds = mh_now_s() - start;
  if (WIFEXITED(status)) {
    res->exited = 1;
    res->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    res->term_signal = WTERMSIG(status);
  }
  if (cap.overflow || cap.oom)
    res->overflow = 1;
  if (!cap.buf)
    cap.buf = calloc(1, 1);
  if (!cap.buf) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  res->out = cap.buf;
  res->out_len = cap.len;
  return 0;
}

void mh_exec_result_free(mh_exec_result *res) {
  free(res->out);
  memset(res, 0, sizeof *res);
}
