/* SPDX-License-Identifier: Apache-2.0 */
/* Board files (boards/NAME.board): the parser's errors, the shipped files,
 * and the fits verdict. */
#include "check.h"
#include "config/board_keys.h"
#include "config/boards.h"
#include "run/cycles.h"
#include "util/fsutil.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GOOD                                                                   \
  "# comment\n"                                                                \
  "name = Test board\n"                                                        \
  "part = TB-1\n"                                                              \
  "core = cortex-m4\n"                                                         \
  "target = none\n"                                                            \
  "clock_hz = 64000000\n"                                                      \
  "flash_bytes = 524288\n"                                                     \
  "ram_bytes = 65536\n"                                                        \
  "counter = DWT CYCCNT\n"                                                     \
  "source = a reference manual, section 1\n"

static void expect_error_n(const char *text, size_t len, const char *needle) {
  mh_board b;
  char err[2048];
  CHECK(mh_board_parse("boards/t.board", "t", text, len, &b, err, sizeof err) ==
        -1);
  CHECK_CONTAINS(err, needle);
  CHECK(b.id == NULL && b.name == NULL);
}

static void expect_error(const char *text, const char *needle) {
  expect_error_n(text, strlen(text), needle);
}

static void test_parse(void) {
  mh_board b;
  char err[512];
  CHECK(mh_board_parse("boards/t.board", "t", GOOD, strlen(GOOD), &b, err,
                       sizeof err) == 0);
  CHECK(strcmp(b.id, "t") == 0 && strcmp(b.core, "cortex-m4") == 0);
  CHECK(b.ram_bytes == 65536 && b.flash_bytes == 524288);
  CHECK(b.clock_hz == 64000000);
  CHECK(strcmp(b.source, "a reference manual, section 1") == 0);
  mh_board_free(&b);

  expect_error("name = x\n", "boards/t.board: missing 'part'");
  expect_error(GOOD "ram_bytes = 1\n", "boards/t.board:11: 'ram_bytes' given "
                                       "twice (first on line 8)");
  expect_error(GOOD "colour = red\n",
               "boards/t.board:11: unknown key 'colour'");
  expect_error("name\n", "boards/t.board:1: expected 'key = value'");
  expect_error("ram_bytes = 64K\n",
               "t.board:1: ram_bytes = 64K: not a whole number; allowed: a "
               "whole number from 1 to 4294967295");
  expect_error("ram_bytes = 0\n", "ram_bytes = 0: out of range");
  expect_error("name =\n", "'name' has no value");
}

#define QEMU_T                                                                 \
  "kind = qemu\n"                                                              \
  "description = d\n"                                                          \
  "unit = instructions\n"                                                      \
  "cpu_flags = -mcpu=cortex-m4\n"                                              \
  "toolchain = cmake/toolchain-arm-none-eabi.cmake\n"                          \
  "qemu_machine = mps2-an386\n"                                                \
  "qemu_cpu = cortex-m4\n"                                                     \
  "icount_shift = 7\n"                                                         \
  "port_sources = a.c b.c\n"                                                   \
  "linker_script = x.ld\n"                                                     \
  "cycle_model = m4\n"

