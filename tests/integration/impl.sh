#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Implementation folders as backends (docs/bring-your-own.md), end to end:
#   impl.sh MERLIN OUTDIR same      PQClean's ML-KEM-512 clean folder given
#       with --impl gives exactly the instruction counts of the built-in
#       pqclean backend on qemu-m4 (the same adapter and sources); its NIST
#       KAT records hash to PQClean's META.yml nistkat-sha256; two folders
#       with the same internal names share the image; the provenance names
#       each folder, and `report --format pqm4` prints its tables
#   impl.sh MERLIN OUTDIR notbuilt  on qemu-m0plus the Thumb-2 folder is
#       left out as "not built", the rest is measured and written
#   impl.sh MERLIN OUTDIR sign      a signature folder in the signed-message
#       form (crypto_sign/crypto_sign_open, unsigned long long lengths) on
#       qemu-m4 with --impl-hash thumb2-asm: its NIST KAT records on the
#       target, hashed by wolfSSL's Thumb-2 Keccak, equal those of its host
#       build on PQClean's C Keccak, keygen, sign and verify are timed, and
#       --ct judges signing on the binary;
#       a copy whose key generation differs on Arm is rejected, naming the
#       first differing record, and writes nothing
#   impl.sh MERLIN OUTDIR bad       every bad folder (made here from the toy
#       KEM, one fault each) gives its message and writes nothing, alone or
#       among good folders; the
#       folder whose decapsulation is wrong once in 64 calls is caught by
#       the per-sample check, naming the operation and the sample
set -euo pipefail
merlin=$1
out=$2
mode=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
pq=third_party/pqclean/deps/PQClean
toy=tests/impl/crypto_kem
bad=$out/bad/crypto_kem
. "$root/tests/lib.sh"
# The controls alone, and ML-KEM-512 on the built-in pqclean backend.
cat >"$out/impl.profile" <<'EOF'
# SPDX-License-Identifier: Apache-2.0
description = tests/integration/impl.sh
hmac-sha256 = wolfcrypt
ml-kem-512 = pqclean
EOF
cat >"$out/controls.profile" <<'EOF'
# SPDX-License-Identifier: Apache-2.0
description = tests/integration/impl.sh: controls only
hmac-sha256 = wolfcrypt
EOF

case $mode in
same)
  "$merlin" run --target qemu-m4 --profile "$out/impl.profile" \
    --impl "$pq/crypto_kem/ml-kem-512/clean,$toy/toy-kem/ref" \
    --impl "$toy/toy-kem/thumb2" --runs 3 --warmup 1 --quiet \
    --out "$out/r" >/dev/null
  node - "$out/r/latest/results.json" <<'JS'
const r = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8')).runs[0];
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
const op = (alg, o, be) => r.ops.find((x) => x.alg === alg && x.op === o && x.backend === be);
for (const o of ['keygen', 'encaps', 'decaps']) {
  const a = op('ml-kem-512', o, 'pqclean'), b = op('ml-kem-512', o, 'impl:ml-kem-512/clean');
  if (!a || !b) fail(`ml-kem-512 ${o} missing`);
  if (JSON.stringify(a.samples) !== JSON.stringify(b.samples))
    fail(`ml-kem-512 ${o}: pqclean ${a.samples} but the folder ${b.samples}`);
}
for (const be of ['impl:toy-kem/ref', 'impl:toy-kem/thumb2'])
  if (!op('toy-kem', 'decaps', be) || op('toy-kem', 'decaps', be).kat !== 'pass')
    fail(`toy-kem decaps on ${be} not measured`);
// PQClean's META.yml for ML-KEM-512 says nistkat-sha256 c70041a7...
const rec = r.provenance.nist_kat['impl:ml-kem-512/clean'];
if (!rec || !rec.includes('sha256=c70041a761e01cd6426fa60e9fd6a4412c2be817386c8d0f3334898082512782,'))
  fail(`NIST KAT records of ML-KEM-512: ${rec}`);
const im = r.implementations.find((x) => x.backend === 'impl:toy-kem/thumb2');
if (!im || !/^[0-9a-f]{64}$/.test(im.sha256) || !im.path.endsWith('toy-kem/thumb2') ||
    im.hash !== 'c' || !/toy-kem\/ref/.test(im.kat_reference) || im.left_out ||
    im.compiler_workaround)
  fail('implementations entry of the Thumb-2 folder: ' + JSON.stringify(im));
console.log('ok: ML-KEM-512 from its folder has the counts of the pqclean backend; ' +
  'NIST KAT records match META.yml; two folders with the same names in one image');
JS
  "$merlin" report "$out/r/latest" --format pqm4 >"$out/pqm4.md"
  grep -q '^| toy-kem | thumb2 |' "$out/pqm4.md" ||
    fail "report --format pqm4 has no toy-kem thumb2 row"
  grep -q '^| ml-kem-512 | clean |' "$out/pqm4.md" ||
    fail "report --format pqm4 has no ml-kem-512 clean row"
  # The size table splits the folder's own objects as pqm4's does, from
  # results.json's "sections" (text + data = the library's flash bytes).
  node - "$out/r/latest/results.json" "$out/pqm4.md" <<'JS'
