#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Adding a QEMU target on an existing machine is one descriptor file
# (docs/boards.md "Targets"): in a copy of the tree, add only the
# descriptor of qemu-m4-copy (a second Cortex-M4 id on mps2-an386) and run
# it with the merlin under test pointed at the copy (MERLIN_ROOT): it is
# listed, its image builds, passes its known-answer tests and runs (one
# sample), and the image itself reports the new id.
#   new_target.sh MERLIN SOURCE_DIR
set -euo pipefail
merlin=${1:?usage: new_target.sh MERLIN SOURCE_DIR}
root=${2:?usage: new_target.sh MERLIN SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../lib.sh"
tree=$tmp/tree
ext=board
mkdir -p "$tree"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 cp --parents -t "$tree" 2>/dev/null) || fail "cannot copy the tree"
ln -s "$root/third_party" "$tree/third_party"
before=$(cd "$tree" && find . -path ./third_party -prune -o -type f -print | sort)

# The one file: the qemu-m4 descriptor under another id and name.
sed -e 's/^target = qemu-m4$/target = qemu-m4-copy/' \
  -e 's/^name = .*/name = QEMU mps2-an386 (second id)/' \
  -e 's/^description = .*/description = a second Cortex-M4 id on mps2-an386 (test)/' \
  "$root/boards/qemu-m4.board" >"$tree/boards/qemu-m4-copy.$ext"
grep -q '^target = qemu-m4-copy$' "$tree/boards/qemu-m4-copy.$ext" ||
  fail "the copied descriptor has no target line"
after=$(cd "$tree" && find . -path ./third_party -prune -o -type f -print | sort)
added=$(comm -13 <(echo "$before") <(echo "$after"))
[ "$added" = "./boards/qemu-m4-copy.$ext" ] || fail "more than one file added: $added"

export MERLIN_ROOT=$tree
"$merlin" list targets | grep -q '^  qemu-m4-copy ' || fail "merlin list targets does not list qemu-m4-copy"
out=$tmp/out
"$merlin" run --target qemu-m4-copy --profile "$tree/tests/cycles/cycles.profile" \
  --runs 1 --warmup 0 --quiet --out "$out" >"$tmp/run.log" 2>&1 ||
  { cat "$tmp/run.log"; fail "merlin run --target qemu-m4-copy failed"; }
json=$out/latest/results.json
# The image's own begin record (the console log) names the new id.
grep -q 'qemu-m4-copy' "$out"/latest/console-qemu-m4-copy-*.log ||
  fail "the console log of the image does not name qemu-m4-copy"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).runs[0];
  if (r.target !== "qemu-m4-copy") throw new Error("run target " + r.target);
  const kat = r.ops.filter((o) => o.kat === "pass").length;
  if (kat === 0 || r.ops.some((o) => o.kat !== "pass")) throw new Error("KATs: " + kat + " of " + r.ops.length + " passed");
  console.log("ok: qemu-m4-copy listed, built and ran " + kat + " KATs, the image reports its id");
' "$json" || fail "results of the new target: $json"

# A descriptor that does not parse stops every command with its file and
# line, not with "unknown target".
sed -i '/^qemu_cpu/d' "$tree/boards/qemu-m4-copy.$ext"
set +e
"$merlin" run --target qemu-m4 --out "$tmp/out2" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] || fail "a broken descriptor: exit $rc, want 1"
grep -q "cannot read the target descriptors: boards/qemu-m4-copy.$ext: missing 'qemu_cpu' (kind = qemu)" "$tmp/err" ||
  fail "a broken descriptor: $(cat "$tmp/err")"
echo "ok: a broken descriptor is reported with its file"
