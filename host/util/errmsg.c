/* SPDX-License-Identifier: Apache-2.0 */
#include "util/errmsg.h"

#include <stdio.h>

int mh_errmsg(char *err, size_t errlen, const char *prefix, const char *fmt,
              va_list ap) {
  int w = snprintf(err, errlen, "%s", prefix);
  if (w >= 0 && (size_t)w < errlen)
    vsnprintf(err + w, errlen - (size_t)w, fmt, ap);
  return -1;
}
