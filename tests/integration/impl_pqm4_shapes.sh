#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# A pqm4 checkout as its users have it (docs/bring-your-own.md, "From a
# pqm4 checkout"; issue 39): a checkout this script makes in pqm4's shape,
# with one folder for each way a whole pqm4 run used to fail, all in one
# qemu-m4 image (nothing of pqm4 is used):
#   toy-incl/m4       api.h declares the entry points through a header it
#                     includes (pqm4's BIKE, HAETAE)
#   toy-bigstack/m4   its reference (mupq's ref) uses 12 MB of stack on the
#                     host, the folder a few hundred bytes (AIMer, PERK)
#   toy-split/m4      calls the checkout's common code, whose C calls
#                     Cortex-M4 assembly on the target side and is portable
#                     C on the host side (mupq/mk/host-crypto.mk; MAYO, UOV)
#   toy-print/m4      prints (printf, puts) and asserts (PERK short)
#   toy-assert/m4     an assert that fails on the target: left out, named
#   toy-hang/m4       spins for ever on the target: left out at --stall
#   toy-optref/m4f    assembly, its only reference mupq's opt (BIKE)
#   ed25519/supercop  Ed25519 (libsodium's ref10, pinned) with
#                     crypto_sign/crypto_sign_open only: Merlin's RFC 8032
#                     vectors through signature || message
# and then:
#   - a copy of the checkout with mupq/ empty (a clone without
#     --recursive) is refused with `git submodule update --init
#     --recursive`, before anything is built;
#   - the results, split into two directories (KEMs; signatures and a later
#     copy of one KEM row), make one set of pqm4 tables with
#     `merlin report A B --format pqm4`, the left-out folder listed.
#   impl_pqm4_shapes.sh MERLIN OUTDIR
set -euo pipefail
merlin=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
. "$root/tests/lib.sh"
. "$root/tests/integration/pqm4_shape.sh"
cat >"$out/controls.profile" <<'EOF'
# SPDX-License-Identifier: Apache-2.0
description = tests/integration/impl_pqm4_shapes.sh: controls only
hmac-sha256 = wolfcrypt
EOF

pqm4=$out/pqm4
make_common "$pqm4"
kem=tests/impl/crypto_kem/toy-kem
m=$pqm4/mupq/crypto_kem

# The checkout's common code split by side: on the target, common/
# toysplit.c calls Thumb-2 assembly; on the host, mupq's mk/host-crypto.mk
# names a portable toysplit.c in mupq's PQClean common/.
cat >"$pqm4/mupq/common/toysplit.h" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4_shapes.sh. */
#include <stdint.h>
void toy_split(uint8_t out[32], const uint8_t in[32]);
EOF
cat >"$pqm4/common/toysplit.c" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4_shapes.sh: the target side. */
#include "toysplit.h"
void toy_split_asm(uint8_t *out, const uint8_t *in);
void toy_split(uint8_t out[32], const uint8_t in[32]) { toy_split_asm(out, in); }
EOF
cat >"$pqm4/common/toysplit_asm.S" <<'EOF'
@ SPDX-License-Identifier: Apache-2.0
@ Made by tests/integration/impl_pqm4_shapes.sh: 32 bytes copied, Thumb-2.
	.syntax unified
	.thumb
	.text
	.global toy_split_asm
	.type toy_split_asm, %function
toy_split_asm:
	movs r2, #32
1:	ldrb r3, [r1], #1
	strb r3, [r0], #1
	subs r2, r2, #1
	bne 1b
	bx lr
	.size toy_split_asm, .-toy_split_asm
EOF
mkdir -p "$pqm4/mupq/pqclean/common" "$pqm4/mupq/mk"
cat >"$pqm4/mupq/pqclean/common/toysplit.c" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4_shapes.sh: the host side. */
#include <stdint.h>
#include <string.h>
void toy_split(uint8_t out[32], const uint8_t in[32]);
void toy_split(uint8_t out[32], const uint8_t in[32]) { memcpy(out, in, 32); }
EOF
printf '%s\n' '# SPDX-License-Identifier: Apache-2.0' 'HOST_SYMCRYPTO_SRC = \' \
  '	mupq/common/fips202.c \' '	mupq/common/keccakf1600.c \' \
  '	mupq/pqclean/common/toysplit.c' '' 'obj-host/libsymcrypto.a: x' \
  >"$pqm4/mupq/mk/host-crypto.mk"

