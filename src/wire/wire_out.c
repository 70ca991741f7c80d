/* SPDX-License-Identifier: Apache-2.0 */
#include "wire_out.h"

#include "crc32.h"
#include "port.h"

#define WIRE_MAGIC "@M1 "
/* The longest line: 4 KB, more in an image with implementation folders,
 * whose begin record names each (cmake/MerlinImage.cmake). */
#ifdef MERLIN_WIRE_LINE_MAX
#define WIRE_LINE_MAX MERLIN_WIRE_LINE_MAX
#else
#define WIRE_LINE_MAX 4096
#endif

static char line[WIRE_LINE_MAX];
static size_t used;
static uint32_t seq;
static int overflow;

static void put_char(char c) {
  /* Room is kept for " #xxxxxxxx\n" at the end of every line. */
  if (used + 12 >= sizeof line) {
    overflow = 1;
    return;
  }
  line[used++] = c;
}

static void put_raw(const char *s) {
  while (*s)
    put_char(*s++);
}

static void put_dec(uint64_t v) {
  char tmp[21];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + (v % 10u));
    v /= 10u;
  } while (v);
  while (n)
    put_char(tmp[--n]);
}

static const char hexdig[] = "0123456789abcdef";

static void put_hex32(uint32_t v) {
  for (int i = 7; i >= 0; i--)
    put_char(hexdig[(v >> (4 * i)) & 0xfu]);
}

/* Percent-encode what a reader could confuse with syntax (docs/wire-format). */
static void put_value(const char *s) {
  static const char up[] = "0123456789ABCDEF";
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x21 || c > 0x7e || c == '%' || c == '=' || c == '#') {
      put_char('%');
      put_char(up[c >> 4]);
      put_char(up[c & 0xfu]);
    } else {
      put_char((char)c);
    }
  }
}

static void put_key(const char *key) {
  put_char(' ');
  put_raw(key);
  put_char('=');
}

void mcore_wire_start(const char *type) {
  used = 0;
  overflow = 0;
  put_raw(WIRE_MAGIC);
  put_dec(seq);
  put_char(' ');
  put_raw(type);
}

void mcore_wire_str(const char *key, const char *value) {
  put_key(key);
  put_value(value && *value ? value : "-");
}

void mcore_wire_u64(const char *key, uint64_t value) {
  put_key(key);
  put_dec(value);
}

void mcore_wire_hex(const char *key, uint32_t value) {
  put_key(key);
  put_raw("0x");
  put_hex32(value);
}

void mcore_wire_u64_list(const char *key, const uint64_t *v, size_t n) {
  put_key(key);
  for (size_t i = 0; i < n; i++) {
    if (i)
      put_char(',');
    put_dec(v[i]);
  }
}

void mcore_wire_end(void) {
  if (overflow) {
    /* Never send a silently shortened record: say so and stop. */
    static const char msg[] = "\nmerlin: wire line too long, run aborted\n";
    mport_console_write(msg, sizeof msg - 1);
    mport_exit(3);
  }
  uint32_t crc = mcore_crc32(0, line, used);
  line[used++] = ' ';
  line[used++] = '#';
  for (int i = 7; i >= 0; i--)
    line[used++] = hexdig[(crc >> (4 * i)) & 0xfu];
  line[used++] = '\n';
  mport_console_write(line, used);
  seq++;
}

uint32_t mcore_wire_count(void) { return seq; }
