/* SPDX-License-Identifier: Apache-2.0 */
#include "config/board_keys.h"

#include "config/boards.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLUGIN_LIMIT "the cycle plugin's limit, tools/qemu-plugin/memsys.c"

const mh_board_key mh_board_keys[] = {
#define K(k, type, need, may, lo, hi, choices, why)                            \
  { #k, MH_BV_##type, offsetof(mh_board, k), need, may, lo, hi, choices, why }
#define T(k, type, need, may) K(k, type, need, may, 0, 0, NULL, NULL)
    T(name, TEXT, MH_BW_ALL, MH_BW_ALL),
    T(part, TEXT, MH_BW_PARTS, MH_BW_PARTS),
    T(core, CORE, MH_BW_PARTS, MH_BW_PARTS),
    /* a target's own id, or none (a part-only file: no port yet) */
    T(target, WORD, MH_BW_PARTS, MH_BW_ALL),
    K(clock_hz, NUM, MH_BW_PARTS, MH_BW_PARTS, 1, UINT64_MAX, NULL, NULL),
    K(flash_bytes, NUM, MH_BW_PARTS, MH_BW_PARTS, 1, UINT32_MAX, NULL,
      "a Cortex-M's 32-bit address space; mport_part, src/ports/port.h"),
    K(ram_bytes, NUM, MH_BW_PARTS, MH_BW_PARTS, 1, UINT32_MAX, NULL,
      "a Cortex-M's 32-bit address space; mport_part, src/ports/port.h"),
    T(counter, TEXT, MH_BW_PARTS, MH_BW_PARTS),
    T(source, TEXT, MH_BW_PARTS, MH_BW_PARTS),
    K(kind, CHOICE, MH_BW_TARGET, MH_BW_TARGET, 0, 0,
      "native qemu-user qemu board", NULL),
    T(description, TEXT, MH_BW_TARGET, MH_BW_TARGET),
    T(unit, TEXT, MH_BW_TARGET, MH_BW_TARGET),
    T(cpu_flags, FLAGS, MH_BW_CM, MH_BW_CM),
    /* --cc clang: the driver (where Debian's clang 14 cannot build the
     * target) and its CPU flags when they differ (docs/targets.md) */
    K(clang, CHOICE, 0, MH_BW_CM, 0, 0, "clang clang-19",
      "the drivers scripts/setup installs"),
    T(clang_cpu_flags, FLAGS, 0, MH_BW_CM),
    T(toolchain, PATH, MH_BW_CM, MH_BW_CM),
    T(qemu_machine, WORD, MH_BW_QEMU, MH_BW_QEMU),
    T(qemu_cpu, WORD, MH_BW_QEMU, MH_BW_QEMU),
    K(icount_shift, NUM, MH_BW_QEMU, MH_BW_QEMU, 0, 10, NULL,
      "QEMU's -icount shift=N"),
    T(port_sources, PATHS, MH_BW_TARGET, MH_BW_TARGET),
    T(port_includes, PATHS, 0, MH_BW_TARGET),
    T(port_defines, DEFINES, 0, MH_BW_TARGET),
    T(link_dirs, PATHS, 0, MH_BW_TARGET),
    T(linker_script, PATH, MH_BW_CM, MH_BW_CM),
    T(cmake_include, PATH, 0, MH_BW_TARGET),
    T(cycle_model, MODEL, MH_BW_TARGET, MH_BW_TARGET),
    T(flash_hint, TEXT, MH_BW_BOARD, MH_BW_BOARD),
    T(memory, TEXT, 0, MH_BW_CM),
    K(flash_wait_states, NUM, 0, MH_BW_PARTS, 0, 15, NULL, "as --flash-ws"),
    K(flash_miss_cycles, NUM, 0, MH_BW_PARTS, 0, 1000, NULL, PLUGIN_LIMIT),
    K(icache, CACHE, 0, MH_BW_PARTS, 1, 1u << 24, NULL, PLUGIN_LIMIT),
    K(dcache, CACHE, 0, MH_BW_PARTS, 1, 1u << 24, NULL, PLUGIN_LIMIT),
    K(prefetch, CHOICE, 0, MH_BW_PARTS, 0, 0, "yes no", NULL),
    K(unified_cache, CHOICE, 0, MH_BW_PARTS, 0, 0, "yes no", NULL),
    K(runs_from, CHOICE, 0, MH_BW_PARTS, 0, 0, "flash sram", NULL),
    T(zero_wait, TEXT, 0, MH_BW_PARTS),
    T(memory_source, TEXT, 0, MH_BW_PARTS),
    K(run_current_ua, NUM, 0, MH_BW_PARTS, 1, UINT64_MAX, NULL, NULL),
    K(supply_mv, NUM, 0, MH_BW_PARTS, 1, UINT64_MAX, NULL, NULL),
    T(power_source, TEXT, 0, MH_BW_PARTS),
#undef T
#undef K
};
const size_t mh_n_board_keys = sizeof mh_board_keys / sizeof mh_board_keys[0];

#define MEM_WHY "the memory-system keys describe where the image runs"
#define POWER_WHY "the energy estimate needs all three"
#define SRAM_WHY "they describe flash, which an image in SRAM does not use"
const mh_board_rule mh_board_rules[] = {
    {"flash_wait_states", NULL, MH_BR_NEEDS, "runs_from", MEM_WHY},
    {"flash_miss_cycles", NULL, MH_BR_NEEDS, "runs_from", MEM_WHY},
    {"icache", NULL, MH_BR_NEEDS, "runs_from", MEM_WHY},
    {"dcache", NULL, MH_BR_NEEDS, "runs_from", MEM_WHY},
    {"prefetch", NULL, MH_BR_NEEDS, "runs_from", MEM_WHY},
    {"unified_cache", NULL, MH_BR_NEEDS, "runs_from", MEM_WHY},
    {"zero_wait", NULL, MH_BR_NEEDS, "runs_from", MEM_WHY},
    {"memory_source", NULL, MH_BR_NEEDS, "runs_from", MEM_WHY},
    {"runs_from", NULL, MH_BR_NEEDS, "memory_source",
     "every figure of the memory system names its source"},
    {"runs_from", "flash", MH_BR_NEEDS, "flash_miss_cycles",
     "the cycles a line from flash costs; without it flash would be "
     "zero-wait"},
    {"runs_from", "sram", MH_BR_EXCLUDES, "icache", SRAM_WHY},
    {"runs_from", "sram", MH_BR_EXCLUDES, "dcache", SRAM_WHY},
    {"runs_from", "sram", MH_BR_EXCLUDES, "unified_cache", SRAM_WHY},
    {"runs_from", "sram", MH_BR_EXCLUDES, "prefetch", SRAM_WHY},
    {"runs_from", "sram", MH_BR_EXCLUDES, "flash_miss_cycles", SRAM_WHY},
    {"unified_cache", "yes", MH_BR_NEEDS, "icache",
     "the one cache is described by icache"},
    {"unified_cache", "yes", MH_BR_EXCLUDES, "dcache",
     "one cache serves instructions and data"},
    {"run_current_ua", NULL, MH_BR_NEEDS, "supply_mv", POWER_WHY},
    {"supply_mv", NULL, MH_BR_NEEDS, "run_current_ua", POWER_WHY},
    {"run_current_ua", NULL, MH_BR_NEEDS, "power_source", POWER_WHY},
    {"power_source", NULL, MH_BR_NEEDS, "run_current_ua", POWER_WHY},
};
const size_t mh_n_board_rules =
    sizeof mh_board_rules / sizeof mh_board_rules[0];

/* The cycle plugin's models per core (tools/qemu-plugin/cycle_model.c). */
const mh_board_core mh_board_cores[] = {
    {"cortex-m0plus", "m0plus m0plus-smallmul"},
    {"cortex-m3", "m3"},
    {"cortex-m4", "m4"},
    {"cortex-m7", "m7"},
    {"cortex-m33", "m33"},
    {"cortex-m55", "m55"},
    {"cortex-m85", "m85"},
};
const size_t mh_n_board_cores =
    sizeof mh_board_cores / sizeof mh_board_cores[0];

/* Whether word is one of the space-separated words of list. */
static int in_words(const char *list, const char *word, size_t n) {
  for (const char *p = list; *p;) {
    size_t l = strcspn(p, " ");
    if (l == n && memcmp(p, word, n) == 0)
      return 1;
    p += l + (p[l] == ' ');
  }
  return 0;
}

const char *mh_board_model_core(const char *model) {
  for (size_t i = 0; i < mh_n_board_cores; i++)
    if (in_words(mh_board_cores[i].models, model, strlen(model)))
      return mh_board_cores[i].core;
  return NULL;
}

int mh_board_key_find(const char *key, size_t len) {
  for (size_t k = 0; k < mh_n_board_keys; k++)
    if (strlen(mh_board_keys[k].key) == len &&
        memcmp(mh_board_keys[k].key, key, len) == 0)
      return (int)k;
  return -1;
}

/* ---- characters ------------------------------------------------------ */

/* The length of the UTF-8 character at s (n bytes left) when it is one and
 * not a control character (C0, DEL, C1), else 0. */
static size_t text_char(const unsigned char *s, size_t n) {
  unsigned c = s[0], cp, min;
  size_t len;
  if (c < 0x20 || c == 0x7f)
    return 0;
  if (c < 0x80)
    return 1;
  if ((c & 0xe0) == 0xc0)
    len = 2, cp = c & 0x1f, min = 0x80;
  else if ((c & 0xf0) == 0xe0)
    len = 3, cp = c & 0x0f, min = 0x800;
  else if ((c & 0xf8) == 0xf0)
    len = 4, cp = c & 0x07, min = 0x10000;
  else
    return 0;
  if (n < len)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3fu);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f)
    return 0;
  return len;
}