# toy-incl: the sizes in api.h, the entry points in a header it includes.
mkdir -p "$pqm4/crypto_kem/toy-incl" "$m/toy-incl"
cp -r $kem/ref "$pqm4/crypto_kem/toy-incl/m4"
cp -r $kem/ref "$m/toy-incl/ref"
sed -n '/^int crypto_kem/p' $kem/ref/api.h >"$pqm4/crypto_kem/toy-incl/m4/toy_entry.h"
sed -i 's|^int crypto_kem.*||; s|^#define CRYPTO_ALGNAME.*|&\n#include "toy_entry.h"|' \
  "$pqm4/crypto_kem/toy-incl/m4/api.h"
grep -q crypto_kem_keypair "$pqm4/crypto_kem/toy-incl/m4/api.h" && fail "toy-incl's api.h still declares the entry points"

# toy-bigstack: mupq's ref touches 12 MB of stack on the host.
mkdir -p "$pqm4/crypto_kem/toy-bigstack" "$m/toy-bigstack"
cp -r $kem/ref "$pqm4/crypto_kem/toy-bigstack/m4"
cp -r $kem/ref "$m/toy-bigstack/ref"
sed -i 's|^  randombytes(sk, 32);|  volatile unsigned char big[12u << 20];\n  for (size_t i = 0; i < sizeof big; i += 4096)\n    big[i] = (unsigned char)i;\n&|' \
  "$m/toy-bigstack/ref/kem.c"
grep -q 'big\[12u << 20\]' "$m/toy-bigstack/ref/kem.c" || fail "the big stack was not made"

# toy-split: keygen goes through the common code's toy_split.
mkdir -p "$pqm4/crypto_kem/toy-split" "$m/toy-split"
cp -r $kem/ref "$pqm4/crypto_kem/toy-split/m4"
sed -i 's|^  randombytes(sk, 32);|&\n  toy_split(sk, sk);|; s|^#include "randombytes.h"|&\n#include "toysplit.h"|' \
  "$pqm4/crypto_kem/toy-split/m4/kem.c"
grep -q 'toy_split(sk, sk)' "$pqm4/crypto_kem/toy-split/m4/kem.c" || fail "toy-split was not made"
# ... and builds only with the flag its config.mk gives it, the target's
# line for the m4 folder, the host's (bin-host/) for mupq's ref
sed -i 's|^#include "toysplit.h"|&\n#ifndef TOY_SPLIT_ON\n#error "config.mk was not applied"\n#endif|' \
  "$pqm4/crypto_kem/toy-split/m4/kem.c"
cp -r "$pqm4/crypto_kem/toy-split/m4" "$m/toy-split/ref"
printf '%s' 'elf/crypto_kem_toy-split_m4_%.elf: CPPFLAGS += -DTOY_SPLIT_ON -O1' \
  >"$pqm4/crypto_kem/toy-split/m4/config.mk"
printf '%s\n' 'bin-host/mupq_crypto_kem_toy-split_ref_testvectors: CPPFLAGS += -DTOY_SPLIT_ON' \
  >"$m/toy-split/ref/config.mk"

# toy-print prints and asserts (true); toy-assert asserts false in enc.
mkdir -p "$pqm4/crypto_kem/toy-print" "$pqm4/crypto_kem/toy-assert" "$m/toy-print" "$m/toy-assert"
for f in toy-print toy-assert; do
  cp -r $kem/ref "$pqm4/crypto_kem/$f/m4"
  cp -r $kem/ref "$m/$f/ref"
done
sed -i 's|^  randombytes(sk, 32);|  printf("toy-print: keygen %d\\n", 1);\n  puts("toy-print");\n  fflush(stdout);\n  assert(pk != NULL);\n&|; s|^#include <string.h>|&\n#include <assert.h>\n#include <stdio.h>|' \
  "$pqm4/crypto_kem/toy-print/m4/kem.c"
sed -i 's|^  randombytes(m, sizeof m);|  assert(!"toy-assert fails here");\n&|; s|^#include <string.h>|&\n#include <assert.h>|' \
  "$pqm4/crypto_kem/toy-assert/m4/kem.c"
grep -q 'printf' "$pqm4/crypto_kem/toy-print/m4/kem.c" || fail "toy-print was not made"
grep -q 'toy-assert fails here' "$pqm4/crypto_kem/toy-assert/m4/kem.c" || fail "toy-assert was not made"