/* A descriptor: what each kind needs, and what does not belong in it. */
static void test_descriptor(void) {
  const char *good = "name = T\npart = p\ncore = cortex-m4\ntarget = t\n"
                     "clock_hz = 1\nflash_bytes = 1\nram_bytes = 1\n"
                     "counter = c\nsource = s\n" QEMU_T;
  mh_board b;
  char err[512];
  CHECK(mh_board_parse("boards/t.board", "t", good, strlen(good), &b, err,
                       sizeof err) == 0);
  CHECK(strcmp(b.kind, "qemu") == 0 && b.icount_shift == 7);
  CHECK(strcmp(b.port_sources, "a.c b.c") == 0 && b.flash_hint == NULL);
  mh_board_free(&b);
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", good);
  *strstr(buf, "qemu_cpu") = '#'; /* comment the line out */
  expect_error(buf, "boards/t.board: missing 'qemu_cpu' (kind = qemu)");
  snprintf(buf, sizeof buf, "%sflash_hint = x\n", good);
  expect_error(buf, "'flash_hint' does not belong in kind = qemu");
  /* --cc clang's driver: clang or clang-N, with the line */
  snprintf(buf, sizeof buf, "%sclang = clang-19\nclang_cpu_flags = -mcpu=x\n",
           good);
  CHECK(mh_board_parse("boards/t.board", "t", buf, strlen(buf), &b, err,
                       sizeof err) == 0);
  CHECK(strcmp(b.clang, "clang-19") == 0 &&
        strcmp(b.clang_cpu_flags, "-mcpu=x") == 0);
  mh_board_free(&b);
  snprintf(buf, sizeof buf, "%sclang = gcc\n", good);
  expect_error(buf, "boards/t.board:21: clang = gcc: not one of the choices; "
                    "allowed: clang, clang-19");
  expect_error(GOOD "clang = clang\n",
               "'clang' does not belong in a part-only file (no kind)");
  expect_error(GOOD "qemu_cpu = cortex-m4\n",
               "'qemu_cpu' does not belong in a part-only file (no kind)");
  snprintf(buf, sizeof buf, "%s", good);
  memcpy(strstr(buf, "kind = qemu"), "kind = xemu", 11);
  expect_error(buf, "t.board:10: kind = xemu: not one of the choices; "
                    "allowed: native, qemu-user, qemu, board");
  snprintf(buf, sizeof buf, "%s", good);
  memcpy(strstr(buf, "target = t"), "target = u", 10);
  expect_error(buf, "a target's descriptor is named after it");
  const char *native = "name = h\nkind = native\ndescription = d\nunit = ns\n"
                       "port_sources = p.c\ncycle_model = none: timed\n";
  CHECK(mh_board_parse("boards/t.board", "t", native, strlen(native), &b, err,
                       sizeof err) == 0);
  CHECK(b.clock_hz == 0 && b.part == NULL);
  char why[160];
  CHECK(mh_board_fits(&b, "cortex-m4", 1, 1, why, sizeof why) == -1);
  CHECK_CONTAINS(why, "describes no part");
  mh_board_free(&b);
}

static void test_shipped(void) {
  mh_board *bs;
  size_t n;
  char err[512];
  CHECK(mh_boards_load(MERLIN_SOURCE_DIR, &bs, &n, err, sizeof err) == 0);
  CHECK(n >= 6);
  int small = 0, large = 0, qemu = 0;
  for (size_t i = 0; i < n; i++) {
    small |= bs[i].ram_bytes <= 64 * 1024;
    large |= bs[i].ram_bytes >= 256 * 1024;
    qemu |= strcmp(bs[i].target, "qemu-m4") == 0;
    if (i)
      CHECK(strcmp(bs[i - 1].id, bs[i].id) < 0); /* sorted */
  }
  CHECK(small && large && qemu);
  mh_boards_free(bs, n);
  /* Every descriptor, the host's too, parses; every target names a cycle
   * model the plugin has, or none with a reason. */
  CHECK(mh_boards_load_all(MERLIN_SOURCE_DIR, 1, &bs, &n, err, sizeof err) ==
        0);
  size_t targets = 0;
  for (size_t i = 0; i < n; i++) {
    if (!bs[i].kind)
      continue;
    targets++;
    const char *m = bs[i].cycle_model;
    CHECK(strncmp(m, "none: ", 6) == 0 ||
          (mh_cycles_choice_valid(m) && strcmp(m, "auto") != 0 &&
           strcmp(m, "off") != 0));
  }
  CHECK(targets >= 11);
  mh_boards_free(bs, n);
}

/* A part with every optional key the rules allow together (runs_from =
 * flash): a memory system and power. */
