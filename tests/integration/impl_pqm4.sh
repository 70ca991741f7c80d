#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Folders as pqm4's users have them (docs/bring-your-own.md, "From a pqm4
# checkout"), with a checkout this script makes in pqm4's shape (nothing of
# pqm4 is used): common/keccakf1600.S (an assembly Keccak-f[1600] without
# ELF sizes, made here from C with the cross compiler), mupq/common/ with a
# fips202 whose contexts live on the stack (mupq's API), its C Keccak and
# mupq's hal.h.
#   impl_pqm4.sh MERLIN OUTDIR checkout   one qemu-m4 image: a folder using
#       asm, a statement expression and hal.h builds; built against the
#       checkout's common code (found, not given) it reports 0 heap and its
#       Keccak cycles; its hash share is within 1 percentage point of the
#       same work's in a folder whose own copy of the Keccak has ELF sizes;
#       a folder that exhausts the heap is left out with its reason (exit
#       3, report.md, report.html, results.json) while the rest is timed;
#       a copy of PQClean's ML-KEM-512 in a folder not named after a scheme
#       gets the id ml-kem-512, Merlin's FIPS 203 vectors and the pinned
#       PQClean reference; with --impl-hash thumb2-asm it runs on wolfSSL's
#       Keccak while the built-in pqclean rows keep PQClean's C Keccak; the
#       toy outside any checkout runs on Merlin's heap-free sponge
#   impl_pqm4.sh MERLIN OUTDIR hang       a folder that hangs in its host
#       known-answer run is stopped at --stall, named, and nothing is built
set -euo pipefail
merlin=$1
out=$2
mode=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
. "$root/tests/lib.sh"
cat >"$out/p.profile" <<'EOF'
# SPDX-License-Identifier: Apache-2.0
description = tests/integration/impl_pqm4.sh
hmac-sha256 = wolfcrypt
ml-kem-512 = pqclean
EOF
cat >"$out/controls.profile" <<'EOF'
# SPDX-License-Identifier: Apache-2.0
description = tests/integration/impl_pqm4.sh: controls only
hmac-sha256 = wolfcrypt
EOF

# toy_hash and make_common: the toy KEM on mupq's API and the checkout's
# common code (tests/integration/pqm4_shape.sh).
. "$root/tests/integration/pqm4_shape.sh"

case $mode in
checkout)
  pqm4=$out/pqm4
  make_common "$pqm4"
  t=$pqm4/crypto_kem
  toy_hash "$t/toy-hash/ref"
  toy_hash "$t/toy-hash/m4common"
  toy_hash "$t/toy-hash/m4sized" toy_sized_
  { echo "@ SPDX-License-Identifier: Apache-2.0"
    sed 's/KeccakF1600_/toy_sized_KeccakF1600_/g' "$out/keccak.s"; } \
    >"$t/toy-hash/m4sized/keccak.S"
  grep -q '\.size[[:space:]]*toy_sized_KeccakF1600_StatePermute' "$t/toy-hash/m4sized/keccak.S" ||
    fail "the sized copy has no .size"
  # The toy KEM of tests/impl, and a copy whose key generation allocates
  # more than qemu-m4's heap (on the host it has that much).
  mkdir -p "$t/toy-hog"
  cp -r tests/impl/crypto_kem/toy-kem/ref "$t/toy-hog/ref"
  cp -r tests/impl/crypto_kem/toy-kem/ref "$t/toy-hog/m4"
  sed -i 's|^  randombytes(sk, 32);|  void *hog = malloc((size_t)8 << 20);\n  if (!hog)\n    exit(111);\n  free(hog);\n&|; s|^#include <string.h>|&\n#include <stdlib.h>|' \
    "$t/toy-hog/m4/kem.c"
  grep -q 'exit(111)' "$t/toy-hog/m4/kem.c" || fail "the heap hog was not made (toy-kem/ref/kem.c changed?)"
  # The same toy outside any checkout: mupq's API on Merlin's heap-free
  # sponge (here over wolfSSL's Keccak, --impl-hash thumb2-asm).
  toy_hash "$out/elsewhere/crypto_kem/toy-hash/plain"
  # PQClean's ML-KEM-512 in a folder whose name is no scheme, outside the
  # checkout.
  mkdir -p "$out/elsewhere/crypto_kem/kyber-ish"
  cp -r third_party/pqclean/deps/PQClean/crypto_kem/ml-kem-512/clean \
    "$out/elsewhere/crypto_kem/kyber-ish/m4"
  set +e
  "$merlin" run --target qemu-m4 --profile "$out/p.profile" \
    --impl-tree "$t" --impl "$out/elsewhere/crypto_kem/kyber-ish/m4" \
    --impl "$out/elsewhere/crypto_kem/toy-hash/plain" \
    --impl-hash thumb2-asm --runs 2 --warmup 0 --out "$out/r" >"$out/log" 2>&1
  got=$?
  set -e
  [ "$got" = 3 ] || { cat "$out/log"; fail "exit $got, expected 3 (a folder left out)"; }
  grep -q "qemu-m4: impl:toy-hog/m4 left out: does not fit: its toy-hog keygen exhausted the heap" "$out/log" ||
    { cat "$out/log"; fail "the terminal does not name the left-out folder"; }
  grep -q "kyber-ish' names no algorithm Merlin knows; ml-kem-512 is a KEM, from its CRYPTO_ALGNAME" "$out/log" ||
    { cat "$out/log"; fail "no note of the scheme id found from CRYPTO_ALGNAME"; }
  grep -q 'impl:toy-hog/m4.*left out: does not fit: its toy-hog keygen exhausted the heap' "$out/r/latest/report.md" ||
    fail "report.md does not list the left-out folder"
  grep -q 'impl:toy-hog/m4.*left out: does not fit' "$out/r/latest/report.html" ||
    fail "report.html does not list the left-out folder"
  node - "$out/r/latest/results.json" <<'JS'
