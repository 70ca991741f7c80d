#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A cell does not depend on its neighbours (docs/measurements.md,
# "Independent cells"): every operation of the default profile on qemu-m4
# gives the same samples in the default image as in an image holding only
# half of the default's algorithms (two halves, interleaved, so that every
# operation loses its neighbours before and after it, and its library the
# algorithms that configure it).
#   neighbours.sh MERLIN
set -euo pipefail
merlin=$1
target=qemu-m4
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-neighbours.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }

few=(--runs 2 --warmup 0)
"$merlin" run --target $target "${few[@]}" --out "$work/all" --quiet ||
  fail "the default profile did not run"
# The default profile's algorithms (profiles/default.profile), each half
# on the default's backends of it: --backend names every one, and an
# algorithm takes those of them that offer it.
backends=wolfcrypt,mbedtls,pqclean
halves=(sha256,hkdf-sha256,ecdh-p256,ecdsa-p256,ml-kem-768,ml-dsa-44
  hmac-sha256,aes-128-gcm,x25519,ed25519,ml-kem-512,ml-dsa-65)
for i in 0 1; do
  "$merlin" run --target $target --alg "${halves[$i]}" --backend $backends \
    "${few[@]}" --out "$work/half$i" --quiet ||
    fail "half $i (${halves[$i]}) did not run"
done

node -e '
  const [all, h0, h1] = process.argv.slice(1).map((d) => require(d + "/latest/results.json"));
  const key = (o) => [o.alg, o.op, o.bytes, o.backend, o.variant].join("/");
  const halves = new Map();
  for (const r of [h0, h1].flatMap((x) => x.runs))
    for (const o of r.ops) halves.set(key(o), o);
  const fail = (m) => { console.log("FAIL: " + m); console.log("0 passed, 1 failed"); process.exit(1); };
  let n = 0;
  for (const o of all.runs[0].ops) {
    const h = halves.get(key(o));
    if (!h) fail(key(o) + ": in no half");
    if (o.samples.length === 0 || JSON.stringify(o.samples) !== JSON.stringify(h.samples))
      fail(key(o) + ": samples " + JSON.stringify(o.samples) + " in the default image, " +
           JSON.stringify(h.samples) + " beside half of its neighbours");
    halves.delete(key(o));
    n++;
  }
  if (halves.size) fail("not in the default image: " + [...halves.keys()].join(" "));
  if (n !== 79) fail(n + " operations in the default image, expected 79");
  console.log(n + " operations: the same samples with and without their neighbours");
' "$work/all" "$work/half0" "$work/half1"
echo "1 passed, 0 failed"
