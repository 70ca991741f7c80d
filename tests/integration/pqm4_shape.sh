# SPDX-License-Identifier: Apache-2.0
# Sourced by the tests of pqm4-shaped checkouts (impl_pqm4.sh,
# impl_pqm4_shapes.sh): folders and common code in pqm4's and mupq's
# shape, made here (nothing of pqm4 is used). Needs $out (a scratch
# directory) and fail().

# A toy KEM on the raw permutation and mupq's fips202 (pk = mix(seed), ct =
# m XOR mix(pk), ss = SHAKE256(pk || m); mix: 8 permutations of a state
# holding its input), in pqm4's style: GNU C and hal.h.
toy_hash() { # dir [permutation prefix]
  local dir=$1 p=${2:-}
  mkdir -p "$dir"
  cat >"$dir/api.h" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4.sh. */
#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_CIPHERTEXTBYTES 32
#define CRYPTO_BYTES 32
#define CRYPTO_ALGNAME "toy-hash"
int crypto_kem_keypair(unsigned char *pk, unsigned char *sk);
int crypto_kem_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int crypto_kem_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
EOF
  {
    echo "/* SPDX-License-Identifier: Apache-2.0 */"
    echo "/* Made by tests/integration/impl_pqm4.sh. */"
    if [ -n "$p" ]; then
      echo "#include <stdint.h>"
      for f in StatePermute StateXORBytes StateExtractBytes; do
        echo "#define KeccakF1600_$f ${p}KeccakF1600_$f"
      done
      echo "void ${p}KeccakF1600_StatePermute(uint64_t *state);"
      echo "void ${p}KeccakF1600_StateXORBytes(uint64_t *state, const unsigned char *data, unsigned int offset, unsigned int length);"
      echo "void ${p}KeccakF1600_StateExtractBytes(uint64_t *state, unsigned char *data, unsigned int offset, unsigned int length);"
    else
      echo '#include "keccakf1600.h"'
    fi
    cat <<'EOF'
#include "api.h"
#include "fips202.h"
#include "hal.h"
#include "randombytes.h"

#include <stdint.h>
#include <string.h>

/* GNU C, as pqm4's folders write it: a statement expression around an
 * asm statement (strict ISO C rejects both). */
#define ROUNDS ({ int r_ = 8; asm volatile("" : "+r"(r_)); r_; })

static void mix(unsigned char out[32], const unsigned char in[32]) {
  uint64_t s[25] = {0};
  KeccakF1600_StateXORBytes(s, in, 0, 32);
  for (int i = 0; i < ROUNDS; i++)
    KeccakF1600_StatePermute(s);
  KeccakF1600_StateExtractBytes(s, out, 0, 32);
}

/* mupq's API: the context on the stack, never released */
static void secret(unsigned char *ss, const unsigned char *pk,
                   const unsigned char *m) {
  shake256incctx st;
  shake256_inc_init(&st);
  shake256_inc_absorb(&st, pk, 32);
  shake256_inc_absorb(&st, m, 32);
  shake256_inc_finalize(&st);
  shake256_inc_squeeze(ss, 32, &st);
}

int crypto_kem_keypair(unsigned char *pk, unsigned char *sk) {
  uint64_t t0 = hal_get_time(); /* pqm4's HAL, over Merlin's port */
  (void)t0;
  randombytes(sk, 32);
  mix(pk, sk);
  memcpy(sk + 32, pk, 32);
  return 0;
}

int crypto_kem_enc(unsigned char *ct, unsigned char *ss,
                   const unsigned char *pk) {
  unsigned char m[32], mask[32];
  randombytes(m, 32);
  mix(mask, pk);
  for (int i = 0; i < 32; i++)
    ct[i] = m[i] ^ mask[i];
  secret(ss, pk, m);
  return 0;
}

int crypto_kem_dec(unsigned char *ss, const unsigned char *ct,
                   const unsigned char *sk) {
  unsigned char m[32], mask[32];
  mix(mask, sk + 32);
  for (int i = 0; i < 32; i++)
    m[i] = ct[i] ^ mask[i];
  secret(ss, sk + 32, m);
  return 0;
}
EOF
  } >"$dir/kem.c"
}

