/* SPDX-License-Identifier: Apache-2.0 */
/* "Did you mean": the known name closest to a mistyped one. */
#ifndef MERLIN_HOST_SUGGEST_H
#define MERLIN_HOST_SUGGEST_H

#include <stddef.h>

/* The candidate nearest to word by edit distance (Levenshtein: one
 * insertion, deletion or substitution each), when it is near enough to be
 * a typo (at most a third of the word's length, and at least one edit
 * allowed); NULL otherwise, and for an empty word. */
const char *mh_suggest(const char *word, const char *const *cands, size_t n);

/* As mh_suggest over a comma list of candidates ("a, b, c"); the answer,
 * without spaces, in buf (NULL when none). */
const char *mh_suggest_list(const char *word, const char *list, char *buf,
                            size_t len);

#endif
