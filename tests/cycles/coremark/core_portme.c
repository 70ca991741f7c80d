/* SPDX-License-Identifier: Apache-2.0 */
/* The CoreMark port of core_portme.h: seeds of the performance run, the
 * timer hooks as Merlin's sample markers (the cycle plugin measures the
 * region between them; no timer is read), and a small ee_printf over
 * semihosting (SYS_WRITEC). */
#include "core_portme.h"
#include "coremark.h"

#include <stdarg.h>

volatile ee_s32 seed1_volatile = 0x0;
volatile ee_s32 seed2_volatile = 0x0;
volatile ee_s32 seed3_volatile = 0x66;
volatile ee_s32 seed4_volatile = ITERATIONS;
volatile ee_s32 seed5_volatile = 0;
ee_u32 default_num_contexts = 1;

void mcore_mark_sample_begin(void);
void mcore_mark_sample_end(void);
void cm_putc(char c);

void start_time(void) { mcore_mark_sample_begin(); }
void stop_time(void) { mcore_mark_sample_end(); }
CORE_TICKS get_time(void) { return 0; }
/* CoreMark wants at least 10 s for a published score; the time here is
 * the plugin's, so the report's own timing is not used. */
secs_ret time_in_secs(CORE_TICKS ticks) {
  (void)ticks;
  return 10;
}

void portable_init(core_portable *p, int *argc, char *argv[]) {
  (void)argc;
  (void)argv;
  p->portable_id = 1;
}
void portable_fini(core_portable *p) { p->portable_id = 0; }

static void put_num(unsigned long v, unsigned base, int width, int neg) {
  char b[12];
  int n = 0;
  do {
    b[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  if (neg)
    cm_putc('-');
  while (width-- > n)
    cm_putc('0');
  while (n)
    cm_putc(b[--n]);
}

/* %d %u %lu %x %s, with a zero-padded width: what core_main.c prints */
int ee_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') {
      cm_putc(*p);
      continue;
    }
    int width = 0, lng = 0;
    while (*++p == '0' || (*p >= '1' && *p <= '9'))
      width = width * 10 + (*p - '0');
    if (*p == 'l') {
      lng = 1;
      p++;
    }
    if (*p == 'd') {
      long v = lng ? va_arg(ap, long) : va_arg(ap, int);
      put_num(v < 0 ? (unsigned long)-v : (unsigned long)v, 10, width, v < 0);
    } else if (*p == 'u' || *p == 'x') {
      unsigned long v =
          lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
      put_num(v, *p == 'x' ? 16 : 10, width, 0);
    } else if (*p == 's') {
      for (const char *s = va_arg(ap, const char *); *s; s++)
        cm_putc(*s);
    } else if (*p) {
      cm_putc(*p);
    } else {
      break;
    }
  }
  va_end(ap);
  return 0;
}
