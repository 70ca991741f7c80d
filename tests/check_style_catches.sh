#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The style checks fail where they should (make test): a 121-line function
# is caught by `check_style.sh functions`, in host/, src/ and tools/ of a
# tree (a macro call at column 0 is no function), a six-line block written
# twice by `check_style.sh repeats`, an include from a lower layer into a
# higher one, and a call upwards without any include (nm of the objects),
# by `check_style.sh layers`, and a tracked text file without an SPDX line,
# whatever its name (a file `0`), by `check_style.sh spdx`; the same trees
# without them pass, binary files and JSON aside. The checks of the tests
# themselves too: a unit test that ran no check fails (tests/host/check.h),
# a routing case that fails to compile for another reason than the
# assertion fails check_routing.sh, a test without an area label fails
# check_labels.sh, and progress.sh fails on a merlin that exits 1 whatever
# it printed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # expect STATUS(pass|fail) WHAT COMMAND...
  local want=$1 what=$2
  shift 2
  if out=$("$@" 2>&1); then got=pass; else got=fail; fi
  if [ "$got" = "$want" ]; then
    echo "ok: $what"
  else
    echo "FAIL: $what: expected $want, got $got"
    printf '%s\n' "$out"
    fail=1
  fi
}
# fn NAME BODY_LINES: a function of BODY_LINES + 2 lines.
fn() {
  printf 'int %s(int a) {\n' "$1"
  for ((i = 0; i < $2; i++)); do printf '  a += %d;\n' "$i"; done
  printf '}\n'
}
{ fn short 118; fn multi_line_signature 10; } >"$tmp/ok.c"
{ printf 'static int\nlong_one(int a,\n         int b) {\n'; for ((i = 0; i < 118; i++)); do printf '  a += b;\n'; done; printf '}\n'; } >"$tmp/long.c"
expect pass "a 120-line function passes" bash "$here/check_style.sh" functions 120 "$tmp/ok.c"
expect fail "a 121-line function with a split signature is caught" \
  bash "$here/check_style.sh" functions 120 "$tmp/long.c"

repo=$tmp/repo
mkdir -p "$repo/host" "$repo/src"
cp "$here/check_repeats.mjs" "$tmp/"
block=$(for i in 1 2 3 4 5 6; do printf '  x = f%d(x);\n' "$i"; done)
printf 'int a(int x) {\n%s\n  return x;\n}\n' "$block" >"$repo/host/a.c"
printf 'int b(int x) {\n  return x + 1;\n}\n' >"$repo/src/b.c"
git -C "$repo" init -q && git -C "$repo" add -A
expect pass "a tree without repeats passes" node "$tmp/check_repeats.mjs" "$repo"
printf 'int c(int x) {\n%s\n  return x;\n}\n' "$block" >"$repo/src/c.c"
git -C "$repo" add -A
expect fail "a six-line block in host/ and src/ is caught" node "$tmp/check_repeats.mjs" "$repo"

lay=$tmp/layers
mkdir -p "$lay/docs" "$lay/host/util" "$lay/host/model" "$lay/host/run"
printf '```layers\nutil:\nmodel: util\nrun: model util\n```\n' >"$lay/docs/host.md"
printf '#include "util/u.h"\n' >"$lay/host/model/m.c"
printf '#include "model/m.h"\n#include "util/u.h"\n' >"$lay/host/run/r.c"
expect pass "includes that go downwards pass" bash "$here/check_style.sh" layers "$lay"
printf '#include "run/r.h"\n' >"$lay/host/model/up.c"
expect fail "an include from model/ into run/ is caught" bash "$here/check_style.sh" layers "$lay"
rm "$lay/host/model/up.c"
mkdir -p "$lay/host/extra" && printf '\n' >"$lay/host/extra/x.c"
expect fail "a folder the layers block does not name is caught" bash "$here/check_style.sh" layers "$lay"

lic=$tmp/spdx
mkdir -p "$lic/docs"
printf '# SPDX-License-Identifier: Apache-2.0\nx = 1\n' >"$lic/x.profile"
printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >"$lic/docs/shot.png"
printf '{"a": 1}\n' >"$lic/data.json"
git -C "$lic" init -q && git -C "$lic" add -A
expect pass "text files with SPDX lines, a PNG and JSON pass" bash "$here/check_style.sh" spdx "$lic"
printf '#endif\n' >"$lic/0"
git -C "$lic" add -A
expect fail "a text file named 0 without an SPDX line is caught" bash "$here/check_style.sh" spdx "$lic"

