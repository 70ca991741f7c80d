/* SPDX-License-Identifier: Apache-2.0 */
/* A growable, always NUL-terminated string. On allocation failure it sets
 * its failed flag and stops growing; callers check it once at the end. */
#ifndef MERLIN_HOST_STRBUF_H
#define MERLIN_HOST_STRBUF_H

#include <stddef.h>

typedef struct {
  char *s;
  size_t len, cap;
  int failed;
} mh_sb;

void mh_sb_add(mh_sb *b, const char *s, size_t n);
void mh_sb_puts(mh_sb *b, const char *s);
void mh_sb_putc(mh_sb *b, char c);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void mh_sb_printf(mh_sb *b, const char *fmt, ...);
/* Shortest decimal form of a finite double that reads back exactly. */
void mh_sb_double(mh_sb *b, double v);
/* s as one value of QEMU's option syntax (-plugin FILE,elf=PATH,...):
 * every comma doubled, which QEMU reads back as one comma. */
void mh_sb_qemu_opt(mh_sb *b, const char *s);
void mh_sb_free(mh_sb *b);

#endif
