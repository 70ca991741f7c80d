/* SPDX-License-Identifier: Apache-2.0 */
/* The host reference run's records, kept (docs/bring-your-own.md, "Known
 * answers"): the NIST KAT records of a set of reference implementations
 * depend only on the host image that computes them, so they are kept in
 * build/cache/nistkat/<key>, the key the SHA-256 of that image's SHA-256
 * and of which references it ran. A tree run, or the shards of one on this
 * machine, then computes them once; a changed folder, common code,
 * compiler, flag or merlin makes another image, so another key.
 *
 * An entry decides known-answer verdicts, and build/ may be writable by
 * others (a shared cluster build directory): each entry carries an
 * HMAC-SHA-256 under a key of this user's, kept outside the build tree
 * (mh_ref_cache_secret), over the entry's key, the image's SHA-256 and the
 * records. An entry without that tag is not used (docs/robustness.md,
 * "The reference cache"). */
#ifndef MERLIN_HOST_IMPL_REF_CACHE_H
#define MERLIN_HOST_IMPL_REF_CACHE_H

#include <stddef.h>

/* What names an entry: its key (the file name) and the image's SHA-256,
 * both hex. */
typedef struct {
  char key[65], image[65];
} mh_ref_cache_id;

/* The id of image (its file) with references off[0..n) left out (1). 0,
 * or -1 when the image cannot be read. */
int mh_ref_cache_key(const char *image, const unsigned char *off, size_t n,
                     mh_ref_cache_id *id);

/* The key file: $MERLIN_REF_CACHE_KEY, else $XDG_CONFIG_HOME/merlin/
 * ref-cache.key (an absolute XDG_CONFIG_HOME), else ~/.config/merlin/
 * ref-cache.key. Made on first use (32 random bytes from OpenSSL's
 * RAND_bytes, 64 hex digits; mode 0600, its folder 0700); used only when
 * it is a regular file (not a link) of this user that no one else may
 * read or write, holding exactly that. 0 with secret filled, or -1 with
 * why (the cache is then not used). */
int mh_ref_cache_secret(unsigned char secret[32], char *why, size_t wl);

/* The kept records of id for the n references named backends[0..n) into
 * recs[i] (malloc'd; NULL for a reference that had none): 1 when kept;
 * 0 when there is no entry; -1 when there is one that is not used (not
 * authentic under this user's key, damaged, or for other references),
 * with why. */
int mh_ref_cache_get(const char *root, const mh_ref_cache_id *id,
                     const unsigned char secret[32],
                     const char *const *backends, size_t n, char **recs,
                     char *why, size_t wl);

/* Keep recs (recs[i] NULL: none) under id, tagged with secret; best
 * effort (a cache that cannot be written is a miss next time). */
void mh_ref_cache_put(const char *root, const mh_ref_cache_id *id,
                      const unsigned char secret[32],
                      const char *const *backends, size_t n, char *const *recs);

#endif
