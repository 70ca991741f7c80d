/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin run --port DEV`: a board's stream from its serial port, and what
 * to say when a board target is run with neither --port nor --from. */
#include "run/run_port.h"

#include "run/progress.h"
#include "run/serial.h"
#include "util/exec.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mh_run_read_port(const mh_run_opts *o, const mh_target *t, char **console,
                     size_t *len, size_t max_bytes) {
  char err[1024];
  mh_progress *pr = mh_progress_new(t->id, isatty(STDERR_FILENO), o->quiet);
  if (!pr) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  if (!o->quiet && o->timeout_s)
    fprintf(stderr,
            "merlin: %s: listening on %s at %u baud; reset the board now "
            "(waiting up to %u s without a line, %u s for the whole run)\n",
            t->id, o->port, o->baud, o->stall_s, o->timeout_s);
  else if (!o->quiet)
    fprintf(stderr,
            "merlin: %s: listening on %s at %u baud; reset the board now "
            "(waiting up to %u s without a line)\n",
            t->id, o->port, o->baud, o->stall_s);
  mh_serial_spec spec = {.dev = o->port,
                         .baud = o->baud,
                         .timeout_s = o->timeout_s,
                         .stall_s = o->stall_s,
                         .max_bytes = max_bytes,
                         .on_line = mh_progress_console_hook,
                         .ctx = pr};
  mh_serial_result res;
  int rc = mh_serial_capture(&spec, &res, err, sizeof err);
  mh_progress_clear(pr);
  mh_progress_free(pr);
  if (rc != 0) {
    fprintf(stderr, "merlin: %s: %s\n", t->id, err);
    return 1;
  }
  if (res.cancelled) {
    fprintf(stderr, "merlin: %s: interrupted\n", t->id);
    mh_serial_result_free(&res);
    return 130;
  }
  if (res.len == 0) {
    fprintf(stderr,
            "merlin: %s: no begin record on %s %s (%zu bytes of other "
            "output). Is the board flashed with the merlin image of this "
            "target (merlin build --target %s), was it reset, is %u the "
            "right baud rate (--baud)?\n",
            t->id, o->port,
            res.eof         ? "before the port closed"
            : res.timed_out ? "within the timeout"
            : res.stalled   ? "before the port was silent for --stall"
                            : "",
            res.dropped, t->id, o->baud);
    mh_serial_result_free(&res);
    return 1;
  }
  if (res.restarts && !o->quiet)
    fprintf(stderr,
            "merlin: %s: the board restarted %d time(s) during the run; "
            "reading the last run only\n",
            t->id, res.restarts);
  if (!res.complete)
    fprintf(stderr,
            "merlin: %s: the stream on %s stopped before its end record "
            "(%s); the reader judges what arrived\n",
            t->id, o->port,
            res.eof       ? "the port closed"
            : res.stalled ? "no line for --stall seconds: raise it for a slow "
                            "operation"
                          : "timeout: raise --timeout for a long profile");
  else if (!o->quiet)
    fprintf(stderr, "merlin: %s: %zu bytes received from %s\n", t->id, res.len,
            o->port);
  *console = res.data;
  *len = res.len;
  return 0;
}

void mh_run_board_hint(const mh_target *t, const char *image) {
  char base[4096];
  snprintf(base, sizeof base, "%s", image);
  char *dot = strrchr(base, '.');
  char *slash = strrchr(base, '/');
  if (dot && (!slash || dot > slash))
    *dot = '\0';
  /* The flashing command with IMAGE replaced by the image's path. */
  char cmd[8192];
  size_t at = 0;
  for (const char *h = t->flash_hint; *h && at + 1 < sizeof cmd;) {
    if (strncmp(h, "IMAGE", 5) == 0) {
      at += (size_t)snprintf(cmd + at, sizeof cmd - at, "%s", base);
      h += 5;
    } else {
      cmd[at++] = *h++;
    }
  }
  cmd[at < sizeof cmd ? at : sizeof cmd - 1] = '\0';
  fprintf(stderr,
          "merlin: %s is a real board: merlin builds its image but cannot "
          "run it.\n"
          "  image: %s\n"
          "  flash it:  %s\n"
          "  then read it:  merlin run --target %s --port /dev/ttyACM0 "
          "[--baud 115200]\n"
          "  or parse a captured log:  merlin run --target %s --from "
          "FILE\n"
          "  (docs/targets.md, section 'Real boards')\n",
          t->id, image, cmd, t->id, t->id);
}

char *mh_run_keep_capture(const char *root, const mh_target *t,
                          const char *data, size_t len) {
  char err[1024], name[128];
  char *dir = mh_path_join(root, "build");
  snprintf(name, sizeof name, "port-%s.log", t->id);
  char *path = dir ? mh_path_join(dir, name) : NULL;
  if (!path || mh_mkdir_p(dir, err, sizeof err) != 0 ||
      mh_write_atomic(path, data, len, err, sizeof err) != 0) {
    free(dir);
    free(path);
    return NULL;
  }
  free(dir);
  return path;
}