const r = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8')).runs[0];
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
const im = (be) => r.implementations.find((x) => x.backend === be);
const op = (be, o) => r.ops.find((x) => x.backend === be && x.op === o);
const hog = im('impl:toy-hog/m4');
if (!hog || !/^does not fit: its toy-hog keygen exhausted the heap/.test(hog.left_out))
  fail('left_out of the heap hog: ' + JSON.stringify(hog));
if (r.ops.some((x) => x.backend === 'impl:toy-hog/m4')) fail('the heap hog was measured');
for (const o of ['keygen', 'encaps', 'decaps'])
  if (!op('impl:toy-hog/ref', o) || op('impl:toy-hog/ref', o).samples.length !== 2)
    fail(`toy-hog/ref ${o} not timed`);
// Built against the checkout's own common code, found from its place.
const m4 = im('impl:toy-hash/m4common');
if (!m4 || !/common\/keccakf1600\.S$/.test(m4.hash) || !/the pqm4 checkout .*mupq\/common\/fips202\.c/.test(m4.common))
  fail('common code of m4common: ' + JSON.stringify(m4));
if (!/toy-hash\/ref/.test(m4.kat_reference)) fail('reference of m4common: ' + m4.kat_reference);
if (!/toy-hash\/ref itself: no other reference/.test(im('impl:toy-hash/ref').kat_reference))
  fail('the self-reference is not said: ' + im('impl:toy-hash/ref').kat_reference);