void mh_board_show(const char *s, size_t n, char *out, size_t outlen) {
  const unsigned char *u = (const unsigned char *)s;
  size_t o = 0, shown = 0;
  if (!outlen)
    return;
  for (size_t i = 0; i < n;) {
    size_t l = text_char(u + i, n - i);
    int esc = l == 0 || u[i] == '\'' || u[i] == '\\';
    size_t need = esc ? 4 : l;
    if (shown >= 80 || o + need + 4 > outlen) {
      snprintf(out + o, outlen - o, "...");
      return;
    }
    if (esc) {
      snprintf(out + o, outlen - o, "\\x%02x", u[i]);
      i++;
    } else {
      memcpy(out + o, u + i, l);
      i += l;
    }
    o += need;
    shown++;
  }
  out[o] = '\0';
}

static int is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

/* Every byte of s[0..n) is alphanumeric or in extra. */
static int all_of(const char *s, size_t n, const char *extra) {
  for (size_t i = 0; i < n; i++)
    if (!is_alnum(s[i]) && !strchr(extra, s[i]))
      return 0;
  return 1;
}

/* ---- values ---------------------------------------------------------- */

/* A decimal whole number: 0, -1 (not digits), -2 (over 2^64 - 1). */
static int parse_u64(const char *v, size_t n, uint64_t *out) {
  uint64_t x = 0;
  if (n == 0)
    return -1;
  for (size_t i = 0; i < n; i++) {
    if (v[i] < '0' || v[i] > '9')
      return -1;
    uint64_t d = (uint64_t)(v[i] - '0');
    if (x > (UINT64_MAX - d) / 10) {
      for (; i < n; i++) /* a long number: digits all the way? */
        if (v[i] < '0' || v[i] > '9')
          return -1;
      return -2;
    }
    x = x * 10 + d;
  }
  *out = x;
  return 0;
}

