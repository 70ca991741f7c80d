/* SPDX-License-Identifier: Apache-2.0 */
/* merlin: the host CLI's entry point (docs/cli.md); the commands are
 * cli_main.c's. */
#include "cli/cli.h"
#include "util/term.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A standard descriptor closed by the caller (`merlin list >&-`) would be
 * reused by the next open(), and output meant for it would land in a
 * results file: point it at a device instead. A closed stdout gets
 * /dev/full, so that what is printed to it fails, as it should. */
static int stdout_was_closed;

static void guard_std_fds(void) {
  static const char *const dev[] = {"/dev/null", "/dev/full", "/dev/null"};
  for (int fd = 0; fd <= 2; fd++) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
      continue;
    int nfd = open(dev[fd], fd ? O_WRONLY : O_RDONLY);
    if (nfd < 0 && fd == 1)
      nfd = open("/dev/null", O_WRONLY);
    if (nfd >= 0 && nfd != fd) {
      dup2(nfd, fd);
      close(nfd);
    }
    if (fd == 1)
      stdout_was_closed = 1;
  }
}

/* What went to stdout (a listing, a summary, the results path) must have
 * reached it: a full disk or a closed stdout is a failure (exit 1). */
static int close_stdout(int rc) {
  errno = 0;
  int bad = fflush(stdout) != 0 || ferror(stdout);
  int e = errno;
  if (fclose(stdout) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  /* A failed command has said why already; its status stands. */
  if (!bad || rc != 0)
    return rc;
  if (stdout_was_closed)
    fprintf(stderr, "merlin: cannot write to stdout: it is closed\n");
  else
    fprintf(stderr, "merlin: cannot write to stdout: %s\n",
            e ? strerror(e) : "write error");
  return 1;
}

int main(int argc, char **argv) {
  guard_std_fds();
  if (mh_term_guard() != 0) {
    fprintf(stderr, "merlin: cannot set up the terminal filter: %s\n",
            strerror(errno));
    return 1;
  }
  return close_stdout(mh_cli_main(argc, argv));
}