for (const o of ['keygen', 'encaps', 'decaps']) {
  const a = op('impl:toy-hash/m4common', o), b = op('impl:toy-hash/m4sized', o);
  if (!a || a.kat !== 'pass' || a.samples.length !== 2) fail(`m4common ${o}: ${JSON.stringify(a && a.kat)}`);
  if (a.heap_bytes !== 0 || b.heap_bytes !== 0) fail(`${o}: heap ${a.heap_bytes}, ${b.heap_bytes} (mupq's API allocates nothing)`);
  const ka = a.profile.top.find((f) => /KeccakF1600_StatePermute$/.test(f.function));
  if (!ka || !(a.profile.hash_share > 0.3))
    fail(`${o}: the assembly Keccak without ELF sizes is not attributed: ${JSON.stringify(a.profile)}`);
  // The same work with the Keccak's sizes known: within 1 percentage point.
  if (Math.abs(a.profile.hash_share - b.profile.hash_share) > 0.01)
    fail(`${o}: hash share ${a.profile.hash_share} without sizes, ${b.profile.hash_share} with`);
}
// mupq's API outside a checkout: Merlin's heap-free sponge, the records of the checkout's build.
const pl = im('impl:toy-hash/plain');
if (!pl || pl.hash !== 'thumb2-asm (heap-free sponge)' || pl.common) fail('plain: ' + JSON.stringify(pl));
for (const o of ['keygen', 'encaps', 'decaps']) {
  const x = op('impl:toy-hash/plain', o);
  if (!x || x.kat !== 'pass' || x.heap_bytes !== 0 || !/BlockSha3/.test(x.profile.top.map((f) => f.function).join(' ')))
    fail(`plain ${o}: ${JSON.stringify(x && {kat: x.kat, heap: x.heap_bytes, top: x.profile.top})}`);
}
if (r.provenance.nist_kat['impl:toy-hash/plain'].replace(/,stack=\d+$/, '') !==
    r.provenance.nist_kat['impl:toy-hash/ref'].replace(/,stack=\d+$/, ''))
  fail('the heap-free sponge gives other records than the checkout\'s fips202');
// Not a scheme's name: the id from CRYPTO_ALGNAME, FIPS 203 vectors, the pinned reference.
const ky = im('impl:kyber-ish/m4');
if (!ky || ky.alg !== 'ml-kem-512' || ky.hash !== 'thumb2-asm' ||
    !/PQClean\/crypto_kem\/ml-kem-512\/clean/.test(ky.kat_reference))
  fail('kyber-ish: ' + JSON.stringify(ky));
for (const o of ['keygen', 'encaps', 'decaps']) {
  const k = op('impl:kyber-ish/m4', o), p = op('pqclean', o);
  if (!k || k.alg !== 'ml-kem-512' || k.kat !== 'pass') fail(`kyber-ish ${o}: ${JSON.stringify(k && k.kat)}`);
  const fns = (x) => x.profile.top.map((f) => f.function).join(' ');
  // --impl-hash changes the folder's Keccak, not the built-in backend's.
  if (!/BlockSha3/.test(fns(k))) fail(`kyber-ish ${o} not on wolfSSL's Keccak: ${fns(k)}`);
  if (/BlockSha3/.test(fns(p)) || !/KeccakF1600_StatePermute/.test(fns(p)))
    fail(`the built-in pqclean ${o} changed Keccak with --impl-hash: ${fns(p)}`);
}
console.log('ok: GNU C and hal.h build; the checkout\'s common code and assembly Keccak: 0 heap, ' +
  'hash share within 1 point of the sized copy\'s; the heap hog left out and reported; ' +
  'a scheme found by CRYPTO_ALGNAME; --impl-hash leaves the built-in rows alone');
JS
  ;;
hang)
  mkdir -p "$out/hang/crypto_kem/toy-hang"
  cp -r tests/impl/crypto_kem/toy-kem/ref "$out/hang/crypto_kem/toy-hang/ref"
  sed -i 's|^  randombytes(sk, 32);|  for (volatile int spin = 1; spin;)\n    ;\n&|' \
    "$out/hang/crypto_kem/toy-hang/ref/kem.c"
  grep -q 'volatile int spin' "$out/hang/crypto_kem/toy-hang/ref/kem.c" || fail "the hang was not made"
  set +e
  "$merlin" run --target qemu-m4 --profile "$out/controls.profile" \
    --impl "$out/hang/crypto_kem/toy-hang/ref" --stall 3 --kat-only >"$out/log" 2>&1
  got=$?
  set -e
  [ "$got" = 1 ] || { cat "$out/log"; fail "exit $got, expected 1"; }
  grep -q "implementation folder .*toy-hang/ref hung: no console line for 3 s (--stall) in its host known-answer run, during toy-hang keygen" "$out/log" ||
    { cat "$out/log"; fail "no message naming the hanging folder and --stall"; }
  grep -q "qemu-m4: building" "$out/log" && fail "a target image was built after the reference failed"
  echo "ok: the host reference run of a hanging folder stops at --stall, naming it"
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
