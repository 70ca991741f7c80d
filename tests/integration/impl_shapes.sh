#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Every documented shape of a signature folder (docs/bring-your-own.md, "The
# folder contract"), made here from the toy signature of
# tests/impl/crypto_sign/toy-sign/ref, run through `merlin run --impl-tree` on
# the host and on qemu-m4:
#   detached only (crypto_sign_signature/crypto_sign_verify), signed messages
#   only (crypto_sign/crypto_sign_open), both; lengths through size_t * and
#   unsigned long long *; with a name prefix (PQClean's) and without.
#   impl_shapes.sh MERLIN OUTDIR good  the six folders and ref in one image
#       per target, under a path holding every character the image build
#       carries (spaces, a comma, quotes, '@', UTF-8, ...): their NIST KAT
#       records equal ref's host build, keygen, sign and verify are timed
#       and every sample checked
#   impl_shapes.sh MERLIN OUTDIR bad   one folder per shape whose verifier
#       accepts a corrupted signature (both forms: one with a broken
#       crypto_sign_verify, one with a broken crypto_sign_open): given with
#       --impl on qemu-m4, each fails its known-answer test naming its own
#       function; found by --impl-tree on the host with two whose verifier
#       breaks after the known-answer test (detached, signed messages), all
#       six are left out at once (one build again), named, and ref is timed
set -euo pipefail
merlin=$1
out=$2
mode=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
. "$root/tests/lib.sh"
cat >"$out/controls.profile" <<'EOF'
# SPDX-License-Identifier: Apache-2.0
description = tests/integration/impl_shapes.sh: controls only
hmac-sha256 = wolfcrypt
EOF

# shape DIR API LEN PREFIX BROKEN: a toy-sign folder in DIR with api.h
# declaring API (detached, open or both), lengths of type LEN, names with
# PREFIX, and BROKEN (none, verify or open) accepting any signature.
shape() {
  local dir=$1 api=$2 len=$3 p=$4 broken=$5 det=0 open=0 badv=0 bado=0
  case $api in detached) det=1 ;; open) open=1 ;; both) det=1 open=1 ;; esac
  # verify-late, open-late: right for the known-answer test's two calls,
  # then accepting anything (caught by the per-sample checks)
  case $broken in
  verify) badv=1 ;;
  open) bado=1 ;;
  verify-late) badv='(++calls > 2)' ;;
  open-late) bado='(++calls > 2)' ;;
  esac
  mkdir -p "$dir"
  {
    echo "/* SPDX-License-Identifier: Apache-2.0 */"
    echo "/* Made by tests/integration/impl_shapes.sh: toy-sign, $api, $len. */"
    echo "#include <stddef.h>"
    echo "#define ${p}CRYPTO_SECRETKEYBYTES 64"
    echo "#define ${p}CRYPTO_PUBLICKEYBYTES 32"
    echo "#define ${p}CRYPTO_BYTES 32"
    echo "#define ${p}CRYPTO_ALGNAME \"toy-sign\""
    echo "int ${p}crypto_sign_keypair(unsigned char *pk, unsigned char *sk);"
    if [ $det = 1 ]; then
      echo "int ${p}crypto_sign_signature(unsigned char *sig, $len *siglen, const unsigned char *m, $len mlen, const unsigned char *sk);"
      echo "int ${p}crypto_sign_verify(const unsigned char *sig, $len siglen, const unsigned char *m, $len mlen, const unsigned char *pk);"
    fi
    if [ $open = 1 ]; then
      echo "int ${p}crypto_sign(unsigned char *sm, $len *smlen, const unsigned char *m, $len mlen, const unsigned char *sk);"
      echo "int ${p}crypto_sign_open(unsigned char *m, $len *mlen, const unsigned char *sm, $len smlen, const unsigned char *pk);"
    fi
  } >"$dir/api.h"
  cat >"$dir/sign.c" <<EOF
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/impl_shapes.sh: the toy signature of
 * tests/impl/crypto_sign/toy-sign/ref (sk = seed || pk, pk = SHAKE256(seed),
 * signature = SHAKE256(pk || m), sm = signature || m). */
#include "api.h"
#include "fips202.h"
#include "randombytes.h"

#include <string.h>

#define BYTES ${p}CRYPTO_BYTES
#define PKB ${p}CRYPTO_PUBLICKEYBYTES

static void tag(unsigned char *out, const unsigned char *pk,
                const unsigned char *m, size_t mlen) {
  shake256incctx s;
  shake256_inc_init(&s);
  shake256_inc_absorb(&s, pk, PKB);
  shake256_inc_absorb(&s, m, mlen);
  shake256_inc_finalize(&s);
  shake256_inc_squeeze(out, BYTES, &s);
  shake256_inc_ctx_release(&s);
}

static int calls; /* of the verifier */

