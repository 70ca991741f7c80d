#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The style checks fail where they should (make test): a 121-line function
# is caught by `check_style.sh functions`, a six-line block written twice by
# `check_style.sh repeats`, an include from a lower layer into a higher
# one by `check_style.sh layers`, and a tracked text file without an SPDX
# line, whatever its name (a file `0`), by `check_style.sh spdx`; the same
# trees without them pass, binary files and JSON aside.
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
exit $fail