#define MEM                                                                    \
  "runs_from = flash\n"                                                        \
  "flash_wait_states = 5\n"                                                    \
  "flash_miss_cycles = 5\n"                                                    \
  "icache = 1024/16/64\n"                                                      \
  "dcache = 128/16/8\n"                                                        \
  "prefetch = yes\n"                                                           \
  "zero_wait = SRAM\n"                                                         \
  "memory_source = a manual\n"                                                 \
  "run_current_ua = 46000\n"                                                   \
  "supply_mv = 3300\n"                                                         \
  "power_source = a datasheet\n"

/* text with key's line replaced by key = value[0..vlen) (appended when
 * text has none) into out; returns its length. */
static size_t with(char *out, size_t cap, const char *text, const char *key,
                   const char *value, size_t vlen) {
  size_t o = 0, klen = strlen(key);
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t l = nl ? (size_t)(nl - p) + 1 : strlen(p);
    if (!(strncmp(p, key, klen) == 0 && p[klen] == ' ')) {
      memcpy(out + o, p, l);
      o += l;
    }
    p += l;
  }
  o += (size_t)snprintf(out + o, cap - o, "%s = ", key);
  memcpy(out + o, value, vlen);
  o += vlen;
  out[o++] = '\n';
  out[o] = '\0';
  return o;
}

static void expect_value_error(const char *base, const char *key,
                               const char *value, size_t vlen,
                               const char *needle) {
  char buf[4096];
  size_t n = with(buf, sizeof buf, base, key, value, vlen);
  expect_error_n(buf, n, needle);
}

/* The values of issue 30 that merlin used to accept (and the plugin then
 * refused, or the model misread), and their messages: file, line, what is
 * wrong and what is allowed. */
