/* SPDX-License-Identifier: Apache-2.0 */
/* File helpers of the host CLI: whole-file reads, atomic writes (temporary
 * file in the same directory, then rename), mkdir -p. Each returns 0 on
 * success, or -1 with a message in err. */
#ifndef MERLIN_HOST_FSUTIL_H
#define MERLIN_HOST_FSUTIL_H

#include <stddef.h>

/* Read a whole regular file (at most max_len bytes) into a malloc'd,
 * NUL-terminated buffer. */
int mh_read_file(const char *path, size_t max_len, char **buf, size_t *len,
                 char *err, size_t errlen);

/* As mh_read_file, but path itself must not be a symbolic link (opened
 * with O_NOFOLLOW): for files in directories others may have written (a
 * results directory, a shard, the build tree's caches). */
int mh_read_regular(const char *path, size_t max_len, char **buf, size_t *len,
                    char *err, size_t errlen);

/* All len bytes of data to fd (again after EINTR); 0, or -1 with errno. */
int mh_write_all(int fd, const char *data, size_t len);

/* Write data to a temporary file beside path, flush it to disk, rename it
 * over path: the one way merlin writes an output. Only a regular file is
 * replaced: a symbolic link is followed (the file it names is replaced,
 * the link kept); a device, FIFO, socket or directory is refused with a
 * message naming it. The name "-" writes data to stdout instead. */
int mh_write_atomic(const char *path, const char *data, size_t len, char *err,
                    size_t errlen);

/* As mh_write_atomic, but a symbolic link at path is replaced by the
 * file, never followed (and "-" is a file name): for files merlin owns in
 * directories others may have written (the build tree's caches, a results
 * directory). */
int mh_write_replace(const char *path, const char *data, size_t len, char *err,
                     size_t errlen);

/* As mh_write_atomic, but leave the file (and its mtime) alone when it
 * already holds exactly this content. *changed tells which happened. */
int mh_write_if_changed(const char *path, const char *data, size_t len,
                        int *changed, char *err, size_t errlen);

int mh_mkdir_p(const char *path, char *err, size_t errlen);

/* Hold dir (made if missing) for this process alone: an exclusive flock on
 * dir/.merlin-lock, waited for with a line on stderr naming the directory
 * when another merlin holds it (two runs sharing a build directory would
 * otherwise configure and build it at once). Returns the descriptor to
 * pass to mh_dir_unlock, or -1 with a message in err. The kernel drops the
 * lock when the process exits. */
int mh_dir_lock(const char *dir, char *err, size_t errlen);
void mh_dir_unlock(int fd);

/* malloc'd "a/b"; NULL on allocation failure. */
char *mh_path_join(const char *a, const char *b);

/* path relative to root when it lies under it, else path itself (for
 * messages). */
const char *mh_path_display(const char *root, const char *path);

/* path itself, or, when it has MH_PATH_BRIEF bytes or more, its head and
 * tail in buf ("head...tail (a path of N bytes)"): for messages, so that a
 * very long path cannot push the reason out of a fixed-size buffer. */
#define MH_PATH_BRIEF 256
const char *mh_path_brief(const char *path, char *buf, size_t len);

/* The source root: $MERLIN_ROOT when set, else the tree merlin was built
 * from. Returns a malloc'd absolute path, or NULL with err. */
char *mh_source_root(char *err, size_t errlen);
/* A file-name part naming a path (merlin run --cc PATH): any name without
 * a '/' as is, else its last component (at most 40 characters) and a hash
 * of the whole path ("arm-none-eabi-gcc-1a2b3c4d"). */
void mh_path_tag(const char *path, char *buf, size_t len);

#endif
