/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin agree`: its command line (the command itself is host/agree/). */
#include "agree/agree.h"
#include "cli/cli_parse.h"

#include <stdlib.h>

typedef struct {
  mh_agree_opts o;
  const char *backend, *repeat, *runs, *md;
  int quiet;
} agree_args;

#define AA(f) offsetof(agree_args, f)
static const mh_opt_def AGREE_OPTS[] = {
    {"--target", NULL, "T", "host or a QEMU target (exactly one)", 0, 1, 0, 0,
     0, NULL},
    {"--backend", NULL, "B",
     "the library whose own benchmark to run: wolfcrypt or\nmbedtls",
     AA(backend), 0, 0, 0, 0, "wolfcrypt, mbedtls"},
    {"--repeat", NULL, "K",
     "interleaved runs of both programs, %R (default: 3 on\nthe host, 1 "
     "under QEMU)",
     AA(repeat), 0, 1, 20, AA(o.repeat), NULL},
    {"--runs", NULL, "N",
     "Merlin's timed runs per operation, %R (default: 101 on\nthe host, 11 "
     "under QEMU)",
     AA(runs), 0, 1, MH_RUNS_MAX, AA(o.runs), NULL},
    {"--md", NULL, "FILE", "also write the table (Markdown) to FILE", AA(md), 0,
     0, 0, 0, NULL},
    {"--quiet", NULL, NULL, "no progress lines", AA(quiet), 0, 0, 0, 0, NULL},
};

static int cmd_agree(const mh_cmd_def *cmd, int argc, char **argv) {
  agree_args a = {0};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  const char **targets = NULL;
  size_t n_targets = 0;
  char *store = NULL;
  int rc = mh_cli_parse_cmd(&s, argc, argv, 0, &targets, &n_targets, &store);
  if (rc == 0 && n_targets != 1)
    rc = mh_cli_usage_error(&s, "needs exactly one --target");
  if (rc == 0 && !a.backend)
    rc = mh_cli_usage_error(&s, "--backend is required: wolfcrypt or mbedtls");
  if (rc == 0 && !mh_cli_parse_only) {
    a.o.target = targets[0];
    a.o.backend = a.backend;
    a.o.md = a.md;
    a.o.quiet = a.quiet;
    rc = mh_cli_agree(&a.o);
  }
  free(targets);
  free(store);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_agree = {
    "agree",
    "usage: merlin agree --target T --backend wolfcrypt|mbedtls [options]\n"
    "\n"
    "Build the library's own benchmark program (wolfCrypt's "
    "wolfcrypt/benchmark,\n"
    "Mbed TLS's programs/test/benchmark) from the pinned sources, with the\n"
    "library configured as in Merlin's images, run it and Merlin's image "
    "of the\n"
    "same algorithms on the target, interleaved, and print both figures "
    "per\n"
    "operation with their ratio (docs/operations.md). Exits 1 when, on an "
    "exact\n"
    "target, a row whose definitions match differs by more than 1%.\n",
    MH_OPTS(AGREE_OPTS),
    NULL,
    0,
    cmd_agree};
