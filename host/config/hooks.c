/* SPDX-License-Identifier: Apache-2.0 */
/* See hooks.h. */
#include "config/hooks.h"

#include "config/catalog.h"

#include <stdio.h>
#include <string.h>

int mh_inject_fault_check(const char *kind, char *err, size_t errlen) {
  static const char *const kinds[] = {"busfault", "usagefault", "hang",
                                      "stackoverflow", "heap"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(kind, kinds[i]) == 0)
      return 0;
  snprintf(err, errlen, "--inject-fault: unknown kind '%s'; valid: %s", kind,
           MH_FAULT_KINDS);
  return -1;
}

int mh_kat_corrupt_check(const char *v, const mh_profile *p, char *err,
                         size_t errlen) {
  const char *slash = strchr(v, '/');
  if (!slash || slash == v || !slash[1] || strchr(slash + 1, '/')) {
    snprintf(err, errlen,
             "--kat-corrupt expects ALG/OP (for example sha256/hash), got "
             "'%s'",
             v);
    return -1;
  }
  if (strspn(slash + 1, "abcdefghijklmnopqrstuvwxyz0123456789-_") !=
      strlen(slash + 1)) {
    snprintf(err, errlen, "--kat-corrupt: invalid operation name '%s'",
             slash + 1);
    return -1;
  }
  char alg[64];
  snprintf(alg, sizeof alg, "%.*s", (int)(slash - v), v);
  int a = (size_t)(slash - v) < sizeof alg ? mh_alg_find(alg) : -1;
  if (a < 0) {
    size_t used = (size_t)snprintf(
        err, errlen,
        "--kat-corrupt: unknown algorithm '%.*s'; valid:", (int)(slash - v), v);
    for (size_t i = 0; i < MH_N_ALGS && used < errlen; i++)
      used += (size_t)snprintf(err + used, errlen - used, "%s %s", i ? "," : "",
                               mh_algs[i].id);
    return -1;
  }
  if (p && p->n_routes[a] == 0) {
    snprintf(err, errlen,
             "--kat-corrupt: %s is not routed by this profile, so its KAT "
             "never runs",
             mh_algs[a].id);
    return -1;
  }
  return 0;
}