static int same(const unsigned char *a, const unsigned char *b) {
  unsigned char diff = 0;
  for (size_t i = 0; i < BYTES; i++)
    diff |= (unsigned char)(a[i] ^ b[i]);
  return diff == 0;
}

int ${p}crypto_sign_keypair(unsigned char *pk, unsigned char *sk) {
  randombytes(sk, 32);
  shake256(pk, PKB, sk, 32);
  memcpy(sk + 32, pk, PKB);
  return 0;
}
EOF
  if [ $det = 1 ]; then
    cat >>"$dir/sign.c" <<EOF

int ${p}crypto_sign_signature(unsigned char *sig, $len *siglen,
                              const unsigned char *m, $len mlen,
                              const unsigned char *sk) {
  tag(sig, sk + 32, m, (size_t)mlen);
  *siglen = BYTES;
  return 0;
}

int ${p}crypto_sign_verify(const unsigned char *sig, $len siglen,
                           const unsigned char *m, $len mlen,
                           const unsigned char *pk) {
  unsigned char want[BYTES];
  if (siglen != BYTES)
    return -1;
  tag(want, pk, m, (size_t)mlen);
  return $badv || same(want, sig) ? 0 : -1;
}
EOF
  fi
  if [ $open = 1 ]; then
    cat >>"$dir/sign.c" <<EOF

int ${p}crypto_sign(unsigned char *sm, $len *smlen, const unsigned char *m,
                    $len mlen, const unsigned char *sk) {
  memmove(sm + BYTES, m, (size_t)mlen);
  tag(sm, sk + 32, sm + BYTES, (size_t)mlen);
  *smlen = mlen + BYTES;
  return 0;
}

int ${p}crypto_sign_open(unsigned char *m, $len *mlen,
                         const unsigned char *sm, $len smlen,
                         const unsigned char *pk) {
  unsigned char want[BYTES];
  if (smlen < BYTES)
    return -1;
  tag(want, pk, sm + BYTES, (size_t)(smlen - BYTES));
  if (!$bado && !same(want, sm))
    return -1;
  memmove(m, sm + BYTES, (size_t)(smlen - BYTES));
  *mlen = smlen - BYTES;
  return 0;
}
EOF
  fi
}

ull='unsigned long long'
sign=crypto_sign/toy-sign
case $mode in
good)
  # under a path with every character the image build carries (docs/
  # cli.md; the ones it cannot are refused: impl-folders-usage)
  good="$out/go od !%&'()+,=^{}~é:x@y"
  t=$good/$sign
  mkdir -p "$t"
  cp -r tests/impl/crypto_sign/toy-sign/ref "$t/ref"
  shape "$t/det-ns-sz" detached size_t TOY_SIGN_ none
  shape "$t/det-ull" detached "$ull" "" none
  shape "$t/open-ns-sz" open size_t TOY_SIGN_ none
  shape "$t/open-ull" open "$ull" "" none
  shape "$t/both-ns-ull" both "$ull" TOY_SIGN_ none
  shape "$t/both-sz" both size_t "" none
  "$merlin" run --target host,qemu-m4 --profile "$out/controls.profile" \
    --impl-tree "$good" --runs 3 --warmup 1 --out "$out/r" \
    >"$out/log" 2>&1 || { cat "$out/log"; fail "the run failed"; }
  node - "$out/r/latest/results.json" <<'JS'
const j = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
const shapes = ['ref', 'det-ns-sz', 'det-ull', 'open-ns-sz', 'open-ull', 'both-ns-ull', 'both-sz'];
for (const target of ['host', 'qemu-m4']) {
  const r = j.runs.find((x) => x.target === target);
  if (!r) fail(`no ${target} run`);
  const ref = r.provenance.nist_kat['impl:toy-sign/ref'];
  if (!ref || !/sha256=[0-9a-f]{64}/.test(ref)) fail(`${target}: records of ref: ${ref}`);
  for (const s of shapes) {
    const be = `impl:toy-sign/${s}`;
    for (const o of ['keygen', 'sign', 'verify']) {
      const x = r.ops.find((y) => y.alg === 'toy-sign' && y.op === o && y.backend === be);
      if (!x || x.kat !== 'pass' || x.samples.length !== 3)
        fail(`${target} ${be} ${o}: ${JSON.stringify(x && {kat: x.kat, n: x.samples.length})}`);
    }
    // Every shape gives the records of ref's host build (sm = signature || message).
    const rec = r.provenance.nist_kat[be].replace(/,stack=\d+$/, '');
    if (rec !== ref.replace(/,stack=\d+$/, '')) fail(`${target} ${be}: records ${rec}, ref ${ref}`);
    const im = r.implementations.find((x) => x.backend === be);
    if (!im || im.left_out || !/toy-sign\/ref/.test(im.kat_reference)) fail(`${target} ${be}: ${JSON.stringify(im)}`);
  }
}
console.log('ok: detached, signed-message and both shapes, size_t and unsigned long long lengths, ' +
  'with and without a prefix, under a path of odd characters: known answers, timings and checks on host and qemu-m4');
