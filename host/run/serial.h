/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a board's wire stream from a serial port (`merlin run --port`):
 * the port in raw mode at a baud rate, everything before the `begin`
 * record dropped, then every line up to the `end` (or `fault`) record. The
 * wire reader (wire.h) judges the captured stream as it judges any other. */
#ifndef MERLIN_HOST_SERIAL_H
#define MERLIN_HOST_SERIAL_H

#include <stddef.h>

#define MH_BAUD_DEFAULT 115200u

/* 1 when baud is a rate the port can be set to (termios), else 0. */
int mh_serial_baud_ok(unsigned baud);
/* "9600, 19200, ..." for messages. */
const char *mh_serial_bauds(void);

typedef struct {
  const char *dev;    /* /dev/ttyACM0, or a pseudo-terminal */
  unsigned baud;      /* checked with mh_serial_baud_ok */
  unsigned timeout_s; /* for the whole stream, from opening the port; 0 none */
  unsigned stall_s;   /* no complete line for this long ends it; 0 none */
  size_t max_bytes;   /* a longer stream is refused */
  /* Each wire line as it arrives (after begin), or NULL. */
  void (*on_line)(void *ctx, const char *line, size_t len);
  void *ctx;
} mh_serial_spec;

typedef struct {
  char *data; /* the stream from the begin line on, NUL-terminated */
  size_t len;
  int complete;   /* the end or fault record arrived */
  int timed_out;  /* timeout_s passed first */
  int stalled;    /* stall_s passed without a line first */
  int eof;        /* the port closed (hang-up) first */
  int cancelled;  /* SIGINT/SIGTERM (mh_exec_install_signal_handlers) */
  int restarts;   /* begin records seen again (the board was reset) */
  size_t dropped; /* bytes before the begin record */
} mh_serial_result;

/* Open and configure the port, capture. Returns 0 with *res filled (even
 * when no begin arrived: res->data is then empty), or -1 with err when the
 * port cannot be opened or configured or the stream is too long. */
int mh_serial_capture(const mh_serial_spec *spec, mh_serial_result *res,
                      char *err, size_t errlen);
void mh_serial_result_free(mh_serial_result *res);

#endif
