/* SPDX-License-Identifier: Apache-2.0 */
/* The host reference run's records, kept (docs/bring-your-own.md, "Known
 * answers"): the NIST KAT records of a set of reference implementations
 * depend only on the host image that computes them, so they are kept in
 * build/cache/nistkat/<key>, the key the SHA-256 of that image's file and
 * of which references it ran. A tree run, or the shards of one on this
 * machine, then computes them once; a changed folder, common code,
 * compiler, flag or merlin makes another image, so another key. */
#ifndef MERLIN_HOST_IMPL_REF_CACHE_H
#define MERLIN_HOST_IMPL_REF_CACHE_H

#include <stddef.h>

/* The key of image (its file) with references off[0..n) left out (1):
 * hex into key[65]. 0, or -1 when the image cannot be read. */
int mh_ref_cache_key(const char *image, const unsigned char *off, size_t n,
                     char key[65]);

/* The kept records of key for the n references named backends[0..n) into
 * recs[i] (malloc'd; NULL for a reference that had none): 1 when kept, 0
 * when not (a miss, or an entry that does not name these references). */
int mh_ref_cache_get(const char *root, const char *key,
                     const char *const *backends, size_t n, char **recs);

/* Keep recs (recs[i] NULL: none) under key; best effort (a cache that
 * cannot be written is a cache miss next time). */
void mh_ref_cache_put(const char *root, const char *key,
                      const char *const *backends, size_t n, char *const *recs);

#endif
