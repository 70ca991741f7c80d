/* SPDX-License-Identifier: Apache-2.0 */
#include "util/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* mh_read_file and mh_read_regular: flags O_NOFOLLOW or 0. */
static int read_file(const char *path, int flags, size_t max_len, char **buf,
                     size_t *len, char *err, size_t errlen) {
  *buf = NULL;
  *len = 0;
  char brief[MH_PATH_BRIEF];
  const char *bp = mh_path_brief(path, brief, sizeof brief);
  /* O_NONBLOCK: opening a FIFO (or a device) must not wait for a writer;
   * anything but a regular file is rejected before a read could block. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags);
  if (fd < 0 && errno == ELOOP && (flags & O_NOFOLLOW)) {
    snprintf(err, errlen,
             "%s: a symbolic link (not followed: only a regular file is "
             "read here)",
             bp);
    return -1;
  }
  if (fd < 0) {
    snprintf(err, errlen, "cannot open %s: %s", bp, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    snprintf(err, errlen, "cannot stat %s: %s", bp, strerror(errno));
    close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: not a regular file (%s)", bp,
             S_ISFIFO(st.st_mode)   ? "a FIFO"
             : S_ISDIR(st.st_mode)  ? "a directory"
             : S_ISCHR(st.st_mode)  ? "a character device"
             : S_ISSOCK(st.st_mode) ? "a socket"
                                    : "not a file");
    close(fd);
    return -1;
  }
  if ((unsigned long long)st.st_size > max_len) { /* before reading any */
    snprintf(err, errlen, "%s: larger than %zu bytes", bp, max_len);
    close(fd);
    return -1;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
    snprintf(err, errlen, "cannot read %s: %s", bp, strerror(errno));
    close(fd);
    return -1;
  }
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  if (!b) {
    snprintf(err, errlen, "out of memory reading %s", bp);
    close(fd);
    return -1;
  }
  for (;;) {
    if (n + 1 >= cap) {
      if (cap > max_len) {
        snprintf(err, errlen, "%s: larger than %zu bytes", bp, max_len);
        free(b);
        close(fd);
        return -1;
      }
      char *nb = realloc(b, cap * 2);
      if (!nb) {
        snprintf(err, errlen, "out of memory reading %s", bp);
        free(b);
        close(fd);
        return -1;
      }
      b = nb;
      cap *= 2;
    }
    ssize_t r = read(fd, b + n, cap - 1 - n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      snprintf(err, errlen, "cannot read %s: %s", bp, strerror(errno));
      free(b);
      close(fd);
      return -1;
    }
    if (r == 0)
      break;
    n += (size_t)r;
  }
  close(fd);
  if (n > max_len) {
    snprintf(err, errlen, "%s: larger than %zu bytes", bp, max_len);
    free(b);
    return -1;
  }
  b[n] = '\0';
  *buf = b;
  *len = n;
  return 0;
}

int mh_read_file(const char *path, size_t max_len, char **buf, size_t *len,
                 char *err, size_t errlen) {
  return read_file(path, 0, max_len, buf, len, err, errlen);
}

int mh_read_regular(const char *path, size_t max_len, char **buf, size_t *len,
                    char *err, size_t errlen) {
  return read_file(path, O_NOFOLLOW, max_len, buf, len, err, errlen);
}

int mh_write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t w = write(fd, data, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    data += w;
    len -= (size_t)w;
  }
  return 0;
}

/* What a non-regular file is, for messages. */
static const char *file_kind(mode_t m) {
  return S_ISFIFO(m)   ? "a FIFO"
         : S_ISDIR(m)  ? "a directory"
         : S_ISCHR(m)  ? "a character device"
         : S_ISBLK(m)  ? "a block device"
         : S_ISSOCK(m) ? "a socket"
                       : "not a regular file";
}

/* The file a write to path lands in: path itself, or where its chain of
 * symbolic links ends (which need not exist yet; at most 40 links, as
 * Linux's own limit, path_resolution(7)). malloc'd, or NULL with err. */