JS
  ;;
bad)
  t=$out/bad/$sign
  mkdir -p "$t"
  cp -r tests/impl/crypto_sign/toy-sign/ref "$t/ref"
  shape "$t/bad-det" detached size_t TOY_SIGN_ verify
  shape "$t/bad-open" open "$ull" "" open
  shape "$t/bad-both-verify" both size_t "" verify
  shape "$t/bad-both-open" both "$ull" TOY_SIGN_ open
  # Verifiers that pass the known-answer test, then accept anything: the
  # per-sample check of verify names them (on the host, in the same image:
  # a failed known-answer test leaves the other operations to run).
  shape "$t/late-det" detached "$ull" "" verify-late
  shape "$t/late-open" open size_t TOY_SIGN_ open-late
  # qemu-m4, the folders given one by one (--impl): each failure is fatal
  # and named
  set +e
  "$merlin" run --target qemu-m4 --profile "$out/controls.profile" \
    --impl "$t/bad-det,$t/bad-open,$t/bad-both-verify,$t/bad-both-open" \
    --kat-only >"$out/qemu-m4.log" 2>&1
  got=$?
  set -e
  [ "$got" = 1 ] || { cat "$out/qemu-m4.log"; fail "qemu-m4: exit $got, expected 1"; }
  for want in \
    "impl:toy-sign/bad-det\): TOY_SIGN_crypto_sign_verify: accepted a signature with a flipped bit" \
    "impl:toy-sign/bad-open\): crypto_sign_open: accepted a signed message whose signature part has a flipped bit" \
    "impl:toy-sign/bad-both-verify\): crypto_sign_verify: accepted a signature with a flipped bit" \
    "impl:toy-sign/bad-both-open\): TOY_SIGN_crypto_sign_open: accepted a signed message whose signature part has a flipped bit"; do
    grep -Eq "qemu-m4: KAT failed: toy-sign keygen \($want" "$out/qemu-m4.log" ||
      { cat "$out/qemu-m4.log"; fail "qemu-m4: no message matching $want"; }
  done
  echo "ok: qemu-m4: each broken verifier fails the known-answer test, naming the folder's own function"
  # the host, the tree (--impl-tree): every broken folder is left out at
  # once, named (the four by their known-answer test, the two late ones by
  # the per-sample check of verify), and ref is timed in the image run again
  set +e
  "$merlin" run --target host --profile "$out/controls.profile" \
    --impl-tree "$out/bad" --runs 2 --warmup 0 --out "$out/r" \
    >"$out/host.log" 2>&1
  got=$?
  set -e
  [ "$got" = 3 ] || { cat "$out/host.log"; fail "host: exit $got, expected 3"; }
  [ "$(grep -c 'building image (profile controls)' "$out/host.log")" = 2 ] ||
    { cat "$out/host.log"; fail "host: the six were not left out at once (one build again)"; }
  node - "$out/r/latest/results.json" <<'JS'
const r = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8')).runs[0];
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
const kat = 'failed its known-answer test: toy-sign keygen: ';
const late = 'failed its checks on this target: toy-sign verify: output check failed: sample 0: ';
const want = {
  'bad-det': kat + 'TOY_SIGN_crypto_sign_verify: accepted a signature with a flipped bit',
  'bad-open': kat + 'crypto_sign_open: accepted a signed message whose signature part has a flipped bit',
  'bad-both-verify': kat + 'crypto_sign_verify: accepted a signature with a flipped bit',
  'bad-both-open': kat + 'TOY_SIGN_crypto_sign_open: accepted a signed message whose signature part has a flipped bit',
  'late-det': late + 'crypto_sign_verify: accepted a signature with a flipped bit',
  'late-open': late + 'TOY_SIGN_crypto_sign_open: accepted a signed message whose signature part has a flipped bit',
};
for (const [f, w] of Object.entries(want)) {
  const im = r.implementations.find((x) => x.backend === 'impl:toy-sign/' + f);
  if (!im || im.left_out !== w) fail(`${f}: left_out ${im && im.left_out}, want ${w}`);
  if (r.ops.some((o) => o.backend === 'impl:toy-sign/' + f)) fail(`${f} was measured`);
}
for (const o of ['keygen', 'sign', 'verify'])
  if (!r.ops.some((x) => x.backend === 'impl:toy-sign/ref' && x.op === o && x.samples.length === 2))
    fail(`ref ${o} not timed`);
console.log('ok: host: in a tree run every broken verifier is left out at once, named, and the rest is timed');
JS
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
