/* SPDX-License-Identifier: Apache-2.0 */
#define _DEFAULT_SOURCE /* cfmakeraw, B230400 and above */
#include "run/serial.h"

#include "util/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static const struct {
  unsigned baud;
  speed_t speed;
} BAUDS[] = {
    {9600, B9600},       {19200, B19200},   {38400, B38400},
    {57600, B57600},     {115200, B115200}, {230400, B230400},
    {460800, B460800},   {921600, B921600}, {1000000, B1000000},
    {2000000, B2000000},
};
#define N_BAUDS (sizeof BAUDS / sizeof BAUDS[0])

int mh_serial_baud_ok(unsigned baud) {
  for (size_t i = 0; i < N_BAUDS; i++)
    if (BAUDS[i].baud == baud)
      return 1;
  return 0;
}

const char *mh_serial_bauds(void) {
  return "9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, "
         "1000000, 2000000";
}

static speed_t speed_of(unsigned baud) {
  for (size_t i = 0; i < N_BAUDS; i++)
    if (BAUDS[i].baud == baud)
      return BAUDS[i].speed;
  return B115200;
}

void mh_serial_result_free(mh_serial_result *res) {
  free(res->data);
  res->data = NULL;
  res->len = 0;
}

/* Whether a wire line ("@M1 <seq> <type> ...") is of record type. */
static int line_type(const char *l, size_t n, const char *type) {
  if (n < 4 || memcmp(l, "@M1 ", 4) != 0)
    return 0;
  size_t i = 4;
  while (i < n && l[i] >= '0' && l[i] <= '9')
    i++;
  if (i == 4 || i >= n || l[i] != ' ')
    return 0;
  i++;
  size_t tl = strlen(type);
  return n - i >= tl + 1 && memcmp(l + i, type, tl) == 0 && l[i + tl] == ' ';
}

/* Where a begin record ("@M1 0 begin ") starts in the line, or NULL. */
static const char *find_begin(const char *l, size_t n) {
  static const char tag[] = "@M1 0 begin ";
  size_t tl = sizeof tag - 1;
  for (size_t i = 0; i + tl <= n; i++)
    if (l[i] == '@' && memcmp(l + i, tag, tl) == 0)
      return l + i;
  return NULL;
}

static int configure(int fd, const mh_serial_spec *s, char *err,
                     size_t errlen) {
  struct termios tio;
  if (tcgetattr(fd, &tio) != 0) {
    snprintf(err, errlen,
             "%s is not a serial port (tcgetattr: %s); give the board's "
             "serial device, e.g. /dev/ttyACM0",
             s->dev, strerror(errno));
    return -1;
  }
  cfmakeraw(&tio);
  tio.c_cflag |= CLOCAL | CREAD;
  tio.c_cflag &= ~(tcflag_t)(CSTOPB | CRTSCTS);
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  if (cfsetispeed(&tio, speed_of(s->baud)) != 0 ||
      cfsetospeed(&tio, speed_of(s->baud)) != 0 ||
      tcsetattr(fd, TCSANOW, &tio) != 0) {
    snprintf(err, errlen, "cannot set %s to %u baud, 8N1 raw: %s", s->dev,
             s->baud, strerror(errno));
    return -1;
  }
  /* Whatever arrived before we listened belongs to no run of ours. */
  tcflush(fd, TCIFLUSH);
  return 0;
}

/* The complete lines in buf[line_start, len): everything before a begin
 * record is dropped (again after a reset of the board), each line from it
 * on goes to s->on_line. Returns 1 after the end (or fault) record. */