# toy-hang: encapsulation spins for ever on the target (its host
# reference, mupq's ref, does not): left out at --stall, named.
mkdir -p "$pqm4/crypto_kem/toy-hang" "$m/toy-hang"
cp -r $kem/ref "$pqm4/crypto_kem/toy-hang/m4"
cp -r $kem/ref "$m/toy-hang/ref"
sed -i 's|^  randombytes(m, sizeof m);|  for (volatile int spin = 1; spin;)\n    ;\n&|' \
  "$pqm4/crypto_kem/toy-hang/m4/kem.c"
grep -q 'volatile int spin' "$pqm4/crypto_kem/toy-hang/m4/kem.c" || fail "toy-hang was not made"

# toy-optref: assembly; mupq has an opt folder only.
mkdir -p "$pqm4/crypto_kem/toy-optref" "$m/toy-optref"
cp -r $kem/thumb2 "$pqm4/crypto_kem/toy-optref/m4f"
cp -r $kem/ref "$m/toy-optref/opt"

# Ed25519 in SUPERCOP's shape (crypto_sign, crypto_sign_open only):
# libsodium's ref10, pinned in third_party, compiled as is through one
# file per source and its headers beside them.
ed=$out/elsewhere/crypto_sign/ed25519/supercop
sodium=$root/third_party/libsodium/src/libsodium
mkdir -p "$ed"
for h in "$sodium"/include/sodium/*; do ln -s "$h" "$ed/"; done
cat >"$ed/api.h" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4_shapes.sh: SUPERCOP's Ed25519. */
#define CRYPTO_SECRETKEYBYTES 64
#define CRYPTO_PUBLICKEYBYTES 32
#define CRYPTO_BYTES 64
int crypto_sign_keypair(unsigned char *pk, unsigned char *sk);
int crypto_sign(unsigned char *sm, unsigned long long *smlen,
                const unsigned char *m, unsigned long long mlen,
                const unsigned char *sk);
int crypto_sign_open(unsigned char *m, unsigned long long *mlen,
                     const unsigned char *sm, unsigned long long smlen,
                     const unsigned char *pk);
EOF
cat >"$ed/cfg.h" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4_shapes.sh: libsodium's configure
 * facts (src/backends/libsodium/backend.cmake). */
#define CONFIGURED 1
#define NATIVE_LITTLE_ENDIAN 1
#if defined(__SIZEOF_INT128__)
#define HAVE_TI_MODE 1
#endif
EOF
for f in crypto_sign/ed25519/ref10/keypair.c crypto_sign/ed25519/ref10/sign.c \
  crypto_sign/ed25519/ref10/open.c crypto_core/ed25519/ref10/ed25519_ref10.c \
  crypto_hash/sha512/hash_sha512.c crypto_hash/sha512/cp/hash_sha512_cp.c \
  crypto_verify/verify.c; do
  printf '%s\n' '/* SPDX-License-Identifier: Apache-2.0 */' \
    '/* Made by tests/integration/impl_pqm4_shapes.sh. */' '#include "cfg.h"' \
    "#include \"$sodium/$f\"" >"$ed/s_$(basename "$f")"
done
cat >"$ed/supercop.c" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_pqm4_shapes.sh: SUPERCOP's API over
 * libsodium's Ed25519 (signed message = signature || message), and what
 * those sources call of libsodium's utilities. */
#include "api.h"
#include "cfg.h"
#include "crypto_sign_ed25519.h"
#include "randombytes.h"

#include <stddef.h>
#include <stdint.h>

int crypto_sign_keypair(unsigned char *pk, unsigned char *sk) {
  return crypto_sign_ed25519_keypair(pk, sk);
}
int crypto_sign(unsigned char *sm, unsigned long long *smlen,
                const unsigned char *m, unsigned long long mlen,
                const unsigned char *sk) {
  return crypto_sign_ed25519(sm, smlen, m, mlen, sk);
}
int crypto_sign_open(unsigned char *m, unsigned long long *mlen,
                     const unsigned char *sm, unsigned long long smlen,
                     const unsigned char *pk) {
  return crypto_sign_ed25519_open(m, mlen, sm, smlen, pk);
}
void randombytes_buf(void *buf, size_t n);
void randombytes_buf(void *buf, size_t n) { randombytes(buf, n); }
void sodium_memzero(void *p, size_t n);
void sodium_memzero(void *p, size_t n) {
  volatile unsigned char *v = p;
  for (size_t i = 0; i < n; i++)
    v[i] = 0;
}
int sodium_is_zero(const unsigned char *n, size_t len);
int sodium_is_zero(const unsigned char *n, size_t len) {
  unsigned char d = 0;
  for (size_t i = 0; i < len; i++)
    d |= n[i];
  return d == 0;
}
int sodium_memcmp(const void *a, const void *b, size_t len);
int sodium_memcmp(const void *a, const void *b, size_t len) {
  const unsigned char *x = a, *y = b;
  unsigned char d = 0;
  for (size_t i = 0; i < len; i++)
    d |= (unsigned char)(x[i] ^ y[i]);
  return d ? -1 : 0;
}
EOF

