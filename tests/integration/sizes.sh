#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `merlin sizes` end to end on qemu-m4, for a small profile written here
# (sha256 on wolfCrypt, ML-KEM-512 on PQClean): every pair has flash,
# ML-KEM-512 costs more flash than SHA-256, the baseline image is subtracted
# and never reported as an algorithm, the libraries of each image add up to
# its flash and RAM, a second run is warm and gives the same numbers, and
# bad input exits 2. The JSON is checked with Node.js, which scripts/setup
# installs for scripts/fetch-deps.
#
# usage: sizes.sh MERLIN
set -euo pipefail
MERLIN=$1
TARGET=qemu-m4

tmp=$(mktemp -d /tmp/merlin-sizes-it.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"

cat >"$tmp/sizes-it.profile" <<'EOF'
# merlin sizes integration test (tests/integration/sizes.sh)
description = sizes test: sha256 on wolfcrypt, ml-kem-512 on pqclean
sha256 = wolfcrypt
ml-kem-512 = pqclean
EOF

# ---- bad input: exit 2 with the valid choices --------------------------
set +e
"$MERLIN" sizes --profile "$tmp/sizes-it.profile" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "no --target: exit $rc, want 2"
grep -q "valid: host, host-insn, qemu-m0plus" "$tmp/err" || fail "no --target: $(cat "$tmp/err")"
set +e
"$MERLIN" sizes --target nosuch >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "unknown target: exit $rc, want 2"
grep -q "unknown target 'nosuch'; valid: host, host-insn, qemu-m0plus" "$tmp/err" ||
  fail "unknown target: $(cat "$tmp/err")"
set +e
"$MERLIN" sizes --target $TARGET --profile nosuch >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "unknown profile: exit $rc, want 2"
grep -q "default" "$tmp/err" || fail "unknown profile lists none: $(cat "$tmp/err")"
set +e
"$MERLIN" sizes --target $TARGET --profile "$tmp/sizes-it.profile" \
  --json "$tmp/no/such/dir/x.json" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "--json in a missing directory: exit $rc, want 2"

# ---- the measurement ------------------------------------------------------
"$MERLIN" sizes --target $TARGET --profile "$tmp/sizes-it.profile" \
  --json "$tmp/sizes.json" >"$tmp/table.txt" 2>"$tmp/progress.txt" ||
  fail "merlin sizes failed: $(tail -20 "$tmp/progress.txt")"
cat "$tmp/table.txt"
grep -q "^sizes: $TARGET: 2/3 sha256 (wolfcrypt)$" "$tmp/progress.txt" ||
  fail "no progress line: $(cat "$tmp/progress.txt")"
grep -Eq "^sha256 +wolfcrypt +c +[0-9]+ +[0-9]+ +wolfcrypt " "$tmp/table.txt" ||
  fail "no sha256 row in the table"
grep -Eq "^ml-kem-512 +pqclean +clean +[0-9]+ " "$tmp/table.txt" ||
  fail "no ml-kem-512 row in the table"

check='
const fs = require("fs");
const d = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const bad = (m) => { console.error("sizes.sh: FAIL: " + m); process.exit(1); };
if (d.schema !== 1 || d.targets.length !== 1) bad("one target expected");
const t = d.targets[0];
if (t.target !== "qemu-m4" || t.profile !== "sizes-it") bad("target/profile");
const pairs = t.algorithms.map((a) => a.algorithm + "/" + a.backend);
if (pairs.join(",") !== "sha256/wolfcrypt,ml-kem-512/pqclean")
  bad("pairs: " + pairs.join(","));
const base = t.baseline.image;
if (!(base.flash_bytes > 0 && base.ram_bytes > 0)) bad("empty baseline");
const sum = (libs, k) => libs.reduce((s, l) => s + l[k], 0);
const images = [["baseline", t.baseline]].concat(
  t.algorithms.map((a) => [a.algorithm, a]));
for (const [name, r] of images) {
  const f = sum(r.libraries, "flash_bytes"), m = sum(r.libraries, "ram_bytes");
  if (Math.abs(f - r.image.flash_bytes) > 8)
    bad(name + ": libraries sum to " + f + " B flash, image " + r.image.flash_bytes);
  if (Math.abs(m - r.image.ram_bytes) > 8)
    bad(name + ": libraries sum to " + m + " B RAM, image " + r.image.ram_bytes);
  if (r.image.flash_bytes !== r.image.text + r.image.rodata + r.image.data)
    bad(name + ": flash is not text + rodata + data");
}
const by = {};
for (const a of t.algorithms) {
  by[a.algorithm] = a;
  if (!(a.flash_bytes > 0)) bad(a.algorithm + ": flash_bytes " + a.flash_bytes);
  if (a.flash_bytes !== a.image.flash_bytes - base.flash_bytes ||
      a.ram_bytes !== a.image.ram_bytes - base.ram_bytes)
    bad(a.algorithm + ": not its image minus the baseline");
  if (!a.variant) bad(a.algorithm + ": no variant");
  // PQClean is a backend of implementation folders: the objects of its
  // scheme are "impl-folder" (host/image/linkmap.h)
  const lib = a.backend === "wolfcrypt" ? "wolfcrypt" : "impl-folder";
  const l = a.libraries.find((x) => x.library === lib);
  if (!l || !(l.flash_added > 0)) bad(a.algorithm + ": no " + lib + " bytes");
  if (t.baseline.libraries.some((x) => x.library === lib))
    bad("the baseline holds " + lib);
}
if (!(by["ml-kem-512"].flash_bytes > by["sha256"].flash_bytes))
  bad("ML-KEM-512 flash " + by["ml-kem-512"].flash_bytes +
      " not above SHA-256 flash " + by["sha256"].flash_bytes);
// The heap and stack reservations are not static RAM (256 KB stack).
if (!(base.ram_bytes < 256 * 1024)) bad("baseline RAM counts the reservations");
console.log("sizes: sha256 " + by.sha256.flash_bytes + " B, ml-kem-512 " +
  by["ml-kem-512"].flash_bytes + " B flash over a " + base.flash_bytes +
  " B baseline");
'
node -e "$check" "$tmp/sizes.json"

# ---- warm: nothing to compile, the same numbers -----------------------------
start=$(date +%s)
"$MERLIN" sizes --target $TARGET --profile "$tmp/sizes-it.profile" --quiet \
  --json "$tmp/again.json" >/dev/null
took=$(($(date +%s) - start))
[ $took -le 30 ] || fail "a warm run took ${took} s"
node -e '
const fs = require("fs");
const strip = (f) => {
  const d = JSON.parse(fs.readFileSync(f, "utf8"));
  for (const t of d.targets) delete t.build_seconds;
  return JSON.stringify(d);
};
if (strip(process.argv[1]) !== strip(process.argv[2])) {
  console.error("sizes.sh: FAIL: a second run measured different sizes");
  process.exit(1);
}' "$tmp/sizes.json" "$tmp/again.json"
echo "sizes.sh: PASS (warm run ${took} s)"
