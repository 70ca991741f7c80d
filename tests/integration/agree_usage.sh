#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# merlin agree's usage errors (exit 2, naming what is wrong), before anything
# is built: no --backend, an unknown one, two targets, a target it cannot
# run the libraries' programs on (a board, host-insn).
#   agree_usage.sh MERLIN
set -uo pipefail
merlin=$1
pass=0 failed=0
expect() { # expect STATUS TEXT ARGS...
  local want=$1 text=$2
  shift 2
  out=$("$merlin" agree "$@" 2>&1)
  rc=$?
  if [ "$rc" -eq "$want" ] && grep -q -- "$text" <<<"$out"; then
    pass=$((pass + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: merlin agree $*: exit $rc (want $want), output: $out"
  fi
}
expect 2 "backend is required" --target qemu-m4
expect 2 "wolfcrypt, mbedtls" --target qemu-m4 --backend openssl
expect 2 "exactly one --target" --target host,qemu-m4 --backend mbedtls
expect 2 "host or a QEMU target" --target nucleo-f439zi --backend mbedtls
expect 2 "host or a QEMU target" --target host-insn --backend wolfcrypt
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