static void test_hostile_values(void) {
  static const struct {
    const char *key, *value, *needle;
  } bad[] = {
      /* LINE x WAYS wrapped to 0: was SIGFPE in the model (run/board_model.c)
       */
      {"icache", "1024/9223372036854775808/2",
       "t.board:21: icache = 1024/9223372036854775808/2: LINE x WAYS is more "
       "than BYTES; allowed: BYTES/LINE/WAYS: BYTES from 1 to 16777216, LINE "
       "a power of two, LINE x WAYS dividing BYTES into a power-of-two "
       "number of sets (the cycle plugin's limit, "
       "tools/qemu-plugin/memsys.c)"},
      {"icache", "1024/16/18446744073709551615", "LINE x WAYS is more than"},
      {"icache", "1024/16/18446744073709551616", "not BYTES/LINE/WAYS"},
      {"dcache", "33554432/32/4", "dcache = 33554432/32/4: BYTES out of range"},
      {"icache", "3072/16/64",
       "the number of sets, BYTES / (LINE x WAYS), is "
       "not a power of two"},
      {"icache", "1024/24/4", "LINE is not a power of two"},
      {"icache", "1024/0/4", "LINE and WAYS must be at least 1"},
      {"icache", "1024/16/3", "LINE x WAYS does not divide BYTES"},
      {"icache", "-1024/16/4", "not BYTES/LINE/WAYS (three whole numbers)"},
      {"icache", "+1024/16/4", "not BYTES/LINE/WAYS"},
      {"icache", "1024/16", "not BYTES/LINE/WAYS"},
      {"icache", "1024/16/4/2", "not BYTES/LINE/WAYS"},
      {"icache", "1024 / 16 / 4", "not BYTES/LINE/WAYS"},
      {"flash_miss_cycles", "-5",
       "flash_miss_cycles = -5: not a whole number; allowed: a whole number "
       "from 0 to 1000 (the cycle plugin's limit"},
      {"flash_miss_cycles", "1001", "flash_miss_cycles = 1001: out of range"},
      {"flash_wait_states", "16",
       "out of range; allowed: a whole number from 0 to 15 (as --flash-ws)"},
      {"ram_bytes", "4294967296",
       "ram_bytes = 4294967296: out of range; allowed: a whole number from 1 "
       "to 4294967295"},
      {"clock_hz", "18446744073709551616",
       "clock_hz = 18446744073709551616: more than 2^64 - 1"},
      {"clock_hz", "99999999999999999999999", "more than 2^64 - 1"},
      {"clock_hz", "1e9", "clock_hz = 1e9: not a whole number"},
      {"supply_mv", "0", "supply_mv = 0: out of range"},
      {"runs_from", "rom",
       "runs_from = rom: not one of the choices; allowed: flash, sram"},
      {"runs_from", "Flash", "not one of the choices"},
      {"prefetch", "maybe",
       "prefetch = maybe: not one of the choices; "
       "allowed: yes, no"},
      {"prefetch", "1", "allowed: yes, no"},
      {"unified_cache", "true", "allowed: yes, no"},
      {"core", "cortex-m99",
       "core = cortex-m99: not a core merlin knows; allowed: cortex-m0plus, "
       "cortex-m3, cortex-m4, cortex-m7, cortex-m33, cortex-m55"},
      {"target", "a,b", "target = a,b: not a word"},
      {"name", "a\x1b[31mred",
       "name = a\\x1b[31mred: holds a control character or a byte that is "
       "not UTF-8 text (\\x1b at byte 2); allowed: printable UTF-8 text"},
      {"source",
       "a\xc2\x9b"
       "31m",
       "(\\xc2 at byte 2)"},
      {"part", "caf\xe9", "part = caf\\xe9: holds a control character"},
      {"counter", "a\tb", "(\\x09 at byte 2)"},
      {"counter", "a\rb", "(\\x0d at byte 2)"},
      {"zero_wait", "it's", NULL},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (!bad[i].needle) { /* a quote is text */
      char buf[4096];
      mh_board b;
      char err[2048];
      size_t n = with(buf, sizeof buf, GOOD MEM, bad[i].key, bad[i].value,
                      strlen(bad[i].value));
      CHECK(mh_board_parse("t", "t", buf, n, &b, err, sizeof err) == 0);
      mh_board_free(&b);
      continue;
    }
    expect_value_error(GOOD MEM, bad[i].key, bad[i].value, strlen(bad[i].value),
                       bad[i].needle);
  }
  /* A NUL byte no longer cuts the value. */
  expect_value_error(GOOD MEM, "name", "ab\0cd", 5,
                     "name = ab\\x00cd: holds a control character or a byte "
                     "that is not UTF-8 text (\\x00 at byte 3)");
  /* An unknown key is shown, not printed raw. */
  expect_error("na\x1bme = x\n",
               "t.board:1: unknown key 'na\\x1bme' (valid: name, part");
}