const fs = require('fs');
const r = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')).runs[0];
const md = fs.readFileSync(process.argv[3], 'utf8');
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
const a = r.algorithms.find((x) => x.backend === 'impl:ml-kem-512/clean');
const s = a && a.sections && a.sections['impl-folder'];
if (!s || s.text + s.data !== a.libraries['impl-folder'] || !(s.text > 0))
  fail('sections of ml-kem-512 clean: ' + JSON.stringify(a && a.sections));
const n = (v) => v.toLocaleString('en-US');
const row = `| ml-kem-512 | clean | ${n(s.text)} | ${n(s.data)} | ${n(s.bss)} | ${n(s.text + s.data + s.bss)} |`;
if (!md.includes('| .text [bytes] | .data [bytes] | .bss [bytes] | Total [bytes] |') || !md.includes(row))
  fail('pqm4 size table has no row ' + row);
JS
  # A results.json whose split does not add up is refused, naming the field.
  mkdir -p "$out/badsec"
  node -e '
const fs = require("fs"), j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const a = j.runs[0].algorithms.find((x) => x.sections && x.sections["impl-folder"]);
a.sections["impl-folder"].text += 1;
fs.writeFileSync(process.argv[2], JSON.stringify(j));' "$out/r/latest/results.json" "$out/badsec/results.json"
  if "$merlin" report "$out/badsec" --format pqm4 >"$out/badsec.log" 2>&1; then
    fail "a results.json whose sections do not add up was accepted"
  fi
  grep -q '"sections"\.impl-folder: text + data must be' "$out/badsec.log" ||
    { cat "$out/badsec.log"; fail "no message for the sections that do not add up"; }
  echo "ok: report --format pqm4 (speed, memory, hashing, sizes as .text/.data/.bss)"
  ;;
sign)
  "$merlin" run --target qemu-m4 --profile "$out/controls.profile" \
    --impl tests/impl/crypto_sign/toy-sign/ref --impl-hash thumb2-asm --ct \
    --runs 3 --warmup 1 --out "$out/r" >"$out/log" 2>&1 || { cat "$out/log"; fail "the run failed"; }
  node - "$out/r/latest/results.json" <<'JS'
const r = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8')).runs[0];
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
for (const o of ['keygen', 'sign', 'verify']) {
  const x = r.ops.find((y) => y.alg === 'toy-sign' && y.op === o && y.backend === 'impl:toy-sign/ref');
  if (!x || x.kat !== 'pass' || x.samples.length !== 3) fail(`toy-sign ${o}: ${JSON.stringify(x)}`);
}
// --ct: signing (its secret input) is judged on the Cortex-M binary like a built-in's.
const ct = r.ops.find((y) => y.alg === 'toy-sign' && y.op === 'sign').ct;
if (!ct || ct.status !== 'none' || ct.path_equal !== true || ct.address_equal !== true || ct.secrets < 2)
  fail('constant-time verdict of toy-sign sign: ' + JSON.stringify(ct));
const im = r.implementations.find((x) => x.backend === 'impl:toy-sign/ref');
if (!im || im.hash !== 'thumb2-asm' || !/toy-sign\/ref/.test(im.kat_reference) || im.left_out)
  fail('implementations entry: ' + JSON.stringify(im));
const rec = r.provenance.nist_kat['impl:toy-sign/ref'];
if (!rec || !/sha256=[0-9a-f]{64}/.test(rec)) fail(`NIST KAT records: ${rec}`);
console.log('ok: a signed-message folder on the Thumb-2 Keccak gives the records of its C build and is timed');
JS
  # The same folder, but its key generation differs when built for Arm: the
  # target's records are not the host build's, so nothing is timed.
  mkdir -p "$out/arm-differs/crypto_sign/toy-sign"
  cp -r tests/impl/crypto_sign/toy-sign/ref "$out/arm-differs/crypto_sign/toy-sign/ref"
  sed -i 's|^  randombytes(sk, 32);|&\n#if defined(__arm__)\n  sk[0] ^= 1;\n#endif|' \
    "$out/arm-differs/crypto_sign/toy-sign/ref/sign.c"
  grep -q '__arm__' "$out/arm-differs/crypto_sign/toy-sign/ref/sign.c" ||
    fail "the Arm-only change was not made (has toy-sign/ref/sign.c changed?)"
  set +e
  "$merlin" run --target qemu-m4 --profile "$out/controls.profile" \
    --impl "$out/arm-differs/crypto_sign/toy-sign/ref" --runs 2 --warmup 0 \
    --out "$out/arm" >"$out/arm.log" 2>&1
  got=$?
  set -e
  [ "$got" = 1 ] || { cat "$out/arm.log"; fail "arm-differs: exit $got, expected 1"; }
  grep -Eq "toy-sign.*NIST KAT \(count 0\) record pk differs from the host build of .*arm-differs/crypto_sign/toy-sign/ref" "$out/arm.log" ||
    { cat "$out/arm.log"; fail "arm-differs: no message naming the first differing record"; }
  [ ! -e "$out/arm/latest" ] || fail "arm-differs: results were written"
  echo "ok: a folder whose records on the target differ from its host build is rejected, naming the record"
  ;;
