#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Recomputes the ML-KEM-512/768/1024 known-answer values with
# @noble/post-quantum (tests/vectors/gen_mlkem_vectors.mjs) and compares
# them, array by array and in file order, with the tables in
# src/ops/vectors_kem.c (every array of that file, inputs included).
# check_pq_vectors.sh mlkem does the same comparison by array name.
#
#   check_mlkem_vectors.sh [NODE_MODULES_DIR...]
#
# Without arguments noble is looked for in third_party/node/node_modules and
# third_party/node_modules of this repository (in that order).
# Exit status: 0 PASS, 1 FAIL, 77 SKIP (node or @noble/post-quantum missing).
set -u

here=$(cd "$(dirname "$0")" && pwd -P)
repo=$(cd "$here/../.." && pwd -P)
gen="$here/gen_mlkem_vectors.mjs"
cfile="$repo/src/ops/vectors_kem.c"

if [ "$#" -gt 0 ]; then
  node_path=$(printf '%s:' "$@")
  node_path=${node_path%:}
else
  node_path="$repo/third_party/node/node_modules:$repo/third_party/node_modules"
fi

if [ ! -r "$cfile" ]; then
  echo "FAIL: cannot read $cfile"
  exit 1
fi
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mlkem-vectors.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

NODE_PATH="$node_path" node "$gen" --format lines >"$tmp/expected" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 77 ]; then
  cat "$tmp/err"
  echo "SKIP: @noble/post-quantum not found in $node_path"
  exit 77
fi
if [ "$rc" -ne 0 ]; then
  cat "$tmp/err"
  echo "FAIL: the generator failed (exit $rc)"
  exit 1
fi

# Every "static const uint8_t NAME[] = {0x.., ...};" of the C file as
# "NAME hex", in file order.
awk '
  function flush() { if (name != "") print name, hex; name = ""; hex = "" }
  /static const uint8_t [A-Za-z0-9_]+\[\] = \{/ {
    flush()
    s = $0
    sub(/.*static const uint8_t /, "", s)
    name = s
    sub(/\[.*/, "", name)
    sub(/^[^{]*\{/, "", s)
    inarr = 1
  }
  !/static const uint8_t [A-Za-z0-9_]+\[\] = \{/ { if (inarr) s = $0 }
  inarr {
    done = (s ~ /\}/)
    sub(/\}.*/, "", s)
    n = split(s, tok, /[^0-9A-Fa-fx]+/)
    for (i = 1; i <= n; i++)
      if (tok[i] ~ /^0[xX][0-9A-Fa-f][0-9A-Fa-f]$/) hex = hex tolower(substr(tok[i], 3))
    if (done) { inarr = 0; flush() }
  }
  END { flush() }
' "$cfile" >"$tmp/actual"

nexp=$(wc -l <"$tmp/expected" | tr -d ' ')
if [ "$nexp" -eq 0 ]; then
  echo "FAIL: the generator printed nothing"
  exit 1
fi
if diff -u "$tmp/expected" "$tmp/actual" >"$tmp/diff"; then
  echo "PASS: $nexp arrays of src/ops/vectors_kem.c match @noble/post-quantum"
  exit 0
fi
echo "FAIL: src/ops/vectors_kem.c differs from @noble/post-quantum" \
  "(--- generator, +++ C file):"
cat "$tmp/diff"
exit 1