static char *write_target(const char *path, char *err, size_t errlen) {
  char *cur = strdup(path);
  char brief[MH_PATH_BRIEF];
  for (int hops = 0; cur; hops++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
      return cur;
    if (hops == 40) {
      snprintf(err, errlen,
               "cannot write %s: too many levels of symbolic "
               "links",
               mh_path_brief(path, brief, sizeof brief));
      free(cur);
      return NULL;
    }
    char link[4096];
    ssize_t n = readlink(cur, link, sizeof link - 1);
    if (n < 0) {
      snprintf(err, errlen, "cannot read the link %s: %s",
               mh_path_brief(cur, brief, sizeof brief), strerror(errno));
      free(cur);
      return NULL;
    }
    link[n] = '\0';
    char *next;
    const char *slash = strrchr(cur, '/');
    if (link[0] == '/' || !slash) {
      next = strdup(link);
    } else { /* relative to the link's own directory */
      size_t d = (size_t)(slash - cur) + 1;
      next = malloc(d + (size_t)n + 1);
      if (next) {
        memcpy(next, cur, d);
        memcpy(next + d, link, (size_t)n + 1);
      }
    }
    free(cur);
    cur = next;
  }
  snprintf(err, errlen, "out of memory");
  return NULL;
}

/* data to stdout, for the output name "-". */
static int write_stdout(const char *data, size_t len, char *err,
                        size_t errlen) {
  if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
    snprintf(err, errlen, "cannot write to stdout: %s", strerror(errno));
    return -1;
  }
  return 0;
}

/* mh_write_atomic (follow 1) and mh_write_replace (follow 0). */
static int write_atomic(const char *path, int follow, const char *data,
                        size_t len, char *err, size_t errlen) {
  static unsigned long seq; /* distinct temporary names within a process */
  char brief[MH_PATH_BRIEF];
  char *target = follow ? write_target(path, err, errlen) : strdup(path);
  if (!target) {
    if (!follow)
      snprintf(err, errlen, "out of memory");
    return -1;
  }
  struct stat st;
  int exists = (follow ? stat(target, &st) : lstat(target, &st)) == 0;
  if (exists && !follow && S_ISLNK(st.st_mode))
    exists = 0; /* the link itself is replaced */
  if (exists && !S_ISREG(st.st_mode)) {
    snprintf(err, errlen,
             "%s is %s: merlin writes only regular files, and does not "
             "replace anything else (give a file name)",
             mh_path_brief(path, brief, sizeof brief), file_kind(st.st_mode));
    free(target);
    return -1;
  }
  size_t tl = strlen(target) + 64;
  char *tmp = malloc(tl);
  if (!tmp) {
    snprintf(err, errlen, "out of memory");
    free(target);
    return -1;
  }
  snprintf(tmp, tl, "%s.tmp.%ld.%lu", target, (long)getpid(),
           __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
  /* O_EXCL | O_NOFOLLOW: never through a name someone placed there. */
  int fd =
      open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    int e = errno;
    snprintf(err, errlen, "cannot create %s: %s",
             mh_path_brief(tmp, brief, sizeof brief), strerror(e));
    free(tmp);
    free(target);
    return -1;
  }
  /* The replaced file keeps its permissions (not one of mh_write_replace:
   * whoever placed it chose them). */
  int bad = (exists && follow && fchmod(fd, st.st_mode & 07777) != 0) ||
            mh_write_all(fd, data, len) != 0 || fsync(fd) != 0;
  int e = errno;
  if (close(fd) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  if (!bad && rename(tmp, target) != 0) {
    bad = 1;
    e = errno;
  }
  if (bad) {
    snprintf(err, errlen, "cannot write %s: %s",
             mh_path_brief(path, brief, sizeof brief), strerror(e));
    unlink(tmp);
  }
  free(tmp);
  free(target);
  return bad ? -1 : 0;
}

int mh_write_atomic(const char *path, const char *data, size_t len, char *err,
                    size_t errlen) {
  if (strcmp(path, "-") == 0)
    return write_stdout(data, len, err, errlen);
  return write_atomic(path, 1, data, len, err, errlen);
}

int mh_write_replace(const char *path, const char *data, size_t len, char *err,
                     size_t errlen) {
  return write_atomic(path, 0, data, len, err, errlen);
}

int mh_write_if_changed(const char *path, const char *data, size_t len,
                        int *changed, char *err, size_t errlen) {
  char *old = NULL;
  size_t old_len = 0;
  char ignored[8];
  *changed = 1;
  if (mh_read_file(path, len + 1, &old, &old_len, ignored, sizeof ignored) ==
          0 &&
      old_len == len && memcmp(old, data, len) == 0) {
    free(old);
    *changed = 0;
    return 0;
  }
  free(old);
  return mh_write_atomic(path, data, len, err, errlen);
}

int mh_mkdir_p(const char *path, char *err, size_t errlen) {
  char *p = strdup(path);
  if (!p) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  size_t n = strlen(p);
  for (size_t i = 1; i <= n; i++) {
    if (p[i] != '/' && p[i] != '\0')
      continue;
    char c = p[i];
    p[i] = '\0';
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
      int e = errno;
      char brief[MH_PATH_BRIEF];
      snprintf(err, errlen, "cannot create directory %s: %s",
               mh_path_brief(p, brief, sizeof brief), strerror(e));
      free(p);
      return -1;
    }
    p[i] = c;
  }
  struct stat st;
  int ok = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
  if (!ok) {
    char brief[MH_PATH_BRIEF];
    snprintf(err, errlen, "%s: not a directory",
             mh_path_brief(path, brief, sizeof brief));
  }
  free(p);
  return ok ? 0 : -1;
}

