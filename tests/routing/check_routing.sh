#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build-time routing assertions: an adapter entry for an algorithm the
# profile routes to another backend fails to compile, with the diagnostic
# the assertion makes (an undefined route: the route's name undeclared; a
# route of 0: an array of negative size), and a granted one compiles. A
# case that fails to compile for any other reason is a failure of this
# test: it would pass with the assertion gone.
#   check_routing.sh [CC [SOURCE]]   (SOURCE: tests/routing/forced_route.c)
set -uo pipefail
cc=${1:-cc}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib.sh"
inc=(-I"$root/src/core" -I"$root/src/ops" -I"$root/src/backends")
src=${2:-$root/tests/routing/forced_route.c}
log=$(mktemp "${TMPDIR:-/tmp}/merlin-routing.XXXXXX")
trap 'rm -f "$log"' EXIT
# try NAME DIAGNOSTIC FLAGS...: DIAGNOSTIC empty: compiles; else fails to
# compile saying DIAGNOSTIC (an extended regular expression).
try() {
  local name=$1 want=$2
  shift 2
  if "$cc" -std=c11 -Wall -Wextra -Werror -fsyntax-only "${inc[@]}" "$@" "$src" >"$log" 2>&1; then
    if [ -z "$want" ]; then passed=$((passed + 1)); else soft_fail "$name: it compiled"; fi
  elif [ -z "$want" ]; then
    soft_fail "$name: it does not compile:"
    cat "$log"
  elif grep -qE -- "$want" "$log"; then
    passed=$((passed + 1))
  else
    soft_fail "$name: it does not compile, but not for the routing assertion (no /$want/):"
    cat "$log"
  fi
}
try "granted route compiles" "" -DGRANTED
# gcc: 'MERLIN_ROUTE_SHA256_WOLFCRYPT' undeclared; clang: use of undeclared
# identifier 'MERLIN_ROUTE_SHA256_WOLFCRYPT'
try "route to another backend fails" "MERLIN_ROUTE_SHA256_WOLFCRYPT.? undeclared|undeclared identifier .MERLIN_ROUTE_SHA256_WOLFCRYPT"
# gcc: size of unnamed array is negative; clang: array size is negative
try "route set to 0 fails" "array is negative|array size is negative|negative size" -DFORCE_ROUTE_ZERO
finish