/* One path of the tree: no absolute path, option or '..' component. */
static const char *path_item(const char *s, size_t n) {
  if (!all_of(s, n, "._/+-"))
    return "a path holds a character other than letters, digits, '.', "
           "'_', '/', '+', '-'";
  if (s[0] == '/' || s[0] == '-')
    return "a path is absolute or starts with '-'";
  for (size_t i = 0; i < n;) {
    size_t l = 0;
    while (i + l < n && s[i + l] != '/')
      l++;
    if (l == 2 && s[i] == '.' && s[i + 1] == '.')
      return "a path leaves the tree ('..')";
    i += l + 1;
  }
  return NULL;
}

static const char *flag_item(const char *s, size_t n) {
  if (s[0] != '-' || !all_of(s, n, "._+,/=-"))
    return "a flag does not start with '-' or holds a character other than "
           "letters, digits and . _ + , / = -";
  return NULL;
}

static const char *define_item(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && s[i] != '=')
    i++;
  if ((s[0] >= '0' && s[0] <= '9') || !all_of(s, i, "_"))
    return "a NAME is not a C identifier";
  if (i < n && !all_of(s + i + 1, n - i - 1, "._+-"))
    return "a VALUE holds a character other than letters, digits and . _ + -";
  return NULL;
}

/* A space-separated list, each item checked by item (NULL: fine). */
static const char *each_item(const char *v, size_t n, int one,
                             const char *(*item)(const char *, size_t)) {
  size_t items = 0;
  for (size_t i = 0; i < n;) {
    const char *sp = memchr(v + i, ' ', n - i);
    size_t l = sp ? (size_t)(sp - (v + i)) : n - i;
    if (l) {
      const char *bad = item(v + i, l);
      if (bad)
        return bad;
      items++;
    }
    i += l + 1;
  }
  return one && items != 1 ? "not one path" : NULL;
}