# A clone without --recursive: refused, nothing built.
cp -r "$pqm4" "$out/shallow"
rm -rf "$out/shallow/mupq"
mkdir "$out/shallow/mupq"
set +e
"$merlin" run --target qemu-m4 --profile "$out/controls.profile" \
  --impl-tree "$out/shallow" --kat-only >"$out/shallow.log" 2>&1
got=$?
set -e
[ "$got" = 2 ] || { cat "$out/shallow.log"; fail "a checkout with an empty mupq/: exit $got, expected 2"; }
grep -q "shallow/mupq is empty.*git submodule update --init --recursive" "$out/shallow.log" ||
  { cat "$out/shallow.log"; fail "no word of the empty mupq/ and its command"; }
grep -q "building" "$out/shallow.log" && fail "an image was built for a broken checkout"

# The checkout, and the Ed25519 folder, in one qemu-m4 image.
set +e
"$merlin" run --target qemu-m4 --opt O3 --profile "$out/controls.profile" \
  --impl-tree "$pqm4" --impl "$ed" --runs 2 --warmup 0 --stall 10 --out "$out/r" >"$out/log" 2>&1
got=$?
set -e
[ "$got" = 3 ] || { cat "$out/log"; fail "exit $got, expected 3 (toy-assert left out)"; }
grep -q "qemu-m4 (gcc -O3): impl:toy-hang/m4 left out: hung on this target: no console line for 10 s (--stall), during its toy-hang keygen" "$out/log" ||
  { cat "$out/log"; fail "the terminal does not name the hanging folder"; }
grep -q "toy-split/m4: config.mk: -O1 not applied" "$out/log" ||
  { cat "$out/log"; fail "config.mk's other flag is not named"; }
grep -q "qemu-m4 (gcc -O3): impl:toy-assert/m4 left out: failed on this target: its toy-assert keygen faulted (target fault: kind=assert: kem.c:[0-9]*: crypto_kem_enc: !\"toy-assert fails here\")" "$out/log" ||
  { cat "$out/log"; fail "the terminal does not name the failed assert"; }
for f in report.md report.html; do
  grep -q 'impl:toy-assert/m4.*left out: failed on this target' "$out/r/latest/$f" ||
    fail "$f does not list toy-assert left out"
done
node - "$out/r/latest/results.json" <<'JS'
const r = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8')).runs[0];
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
const im = (be) => r.implementations.find((x) => x.backend === be);
const op = (be, o) => r.ops.find((x) => x.backend === be && x.op === o);
for (const f of ['toy-incl/m4', 'toy-bigstack/m4', 'toy-split/m4', 'toy-print/m4', 'toy-optref/m4f'])
  for (const o of ['keygen', 'encaps', 'decaps']) {
    const x = op('impl:' + f, o);
    if (!x || x.kat !== 'pass' || x.samples.length !== 2) fail(`${f} ${o} not measured: ${JSON.stringify(x && x.kat)}`);
  }
