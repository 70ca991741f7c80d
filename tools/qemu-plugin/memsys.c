/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory system of a named part (memsys.h; docs/cycle-model.md,
 * "Memory system of a board"): flash behind an instruction cache (ART,
 * ICACHE, XIP cache), optionally a data cache or one cache for both, and
 * a prefetch buffer that hides the miss of the next sequential line. A
 * line missing from the cache costs `miss` cycles (the board's flash wait
 * states, or its XIP line fill); SRAM is zero-wait. The caches are
 * set-associative with the size, line and ways of the board file; the
 * manuals do not give the replacement policy, so the model replaces
 * round-robin within a set (which lets a block that found all its lines
 * resident skip the lookup until the next eviction: exact for this
 * policy, and cheap).
 */
#include "memsys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t bytes, line, ways;
  uint32_t sets, shift, set_mask; /* sets: a power of two */
  uint32_t *tag;  /* sets * ways: line index + 1, 0 when empty */
  uint32_t *next; /* per set: the way replaced next */
  uint8_t *in;    /* per flash line: resident */
  uint32_t gen;   /* bumped at every eviction */
} cache;

static cache ic, dc;
static uint64_t flash_lo, flash_hi; /* the image's code region = flash */
static unsigned miss, prefetch, unified, mispredict;
static int have_flash;
static uint32_t last_line = UINT32_MAX; /* the line executing (prefetch) */
static uint64_t line_time;              /* cycles spent in it so far */
mc_dyn_counts mc_dyn_now;
/* The predictor's entries by branch address (memsys.h: mc_pred). */
#define PRED_BUCKETS 4096u
static mc_pred *pred_table[PRED_BUCKETS];

/* The decimal number at *s, at most max, into *out; *s moves past its
 * digits. 0, or -1 when there is no digit or the number exceeds max. */
static int uint_prefix(const char **s, unsigned long max, unsigned long *out) {
  const char *p = *s;
  unsigned long x = 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned long d = (unsigned long)(*p - '0');
    if (d > max || x > (max - d) / 10)
      return -1;
    x = x * 10 + d;
  }
  if (p == *s)
    return -1;
  *s = p;
  *out = x;
  return 0;
}

int mc_arg_uint(const char *s, unsigned long max, unsigned long *out) {
  unsigned long x;
  if (uint_prefix(&s, max, &x) != 0 || *s)
    return -1;
  *out = x;
  return 0;
}

/* "B/L/W" into its three numbers, each at most max; 0 or -1. Read in
 * place, so any length the board file reader accepts (leading zeros) is
 * read here too (tests/fuzz/fuzz_boards.c checks the two agree). */
static int cache_triple(const char *v, unsigned long max, unsigned long x[3]) {
  for (int f = 0; f < 3; f++) {
    if (uint_prefix(&v, max, &x[f]) != 0 || *v != (f < 2 ? '/' : '\0'))
      return -1;
    if (f < 2)
      v++;
  }
  return 0;
}

static int parse_cache(const char *v, cache *c, char *err, size_t errlen) {
  /* every number at most BYTES' limit, 2^24: LINE x WAYS cannot wrap */
  unsigned long x[3] = {0, 0, 0};
  int ok = cache_triple(v, 1ul << 24, x) == 0;
  unsigned long b = x[0], l = x[1], w = x[2];
  unsigned long sets = ok && l && w ? b / l / w : 0;
  if (!ok || !b || !l || !w || (l & (l - 1)) || l * w > b || b % (l * w) ||
      (sets & (sets - 1))) {
    snprintf(err, errlen,
             "cache '%s': expected BYTES/LINE/WAYS, BYTES at most 16777216, "
             "LINE a power of two, LINE x WAYS dividing BYTES into a "
             "power-of-two number of sets",
             v);
    return -1;
  }
  c->bytes = (uint32_t)b;
  c->line = (uint32_t)l;
  c->ways = (uint32_t)w;
  return 0;
}