/* BYTES/LINE/WAYS as the plugin takes it (memsys.c parse_cache). */
static const char *cache_value(const mh_board_key *k, const char *v, size_t n) {
  uint64_t x[3];
  size_t i = 0;
  for (int f = 0; f < 3; f++) {
    size_t l = 0;
    while (i + l < n && v[i + l] != '/')
      l++;
    if (parse_u64(v + i, l, &x[f]) != 0 || (f < 2 && i + l == n) ||
        (f == 2 && i + l != n))
      return "not BYTES/LINE/WAYS (three whole numbers)";
    i += l + 1;
  }
  uint64_t b = x[0], l = x[1], w = x[2];
  if (b < k->lo || b > k->hi)
    return "BYTES out of range";
  if (!l || !w)
    return "LINE and WAYS must be at least 1";
  if (l & (l - 1))
    return "LINE is not a power of two";
  if (l > b || w > b || l * w > b) /* b <= 2^24: no overflow */
    return "LINE x WAYS is more than BYTES";
  if (b % (l * w))
    return "LINE x WAYS does not divide BYTES";
  uint64_t sets = b / (l * w);
  if (sets & (sets - 1))
    return "the number of sets, BYTES / (LINE x WAYS), is not a power of two";
  return NULL;
}

static const char *model_value(const char *v, size_t n) {
  if (n == 4 && memcmp(v, "none", 4) == 0)
    return NULL;
  if (n >= 5 && memcmp(v, "none:", 5) == 0) {
    size_t i = 5;
    while (i < n && v[i] == ' ')
      i++;
    return i < n ? NULL : "none: needs its reason";
  }
  for (size_t i = 0; i < mh_n_board_cores; i++)
    if (in_words(mh_board_cores[i].models, v, n))
      return NULL;
  return "not a cycle model";
}

/* The reason value v of key k is refused, or NULL. */
static const char *refused(const mh_board_key *k, const char *v, size_t n,
                           uint64_t *num) {
  switch (k->type) {
  case MH_BV_TEXT:
    return NULL;
  case MH_BV_WORD:
    return is_alnum(v[0]) && all_of(v, n, "._+-") ? NULL : "not a word";
  case MH_BV_PATH:
  case MH_BV_PATHS:
    return each_item(v, n, k->type == MH_BV_PATH, path_item);
  case MH_BV_FLAGS:
    return each_item(v, n, 0, flag_item);
  case MH_BV_DEFINES:
    return each_item(v, n, 0, define_item);
  case MH_BV_NUM: {
    int rc = parse_u64(v, n, num);
    return rc == -1                       ? "not a whole number"
           : rc == -2                     ? "more than 2^64 - 1"
           : *num < k->lo || *num > k->hi ? "out of range"
                                          : NULL;
  }
  case MH_BV_CHOICE:
    return in_words(k->choices, v, n) ? NULL : "not one of the choices";
  case MH_BV_CACHE:
    return cache_value(k, v, n);
  case MH_BV_CORE:
    for (size_t i = 0; i < mh_n_board_cores; i++)
      if (strlen(mh_board_cores[i].core) == n &&
          memcmp(mh_board_cores[i].core, v, n) == 0)
        return NULL;
    return "not a core merlin knows";
  case MH_BV_MODEL:
    return model_value(v, n);
  }
  return "unknown type";
}

int mh_board_value_check(const mh_board_key *k, const char *v, size_t n,
                         uint64_t *num, char *why, size_t whylen) {
  const unsigned char *u = (const unsigned char *)v;
  char shown[400], allowed[400], at[64] = "";
  const char *reason = NULL;
  for (size_t i = 0, l; i < n && !reason; i += l)
    if (!(l = text_char(u + i, n - i))) {
      reason = "holds a control character or a byte that is not UTF-8 text";
      snprintf(at, sizeof at, " (\\x%02x at byte %zu)", u[i], i + 1);
    }
  if (!reason)
    reason = refused(k, v, n, num);
  if (!reason)
    return 0;
  mh_board_show(v, n, shown, sizeof shown);
  mh_board_key_allowed(k, allowed, sizeof allowed);
  snprintf(why, whylen, "%s = %s: %s%s; allowed: %s", k->key, shown, reason, at,
           allowed);
  return -1;
}

/* ---- what a key accepts ---------------------------------------------- */

static void join_words(mh_sb *b, const char *words, const char *sep) {
  for (const char *p = words; *p;) {
    size_t l = strcspn(p, " ");
    if (p != words)
      mh_sb_puts(b, sep);
    mh_sb_add(b, p, l);
    p += l + (p[l] == ' ');
  }
}