/* Rules between keys (board_keys.c mh_board_rules). */
static void test_rules(void) {
  char buf[4096];
  with(buf, sizeof buf, GOOD MEM, "unified_cache", "yes", 3);
  expect_error(buf, "t.board:22: unified_cache = yes excludes 'dcache' (line "
                    "15): one cache serves instructions and data");
  expect_error(GOOD "runs_from = flash\nflash_miss_cycles = 1\n"
                    "memory_source = m\nunified_cache = yes\n",
               "unified_cache = yes needs 'icache'");
  expect_error(GOOD "runs_from = flash\nmemory_source = m\n",
               "t.board:11: runs_from = flash needs 'flash_miss_cycles': the "
               "cycles a line from flash costs");
  expect_error(GOOD "runs_from = sram\nmemory_source = m\n"
                    "icache = 1024/16/64\n",
               "t.board:11: runs_from = sram excludes 'icache' (line 13)");
  expect_error(GOOD "runs_from = sram\nmemory_source = m\nprefetch = no\n",
               "runs_from = sram excludes 'prefetch'");
  expect_error(GOOD "icache = 1024/16/64\n", "t.board:11: icache needs "
                                             "'runs_from'");
  expect_error(GOOD "runs_from = sram\n", "runs_from needs 'memory_source'");
  expect_error(GOOD "run_current_ua = 5\n",
               "run_current_ua needs 'supply_mv': the energy estimate needs "
               "all three");
  expect_error(GOOD "supply_mv = 5\nrun_current_ua = 5\n",
               "run_current_ua needs 'power_source'");
  /* What is fine: the whole set, SRAM, a flash with no wait states, the
   * largest 64-bit clock, UTF-8 text. */
  const char *ok[] = {
      GOOD MEM,
      GOOD "runs_from = sram\nmemory_source = m\n",
      GOOD "runs_from = flash\nflash_miss_cycles = 0\nflash_wait_states = 0\n"
           "memory_source = m\n",
      "name = caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\npart = p\n"
      "core = cortex-m4\ntarget = none\nclock_hz = 18446744073709551615\n"
      "flash_bytes = 4294967295\nram_bytes = 1\ncounter = c\nsource = s\n",
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    mh_board b;
    char err[2048];
    CHECK(mh_board_parse("t", "t", ok[i], strlen(ok[i]), &b, err, sizeof err) ==
          0);
    if (i == 2)
      CHECK(b.flash_wait_states == 0 && b.flash_miss_cycles == 0);
    if (i == 3)
      CHECK(b.clock_hz == UINT64_MAX && b.flash_bytes == UINT32_MAX);
    mh_board_free(&b);
  }
}

/* A target descriptor's values: what reaches QEMU's command line, CMake and
 * the compiler. */
static void test_target_values(void) {
  const char *good =
      "name = T\npart = p\ncore = cortex-m4\ntarget = t\n"
      "clock_hz = 1\nflash_bytes = 1\nram_bytes = 1\n"
      "counter = c\nsource = s\n" QEMU_T "port_defines = A=0x1u B\n";
  static const struct {
    const char *key, *value, *needle;
  } bad[] = {
      {"qemu_machine", "mps2-an386,accel=kvm",
       "qemu_machine = mps2-an386,accel=kvm: not a word"},
      {"qemu_cpu", "-cortex-m4", "not a word"},
      {"port_sources", "a.c ../../x.c", "a path leaves the tree ('..')"},
      {"port_includes", "/usr/include", "a path is absolute"},
      {"linker_script", "a.ld b.ld", "linker_script = a.ld b.ld: not one path"},
      {"toolchain", "x;y.cmake", "a path holds a character other than"},
      {"cpu_flags", "-mcpu=x;rm", "a flag does not start with '-' or holds"},
      {"cpu_flags", "mthumb", "a flag does not start with '-'"},
      {"port_defines", "X=$(id)", "a VALUE holds a character"},
      {"port_defines", "1X", "a NAME is not a C identifier"},
      {"cycle_model", "m99",
       "cycle_model = m99: not a cycle model; allowed: a cycle model (m0plus, "
       "m0plus-smallmul, m3, m4, m7, m33, m55, m85) or none: REASON"},
      {"cycle_model", "none:", "cycle_model = none:: none: needs its reason"},
      {"icount_shift", "11",
       "icount_shift = 11: out of range; allowed: a whole number from 0 to 10 "
       "(QEMU's -icount shift=N)"},
  };
  mh_board b;
  char err[2048];
  CHECK(mh_board_parse("t", "t", good, strlen(good), &b, err, sizeof err) == 0);
  mh_board_free(&b);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    expect_value_error(good, bad[i].key, bad[i].value, strlen(bad[i].value),
                       bad[i].needle);
}

/* Every bound of the table: lo and hi accepted, one past refused; every
 * choice, core and model accepted; a control character refused in every
 * key; every rule names keys of the table. */
