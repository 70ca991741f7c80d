/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A stand-in for a board on a serial port (tests/integration/pty.sh): opens
 * a pseudo-terminal pair, writes the slave's name to NAME_FILE, waits until
 * a reader has put the slave in raw mode (as `merlin run --port` does),
 * then writes boot noise and STREAM in small chunks into the master side,
 * as a UART would deliver it, and keeps the master open until the reader
 * closes the slave (a pty drops unread data when its master closes).
 *   pty_feed STREAM NAME_FILE [close]
 * With "close" it closes the master right after writing (the port goes
 * away mid-run, like an unplugged board).
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && (errno == EINTR || errno == EAGAIN)) {
      sleep_ms(1);
      continue;
    }
    if (w <= 0)
      return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: pty_feed STREAM NAME_FILE [close]\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    fprintf(stderr, "pty_feed: %s: %s\n", argv[1], strerror(errno));
    return 2;
  }
  static char data[1 << 24];
  size_t len = fread(data, 1, sizeof data, f);
  fclose(f);
  int m = posix_openpt(O_RDWR | O_NOCTTY);
  if (m < 0 || grantpt(m) != 0 || unlockpt(m) != 0) {
    fprintf(stderr, "pty_feed: no pseudo-terminal: %s\n", strerror(errno));
    return 2;
  }
  const char *name = ptsname(m);
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", argv[2]);
  FILE *nf = fopen(tmp, "w");
  if (!nf || fprintf(nf, "%s\n", name) < 0 || fclose(nf) != 0 ||
      rename(tmp, argv[2]) != 0) {
    fprintf(stderr, "pty_feed: cannot write %s\n", argv[2]);
    return 2;
  }
  /* The slave's termios, seen from the master: wait for raw mode. */
  struct termios t;
  int waited = 0;
  for (;;) {
    if (tcgetattr(m, &t) == 0 && !(t.c_lflag & ICANON))
      break;
    if (++waited > 6000) {
      fprintf(stderr, "pty_feed: nobody opened %s in raw mode in 60 s\n", name);
      return 3;
    }
    sleep_ms(10);
  }
  sleep_ms(200); /* past the reader's flush of stale input */
  static const char noise[] = "\r\n*** boot noise: clocks up ***\r\n";
  if (write_all(m, noise, sizeof noise - 1) != 0)
    return 4;
  for (size_t at = 0; at < len; at += 64)
    if (write_all(m, data + at, len - at < 64 ? len - at : 64) != 0) {
      fprintf(stderr, "pty_feed: write: %s\n", strerror(errno));
      return 4;
    }
  if (argc == 4 && strcmp(argv[3], "close") == 0) {
    sleep_ms(300); /* let the reader take what was written */
    close(m);
    return 0;
  }
  /* Until the reader closes the slave (read gives EIO), at most 120 s. */
  char sink[256];
  for (int i = 0; i < 1200; i++) {
    struct pollfd p = {.fd = m, .events = POLLIN};
    int r = poll(&p, 1, 100);
    if (r > 0) {
      ssize_t n = read(m, sink, sizeof sink);
      if (n <= 0 && errno != EAGAIN && errno != EINTR)
        break;
    }
    if (r > 0 && (p.revents & POLLHUP))
      break;
  }
  close(m);
  return 0;
}