notbuilt)
  set +e
  "$merlin" run --target qemu-m0plus --profile "$out/controls.profile" \
    --impl "$toy/toy-kem/ref,$toy/toy-kem/thumb2" --runs 2 --warmup 0 \
    --out "$out/r" >"$out/log" 2>&1
  got=$?
  set -e
  # 3: written, with a folder left out (docs/cli.md, "Exit status")
  [ "$got" = 3 ] || { cat "$out/log"; fail "exit $got, expected 3"; }
  grep -q "impl:toy-kem/thumb2 left out: not built: xor.S:[0-9]*: Error: selected processor does not support" "$out/log" ||
    fail "no 'not built' message for the Thumb-2 folder"
  node - "$out/r/latest/results.json" <<'JS'
const r = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8')).runs[0];
const fail = (m) => { console.log('FAIL: ' + m); process.exit(1); };
const t2 = r.implementations.find((x) => x.backend === 'impl:toy-kem/thumb2');
if (!t2 || !/^not built: xor\.S/.test(t2.left_out)) fail('left_out: ' + JSON.stringify(t2));
if (r.ops.some((o) => o.backend === 'impl:toy-kem/thumb2')) fail('the Thumb-2 folder was measured');
if (!r.ops.some((o) => o.backend === 'impl:toy-kem/ref' && o.samples.length)) fail('ref not measured');
console.log('ok: qemu-m0plus leaves the Thumb-2 folder out, not built, and measures the rest');
JS
  ;;
bad)
  # One folder per fault, each the toy KEM with one thing wrong.
  mkbad() { # name: a copy of toy-kem/ref in $bad/name/ref
    mkdir -p "$bad/$1"
    cp -r "$toy/toy-kem/ref" "$bad/$1/ref"
  }
  mkbad no-api && rm "$bad/no-api/ref/api.h"
  mkbad no-dec && sed -i '/crypto_kem_dec/d' "$bad/no-dec/ref/api.h"
  mkbad short-ct && sed -i 's/CIPHERTEXTBYTES 32/CIPHERTEXTBYTES 40/' "$bad/short-ct/ref/api.h"
  mkbad long-ct && sed -i 's/CIPHERTEXTBYTES 32/CIPHERTEXTBYTES 24/' "$bad/long-ct/ref/api.h"
  mkbad broken && echo 'this is not C;' >>"$bad/broken/ref/kem.c"
  grep -q 'CIPHERTEXTBYTES 40' "$bad/short-ct/ref/api.h" &&
    grep -q 'CIPHERTEXTBYTES 24' "$bad/long-ct/ref/api.h" &&
    ! grep -q crypto_kem_dec "$bad/no-dec/ref/api.h" ||
    fail "the bad folders were not made (has toy-kem/ref/api.h changed?)"
  expect() { # name exit-status pattern args...
    local name=$1 status=$2 pat=$3
    shift 3
    set +e
    "$merlin" run --target host --profile "$out/controls.profile" --runs 3 \
      --warmup 0 --out "$out/$name" "$@" >"$out/$name.log" 2>&1
    local got=$?
    set -e
    [ "$got" = "$status" ] || { cat "$out/$name.log"; fail "$name: exit $got, expected $status"; }
    grep -Eq "$pat" "$out/$name.log" || { cat "$out/$name.log"; fail "$name: no message matching $pat"; }
    [ ! -e "$out/$name/latest" ] || fail "$name: results were written"
    echo "ok: $name"
  }
  expect no-api 2 "no-api/ref: no api.h" --impl "$bad/no-api/ref"
  expect no-dec 2 "declares crypto_kem_keypair but no crypto_kem_dec" --impl "$bad/no-dec/ref"
  expect short-ct 1 "fails its known-answer test on the host.*ciphertext: shorter than the size its api.h declares" --impl "$bad/short-ct/ref"
  expect long-ct 1 "ciphertext: written past the size its api.h declares" --impl "$bad/long-ct/ref"
  expect broken 1 "broken/ref does not build on the host.*kem.c:[0-9]+:[0-9]+: error" --impl "$bad/broken/ref"
  expect among-good 2 "no-api/ref: no api.h" --impl "$toy/toy-kem/ref,$bad/no-api/ref"
  expect flaky 1 "error in toy-flaky (keygen|encaps|decaps) \(impl:toy-flaky/ref\): output check failed: (first call|sample [0-9]+): " \
    --impl "$toy/toy-kem/ref,$toy/toy-flaky/ref" --runs 40
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