static void test_table_bounds(void) {
  char v[64], why[2048];
  uint64_t x;
  for (size_t k = 0; k < mh_n_board_keys; k++) {
    const mh_board_key *f = &mh_board_keys[k];
    CHECK(mh_board_value_check(f, "a\x01", 2, &x, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "(\\x01 at byte 2)");
    if (f->type == MH_BV_NUM) {
      snprintf(v, sizeof v, "%" PRIu64, f->lo);
      CHECK(mh_board_value_check(f, v, strlen(v), &x, why, sizeof why) == 0 &&
            x == f->lo);
      snprintf(v, sizeof v, "%" PRIu64, f->hi);
      CHECK(mh_board_value_check(f, v, strlen(v), &x, why, sizeof why) == 0 &&
            x == f->hi);
      if (f->hi < UINT64_MAX) {
        snprintf(v, sizeof v, "%" PRIu64, f->hi + 1);
        CHECK(mh_board_value_check(f, v, strlen(v), &x, why, sizeof why) == -1);
        CHECK_CONTAINS(why, "out of range");
      }
      if (f->lo > 0) {
        snprintf(v, sizeof v, "%" PRIu64, f->lo - 1);
        CHECK(mh_board_value_check(f, v, strlen(v), &x, why, sizeof why) == -1);
      }
    } else if (f->type == MH_BV_CACHE) {
      snprintf(v, sizeof v, "%" PRIu64 "/1/1", f->hi);
      CHECK(mh_board_value_check(f, v, strlen(v), &x, why, sizeof why) == 0);
      snprintf(v, sizeof v, "%" PRIu64 "/%" PRIu64 "/1", f->hi, f->hi);
      CHECK(mh_board_value_check(f, v, strlen(v), &x, why, sizeof why) == 0);
      snprintf(v, sizeof v, "%" PRIu64 "/1/1", f->hi * 2);
      CHECK(mh_board_value_check(f, v, strlen(v), &x, why, sizeof why) == -1);
      CHECK_CONTAINS(why, "BYTES out of range");
    } else if (f->type == MH_BV_CHOICE) {
      char words[128];
      snprintf(words, sizeof words, "%s", f->choices);
      for (char *w = strtok(words, " "); w; w = strtok(NULL, " "))
        CHECK(mh_board_value_check(f, w, strlen(w), &x, why, sizeof why) == 0);
      CHECK(mh_board_value_check(f, "x", 1, &x, why, sizeof why) == -1);
    }
  }
  int core = mh_board_key_find("core", 4),
      model = mh_board_key_find("cycle_model", 11);
  CHECK(core >= 0 && model >= 0);
  for (size_t c = 0; core >= 0 && model >= 0 && c < mh_n_board_cores; c++) {
    const char *name = mh_board_cores[c].core;
    CHECK(mh_board_value_check(&mh_board_keys[core], name, strlen(name), &x,
                               why, sizeof why) == 0);
    char words[128];
    snprintf(words, sizeof words, "%s", mh_board_cores[c].models);
    for (char *w = strtok(words, " "); w; w = strtok(NULL, " ")) {
      CHECK(mh_board_value_check(&mh_board_keys[model], w, strlen(w), &x, why,
                                 sizeof why) == 0);
      CHECK(strcmp(mh_board_model_core(w), name) == 0);
      CHECK(mh_cycles_choice_valid(w));
      /* --cycle-model's help lists every model */
      char padded[64];
      snprintf(padded, sizeof padded, ", %s,", w);
      CHECK_CONTAINS(MH_CYC_CHOICES ",", padded);
    }
  }
  for (size_t r = 0; r < mh_n_board_rules; r++) {
    const mh_board_rule *u = &mh_board_rules[r];
    int a = mh_board_key_find(u->key, strlen(u->key));
    CHECK(a >= 0 && mh_board_key_find(u->other, strlen(u->other)) >= 0);
    if (a >= 0 && u->value)
      CHECK(mh_board_keys[a].type == MH_BV_CHOICE &&
            mh_board_value_check(&mh_board_keys[a], u->value, strlen(u->value),
                                 &x, why, sizeof why) == 0);
  }
}

/* docs/boards.md lists the accepted values as the table states them
 * (scripts/gen-board-keys writes the block from `test_boards --md`). */
static void test_docs(void) {
  static const char begin[] = "<!-- board-keys: generated by "
                              "scripts/gen-board-keys -->\n\n",
                    end[] = "\n<!-- board-keys: end -->";
  char *doc = NULL, err[512];
  size_t len = 0;
  char *md = mh_board_keys_md();
  CHECK(mh_read_file(MERLIN_SOURCE_DIR "/docs/boards.md", 1 << 20, &doc, &len,
                     err, sizeof err) == 0);
  const char *b = doc ? strstr(doc, begin) : NULL;
  const char *e = b ? strstr(b, end) : NULL;
  CHECK(md && b && e);
  if (md && b && e) {
    b += sizeof begin - 1;
    int same = strlen(md) == (size_t)(e - b) && memcmp(md, b, strlen(md)) == 0;
    CHECK(same);
    if (!same)
      fprintf(stderr, "docs/boards.md's accepted values differ from "
                      "host/config/board_keys.c: run scripts/gen-board-keys\n");
  }
  free(md);
  free(doc);
}

/* Across files: a part's target is one of boards/, a file's name a word. */
static void test_load_checks(void) {
  char root[] = "/tmp/merlin-test-boards-XXXXXX", path[128], err[1024];
  CHECK(mkdtemp(root) != NULL);
  snprintf(path, sizeof path, "%s/boards", root);
  CHECK(mkdir(path, 0700) == 0);
  snprintf(path, sizeof path, "%s/boards/p.board", root);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    char buf[2048];
    with(buf, sizeof buf, GOOD, "target", "qemu-m9", 7);
    fputs(buf, f);
    fclose(f);
  }
  mh_board *bs;
  size_t n;
  CHECK(mh_boards_load(root, &bs, &n, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "boards/p.board: target = qemu-m9 is no target of "
                      "boards/");
  unlink(path);
  snprintf(path, sizeof path, "%s/boards/a b.board", root);
  f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(GOOD, f);
    fclose(f);
  }
  CHECK(mh_boards_load(root, &bs, &n, err, sizeof err) == -1);
  CHECK_CONTAINS(err,
                 "boards/a b.board: a board file is named ID.board, ID a word");
  unlink(path);
  snprintf(path, sizeof path, "%s/boards", root);
  rmdir(path);
  rmdir(root);
}

