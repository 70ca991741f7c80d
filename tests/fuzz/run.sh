#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build the libFuzzer targets (CMake preset `fuzz`, clang) and run each for
# SECONDS on a copy of its seed corpus (tests/fuzz/corpus/<name>, plus the
# shipped profiles and boards). Prints the executions per target; fails on
# any crash, leak or sanitizer report (the input is kept under build/fuzz).
#   tests/fuzz/run.sh SECONDS
set -euo pipefail
seconds=${1:?usage: run.sh SECONDS}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if ! command -v clang >/dev/null; then
  echo "FAIL: clang is not installed (scripts/setup fuzz installs it)"
  exit 1
fi
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz >/dev/null
out=build/fuzz/fuzz
status=0
for name in wire profile results report boards cli; do
  bin=$out/fuzz_$name
  work=build/fuzz/corpus-$name
  mkdir -p "$work" build/fuzz/crashes-$name
  cp -n tests/fuzz/corpus/$name/* "$work"/ 2>/dev/null || true
  case $name in
  profile) cp -n profiles/*.profile "$work"/ ;;
  boards) cp -n boards/*.board "$work"/ ;;
  report) cp -n tests/fuzz/corpus/results/* "$work"/ ;;
  esac
  log=build/fuzz/$name.log
  if "$bin" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix=build/fuzz/crashes-$name/ \
    "$work" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    echo "fuzz_$name: ${runs:-?} executions in ${seconds} s, no crash"
  else
    tail -n 40 "$log"
    echo "FAIL: fuzz_$name found a crash; input in build/fuzz/crashes-$name/"
    status=1
  fi
done
exit $status
