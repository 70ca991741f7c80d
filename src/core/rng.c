/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The harness's one source of randomness for every backend.
 *
 * Benchmarks: xoshiro128** (Blackman & Vigna, 2018) seeded through
 * splitmix64. It is fast, deterministic (so two runs draw the same keys and
 * give the same counts) and not cryptographically secure, which timing code
 * does not need. Known-answer tests first "script" the exact bytes a
 * vector needs; those are returned before the stream continues.
 *
 * The runner seeds one stream per operation and sample (mcore_rng_key,
 * mcore_rng_seed_stream), so what an operation draws depends on its name
 * and the sample's index only, never on what ran before it.
 */
#include "mcore.h"

#include <string.h>

static uint32_t s[4];
static const uint8_t *script;
static size_t script_left;

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

static uint32_t next(void) {
  uint32_t result = rotl(s[1] * 5u, 7) * 9u;
  uint32_t t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return result;
}

void mcore_rng_seed(uint64_t seed) {
  uint64_t a = splitmix64(&seed), b = splitmix64(&seed);
  s[0] = (uint32_t)a;
  s[1] = (uint32_t)(a >> 32);
  s[2] = (uint32_t)b;
  s[3] = (uint32_t)(b >> 32);
  script = NULL;
  script_left = 0;
}

void mcore_rng_script(const uint8_t *bytes, size_t len) {
  script = bytes;
  script_left = len;
}

void mcore_rng_fill(uint8_t *out, size_t len) {
  size_t take = len < script_left ? len : script_left;
  if (take) {
    memcpy(out, script, take);
    script += take;
    script_left -= take;
    out += take;
    len -= take;
  }
  while (len) {
    uint32_t r = next();
    size_t n = len < 4 ? len : 4;
    for (size_t i = 0; i < n; i++)
      out[i] = (uint8_t)(r >> (8 * i));
    out += n;
    len -= n;
  }
}

/* FNV-1a (64-bit) over the operation's name, then its payload size. */
static uint64_t fnv1a(uint64_t h, const char *text) {
  for (; *text; text++) {
    h ^= (uint8_t)*text;
    h *= 0x100000001B3u;
  }
  return h ^ 0xffu; /* a separator: "ab","c" differs from "a","bc" */
}

uint64_t mcore_rng_key(uint64_t base, const char *alg, const char *op,
                       uint32_t bytes) {
  uint64_t h = 0xCBF29CE484222325u ^ base;
  h = fnv1a(fnv1a(h, alg), op);
  for (int i = 0; i < 4; i++) {
    h ^= (uint8_t)(bytes >> (8 * i));
    h *= 0x100000001B3u;
  }
  return h;
}

void mcore_rng_seed_stream(uint64_t key, uint32_t stream) {
  uint64_t x = stream;
  mcore_rng_seed(key ^ splitmix64(&x));
}
