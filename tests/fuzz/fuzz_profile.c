/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target: the profile parser (host/config/profile.c) and the
 * generated files it feeds (host/image/image_build.c). */
#include "config/profile.h"
#include "image/image_build.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mh_profile p;
  char err[1024];
  if (mh_profile_parse("fuzz.profile", (const char *)data, size, &p, err,
                       sizeof err) == 0) {
    free(mh_profile_header("fuzz", &p));
    free(mh_profile_cmake("fuzz", &p));
    mh_profile_free(&p);
  }
  return 0;
}
