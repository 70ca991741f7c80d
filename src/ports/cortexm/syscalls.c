/* SPDX-License-Identifier: Apache-2.0 */
/* The newlib system calls an image links: the heap and _exit, and for an
 * implementation folder that prints or asserts (pqm4's PERK, BIKE) the
 * rest of what newlib's stdio, assert and abort call. Console output goes
 * through mport_console_write, never stdio: what a folder prints is
 * dropped (the console carries Merlin's wire records), its reads see end
 * of file, and a failed assert() or an abort() is a fault on the wire,
 * named (docs/wire-format.md). */
#include "cortexm.h"
#include "mcore.h"
#include "wire_out.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

extern char __heap_start[], __heap_end[];
void *_sbrk(ptrdiff_t incr);
void _exit(int code);
int _write(int fd, const void *buf, size_t n);
int _read(int fd, void *buf, size_t n);
int _close(int fd);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
off_t _lseek(int fd, off_t off, int whence);
int _getpid(void);
int _kill(int pid, int sig);
void __assert_func(const char *file, int line, const char *func,
                   const char *expr);

void *_sbrk(ptrdiff_t incr) {
  static char *brk = __heap_start;
  if (incr > __heap_end - brk || incr < __heap_start - brk) {
    errno = ENOMEM;
    return (void *)-1;
  }
  char *old = brk;
  brk += incr;
  return old;
}

/* A library that gives up calls exit() (PQClean's fips202.c does when an
 * allocation fails): report it on the wire so the run is marked invalid
 * with the reason, instead of stopping silently. */
void _exit(int code) {
  mcore_wire_start(MWIRE_R(fault));
  mcore_wire_str(MWIRE_K(fault, kind), "library-exit");
  mcore_wire_u64(MWIRE_K(fault, code), (uint64_t)(unsigned)code);
  mcore_wire_u64(MWIRE_K(fault, heap_failures), mcore_heap_get().failures);
  mcore_wire_end();
  cortexm_semihost_exit(5);
}

/* stdout, stderr: taken and dropped, so that a folder's printf neither
 * fails nor garbles the wire. */
int _write(int fd, const void *buf, size_t n) {
  (void)fd;
  (void)buf;
  return (int)n;
}

int _read(int fd, void *buf, size_t n) {
  (void)fd;
  (void)buf;
  (void)n;
  return 0; /* end of file */
}

int _close(int fd) {
  (void)fd;
  errno = EBADF;
  return -1;
}

int _fstat(int fd, struct stat *st) {
  (void)fd;
  memset(st, 0, sizeof *st);
  st->st_mode = S_IFCHR;
  return 0;
}

int _isatty(int fd) {
  (void)fd;
  return 1;
}

off_t _lseek(int fd, off_t off, int whence) {
  (void)fd;
  (void)off;
  (void)whence;
  errno = ESPIPE;
  return -1;
}

int _getpid(void) { return 1; }

/* abort() and raise() end here: a fault, with the signal. */
int _kill(int pid, int sig) {
  (void)pid;
  mcore_wire_start(MWIRE_R(fault));
  mcore_wire_str(MWIRE_K(fault, kind), "abort");
  mcore_wire_u64(MWIRE_K(fault, signal), (uint64_t)(unsigned)sig);
  mcore_wire_end();
  cortexm_semihost_exit(4);
}

/* A failed assert(): a fault naming the file (its last element), the line,
 * the function and the expression. */
void __assert_func(const char *file, int line, const char *func,
                   const char *expr) {
  char where[160];
  const char *base = file ? strrchr(file, '/') : NULL;
  base = base ? base + 1 : file ? file : "?";
  size_t n = 0;
  for (const char *parts[] = {base, ":", NULL}, **p = parts; *p; p++)
    for (const char *c = *p; *c && n + 1 < sizeof where; c++)
      where[n++] = *c;
  char num[12];
  size_t d = 0;
  unsigned v = line > 0 ? (unsigned)line : 0u;
  do
    num[d++] = (char)('0' + v % 10u);
  while ((v /= 10u) && d < sizeof num);
  while (d && n + 1 < sizeof where)
    where[n++] = num[--d];
  for (const char *
           parts[] = {": ", func ? func : "?", ": ", expr ? expr : "?", NULL},
          **p = parts;
       *p; p++)
    for (const char *c = *p; *c && n + 1 < sizeof where; c++)
      where[n++] = *c;
  where[n] = '\0';
  mcore_wire_start(MWIRE_R(fault));
  mcore_wire_str(MWIRE_K(fault, kind), "assert");
  mcore_wire_str(MWIRE_K(fault, detail), where);
  mcore_wire_end();
  cortexm_semihost_exit(4);
}
