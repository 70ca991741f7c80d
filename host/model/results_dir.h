/* SPDX-License-Identifier: Apache-2.0 */
/* The names merlin gives in an output directory OUT (docs/cli.md,
 * "Outputs"), and nothing else: its results directories OUT/<stamp>
 * (UTC "YYYYmmdd-HHMMSS", or "-N" after it, N 1..999), the link
 * OUT/latest to one of them, and its temporaries while writing,
 * OUT/.tmp-<stamp>-<pid> (holding the marker file .merlin-tmp that says
 * so) and OUT/.latest.tmp-<pid>. Readers and the writer both go by these,
 * so an entry someone else made under a like name is never taken for
 * merlin's, read through, or removed. */
#ifndef MERLIN_HOST_MODEL_RESULTS_DIR_H
#define MERLIN_HOST_MODEL_RESULTS_DIR_H

#include <stddef.h>

/* The marker file in a temporary results directory, and its content for
 * the process pid (len bytes in buf). */
#define MH_RDIR_MARKER ".merlin-tmp"
size_t mh_rdir_marker_text(long pid, char *buf, size_t len);

/* name is a results directory's name merlin gives: 1, else 0. */
int mh_rdir_stamp(const char *name);

/* The pid of a temporary's name merlin gives (".tmp-<stamp>-<pid>", dir
 * set to 1, or ".latest.tmp-<pid>", dir 0), checked in full; 0 for any
 * other name. */
long mh_rdir_tmp_pid(const char *name, int *dir);

/* OUT/latest: 1 when there is none (or OUT cannot be looked into: who
 * writes there says why); 0 when it is a symbolic link merlin
 * made (to a results directory's name in OUT, which it names in target);
 * -1 when it is anything else, with err (merlin neither reads through it
 * nor replaces it). */
int mh_rdir_latest(const char *out, char *target, size_t tlen, char *err,
                   size_t errlen);

/* Where the results.json of what a user names lives: a results.json file
 * (*json that path, *dir its directory; it is followed as named), a
 * results directory (DIR/results.json, no link), or an --out directory of
 * runs (its latest, checked by mh_rdir_latest; DIR/<stamp>/results.json,
 * no link). *nofollow: the file must be read without following a link
 * (mh_read_regular). 0, or -1 with err. malloc'd. */
int mh_rdir_locate(const char *arg, char **dir, char **json, int *nofollow,
                   char *err, size_t errlen);

#endif
