/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the results reader (host/model/results_json_read.c), and
 * the writers run on whatever it accepts (merlin report does the same). */
#include "model/results.h"
#include "model/results_json.h"
#include "report/report_md.h"
#include "report/results_csv.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mh_results r;
  char err[1024];
  if (mh_results_from_json((const char *)data, size, &r, err, sizeof err) ==
      0) {
    free(mh_report_md(&r));
    free(mh_results_to_csv(&r));
    free(mh_results_to_json(&r, err, sizeof err));
    mh_results_free(&r);
  }
  return 0;
}
