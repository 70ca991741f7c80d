/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the board file parser (host/config/boards.c). */
#include "config/boards.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mh_board b;
  char err[512], why[160];
  if (mh_board_parse("fuzz.board", "fuzz", (const char *)data, size, &b, err,
                     sizeof err) == 0) {
    (void)mh_board_fits(&b, "cortex-m4", 1000, 1000, why, sizeof why);
    mh_board_free(&b);
  }
  return 0;
}
