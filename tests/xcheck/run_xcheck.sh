#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The host cross-check (ctest xcheck-host): builds the host image of
# profiles/crosscheck.profile, runs it with --xcheck, and checks its output
# with OpenSSL (check_xcheck) and @noble (check_noble.mjs).
#
#   run_xcheck.sh MERLIN CHECK_XCHECK [NODE_MODULES_DIR...]
#
# MERLIN is the CLI binary, CHECK_XCHECK the OpenSSL checker, NODE_MODULES_DIR
# where @noble/* is installed (default: NODE_PATH, then third_party/).
# Exit status: 0 PASS, 1 FAIL, 77 SKIP (the OpenSSL checks passed but node or
# @noble/post-quantum is missing, so the post-quantum results were not
# recomputed). On failure the image output is kept and its path printed.
set -uo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: run_xcheck.sh MERLIN CHECK_XCHECK [NODE_MODULES_DIR...]" >&2
  exit 2
fi
merlin=$1 checker=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd -P)
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-xcheck.XXXXXX") || exit 1
keep=0
trap '[ "$keep" = 1 ] || rm -rf "$work"' EXIT
out=$work/xcheck.txt

fail_hook() {
  keep=1
  echo "xcheck output kept in $out"
}
. "$(dirname "$0")/../lib.sh"

# `merlin build` prints the image path last.
if ! "$merlin" build --target host --profile crosscheck --quiet >"$work/build.out" 2>&1; then
  cat "$work/build.out"
  fail "merlin build --target host --profile crosscheck failed"
fi
image=$(tail -n 1 "$work/build.out")
[ -x "$image" ] || fail "the build printed no image path ('$image')"

"$image" --xcheck >"$out" 2>"$work/image.err"
image_rc=$?
cat "$work/image.err"
echo "image: $image --xcheck exit $image_rc, $(grep -c '^xcheck ' "$out") lines"

status=0
echo "== OpenSSL and cross-backend checks (check_xcheck)"
"$checker" "$out" || status=1
[ "$image_rc" -eq 0 ] || { echo "FAIL: the image exited $image_rc"; status=1; }

echo "== @noble checks (check_noble.mjs)"
noble=0
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed"
  noble=77
else
  mods=()
  for d in "$@"; do mods+=(--modules "$d"); done
  node "$here/check_noble.mjs" "$out" "${mods[@]}"
  noble=$?
fi

if [ "$status" -ne 0 ] || { [ "$noble" -ne 0 ] && [ "$noble" -ne 77 ]; }; then
  fail "cross-check failed (see the FAIL lines above)"
fi
if [ "$noble" -eq 77 ]; then
  echo "SKIP: the post-quantum outputs were not recomputed (no @noble)"
  exit 77
fi
echo "PASS: every backend agrees with the others, OpenSSL and @noble"
exit 0
