#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Exact host counts (target host-insn: the host image under qemu-x86_64 with
# the merlin_insn plugin; docs/host.md): two runs of a small profile, the
# second while a busy loop keeps the other core occupied, give the same
# samples, every one of them; merlin compare finds no change between them,
# and flags one operation made 0.2 % slower at --threshold 0.1.
#   hostcount.sh MERLIN
set -euo pipefail
merlin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-hostcount.XXXXXX")
busy=
cleanup() {
  [ -n "$busy" ] && kill "$busy" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
. "$(dirname "$0")/../lib.sh"
command -v qemu-x86_64 >/dev/null || fail "qemu-x86_64 missing (Debian qemu-user; scripts/setup test)"

cat >"$work/small.profile" <<'P'
# SPDX-License-Identifier: Apache-2.0
description = exact host counts test: SHA-256 and the controls
sha256 = wolfcrypt
hmac-sha256 = wolfcrypt
hkdf-sha256 = wolfcrypt
P
run() { "$merlin" run --target host-insn --profile "$work/small.profile" \
  --runs 11 --warmup 1 --out "$work/$1" --quiet >/dev/null; }
run a
nice -n 19 sh -c 'while :; do :; done' &
busy=$!
run b
kill "$busy"
busy=

node -e '
  const fs = require("fs");
  const [a, b] = process.argv.slice(1).map(f => JSON.parse(fs.readFileSync(f)).runs[0]);
  if (a.provenance.unit !== "instructions (x86-64)")
    throw new Error("unit is " + a.provenance.unit);
  if (a.ops.length !== b.ops.length || a.ops.length < 9)
    throw new Error("operations: " + a.ops.length + " and " + b.ops.length);
  a.ops.forEach((o, i) => {
    if (JSON.stringify(o.samples) !== JSON.stringify(b.ops[i].samples))
      throw new Error(`${o.alg} ${o.op} ${o.bytes}: samples differ`);
  });
  console.log(`${a.ops.length} operations, every sample the same in both runs`);' \
  "$work/a/latest/results.json" "$work/b/latest/results.json" || fail "runs differ"

"$merlin" compare "$work/a/latest" "$work/b/latest" --threshold 0.1 >"$work/cmp" ||
  fail "compare of two identical runs exited $?"
grep -q "no change" "$work/cmp" || fail "compare did not say 'no change'"
node -e '
  const fs = require("fs");
  const j = JSON.parse(fs.readFileSync(process.argv[1]));
  const o = j.runs[0].ops.find(o => o.alg === "sha256" && o.bytes === 256);
  for (const k of ["median", "p99", "iqr", "min", "max", "mean", "stddev"])
    o[k] *= 1.002;
  o.samples = o.samples.map(v => v * 1.002);
  fs.writeFileSync(process.argv[2], JSON.stringify(j));' \
  "$work/b/latest/results.json" "$work/slower.json"
set +e
"$merlin" compare "$work/a/latest" "$work/slower.json" --threshold 0.1 >"$work/cmp"
rc=$?
set -e
cat "$work/cmp"
[ "$rc" -eq 1 ] || fail "a 0.2 % slower operation: compare exited $rc, not 1"
grep -q "sha256 hash.*REGRESSED" "$work/cmp" || fail "the regression is not named"
echo "1 passed, 0 failed"
