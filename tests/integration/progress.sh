#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What `merlin run` says to expect (docs/cli.md, "Progress"): every run
# succeeds (a merlin that fails is a failure, whatever it printed); nothing the
# first time an image runs, the recorded duration the next time with the
# same options, and the recorded options when they differ; a recorded
# total of 0 s is a record too; the constant-time pass of --ct keeps a
# record of its own and says what to expect from it, as the pass (not a
# second copy of the timed run's line).
#   progress.sh MERLIN
set -euo pipefail
merlin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-progress.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
printf 'description = progress test\nsha256 = wolfcrypt\nhmac-sha256 = wolfcrypt\n' \
  >"$work/progress-it.profile"
rm -f "$root/build/img/qemu-m4-progress-it/durations.txt" \
  "$root/build/img/qemu-m4-progress-it/ct-durations.txt"
# run OPTIONS...: merlin's "operations;" lines of a run, which must succeed.
run() {
  local rc=0
  "$merlin" run --target qemu-m4 --profile "$work/progress-it.profile" \
    --warmup 0 --out "$work/out" "$@" >"$work/run.log" 2>&1 || rc=$?
  # (in $(...): the reason to stderr, and the status ends the test)
  [ "$rc" = 0 ] || { cat "$work/run.log" >&2; fail "merlin run $* exited $rc" >&2; }
  grep 'operations;' "$work/run.log" || true
}
first=$(run --runs 3)
echo "$first"
grep -q 'no recorded run of this image' <<<"$first" || fail "first run: $first"
second=$(run --runs 3)
echo "$second"
grep -qE 'expected about [0-9.]+ s \(the recorded run' <<<"$second" ||
  fail "second run: $second"
third=$(run --runs 4)
echo "$third"
grep -q 'with other options (runs=3 ' <<<"$third" || fail "third run: $third"
# A run that took under a millisecond is still a recorded run (the third
# run recorded runs=4; its total made 0).
rec=$root/build/img/qemu-m4-progress-it/durations.txt
sed -i 's/^total .*/total 0.000/' "$rec"
fourth=$(run --runs 4)
echo "$fourth"
grep -q 'expected about 0.00 s (the recorded run' <<<"$fourth" || fail "fourth run: $fourth"
# --ct: the timed run as recorded, then the pass, first without a record
# of its own, then with it.
fifth=$(run --runs 4 --ct)
echo "$fifth"
[ "$(grep -c 'operations;' <<<"$fifth")" = 2 ] || fail "fifth run: $fifth"
tail -n 1 <<<"$fifth" | grep -qE 'the constant-time pass: [0-9]+ operations; no recorded run of this image' ||
  fail "fifth run: the pass does not say it is the pass: $fifth"
[ -s "$root/build/img/qemu-m4-progress-it/ct-durations.txt" ] ||
  fail "the constant-time pass wrote no ct-durations.txt"
sixth=$(run --runs 4 --ct)
echo "$sixth"
tail -n 1 <<<"$sixth" | grep -qE 'expected about [0-9.]+ s \(the recorded run' ||
  fail "sixth run: $sixth"
echo "6 passed, 0 failed"