static void test_fits(void) {
  mh_board b;
  char err[512], why[160];
  CHECK(mh_board_parse("t", "t", GOOD, strlen(GOOD), &b, err, sizeof err) == 0);
  CHECK(mh_board_fits(&b, "cortex-m4", 1000, 65536, why, sizeof why) == 1);
  CHECK(mh_board_fits(&b, "cortex-m4", 1000, 70000, why, sizeof why) == 0);
  CHECK_CONTAINS(why, "does not fit: needs 68.4 KB RAM, part has 64.0 KB");
  CHECK(mh_board_fits(&b, "cortex-m4", 600000, 100, why, sizeof why) == 0);
  CHECK_CONTAINS(why, "needs 585.9 KB flash, part has 512.0 KB");
  CHECK(mh_board_fits(&b, "cortex-m0plus", 1, 1, why, sizeof why) == -1);
  CHECK_CONTAINS(why, "not evaluated: figures measured on cortex-m0plus");
  mh_board_free(&b);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--md") == 0) { /* scripts/gen-board-keys */
    char *md = mh_board_keys_md();
    fputs(md ? md : "", stdout);
    free(md);
    return md ? 0 : 1;
  }
  test_parse();
  test_descriptor();
  test_shipped();
  test_hostile_values();
  test_rules();
  test_target_values();
  test_table_bounds();
  test_docs();
  test_load_checks();
  test_fits();
  return check_report();
}