int mc_mem_arg(const char *a, char *err, size_t errlen) {
  char *end;
  unsigned long x;
  if (strncmp(a, "ic=", 3) == 0)
    return parse_cache(a + 3, &ic, err, errlen) ? -1 : 1;
  if (strncmp(a, "dc=", 3) == 0)
    return parse_cache(a + 3, &dc, err, errlen) ? -1 : 1;
  if (strncmp(a, "miss=", 5) == 0) {
    if (mc_arg_uint(a + 5, 1000, &x) != 0)
      return snprintf(err, errlen, "bad %s (0 to 1000)", a), -1;
    miss = (unsigned)x;
    return 1;
  }
  if (strncmp(a, "prefetch=", 9) == 0 || strncmp(a, "unified=", 8) == 0) {
    if (mc_arg_uint(strchr(a, '=') + 1, 1, &x) != 0)
      return snprintf(err, errlen, "bad %s (0 or 1)", a), -1;
    *(a[0] == 'p' ? &prefetch : &unified) = (unsigned)x;
    return 1;
  }
  if (strncmp(a, "flash=", 6) == 0) {
    flash_lo = strtoull(a + 6, &end, 0);
    if (*end == '-')
      flash_hi = strtoull(end + 1, &end, 0);
    if (a[6] == '-' || *end || flash_hi <= flash_lo ||
        flash_hi - flash_lo > (1ull << 28))
      return snprintf(err, errlen, "flash=LO-HI expected, not %s", a), -1;
    have_flash = 1;
    return 1;
  }
  return 0;
}

