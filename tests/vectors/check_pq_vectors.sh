#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Recomputes one family of known answers with an independent implementation
# and compares them, array by array and by name, with the C tables:
#
#   check_pq_vectors.sh mlkem   [NODE_MODULES_DIR...]  ML-KEM-512/768/1024
#       gen_mlkem_vectors.mjs (@noble/post-quantum)  vs src/ops/vectors_kem.c
#   check_pq_vectors.sh mldsa   [NODE_MODULES_DIR...]  ML-DSA-44/65/87
#       gen_mldsa_vectors.mjs (@noble/post-quantum)  vs src/ops/vectors_pq.c
#   check_pq_vectors.sh slhdsa  [NODE_MODULES_DIR...]  SLH-DSA-*-128s/f, and
#       the key digests of SPHINCS+ r3 (same key generation)
#       gen_slhdsa_vectors.mjs (@noble/post-quantum) vs src/ops/vectors_pq.c
#   check_pq_vectors.sh ascon                          Ascon-Hash256/AEAD128
#       gen_ascon_vectors.mjs (stand-alone SP 800-232 implementation)
#       vs src/ops/vectors_hash.c and src/ops/vectors_aead.c
#   check_pq_vectors.sh sphincs GEN_SPHINCS_BINARY     SPHINCS+ r3.1
#       gen_sphincs_vectors (PQClean on the host)    vs src/ops/vectors_pq.c
#
# Every array the generator prints must be in the C file with the same bytes,
# and every array of the C file that belongs to the family (by its name
# prefix) must have been printed, so no stale value survives.
# Without NODE_MODULES_DIR noble is looked for in third_party/node/node_modules
# and third_party/node_modules of this repository (in that order).
# Exit status: 0 PASS, 1 FAIL, 77 SKIP (node, @noble/post-quantum or the
# generator binary missing).
set -u

here=$(cd "$(dirname "$0")" && pwd -P)
repo=$(cd "$here/../.." && pwd -P)
ops="$repo/src/ops"

if [ "$#" -lt 1 ]; then
  echo "usage: check_pq_vectors.sh mlkem|mldsa|slhdsa|ascon [NODE_MODULES_DIR...]" >&2
  echo "       check_pq_vectors.sh sphincs GEN_SPHINCS_BINARY" >&2
  exit 1
fi
family=$1
shift

# family -> generator, C files, name prefixes the family owns (extended
# regular expression on the array name).
case "$family" in
mlkem)
  gen=gen_mlkem_vectors.mjs cfiles="$ops/vectors_kem.c" owned='^mlkem' ;;
mldsa)
  gen=gen_mldsa_vectors.mjs cfiles="$ops/vectors_pq.c" owned='^mldsa' ;;
slhdsa)
  gen=gen_slhdsa_vectors.mjs cfiles="$ops/vectors_pq.c"
  owned='^slhdsa_|^sphincs_.*_(pk|sk)_sha256$' ;;
ascon)
  gen=gen_ascon_vectors.mjs cfiles="$ops/vectors_hash.c $ops/vectors_aead.c"
  owned='^ascon_' ;;
sphincs)
  gen= cfiles="$ops/vectors_pq.c" owned='^sphincs_' ;;
*)
  echo "FAIL: unknown family '$family'"
  exit 1
  ;;
esac

for f in $cfiles; do
  if [ ! -r "$f" ]; then
    echo "FAIL: cannot read $f"
    exit 1
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pq-vectors.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ "$family" = sphincs ]; then
  bin=${1:-}
  if [ -z "$bin" ] || [ ! -x "$bin" ]; then
    echo "SKIP: the gen_sphincs_vectors binary is missing (PQClean sources" \
      "not fetched?)"
    exit 77
  fi
  "$bin" >"$tmp/expected" 2>"$tmp/err"
  rc=$?
  what="PQClean (gen_sphincs_vectors)"
else
  if ! command -v node >/dev/null 2>&1; then
    echo "SKIP: node is not installed"
    exit 77
  fi
  if [ "$#" -gt 0 ]; then
    node_path=$(printf '%s:' "$@")
    node_path=${node_path%:}
  else
    node_path="$repo/third_party/node/node_modules:$repo/third_party/node_modules"
  fi
  NODE_PATH="$node_path" node "$here/$gen" --format lines >"$tmp/expected" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -eq 77 ]; then
    cat "$tmp/err"
    echo "SKIP: @noble/post-quantum not found in $node_path"
    exit 77
  fi
  what=$gen
fi
if [ "$rc" -ne 0 ]; then
  cat "$tmp/err"
  echo "FAIL: the generator failed (exit $rc)"
  exit 1
fi

# Every "static const uint8_t NAME[] = {0x.., ...};" of the C files as
# "NAME hex".
awk '
  function flush() { if (name != "") print name, hex; name = ""; hex = "" }
  /static const uint8_t [A-Za-z0-9_]+\[[0-9]*\] = \{/ {
    flush()
    s = $0
    sub(/.*static const uint8_t /, "", s)
    name = s
    sub(/\[.*/, "", name)
    sub(/^[^{]*\{/, "", s)
    inarr = 1
  }
  !/static const uint8_t [A-Za-z0-9_]+\[[0-9]*\] = \{/ { if (inarr) s = $0 }
  inarr {
    done = (s ~ /\}/)
    sub(/\}.*/, "", s)
    n = split(s, tok, /[^0-9A-Fa-fx]+/)
    for (i = 1; i <= n; i++)
      if (tok[i] ~ /^0[xX][0-9A-Fa-f][0-9A-Fa-f]$/) hex = hex tolower(substr(tok[i], 3))
    if (done) { inarr = 0; flush() }
  }
  END { flush() }
' $cfiles >"$tmp/actual"

nexp=$(wc -l <"$tmp/expected" | tr -d ' ')
if [ "$nexp" -eq 0 ]; then
  echo "FAIL: the generator printed nothing"
  exit 1
fi

fail=0
# 1. Every generated array is in the C files, with the same bytes.
while read -r name hex; do
  got=$(awk -v n="$name" '$1 == n { print $2; exit }' "$tmp/actual")
  if [ -z "$got" ]; then
    echo "FAIL: $name is not in $cfiles"
    fail=1
  elif [ "$got" != "$hex" ]; then
    echo "FAIL: $name differs"
    echo "  expected $hex"
    echo "  C file   $got"
    fail=1
  fi
done <"$tmp/expected"
# 2. Every array the family owns in the C files was generated.
cut -d' ' -f1 "$tmp/expected" | sort >"$tmp/names"
cut -d' ' -f1 "$tmp/actual" | grep -E "$owned" | sort >"$tmp/owned"
for name in $(comm -13 "$tmp/names" "$tmp/owned"); do
  echo "FAIL: $name in the C file is not checked by $what"
  fail=1
done

if [ "$fail" -ne 0 ]; then
  echo "FAIL: $family vectors differ from $what"
  exit 1
fi
echo "PASS: $nexp $family arrays match $what"
exit 0
