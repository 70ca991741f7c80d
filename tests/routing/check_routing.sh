#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build-time routing assertions: an adapter entry for an algorithm the
# profile routes to another backend fails to compile (undefined route and a
# route of 0), and a granted one compiles.
set -uo pipefail
cc=${1:-cc}
root=$(cd "$(dirname "$0")/../.." && pwd)
inc=(-I"$root/src/core" -I"$root/src/ops" -I"$root/src/backends")
src=$root/tests/routing/forced_route.c
pass=0 fail=0
try() { # name expect(0 compiles / 1 fails) extra-flags...
  local name=$1 expect=$2
  shift 2
  if "$cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only "${inc[@]}" "$@" "$src" 2>/dev/null; then
    got=0
  else
    got=1
  fi
  if [ "$got" = "$expect" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $name"
  fi
}
try "granted route compiles" 0 -DGRANTED
try "route to another backend fails" 1
try "route set to 0 fails" 1 -DFORCE_ROUTE_ZERO
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