static int take_lines(const mh_serial_spec *s, mh_serial_result *res, char *buf,
                      size_t *lenp, size_t *line_startp, int *begunp,
                      double *last_line) {
  size_t len = *lenp, line_start = *line_startp;
  int begun = *begunp;
  int stop = 0;
  while (!stop) {
    char *nl = memchr(buf + line_start, '\n', len - line_start);
    if (!nl)
      break;
    size_t ll = (size_t)(nl - (buf + line_start));
    *last_line = mh_now_s();
    const char *l = buf + line_start;
    size_t lt = ll && l[ll - 1] == '\r' ? ll - 1 : ll;
    /* A begin record, possibly glued to boot noise without a newline:
     * keep the stream from it on (again after a reset of the board). */
    const char *b = find_begin(l, lt);
    if (b) {
      if (begun)
        res->restarts++;
      size_t skip = (size_t)(b - buf);
      res->dropped += skip;
      memmove(buf, b, len - skip);
      len -= skip;
      ll -= (size_t)(b - l);
      lt -= (size_t)(b - l);
      line_start = 0;
      l = buf;
      begun = 1;
    }
    if (begun && s->on_line)
      s->on_line(s->ctx, l, lt);
    line_start += ll + 1;
    if (begun && (line_type(l, lt, "end") || line_type(l, lt, "fault"))) {
      res->complete = 1;
      stop = 1;
    }
  }
  *lenp = len;
  *line_startp = line_start;
  *begunp = begun;
  return stop;
}

int mh_serial_capture(const mh_serial_spec *s, mh_serial_result *res, char *err,
                      size_t errlen) {
  memset(res, 0, sizeof *res);
  int fd = open(s->dev, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    snprintf(err, errlen,
             "cannot open %s: %s (is the board plugged in? the device "
             "name is in 'ls /dev/ttyACM* /dev/ttyUSB*'; a permission "
             "error needs the group dialout)",
             s->dev, strerror(errno));
    return -1;
  }
  if (configure(fd, s, err, errlen) != 0) {
    close(fd);
    return -1;
  }
  size_t cap = 1 << 16, len = 0, line_start = 0;
  char *buf = malloc(cap);
  if (!buf) {
    close(fd);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int begun = 0, rc = 0;
  double deadline = mh_now_s() + (s->timeout_s ? s->timeout_s : 1e9);
  double last_line = mh_now_s();
  for (;;) {
    if (mh_exec_signal_received()) {
      res->cancelled = 1;
      break;
    }
    double now = mh_now_s(), left = deadline - now;
    if (left <= 0) {
      res->timed_out = 1;
      break;
    }
    if (s->stall_s && now - last_line >= s->stall_s) {
      res->stalled = 1;
      break;
    }
    if (s->stall_s && last_line + s->stall_s - now < left)
      left = last_line + s->stall_s - now;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int pr = poll(&p, 1, left > 0.2 ? 200 : (int)(left * 1000) + 1);
    if (pr < 0 && errno == EINTR)
      continue;
    if (pr < 0) {
      snprintf(err, errlen, "reading %s: poll: %s", s->dev, strerror(errno));
      rc = -1;
      break;
    }
    if (pr == 0)
      continue;
    if (len + 4096 + 1 > cap) {
      if (cap >= s->max_bytes + 4096 + 1) {
        snprintf(err, errlen, "the stream on %s exceeds %zu bytes", s->dev,
                 s->max_bytes);
        rc = -1;
        break;
      }
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, 4096);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
      continue;
    if (n == 0 || (n < 0 && errno == EIO)) {
      /* Hang-up: the USB serial device went away, or the other side of a
       * pseudo-terminal closed. */
      res->eof = 1;
      break;
    }
    if (n < 0) {
      snprintf(err, errlen, "reading %s: %s", s->dev, strerror(errno));
      rc = -1;
      break;
    }
    len += (size_t)n;
    if (take_lines(s, res, buf, &len, &line_start, &begun, &last_line))
      break;
    if (!begun) {
      /* Nothing to keep but a partial line. */
      res->dropped += line_start;
      memmove(buf, buf + line_start, len - line_start);
      len -= line_start;
      line_start = 0;
    }
  }
  close(fd);
  if (rc != 0) {
    free(buf);
    return -1;
  }
  if (!begun)
    len = 0;
  else if (res->complete)
    len = line_start; /* nothing after the last record */
  buf[len] = '\0';
  res->data = buf;
  res->len = len;
  return 0;
}
