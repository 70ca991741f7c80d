/* SPDX-License-Identifier: Apache-2.0 */
#include "agree/agree.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *mh_ag_table_header(void) {
  return "| operation | their row | theirs | Merlin | Merlin ÷ theirs | spread "
         "theirs / Merlin | verdict |\n"
         "|---|---|---:|---:|---:|---:|---|\n";
}

static int outside(const mh_ag_line *l, double bound) {
  return !(fabs(l->merlin / l->theirs - 1.0) <= bound);
}

int mh_ag_unexplained(const mh_ag_line *l, double bound) {
  return l->n && outside(l, bound) && strcmp(l->map->def, "same") == 0;
}

/* v with thousands separators; per byte with two decimals. */
static void num(char *b, size_t cap, double v, int rate) {
  if (rate || v < 100) {
    snprintf(b, cap, "%.2f", v);
    return;
  }
  char raw[32];
  snprintf(raw, sizeof raw, "%.0f", v);
  size_t len = strlen(raw), o = 0;
  for (size_t i = 0; i < len && o + 2 < cap; i++) {
    if (i && (len - i) % 3 == 0)
      b[o++] = ',';
    b[o++] = raw[i];
  }
  b[o] = '\0';
}

int mh_ag_format_line(char *buf, size_t cap, const mh_ag_line *l,
                      const char *unit, double bound, const char *noise) {
  const mh_ag_map *m = l->map;
  char op[64], t[32], me[32];
  snprintf(op, sizeof op, "%s %s%s", m->alg, m->op,
           m->kind == MH_AG_RATE  ? " (per byte)"
           : m->kind == MH_AG_KIB ? " (1 KiB)"
                                  : "");
  if (!l->n)
    return snprintf(buf, cap, "| %s | %s | | | | | not measured: %s |\n", op,
                    m->key, "no figure from one of the two programs");
  num(t, sizeof t, l->theirs, m->kind == MH_AG_RATE);
  num(me, sizeof me, l->merlin, m->kind == MH_AG_RATE);
  const char *verdict = !outside(l, bound)            ? "agrees"
                        : strcmp(m->def, "same") != 0 ? m->def
                        : noise                       ? noise
                                : "outside the bound, no known reason";
  return snprintf(buf, cap,
                  "| %s | %s | %s %s | %s %s | %.4f | %.1f%% / %.1f%% | %s |\n",
                  op, m->key, t, unit, me, unit, l->merlin / l->theirs,
                  100.0 * l->theirs_spread, 100.0 * l->merlin_spread, verdict);
}