# The checkout's common code, in pqm4's and mupq's places.
make_common() { # pqm4 root
  local c=$1/mupq/common
  mkdir -p "$1/common" "$c"
  cat >"$c/keccakf1600.h" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4.sh, in mupq's shape. */
#include <stdint.h>
void KeccakF1600_StatePermute(uint64_t *state);
void KeccakF1600_StateXORBytes(uint64_t *state, const unsigned char *data, unsigned int offset, unsigned int length);
void KeccakF1600_StateExtractBytes(uint64_t *state, unsigned char *data, unsigned int offset, unsigned int length);
EOF
  # Keccak-f[1600] (FIPS 202 Algorithm 7), lane x + 5y = A[x, y]
  cat >"$c/keccakf1600.c" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4.sh, in mupq's shape. */
#include "keccakf1600.h"
static const uint64_t rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
static const unsigned char rot[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14,
                                      27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};
static const unsigned char pos[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4,
                                      15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};
#define ROTL(v, n) (((v) << (n)) | ((v) >> (64 - (n))))
void KeccakF1600_StatePermute(uint64_t *a) {
  uint64_t c[5], t;
  for (int r = 0; r < 24; r++) {
    for (int x = 0; x < 5; x++)
      c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (int x = 0; x < 5; x++) {
      t = c[(x + 4) % 5] ^ ROTL(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5)
        a[y + x] ^= t;
    }
    t = a[1];
    for (int i = 0; i < 24; i++) {
      uint64_t n = a[pos[i]];
      a[pos[i]] = ROTL(t, rot[i]);
      t = n;
    }
    for (int y = 0; y < 25; y += 5) {
      for (int x = 0; x < 5; x++)
        c[x] = a[y + x];
      for (int x = 0; x < 5; x++)
        a[y + x] = c[x] ^ (~c[(x + 1) % 5] & c[(x + 2) % 5]);
    }
    a[0] ^= rc[r];
  }
}
void KeccakF1600_StateXORBytes(uint64_t *s, const unsigned char *d, unsigned int off, unsigned int n) {
  for (unsigned int i = 0; i < n; i++)
    s[(off + i) / 8] ^= (uint64_t)d[i] << (8 * ((off + i) % 8));
}
void KeccakF1600_StateExtractBytes(uint64_t *s, unsigned char *d, unsigned int off, unsigned int n) {
  for (unsigned int i = 0; i < n; i++)
    d[i] = (unsigned char)(s[(off + i) / 8] >> (8 * ((off + i) % 8)));
}
EOF
  cat >"$c/fips202.h" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4.sh, in mupq's shape: the state in
 * the context. */
#ifndef FIPS202_H
#define FIPS202_H
#include <stddef.h>
#include <stdint.h>
typedef struct { uint64_t ctx[26]; } shake256incctx;
void shake256_inc_init(shake256incctx *state);
void shake256_inc_absorb(shake256incctx *state, const uint8_t *in, size_t inlen);
void shake256_inc_finalize(shake256incctx *state);
void shake256_inc_squeeze(uint8_t *out, size_t outlen, shake256incctx *state);
void shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);
#endif
EOF
  cat >"$c/fips202.c" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4.sh: SHAKE256 (FIPS 202 section 6.2)
 * over keccakf1600.h; ctx[25] counts the bytes of the current block. */
#include "fips202.h"
#include "keccakf1600.h"
#include <string.h>
#define R 136
void shake256_inc_init(shake256incctx *s) { memset(s, 0, sizeof *s); }
void shake256_inc_absorb(shake256incctx *s, const uint8_t *in, size_t n) {
  while (n + s->ctx[25] >= R) {
    unsigned int take = (unsigned int)(R - s->ctx[25]);
    KeccakF1600_StateXORBytes(s->ctx, in, (unsigned int)s->ctx[25], take);
    in += take;
    n -= take;
    s->ctx[25] = 0;
    KeccakF1600_StatePermute(s->ctx);
  }
  KeccakF1600_StateXORBytes(s->ctx, in, (unsigned int)s->ctx[25], (unsigned int)n);
  s->ctx[25] += n;
}
void shake256_inc_finalize(shake256incctx *s) {
  static const uint8_t pad = 0x1F, last = 0x80;
  KeccakF1600_StateXORBytes(s->ctx, &pad, (unsigned int)s->ctx[25], 1);
  KeccakF1600_StateXORBytes(s->ctx, &last, R - 1, 1);
  s->ctx[25] = 0;
}
void shake256_inc_squeeze(uint8_t *out, size_t n, shake256incctx *s) {
  while (n) {
    if (s->ctx[25] == 0) {
      KeccakF1600_StatePermute(s->ctx);
      s->ctx[25] = R;
    }
    unsigned int take = (unsigned int)(n < s->ctx[25] ? n : s->ctx[25]);
    KeccakF1600_StateExtractBytes(s->ctx, out, (unsigned int)(R - s->ctx[25]), take);
    out += take;
    n -= take;
    s->ctx[25] -= take;
  }
}
void shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen) {
  shake256incctx s;
  shake256_inc_init(&s);
  shake256_inc_absorb(&s, in, inlen);
  shake256_inc_finalize(&s);
  shake256_inc_squeeze(out, outlen, &s);
}
EOF
  cat >"$c/hal.h" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4.sh: mupq's HAL declarations. */
#ifndef HAL_H
#define HAL_H
#include <stddef.h>
#include <stdint.h>
enum clock_mode { CLOCK_FAST, CLOCK_BENCHMARK };
void hal_setup(const enum clock_mode clock);
void hal_send_str(const char *in);
uint64_t hal_get_time(void);
size_t hal_get_stack_size(void);
void hal_spraystack(void);
size_t hal_checkstack(void);
#endif
EOF
  # pqm4's place: the permutation in Cortex-M4 assembly, with .type but no
  # .size (as pqm4's keccakf1600.S); and, for the sized comparison, the
  # same assembly with its sizes under other names. As hand-written
  # assembly, it states no ABI attributes (the compiler's would say soft
  # float, which a hard-float image refuses to link).
  arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -S -o "$out/keccak.cc.s" \
    "$c/keccakf1600.c"
  grep -v '^[[:space:]]*\.\(eabi_attribute\|file\|ident\)' "$out/keccak.cc.s" >"$out/keccak.s"
  grep -q '^[[:space:]]*\.size[[:space:]]*KeccakF1600_StatePermute' "$out/keccak.s" ||
    fail "the cross compiler's assembly has no .size line to drop"
  { echo "@ SPDX-License-Identifier: Apache-2.0"
    grep -v '^[[:space:]]*\.size' "$out/keccak.s"; } >"$1/common/keccakf1600.S"
}

