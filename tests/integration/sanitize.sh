#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The instrumented CLI (make test-sanitize: ASan, UBSan, LeakSanitizer)
# through the paths the host-only tests do not reach: a QEMU run with the
# cycle plugin, the same run's console read back with --from, compare and
# report of the results, and a QEMU run whose plugin is missing (an error
# path that leaked its argv). Any sanitizer finding makes merlin exit
# non-zero (LeakSanitizer: 23), which fails the step.
#   sanitize.sh MERLIN
set -euo pipefail
merlin=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-sanitize.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
printf 'description = sanitizer paths\nsha256 = wolfcrypt\n' >"$work/san.profile"
run() { "$merlin" run --target qemu-m4 --profile "$work/san.profile" \
  --runs 3 --warmup 0 --quiet "$@"; }
run --out "$work/a" || fail "qemu-m4 run"
run --out "$work/b" || fail "second qemu-m4 run"
"$merlin" run --target qemu-m4 --from "$work/a/latest/console-qemu-m4-san.log" \
  --out "$work/c" --quiet || fail "--from"
"$merlin" compare "$work/a/latest" "$work/b/latest" >"$work/cmp" ||
  fail "compare: $(cat "$work/cmp")"
"$merlin" report "$work/c/latest" >/dev/null || fail "report"
set +e
MERLIN_QEMU_PLUGIN=/nonexistent/merlin_cycles.so run --out "$work/x" \
  2>"$work/x.err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "missing plugin: exit $rc, want 1: $(cat "$work/x.err")"
echo "5 passed, 0 failed"
