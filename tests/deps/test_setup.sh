#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/setup installs what each purpose needs and nothing more (--dry-run:
# nothing is installed): bench asks for no Slurm, munge, clang,
# chromium or qemu-user; test for everything make test and make
# test-sanitize use; and make asks for the purposes of its goals (what
# .ci/run's make test, make test-sanitize and make boards need).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
setup=$root/scripts/setup
. "$root/tests/lib.sh"
n=0
pkgs() { "$setup" --dry-run "$@" | sed -n 's/^setup: for [^:]*: //p' | sed 's/ (and .*//'; }
bench=" $(pkgs bench) "
for p in slurmctld slurmd slurm-client munge clang chromium qemu-user; do
  case $bench in *" $p "*) fail "setup bench asks for $p" ;; esac
done
for p in gcc-arm-none-eabi qemu-system-arm cmake ninja-build libjansson-dev libelf-dev libsqlite3-dev libssl-dev valgrind; do
  case $bench in *" $p "*) ;; *) fail "setup bench lacks $p" ;; esac
done
n=$((n + 1))
test=" $(pkgs test) "
for p in $bench sqlite3 clang clang-19 libclang-rt-dev chromium libxml2-utils qemu-user slurmctld slurmd slurm-client munge; do
  case $test in *" $p "*) ;; *) fail "setup test lacks $p" ;; esac
done
n=$((n + 1))
boards=" $(pkgs boards) "
case $boards in *" gcc-arm-none-eabi "*) ;; *) fail "setup boards lacks gcc-arm-none-eabi" ;; esac
case $boards in *" qemu-system-arm "*) fail "setup boards asks for QEMU" ;; esac
n=$((n + 1))
if "$setup" --dry-run bogus >/dev/null 2>&1; then fail "an unknown purpose was accepted"; else
  [ $? -eq 2 ] || fail "an unknown purpose: not exit 2"
fi
n=$((n + 1))
# make's goals: the purposes scripts/setup is called with (make -n runs
# nothing); .ci/run's make test, make test-sanitize and make boards.
for g in bench:bench test:test test-sanitize:test boards:boards fuzz:fuzz tools:test; do
  got=$(make -s -n -C "$root" "${g%%:*}" 2>/dev/null | grep -o 'scripts/setup [a-z ]*' | head -1)
  [ "$got" = "scripts/setup ${g#*:}" ] || fail "make ${g%%:*} runs '$got', want 'scripts/setup ${g#*:}'"
done
grep -qx "make test" "$root/.ci/run" && grep -qx "make test-sanitize" "$root/.ci/run" && grep -qx "make boards" "$root/.ci/run" ||
  fail ".ci/run no longer runs make test, make test-sanitize and make boards: check what it installs"
n=$((n + 1))
echo "$n passed, 0 failed"
