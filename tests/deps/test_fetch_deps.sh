#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# scripts/fetch-deps checks sha256 before it unpacks, and --check finds a
# corrupted archive. Uses no network: it copies an archive that an earlier
# fetch left in third_party/.archives into a temporary third_party, and runs
# fetch-deps with --offline and the MERLIN_* overrides. Exit 77 (SKIP) when
# no cached archive exists.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FETCH=$ROOT/scripts/fetch-deps
REAL_LOCK=$ROOT/deps.lock
REAL_ARCHIVES=$ROOT/third_party/.archives

passed=0 failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
. "$(dirname "$0")/../lib.sh"

# The smallest cached archive of each kind in the real lock, one line each:
# "name kind package suite version sha256 file".
declare -A pick=() best=()
while read -r name kind pkg suite ver sha; do
  case $kind in
    deb-src)
      up=${ver#*:}; case $up in *-*) up=${up%-*} ;; esac
      pattern="${pkg}_${up}.orig.tar.*" ;;
    npm)
      n=${pkg#@}; pattern="${n//\//-}-${ver}.tgz" ;;
    *) continue ;;
  esac
  for f in "$REAL_ARCHIVES"/$pattern; do
    case $f in *.asc) continue ;; esac
    [ -f "$f" ] || continue
    size=$(stat -c %s "$f")
    if [ -z "${best[$kind]:-}" ] || [ "$size" -lt "${best[$kind]}" ]; then
      best[$kind]=$size pick[$kind]="$name $kind $pkg $suite $ver $sha $f"
    fi
  done
done < <(sed 's/#.*//' "$REAL_LOCK" | awk 'NF == 6')

if [ ${#pick[@]} -eq 0 ]; then
  echo "SKIP: no cached archive in $REAL_ARCHIVES (run scripts/fetch-deps first)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# setup DIR SHA: a third_party in DIR whose cache holds the archive, and a
# lock that pins it with SHA
setup() {
  mkdir -p "$1/tp/.archives"
  cp "$file" "$1/tp/.archives/"
  printf '# test lock\n%s %s %s %s %s %s\n' "$name" "$kind" "$pkg" "$suite" "$ver" "$2" > "$1/lock"
}
run() {  # run DIR ARGS...: fetch-deps on DIR, output in DIR/out, status in rc
  local d=$1; shift
  rc=0
  MERLIN_DEPS_LOCK=$d/lock MERLIN_THIRD_PARTY=$d/tp "$FETCH" --offline "$@" \
    >"$d/out" 2>&1 || rc=$?
}

for k in "${!pick[@]}"; do
  read -r name kind pkg suite ver sha file <<<"${pick[$k]}"
  echo "-- $kind: $name ($pkg $ver), ${file##*/}"
  w=$work/$kind

  # (1) a wrong sha256 stops before unpacking
  wrong=$(printf '%s' "$sha" | tr '0-9a-f' '1-9a-f0')
  setup "$w/bad" "$wrong"
  run "$w/bad" --only "$name"
  if [ "$rc" -ne 0 ]; then pass "$kind wrong sha256: exit status $rc"; else soft_fail "$kind wrong sha256: exit status 0"; fi
  if grep -q "$name" "$w/bad/out" && grep -qi 'sha256 mismatch' "$w/bad/out"; then
    pass "$kind wrong sha256: message names $name and says sha256 mismatch"
  else
    soft_fail "$kind wrong sha256: message lacks name or 'sha256 mismatch':"; sed 's/^/  | /' "$w/bad/out"
  fi
  if grep -q "$wrong" "$w/bad/out" && grep -q "$sha" "$w/bad/out" && grep -q "${file##*/}" "$w/bad/out"; then
    pass "$kind wrong sha256: message shows the file, expected and actual sha256"
  else
    soft_fail "$kind wrong sha256: message lacks the file, expected or actual sha256"
  fi
  if [ ! -e "$w/bad/tp/$name" ] && ! compgen -G "$w/bad/tp/.unpack-*" >/dev/null; then
    pass "$kind wrong sha256: nothing unpacked"
  else
    soft_fail "$kind wrong sha256: something was unpacked"; ls -la "$w/bad/tp"
  fi

  # (2) the right sha256 unpacks, records the version; a rerun is a no-op
  setup "$w/good" "$sha"
  run "$w/good" --only "$name"
  if [ "$rc" -eq 0 ] && [ -f "$w/good/tp/$name/.merlin-stamp" ]; then
    pass "$kind right sha256: unpacked into third_party/$name"
  else
    soft_fail "$kind right sha256: exit $rc"; sed 's/^/  | /' "$w/good/out"
  fi
  top=$(find "$w/good/tp/$name" -mindepth 1 -maxdepth 1 ! -name .merlin-stamp | wc -l)
  if [ "$top" -gt 1 ]; then
    pass "$kind right sha256: top directory stripped ($top entries)"
  else
    soft_fail "$kind right sha256: expected the unpacked source root, found $top entries"
  fi
  if grep -q "^$name .* $sha $kind" "$w/good/tp/VERSIONS" 2>/dev/null &&
     grep -q "MERLIN_DEP_.*_SHA256 \"$sha\"" "$w/good/tp/versions.cmake" 2>/dev/null; then
    pass "$kind right sha256: VERSIONS and versions.cmake record it"
  else
    soft_fail "$kind right sha256: VERSIONS or versions.cmake lacks the entry"
  fi
  touch "$w/good/tp/$name/.marker"
  run "$w/good" --only "$name"
  if [ "$rc" -eq 0 ] && grep -q 'up to date' "$w/good/out" && [ -e "$w/good/tp/$name/.marker" ]; then
    pass "$kind second run: up to date, nothing unpacked again"
  else
    soft_fail "$kind second run: exit $rc or unpacked again"; sed 's/^/  | /' "$w/good/out"
  fi

  # (3) --check passes on the intact archive and fails on one flipped byte
  run "$w/good" --check
  if [ "$rc" -eq 0 ]; then pass "$kind --check: intact archive verified"; else soft_fail "$kind --check: intact archive, exit $rc"; fi
  cached=$w/good/tp/.archives/${file##*/}
  offset=$(($(stat -c %s "$cached") / 2))
  byte=$(od -An -tu1 -j "$offset" -N1 "$cached" | tr -d ' ')
  printf '%b' "\\$(printf '%03o' $((byte ^ 0xff)))" |
    dd of="$cached" bs=1 seek="$offset" conv=notrunc status=none
  run "$w/good" --check
  if [ "$rc" -ne 0 ] && grep -qi 'sha256 mismatch' "$w/good/out" && grep -q "$name" "$w/good/out"; then
    pass "$kind --check: flipped byte detected (exit $rc)"
  else
    soft_fail "$kind --check: flipped byte not detected (exit $rc)"; sed 's/^/  | /' "$w/good/out"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
