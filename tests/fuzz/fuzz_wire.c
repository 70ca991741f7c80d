/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the wire reader (host/wire/wire.c) on arbitrary console
 * bytes. It must accept or reject without crashing, leaking or reading out
 * of bounds, and an accepted run must survive the statistics step. */
#include "model/model.h"
#include "wire/wire.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mh_run run;
  mh_wire_error err;
  if (mh_wire_parse((const char *)data, size, &run, &err) == 0) {
    char msg[256];
    (void)mh_run_finish(&run, 0.3125, "instructions", 7, msg, sizeof msg);
    mh_run_free(&run);
  }
  return 0;
}
