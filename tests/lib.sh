# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# What the shell tests share, sourced by each (". tests/lib.sh" from its
# own place, e.g. . "$(dirname "$0")/../lib.sh"):
#   fail MESSAGE...        says "FAIL: MESSAGE" and ends the test, status 1
#                          (after the test's own fail_hook, when it has one)
#   soft_fail MESSAGE...   says "FAIL: MESSAGE" and counts it in $failed; the
#                          test goes on and ends with finish
#   finish                 "N passed, M failed" ($passed, $failed) and the
#                          status: 1 when anything failed or nothing passed
#   expect STATUS NEEDLE COMMAND...
#                          COMMAND exits STATUS within $expect_timeout
#                          seconds (60), its output (in $expect_log) says
#                          NEEDLE; counted in $passed, else fail
#   lacks NEEDLE           the last expect's output does not say NEEDLE
#   no_results DIR         no results.json anywhere under DIR
# A test that cannot fail is no test: finish fails one that passed nothing.
passed=${passed:-0}
failed=${failed:-0}
expect_timeout=${expect_timeout:-60}

fail() {
  echo "FAIL: $*"
  if declare -F fail_hook >/dev/null; then fail_hook; fi
  exit 1
}

soft_fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ] && [ "$passed" -gt 0 ]
  exit
}

expect() {
  local want=$1 needle=$2 rc=0
  shift 2
  expect_log=${expect_log:-$(mktemp "${TMPDIR:-/tmp}/merlin-expect.XXXXXX")}
  timeout "$expect_timeout" "$@" >"$expect_log" 2>&1 </dev/null || rc=$?
  [ "$rc" -ne 124 ] || { cat "$expect_log"; fail "'$*' hung (killed after $expect_timeout s)"; }
  [ "$rc" -eq "$want" ] || { cat "$expect_log"; fail "'$*' exited $rc, want $want"; }
  grep -qF -- "$needle" "$expect_log" || { cat "$expect_log"; fail "'$*': no '$needle' in its output"; }
  passed=$((passed + 1))
}

lacks() {
  if grep -qF -- "$1" "$expect_log"; then
    cat "$expect_log"
    fail "the output says '$1'"
  fi
}

no_results() {
  if find "$1" -name results.json 2>/dev/null | grep -q .; then
    fail "results written in $1"
  fi
}