if (!/^failed on this target: its toy-assert keygen faulted \(target fault: kind=assert/.test((im('impl:toy-assert/m4') || {}).left_out))
  fail('toy-assert: ' + JSON.stringify(im('impl:toy-assert/m4')));
// the references: mupq's ref (and opt) folders, the split built on the host side
if (!/mupq\/crypto_kem\/toy-optref\/opt/.test(im('impl:toy-optref/m4f').kat_reference))
  fail('toy-optref reference: ' + im('impl:toy-optref/m4f').kat_reference);
if (!/mupq\/crypto_kem\/toy-split\/ref \(built against the host side of the pqm4 checkout .* \(mupq\/mk\/host-crypto\.mk\)\)/.test(im('impl:toy-split/m4').kat_reference))
  fail('toy-split reference: ' + im('impl:toy-split/m4').kat_reference);
if (im('impl:toy-split/m4').flags !== '-DTOY_SPLIT_ON') fail('toy-split flags: ' + im('impl:toy-split/m4').flags);
if (!/common\/toysplit\.c/.test(im('impl:toy-split/m4').common) || /pqclean\/common\/toysplit/.test(im('impl:toy-split/m4').common))
  fail('toy-split target common: ' + im('impl:toy-split/m4').common);
// the folder's own stack, measured on the target: small
if (!(op('impl:toy-bigstack/m4', 'keygen').stack_bytes < 4096)) fail('toy-bigstack stack: ' + op('impl:toy-bigstack/m4', 'keygen').stack_bytes);
// Ed25519 with signed messages only: Merlin's RFC 8032 vectors passed
for (const o of ['keygen', 'sign', 'verify']) {
  const x = op('impl:ed25519/supercop', o);
  if (!x || x.alg !== 'ed25519' || x.kat !== 'pass') fail(`ed25519 ${o}: ${JSON.stringify(x && {alg: x.alg, kat: x.kat})}`);
}
console.log('ok: api.h through an include, a 12 MB host reference stack, the common code split by side, ' +
  'printf and assert, an opt-only reference, a signed-message-only Ed25519 on RFC 8032 vectors; a failed assert left out');
JS

# Two directories, one set of pqm4 tables: the KEMs in A; the signatures
# and a later toy-incl row (named m4-later) in B.
node - "$out/r/latest/results.json" "$out/A" "$out/B" <<'JS'
const fs = require('fs');
const [src, a, b] = process.argv.slice(2);
const all = JSON.parse(fs.readFileSync(src, 'utf8'));
const kems = new Set(all.runs[0].ops.filter((o) => o.op === 'encaps').map((o) => o.backend));
const kem = (o) => kems.has(o.backend);
const part = (keep, edit) => {
  const r = JSON.parse(JSON.stringify(all));
  r.runs[0].ops = r.runs[0].ops.filter(keep).map(edit);
  return r;
};
fs.mkdirSync(a);
fs.mkdirSync(b);
fs.writeFileSync(a + '/results.json', JSON.stringify(part(kem, (o) => o)));
fs.writeFileSync(b + '/results.json', JSON.stringify(part(
  (o) => !kem(o) || o.backend === 'impl:toy-incl/m4',
  (o) => (o.backend === 'impl:toy-incl/m4' ? { ...o, variant: 'm4-later' } : o))));
JS
"$merlin" report "$out/A" "$out/B" --format pqm4 >"$out/pqm4.md" 2>"$out/pqm4.err" ||
  { cat "$out/pqm4.err"; fail "merlin report A B --format pqm4 failed"; }
[ "$(grep -c '^# qemu-m4' "$out/pqm4.md")" = 1 ] || fail "two directories of one target gave more than one set of tables"
grep -q '^| toy-optref (2/2/2 executions) | m4f |' "$out/pqm4.md" || fail "no toy-optref row from A"
grep -q '^| ed25519 (2/2/2 executions) | supercop |' "$out/pqm4.md" || fail "no ed25519 row from B"
[ "$(grep -c '^| toy-incl (2/2/2 executions) | m4-later |' "$out/pqm4.md")" = 2 ] ||
  fail "toy-incl is not B's row, once per speed table"
grep -q '^| toy-incl (2/2/2 executions) | m4 |' "$out/pqm4.md" && fail "A's toy-incl row is there too"
grep -q -- "- $out/B: profile" "$out/pqm4.md" || fail "the runs are not named"
grep -q '^- impl:toy-assert/m4: failed on this target' "$out/pqm4.md" || fail "the left-out folder is not listed"
awk '/^# Speed Evaluation/{s=1} s && /cycles, estimate/{print "est"; exit} s && /\[instructions\]/{print "insn"; exit}' \
  "$out/pqm4.md" | grep -q est || fail "the speed tables do not lead with estimated cycles"
if "$merlin" report "$out/A" "$out/B" --format md >"$out/md.err" 2>&1; then
  fail "several directories were taken for --format md"
fi
grep -q "several results directories with --format pqm4 only" "$out/md.err" || { cat "$out/md.err"; fail "no usage message"; }
echo "ok: a checkout without its submodules refused; two directories in one pqm4 table, estimated cycles first, the left-out folder listed"
