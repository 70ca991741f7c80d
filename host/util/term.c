/* SPDX-License-Identifier: Apache-2.0 */
/* See term.h. */
#define _GNU_SOURCE /* fopencookie */
#include "util/term.h"

#include "util/escape.h"
#include "util/fsutil.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* One filtered descriptor: the tail of a UTF-8 sequence cut by a buffer
 * boundary waits here for the rest. */
typedef struct {
  int fd;
  char tail[4];
  size_t n_tail;
} guard;

static guard guards[2] = {{.fd = STDOUT_FILENO}, {.fd = STDERR_FILENO}};

/* Filters and writes the pending tail and then buf; final: nothing more
 * follows (a cut sequence is shown as its bytes). */
static int filter(guard *g, const char *buf, size_t len, int final) {
  char joined[4 + 4096];
  mh_sb out = {0};
  int rc = 0;
  while (!rc && (len > 0 || (final && g->n_tail))) {
    size_t take = len < 4096 ? len : 4096;
    memcpy(joined, g->tail, g->n_tail);
    memcpy(joined + g->n_tail, buf, take);
    size_t n = g->n_tail + take;
    int last = final && take == len;
    size_t used = mh_esc_term_stream(&out, joined, n, last);
    g->n_tail = n - used; /* at most 3 bytes of a cut sequence */
    memcpy(g->tail, joined + used, g->n_tail);
    rc = out.failed ? -1 : mh_write_all(g->fd, out.s ? out.s : "", out.len);
    out.len = 0;
    buf += take;
    len -= take;
  }
  mh_sb_free(&out);
  return rc;
}

static ssize_t guard_write(void *cookie, const char *buf, size_t len) {
  return filter(cookie, buf, len, 0) == 0 ? (ssize_t)len : -1;
}

static int guard_close(void *cookie) { return filter(cookie, "", 0, 1); }

int mh_term_guard(void) {
  cookie_io_functions_t io = {.write = guard_write, .close = guard_close};
  fflush(stdout);
  fflush(stderr);
  FILE *out = fopencookie(&guards[0], "w", io);
  FILE *err = out ? fopencookie(&guards[1], "w", io) : NULL;
  if (!err) {
    if (out)
      fclose(out);
    return -1;
  }
  /* stdout as the C library sets it (C11 7.21.3p7): line-buffered on a
   * terminal, else fully; stderr unbuffered. */
  setvbuf(out, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
  setvbuf(err, NULL, _IONBF, 0);
  stdout = out;
  stderr = err;
  return 0;
}

void mh_term_clear_line(void) {
  fflush(stderr);
  (void)mh_write_all(STDERR_FILENO, "\r\033[K", 4);
}

int mh_term_columns(void) {
  struct winsize w;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0)
    return w.ws_col;
  return 80;
}

void mh_term_fit(char *buf, size_t len, const char *s, int cols) {
  size_t at = strlen(buf), i = 0;
  for (int c = 0; s[i] && c < cols; c++) {
    size_t n = 1; /* whole characters only */
    while (((unsigned char)s[i + n] & 0xc0) == 0x80)
      n++;
    if (at + n >= len)
      break;
    memcpy(buf + at, s + i, n);
    at += n;
    i += n;
  }
  buf[at] = '\0';
}