# functions: the default list is host/, src/ and tools/ of the tree the
# script sits in.
ft=$tmp/fns
mkdir -p "$ft/tests" "$ft/host" "$ft/src/core" "$ft/tools/x"
cp "$here/check_style.sh" "$ft/tests/"
{ fn ok_host 10; } >"$ft/host/a.c"
{ printf 'MACRO_TABLE(ENTRY)\n\n'; fn after_macro 100; } >"$ft/src/core/b.c"
{ fn ok_tool 10; } >"$ft/tools/x/c.c"
git -C "$ft" init -q && git -C "$ft" add -A
expect pass "host/, src/, tools/ within 120 lines, a macro call at column 0" \
  bash "$ft/tests/check_style.sh" functions 120
{ fn long_in_src 119; } >"$ft/src/core/long.c"
git -C "$ft" add -A
expect fail "a 121-line function in src/ is caught" bash "$ft/tests/check_style.sh" functions 120
(cd "$ft" && git rm -q --cached ./src/core/long.c) && rm "$ft/src/core/long.c"
{ fn long_in_tools 119; } >"$ft/tools/x/long.c"
git -C "$ft" add -A
expect fail "a 121-line function in tools/ is caught" bash "$ft/tests/check_style.sh" functions 120

# layers, by symbols: model/ calling into run/ with no include at all.
obj=$tmp/layers-obj/CMakeFiles/merlin_host.dir
mkdir -p "$obj/util" "$obj/model" "$obj/run" "$lay/host/extra"
rm -rf "$lay/host/extra"
printf 'int u_fn(void) { return 1; }\n' >"$tmp/u.c"
printf 'int u_fn(void);\nint m_fn(void) { return u_fn(); }\n' >"$tmp/m.c"
printf 'int m_fn(void);\nint r_fn(void) { return m_fn(); }\n' >"$tmp/r.c"
printf 'int r_fn(void);\nint m_up(void) { return r_fn(); }\n' >"$tmp/up.c"
cc -c "$tmp/u.c" -o "$obj/util/u.c.o" && cc -c "$tmp/m.c" -o "$obj/model/m.c.o" &&
  cc -c "$tmp/r.c" -o "$obj/run/r.c.o"
expect pass "calls that go downwards pass" bash "$here/check_style.sh" layers "$lay" "$tmp/layers-obj/CMakeFiles"
cc -c "$tmp/up.c" -o "$obj/model/up.c.o"
expect fail "a call from model/ into run/ without an include is caught" \
  bash "$here/check_style.sh" layers "$lay" "$tmp/layers-obj/CMakeFiles"

# check.h: a program that ran no check fails; one that checked passes.
cc_check() { # cc_check NAME BODY: a test program of tests/host/check.h
  printf '#include "check.h"\nint main(void) {\n%s\n  return check_report();\n}\n' "$2" >"$tmp/$1.c"
  cc -std=c11 -I"$here/host" -o "$tmp/$1" "$tmp/$1.c" -lm
}
cc_check one_check '  CHECK(1 + 1 == 2);' && cc_check no_check '  (void)0;'
expect pass "a unit test with a passing check passes" "$tmp/one_check"
expect fail "a unit test that ran no check fails" "$tmp/no_check"

# check_routing.sh: a must-not-compile case failing for another reason.
sed 's|^const mcore_impl entry = MCORE_IMPL(SHA256, WOLFCRYPT, "x", hash, &vt);|const mcore_impl entry = MCORE_IMPL(SHA256, MBEDTLS, "x", hash, \&vt) syntax error;|' \
  "$here/routing/forced_route.c" >"$tmp/wrong_reason.c"
grep -q 'syntax error;' "$tmp/wrong_reason.c" || { echo "FAIL: the planted routing case was not made"; fail=1; }
expect pass "the routing cases fail for the assertion's reasons" bash "$here/routing/check_routing.sh" cc
expect fail "a routing case failing for another reason is caught" \
  bash "$here/routing/check_routing.sh" cc "$tmp/wrong_reason.c"

# check_labels.sh: a test with no area label.
printf '{"tests": [{"name": "a", "properties": [{"name": "LABELS", "value": ["unit"]}]}]}\n' >"$tmp/l1.json"
printf '{"tests": [{"name": "a", "properties": [{"name": "LABELS", "value": ["cores"]}]}, {"name": "b"}]}\n' >"$tmp/l2.json"
expect pass "tests with area labels pass" bash "$here/check_labels.sh" "$tmp/l1.json"
expect fail "a test without an area label is caught" bash "$here/check_labels.sh" "$tmp/l2.json"

# progress.sh: a merlin that prints what the test looks for, and exits 1.
printf '#!/bin/sh\necho "merlin: qemu-m4: 2 operations; no recorded run of this image"\nexit 1\n' >"$tmp/merlin-fails"
chmod +x "$tmp/merlin-fails"
# (a copy in a tree of its own: it clears its build directory's records)
mkdir -p "$tmp/pt/tests/integration"
cp "$here/lib.sh" "$tmp/pt/tests/" && cp "$here/integration/progress.sh" "$tmp/pt/tests/integration/"
expect fail "progress.sh fails on a merlin that exits 1" \
  bash "$tmp/pt/tests/integration/progress.sh" "$tmp/merlin-fails"
exit $fail
