/* SPDX-License-Identifier: Apache-2.0 */
/* Error messages with a prefix ("profiles/x.profile:7: ", "implementation
 * folder DIR: "), bounded by the caller's buffer. */
#ifndef MERLIN_HOST_ERRMSG_H
#define MERLIN_HOST_ERRMSG_H

#include <stdarg.h>
#include <stddef.h>

/* Write prefix, then fmt with ap, into err (truncated to errlen). Returns
 * -1: what the error paths that call it return. */
int mh_errmsg(char *err, size_t errlen, const char *prefix, const char *fmt,
              va_list ap);

#endif
