/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the command-line parser of host/cli/ (mh_main_parse:
 * every option table, value check and combination rule, nothing run). The
 * input is the argument list after "merlin", one argument per NUL-separated
 * piece. */
#include "cli/cli.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 64

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  /* Help texts and usage errors are the parser's normal output: keep them
   * out of the fuzzer's log. The sanitizers write to fd 2, not to the
   * stderr stream, and stay visible. */
  FILE *null = fopen("/dev/null", "w");
  if (null) {
    stdout = null;
    stderr = null;
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = malloc(size + 1);
  char *argv[MAX_ARGS + 2];
  if (!buf)
    return 0;
  memcpy(buf, data, size);
  buf[size] = '\0';
  int argc = 0;
  argv[argc++] = "merlin";
  for (size_t i = 0; i <= size && argc <= MAX_ARGS;) {
    argv[argc++] = buf + i;
    i += strlen(buf + i) + 1;
  }
  argv[argc] = NULL;
  int rc = mh_main_parse(argc, argv);
  /* The parser says 0 (would run, or help), 1 (out of memory) or 2. */
  if (rc != 0 && rc != 1 && rc != 2)
    abort();
  free(buf);
  return 0;
}
