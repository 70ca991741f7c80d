#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The folder options' edge cases (docs/cli.md; issue 30 item 5), each a
# clear message and the right exit status, found before anything is built:
#   impl_usage.sh MERLIN OUTDIR
# The characters the image build cannot carry are refused naming the folder
# and the character (a path with all the others builds: impl-shapes-good-qemu-m4-qemu-m4);
# a long path keeps its reason; a scheme folder names its implementation
# folders; a numeric
# CRYPTO_ALGNAME, --impl ',,' and '', --impl-hash thumb2-asm on a core
# without Thumb-2 and --impl with --from are usage errors; agree --md to a
# place that cannot be written fails before its build.
set -euo pipefail
merlin=$1
out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf "$out"
mkdir -p "$out"
. "$root/tests/lib.sh"
cat >"$out/controls.profile" <<'EOF'
# SPDX-License-Identifier: Apache-2.0
description = tests/integration/impl_usage.sh: controls only
hmac-sha256 = wolfcrypt
EOF
toy=tests/impl/crypto_kem/toy-kem/ref
expect() { # name status pattern args...
  local name=$1 status=$2 pat=$3
  shift 3
  set +e
  "$@" >"$out/$name.log" 2>&1
  local got=$?
  set -e
  [ "$got" = "$status" ] || { cat "$out/$name.log"; fail "$name: exit $got, expected $status"; }
  grep -Eq -- "$pat" "$out/$name.log" || { cat "$out/$name.log"; fail "$name: no message matching $pat"; }
  if grep -q "building image" "$out/$name.log"; then
    cat "$out/$name.log"
    fail "$name: an image was built"
  fi
  echo "ok: $name"
}
run() { "$merlin" run --target host --profile "$out/controls.profile" --kat-only "$@"; }

# What it cannot carry: refused, naming the folder and the character.
for c in '|' '[' '#' '??' '@VAR@'; do
  d="$out/bad/a${c}b/crypto_kem/toy-kem"
  mkdir -p "$d"
  cp -r "$toy" "$d/ref"
  want=${c:0:1}
  expect "char-$(printf %s "$c" | od -An -tx1 | tr -d ' \n')" 2 \
    "implementation folder .*/a.*b/crypto_kem/toy-kem/ref: its path holds '\\$want' at offset [0-9]+ \(" \
    run --impl "$d/ref"
done

# A long path: shortened, the reason kept.
long="$out/long"
for i in $(seq 1 24); do long="$long/abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"; done
mkdir -p "$long/crypto_kem/toy-kem/ref"
expect long-path 2 "\(a path of [0-9]+ bytes\): no api.h \(an implementation folder holds api.h" \
  run --impl "$long/crypto_kem/toy-kem/ref"

# A scheme folder (pqm4's and PQClean's crypto_kem/<scheme>): its
# implementation folders named, and --impl-tree.
expect scheme-folder 2 "toy-kem: no api.h: this is a scheme folder; give one of its implementation folders \(ref, thumb2\) or --impl-tree" \
  run --impl "$(dirname "$toy")"

# A numeric CRYPTO_ALGNAME.
mkdir -p "$out/num/crypto_kem/toy-kem"
cp -r "$toy" "$out/num/crypto_kem/toy-kem/ref"
sed -i 's/#define CRYPTO_ALGNAME .*/#define CRYPTO_ALGNAME 42/' "$out/num/crypto_kem/toy-kem/ref/api.h"
grep -q 'CRYPTO_ALGNAME 42' "$out/num/crypto_kem/toy-kem/ref/api.h" || fail "the numeric CRYPTO_ALGNAME was not made"
expect numeric-algname 2 "api.h: CRYPTO_ALGNAME is not a string" \
  run --impl "$out/num/crypto_kem/toy-kem/ref"

# The command line.
expect impl-commas 2 "--impl ',,': an empty folder name" run --impl ,,
expect impl-empty 2 "option --impl needs a non-empty value" run --impl ''
expect impl-trailing 2 "an empty folder name" run --impl "$toy,"
expect hash-host 2 "--impl-hash thumb2-asm needs a core with Thumb-2 .*; host has none" \
  run --impl "$toy" --impl-hash thumb2-asm
expect hash-m0plus 2 "qemu-m0plus has none" \
  "$merlin" run --target qemu-m0plus --impl "$toy" --impl-hash thumb2-asm --kat-only
echo "@M1 0 begin v=1 #00000000" >"$out/stream.log"
expect impl-from 2 "--from reads a captured stream: --impl" \
  "$merlin" run --target host --from "$out/stream.log" --impl "$toy"
expect agree-md 1 "merlin agree: --md .*/no/such/dir/t.md: cannot write in .*/no/such/dir: No such file or directory" \
  "$merlin" agree --target host --backend wolfcrypt --md "$out/no/such/dir/t.md"
