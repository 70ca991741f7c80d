/* SPDX-License-Identifier: Apache-2.0 */
/* See suggest.h. */
#include "util/suggest.h"

#include <stdio.h>
#include <string.h>

/* Edit distance of a and b (the first 63 bytes of each), by the classic
 * two-row dynamic programme. */
static size_t distance(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b), row[2][64];
  na = na > 63 ? 63 : na;
  nb = nb > 63 ? 63 : nb;
  for (size_t j = 0; j <= nb; j++)
    row[0][j] = j;
  for (size_t i = 1; i <= na; i++) {
    size_t *cur = row[i & 1], *prev = row[(i - 1) & 1];
    cur[0] = i;
    for (size_t j = 1; j <= nb; j++) {
      size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
  }
  return row[na & 1][nb];
}

const char *mh_suggest(const char *word, const char *const *cands, size_t n) {
  size_t len = word ? strlen(word) : 0, best_d = (size_t)-1;
  const char *best = NULL;
  if (!len)
    return NULL;
  size_t limit = len / 3 > 1 ? len / 3 : 1, best_p = 0;
  for (size_t i = 0; i < n; i++) {
    size_t d = distance(word, cands[i]), p = 0;
    while (word[p] && word[p] == cands[i][p])
      p++;
    /* Nearest first; of equals, the longest common prefix ("qemu-m5":
     * qemu-m55 before qemu-m3). */
    if (d && d <= limit && (d < best_d || (d == best_d && p > best_p))) {
      best_d = d;
      best_p = p;
      best = cands[i];
    }
  }
  return best;
}

const char *mh_suggest_list(const char *word, const char *list, char *buf,
                            size_t len) {
  const char *best = NULL;
  char names[64][64];
  const char *ptrs[64];
  size_t n = 0;
  for (const char *p = list; p && *p && n < 64;) {
    p += strspn(p, ", ");
    size_t k = strcspn(p, ", ");
    if (k) {
      snprintf(names[n], sizeof names[n], "%.*s", (int)k, p);
      ptrs[n] = names[n];
      n++;
    }
    p += k;
  }
  best = mh_suggest(word, ptrs, n);
  if (!best)
    return NULL;
  snprintf(buf, len, "%s", best);
  return buf;
}