static int cache_init(cache *c, char *err, size_t errlen) {
  if (!c->bytes)
    return 0;
  c->sets = c->bytes / c->line / c->ways;
  c->set_mask = c->sets - 1;
  while ((1u << c->shift) < c->line)
    c->shift++;
  size_t nlines = (size_t)((flash_hi - flash_lo) >> c->shift) + 1;
  c->tag = calloc((size_t)c->sets * c->ways, sizeof *c->tag);
  c->next = calloc(c->sets, sizeof *c->next);
  c->in = calloc(nlines, 1);
  if (!c->tag || !c->next || !c->in) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

int mc_mem_finish(unsigned mp, char *err, size_t errlen) {
  mispredict = mp;
  if ((ic.bytes || dc.bytes) && !have_flash) {
    snprintf(err, errlen, "a cache needs flash=LO-HI (where the image runs)");
    return -1;
  }
  if (unified && dc.bytes) {
    snprintf(err, errlen, "unified=1 is one cache: give ic= only");
    return -1;
  }
  return cache_init(&ic, err, errlen) || cache_init(&dc, err, errlen) ? -1 : 0;
}

void mc_mem_reset(void) {
  cache *cs[] = {&ic, &dc};
  for (int i = 0; i < 2; i++) {
    free(cs[i]->tag);
    free(cs[i]->next);
    free(cs[i]->in);
    memset(cs[i], 0, sizeof *cs[i]);
  }
  flash_lo = flash_hi = 0;
  miss = prefetch = unified = mispredict = 0;
  have_flash = 0;
  last_line = UINT32_MAX;
  line_time = 0;
  memset(&mc_dyn_now, 0, sizeof mc_dyn_now);
  for (unsigned b = 0; b < PRED_BUCKETS; b++)
    while (pred_table[b]) {
      mc_pred *p = pred_table[b];
      pred_table[b] = p->next;
      free(p);
    }
}

int mc_dyn_enabled(void) { return ic.bytes || dc.bytes || mispredict; }
int mc_mem_loads(void) { return dc.bytes || (unified && ic.bytes); }

void mc_mem_describe(char *buf, size_t len) {
  snprintf(buf, len,
           "flash=0x%llx-0x%llx ic=%u/%u/%u dc=%u/%u/%u miss=%u "
           "prefetch=%u unified=%u mispredict=%u",
           (unsigned long long)flash_lo, (unsigned long long)flash_hi, ic.bytes,
           ic.line, ic.ways, dc.bytes, dc.line, dc.ways, miss, prefetch,
           unified, mispredict);
}

/* Look line (index from the start of flash) up; on a miss bring it in.
 * Returns 1 on a hit. */
static int cache_access(cache *c, uint32_t line) {
  if (c->in[line])
    return 1;
  uint32_t set = line & c->set_mask;
  uint32_t *slot = &c->tag[(size_t)set * c->ways + c->next[set]];
  if (*slot) {
    c->in[*slot - 1] = 0;
    c->gen++;
  }
  *slot = line + 1;
  c->in[line] = 1;
  if (++c->next[set] == c->ways)
    c->next[set] = 0;
  return 0;
}

/* The entry of the branch at pc, made on first use (weakly not taken). */
static mc_pred *pred_of(uint64_t pc) {
  unsigned b = (unsigned)((pc >> 1) ^ (pc >> 13)) % PRED_BUCKETS;
  for (mc_pred *p = pred_table[b]; p; p = p->next)
    if (p->pc == pc)
      return p;
  mc_pred *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->pc = pc;
  p->ctr = 1;
  p->next = pred_table[b];
  pred_table[b] = p;
  return p;
}

int mc_dyn_init(mc_dyn *d, uint64_t pc, uint64_t end, uint64_t br_pc, int br,
                unsigned penalty) {
  memset(d, 0, sizeof *d);
  d->br = mispredict ? (uint8_t)br : MC_DYN_BR_NONE;
  d->penalty = (uint8_t)(penalty ? penalty : mispredict);
  d->fallthrough = end;
  if (d->br != MC_DYN_BR_NONE && !(d->pred = pred_of(br_pc)))
    return -1;
  if (ic.bytes && pc >= flash_lo && end <= flash_hi && end > pc) {
    d->in_flash = 1;
    d->line0 = (uint32_t)((pc - flash_lo) >> ic.shift);
    d->n_lines = (uint32_t)(((end - 1 - flash_lo) >> ic.shift) - d->line0 + 1);
    d->gen = UINT32_MAX;
  }
  return 0;
}

uint32_t mc_dyn_line(const mc_dyn *d, uint64_t addr) {
  if (!d->in_flash || addr < flash_lo)
    return 0;
  uint32_t l = (uint32_t)((addr - flash_lo) >> ic.shift);
  return l >= d->line0 ? l - d->line0 : 0;
}

/* The prefetch buffer (an ART, a flash accelerator with PREFEN): when
 * the core enters a line, the next one is read from flash unless it is
 * buffered; when the core reaches it, the read has run for as long as
 * the core spent in the line before, and the rest of the flash access is
 * a stall ("If a prefetch has been initiated but not yet completed, the
 * CPU is stalled for a shorter time since the required flash access is
 * already in progress", NXP UM10360 5.x, the LPC flash accelerator). */
uint64_t mc_dyn_fetch(mc_dyn *d, const uint16_t *line_cycles) {
  if (!d->in_flash) {
    last_line = UINT32_MAX;
    return 0;
  }
  int resident = d->gen == ic.gen; /* no line can miss: no lookups */
  uint64_t cycles = 0;
  uint32_t g0 = ic.gen;
  for (uint32_t i = 0; i < d->n_lines; i++) {
    uint32_t l = d->line0 + i;
    if (l != last_line) {
      if (!resident && !cache_access(&ic, l)) {
        mc_dyn_now.ic_miss++;
        if (!prefetch || l != last_line + 1)
          cycles += miss;
        else if (line_time < miss)
          cycles += miss - line_time;
      }
      last_line = l;
      line_time = 0;
    }
    line_time += line_cycles ? line_cycles[i] : 0;
  }
  /* an eviction during its own fetch may have removed one of its lines */
  if (!resident)
    d->gen = ic.gen == g0 ? g0 : UINT32_MAX;
  return cycles;
}

uint64_t mc_mem_load(uint64_t vaddr) {
  if (vaddr < flash_lo || vaddr >= flash_hi)
    return 0; /* SRAM, CCM, TCM: zero-wait */
  cache *c = unified ? &ic : &dc;
  if (!c->bytes)
    return miss; /* no data cache: every flash load waits */
  if (cache_access(c, (uint32_t)((vaddr - flash_lo) >> c->shift)))
    return 0;
  mc_dyn_now.dc_miss++;
  return miss;
}

/* The Cortex-M7 predictor (docs/cycle-model.md "Cortex-M7"): per branch a
 * 2-bit counter for its direction and the last target for where it goes
 * (a branch target address cache without capacity limit), kept by the
 * branch's address. */
uint64_t mc_dyn_branch(mc_dyn *d, uint64_t next_pc) {
  if (!mispredict || d->br == MC_DYN_BR_NONE)
    return 0;
  mc_pred *p = d->pred;
  int taken = next_pc != d->fallthrough;
  int guess = d->br == MC_DYN_BR_COND ? p->ctr >= 2 : 1;
  int right = taken == guess && (!taken || p->target == next_pc);
  if (d->br == MC_DYN_BR_COND) {
    if (taken && p->ctr < 3)
      p->ctr++;
    else if (!taken && p->ctr > 0)
      p->ctr--;
  }
  if (taken)
    p->target = next_pc;
  if (right)
    return 0;
  mc_dyn_now.mispredict++;
  return d->penalty;
}
