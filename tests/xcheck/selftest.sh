#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Self-test of the cross-check tools (ctest xcheck-selftest), for every
# operation class whether or not a backend serves it yet: a synthetic xcheck
# output (gen_sample.mjs) must pass both checkers, and each planted fault
# (one flipped byte in one line of backend sample-b, seed 3; a bad status
# field; a missing end line; an error line) must make the checkers fail with
# a line naming that algorithm, backend and seed.
#
#   selftest.sh CHECK_XCHECK [NODE_MODULES_DIR...]
#
# Exit status: 0 PASS, 1 FAIL, 77 SKIP (node or @noble missing).
set -uo pipefail

if [ "$#" -lt 1 ]; then
  echo "usage: selftest.sh CHECK_XCHECK [NODE_MODULES_DIR...]" >&2
  exit 2
fi
checker=$1
shift
here=$(cd "$(dirname "$0")" && pwd -P)
mods=()
for d in "$@"; do mods+=(--modules "$d"); done
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-xcheck-selftest.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

node "$here/gen_sample.mjs" "${mods[@]}" >"$work/sample.txt"
rc=$?
if [ "$rc" -eq 77 ]; then
  echo "SKIP: @noble not found"
  exit 77
fi
[ "$rc" -eq 0 ] || { echo "FAIL: gen_sample.mjs exited $rc"; exit 1; }

if "$checker" "$work/sample.txt" >"$work/log" 2>&1; then ok; else
  cat "$work/log"
  bad "check_xcheck rejects the clean sample"
fi
if node "$here/check_noble.mjs" "$work/sample.txt" "${mods[@]}" >"$work/log" 2>&1; then ok; else
  cat "$work/log"
  bad "check_noble rejects the clean sample"
fi

# subset ALG EDIT: the sample lines of ALG with EDIT (a perl substitution)
# applied to sample-b seed 3, with begin and end lines, into $work/m.txt.
subset() {
  local alg=$1 edit=$2
  {
    head -n 1 "$work/sample.txt"
    grep "^xcheck alg=$alg " "$work/sample.txt" |
      perl -ne "if (/ backend=sample-b .* seed=3 /) { $edit; } print"
  } >"$work/m.body"
  n=$(($(wc -l <"$work/m.body") - 1))
  { cat "$work/m.body"; echo "xcheck-end lines=$n errors=0 status=ok"; } >"$work/m.txt"
}

# expect TOOL WHAT: TOOL (c or noble) fails on $work/m.txt and names
# alg=$alg backend=sample-b seed=3.
expect() {
  local tool=$1 what=$2 rc
  if [ "$tool" = c ]; then
    "$checker" "$work/m.txt" >"$work/log" 2>&1
  else
    node "$here/check_noble.mjs" "$work/m.txt" "${mods[@]}" >"$work/log" 2>&1
  fi
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q "^FAIL alg=$alg backend=sample-b seed=3:" "$work/log"; then
    ok
  else
    cat "$work/log"
    bad "$tool checker (exit $rc) did not name alg=$alg backend=sample-b seed=3 for $what"
  fi
}

# A flipped bit in the first byte of FIELD: both checkers must notice.
flip() {
  alg=$1
  local field=$2
  subset "$alg" "s/( $field=)([0-9a-f])/\$1 . sprintf('%x', hex(\$2) ^ 1)/e"
  if cmp -s <(grep -v '^xcheck-' "$work/m.txt") <(grep "^xcheck alg=$alg " "$work/sample.txt"); then
    bad "the planted fault in $alg $field changed nothing"
    return
  fi
  expect c "a flipped $field"
  expect noble "a flipped $field"
}

flip sha256 digest
flip sha3-256 digest
flip shake256 out
flip hmac-sha256 tag
flip hkdf-sha256 okm
flip aes-128-gcm ct
flip aes-256-gcm tag
flip aes-128-ccm tag
flip ecdh-p256 ss
flip x25519 pk
flip ffdhe-2048 ss
flip ecdsa-p256 sig
flip ed25519 sig
flip rsa-2048 sig
flip ml-kem-768 ss
flip ml-kem-768 rej_ss
flip ml-dsa-44 sig_sha256
flip slh-dsa-sha2-128f pk_sha256

# Faults only the structure checks (check_xcheck) see.
alg=aes-128-gcm
subset "$alg" "s/ forgery=rejected/ forgery=fail/"
expect c "forgery=fail"
alg=ecdh-p256
subset "$alg" "s/ sk=.*/ error=keygen/"
expect c "error=keygen"
alg=sha256
subset "$alg" "next"
expect c "a missing line"
alg=ml-kem-768
subset "$alg" "1"
sed -i '$d' "$work/m.txt"
"$checker" "$work/m.txt" >"$work/log" 2>&1
if [ $? -eq 1 ] && grep -q "xcheck-end" "$work/log"; then ok; else
  cat "$work/log"
  bad "check_xcheck accepts output without its end line"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