static void num_text(mh_sb *b, uint64_t x) { mh_sb_printf(b, "%" PRIu64, x); }

static void allowed_sb(mh_sb *b, const mh_board_key *k) {
  static const char *const fixed[] = {
      [MH_BV_TEXT] = "printable UTF-8 text (no control characters)",
      [MH_BV_WORD] = "a word: letters, digits, '.', '_', '+', '-', starting "
                     "with a letter or digit",
      [MH_BV_PATH] = "one path relative to the tree: letters, digits, '.', "
                     "'_', '/', '+', '-'; not absolute, no '..'",
      [MH_BV_PATHS] = "paths relative to the tree, separated by spaces: "
                      "letters, digits, '.', '_', '/', '+', '-'; not "
                      "absolute, no '..'",
      [MH_BV_FLAGS] = "compiler flags separated by spaces, each starting "
                      "with '-': letters, digits and . _ + , / = -",
      [MH_BV_DEFINES] = "NAME or NAME=VALUE separated by spaces: NAME a C "
                        "identifier, VALUE letters, digits and . _ + -",
  };
  switch (k->type) {
  case MH_BV_NUM:
    mh_sb_puts(b, "a whole number from ");
    num_text(b, k->lo);
    mh_sb_puts(b, " to ");
    num_text(b, k->hi);
    break;
  case MH_BV_CHOICE:
    join_words(b, k->choices, ", ");
    break;
  case MH_BV_CACHE:
    mh_sb_puts(b, "BYTES/LINE/WAYS: BYTES from ");
    num_text(b, k->lo);
    mh_sb_puts(b, " to ");
    num_text(b, k->hi);
    mh_sb_puts(b, ", LINE a power of two, LINE x WAYS dividing BYTES into a "
                  "power-of-two number of sets");
    break;
  case MH_BV_CORE:
    for (size_t i = 0; i < mh_n_board_cores; i++)
      mh_sb_printf(b, "%s%s", i ? ", " : "", mh_board_cores[i].core);
    break;
  case MH_BV_MODEL:
    mh_sb_puts(b, "a cycle model (");
    for (size_t i = 0, any = 0; i < mh_n_board_cores; i++)
      if (*mh_board_cores[i].models) {
        mh_sb_puts(b, any++ ? ", " : "");
        join_words(b, mh_board_cores[i].models, ", ");
      }
    mh_sb_puts(b, ") or none: REASON");
    break;
  default:
    mh_sb_puts(b, fixed[k->type]);
  }
  if (k->why)
    mh_sb_printf(b, " (%s)", k->why);
}

void mh_board_key_allowed(const mh_board_key *k, char *buf, size_t len) {
  mh_sb b = {0};
  allowed_sb(&b, k);
  snprintf(buf, len, "%s", b.failed ? "(out of memory)" : b.s);
  mh_sb_free(&b);
}

/* ---- docs/boards.md -------------------------------------------------- */

static void files_text(mh_sb *b, unsigned mask) {
  static const char *const names[] = {"part", "native", "qemu", "board"};
  if (mask == MH_BW_ALL) {
    mh_sb_puts(b, "all");
    return;
  }
  if (!mask)
    mh_sb_puts(b, "—");
  for (unsigned i = 0, any = 0; i < 4; i++)
    if (mask & (1u << i))
      mh_sb_printf(b, "%s%s", any++ ? ", " : "", names[i]);
}

char *mh_board_keys_md(void) {
  mh_sb b = {0};
  mh_sb_puts(&b, "| key | required in | allowed in | accepted values |\n"
                 "|---|---|---|---|\n");
  for (size_t k = 0; k < mh_n_board_keys; k++) {
    mh_sb_printf(&b, "| `%s` | ", mh_board_keys[k].key);
    files_text(&b, mh_board_keys[k].need);
    mh_sb_puts(&b, " | ");
    files_text(&b, mh_board_keys[k].may);
    mh_sb_puts(&b, " | ");
    allowed_sb(&b, &mh_board_keys[k]);
    mh_sb_puts(&b, " |\n");
  }
  mh_sb_puts(&b, "\nRules between keys:\n\n");
  for (size_t r = 0; r < mh_n_board_rules; r++) {
    const mh_board_rule *u = &mh_board_rules[r];
    mh_sb_printf(&b, "- `%s%s%s` %s `%s`: %s\n", u->key, u->value ? " = " : "",
                 u->value ? u->value : "",
                 u->kind == MH_BR_NEEDS ? "needs" : "excludes", u->other,
                 u->why);
  }
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}