int mh_dir_lock(const char *dir, char *err, size_t errlen) {
  if (mh_mkdir_p(dir, err, errlen) != 0)
    return -1;
  char *path = mh_path_join(dir, ".merlin-lock");
  if (!path) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  char brief[MH_PATH_BRIEF];
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    snprintf(err, errlen, "cannot open %s: %s",
             mh_path_brief(path, brief, sizeof brief), strerror(errno));
    free(path);
    return -1;
  }
  int rc = flock(fd, LOCK_EX | LOCK_NB);
  if (rc != 0 && errno == EWOULDBLOCK) {
    fprintf(stderr,
            "merlin: waiting for another merlin, which is building in %s\n",
            mh_path_brief(dir, brief, sizeof brief));
    rc = flock(fd, LOCK_EX); /* an interrupt (EINTR) ends the wait */
  }
  if (rc != 0) {
    snprintf(err, errlen, "cannot lock %s: %s",
             mh_path_brief(path, brief, sizeof brief), strerror(errno));
    close(fd);
    fd = -1;
  }
  free(path);
  return fd;
}

void mh_dir_unlock(int fd) {
  if (fd >= 0)
    close(fd); /* closing the last descriptor releases the flock */
}

char *mh_path_join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s/%s", a, b);
  return s;
}

const char *mh_path_display(const char *root, const char *path) {
  size_t n = root ? strlen(root) : 0;
  if (n && strncmp(path, root, n) == 0 && path[n] == '/' && path[n + 1])
    return path + n + 1;
  return path;
}

const char *mh_path_brief(const char *path, char *buf, size_t len) {
  size_t n = strlen(path);
  if (n < len || len < 64)
    return path;
  /* head...tail (N bytes): both ends of the path, and the reason after it
   * still fits in a message buffer. */
  size_t head = len / 4, tail = len / 2;
  snprintf(buf, len, "%.*s...%s (a path of %zu bytes)", (int)head, path,
           path + n - tail, n);
  return buf;
}

char *mh_source_root(char *err, size_t errlen) {
  const char *env = getenv("MERLIN_ROOT");
  const char *root = env && *env ? env : MERLIN_SOURCE_DIR;
  char cwd[PATH_MAX];
  char *buf = NULL;
  if (root[0] == '/')
    buf = strdup(root);
  else if (getcwd(cwd, sizeof cwd))
    buf = mh_path_join(cwd, root);
  if (!buf) {
    snprintf(err, errlen, "source root %s: %s", root, strerror(errno));
    return NULL;
  }
  /* No trailing slashes: paths are joined onto it. */
  for (size_t n = strlen(buf); n > 1 && buf[n - 1] == '/'; n--)
    buf[n - 1] = '\0';
  char *cml = mh_path_join(buf, "CMakeLists.txt");
  struct stat st;
  int ok = cml && stat(cml, &st) == 0;
  free(cml);
  if (!ok) {
    snprintf(err, errlen,
             "source root %s%s has no CMakeLists.txt (set MERLIN_ROOT to the "
             "Merlin source tree)",
             buf, env && *env ? " (from MERLIN_ROOT)" : "");
    free(buf);
    return NULL;
  }
  return buf;
}

void mh_path_tag(const char *path, char *buf, size_t len) {
  const char *base = strrchr(path, '/');
  if (!base) {
    snprintf(buf, len, "%s", path);
    return;
  }
  uint32_t h = 2166136261u; /* FNV-1a of the whole path */
  for (const char *s = path; *s; s++)
    h = (h ^ (uint8_t)*s) * 16777619u;
  snprintf(buf, len, "%.40s-%08x", base + 1, (unsigned)h);
}
