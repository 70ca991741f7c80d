#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks of the style the tree claims (make test; README.md):
#   check_style.sh prefixes NM OBJDIR...  every global symbol our own objects
#       define starts with a prefix of the list in src/core/mcore.h
#       ("Layering and prefixes") or is one of the names fixed by others
#       listed there
#   check_style.sh paths                  every relative link in README.md
#       and docs/*.md, and every docs/, src/, host/, tests/, tools/, cmake/,
#       scripts/, boards/ or profiles/ path named in our sources, exists
#   check_style.sh spdx [ROOT]            every tracked text file, whatever
#       its name, carries a one-line SPDX header in its first three lines
#       (binary files, JSON, which has no comments, and fuzz corpora aside)
#   check_style.sh functions [MAX [FILE...]]  no function of host/, src/
#       and tools/ (or of FILE...) is longer than MAX lines (120), signature
#       to closing brace
#   check_style.sh repeats [ROOT]         no block of six or more code lines
#       stands twice in host/ and src/ of ROOT's git tree (check_repeats.mjs)
#   check_style.sh layers [ROOT [OBJDIR]] every #include of host/ reaches
#       only into the folders its own folder may use, as the `layers` block
#       of ROOT/docs/host.md states them; a folder the block does not name
#       is an error too. With OBJDIR (the CLI's CMakeFiles, build/host/host/
#       CMakeFiles), the same for every symbol an object of host/<folder>/
#       uses from another folder's objects (nm): a call upwards is caught
#       even without an include
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
mode=${1:?usage: check_style.sh prefixes|paths|spdx ...}
shift
case $mode in
prefixes)
  nm=${1:?nm}
  shift
  # The documented list: "  prefix_  what" lines of the block, and the
  # "fixed by others:" names (a trailing * is a suffix pattern).
  block=$(sed -n '/Layering and prefixes/,/\*\//p' src/core/mcore.h)
  prefixes=$(printf '%s\n' "$block" | sed -n -E 's/^ \*   ([a-z]+_) .*/\1/p')
  fixed=$(printf '%s\n' "$block" | sed -n -E 's/^ \*     fixed: (.*)/\1/p' | tr ' ,' '\n\n' | sed '/^$/d')
  [ -n "$prefixes" ] || { echo "FAIL: no prefix list in src/core/mcore.h"; exit 1; }
  n=0
  while read -r obj sym; do
    # What a sanitizer or coverage build adds to every object.
    case $sym in __odr_asan.* | __asan_* | __ubsan_* | __sancov_* | __llvm_*) continue ;; esac
    n=$((n + 1))
    ok=0
    for p in $prefixes; do [[ $sym == "$p"* ]] && ok=1 && break; done
    for f in $fixed; do
      # shellcheck disable=SC2053
      [[ $sym == $f ]] && ok=1 && break
    done
    [ $ok = 1 ] || bad "$obj defines '$sym', which has none of the documented prefixes ($(echo $prefixes)) (src/core/mcore.h)"
  done < <(for d in "$@"; do
    find "$d" -type f \( -name '*.o' -o -name '*.obj' \) -print0 |
      xargs -0 -r "$nm" --defined-only -g -A 2>/dev/null |
      awk 'NF == 3 { sub(/:[^:]*$/, "", $1); print $1, $3 }'
  done)
  [ "$n" -gt 0 ] || { echo "FAIL: no symbols found under $*"; exit 1; }
  [ $fail = 0 ] && echo "ok: $n global symbols, all with documented prefixes"
  ;;
paths)
  n=0
  # Relative Markdown links: [text](path) and [text](path#anchor).
  for md in README.md docs/*.md; do
    dir=$(dirname "$md")
    while read -r link; do
      target=${link%%#*}
      [ -n "$target" ] || continue
      n=$((n + 1))
      [ -e "$dir/$target" ] || bad "$md links to '$link', which does not exist"
    done < <(grep -oE '\]\([^)[:space:]]+\)' "$md" | sed -E 's/^\]\((.*)\)$/\1/' |
      grep -vE '^(https?:|mailto:|#)' || true)
  done
  # Paths named in our own sources (comments and strings alike).
  while read -r file path; do
    n=$((n + 1))
    p=${path%%[.,;:)]}
    p=${p%%:}
    # Placeholders (profiles/NAME.profile, boards/x.board) name no file.
    base=$(basename "$p")
    if [[ $p =~ /[A-Z]+[./] ]] || [[ ${base%%.*} =~ ^[a-z]$ ]]; then continue; fi
    # A library's own path (wolfSSL's ssl.c under its src) in a backend's notes.
    if [[ $file == src/backends/* ]] && compgen -G "third_party/*/$p" >/dev/null; then
      continue
    fi
    [ -e "$p" ] || bad "$file names '$p', which does not exist"
  done < <(git ls-files src host tests tools cmake scripts Makefile CMakeLists.txt |
    grep -E '\.(c|h|S|sh|cmake|mjs|js)$|CMakeLists.txt$|Makefile$|^scripts/' |
    xargs grep -oE '(^|[^A-Za-z0-9_./-])(docs|src|host|tests|tools|cmake|scripts|boards|profiles)/[A-Za-z0-9_./-]+\.(md|c|h|S|sh|cmake|def|ld|profile|board|mjs|js|json|txt)' -H 2>/dev/null |
    sed -E 's/^([^:]+):[^A-Za-z0-9_]?(.*)$/\1 \2/' |
    grep -vE ' (src|host|tests|tools)/[^ ]*<' | sort -u)
  [ $fail = 0 ] && echo "ok: $n links and named paths exist"
  ;;
spdx)
  # Every tracked text file, whatever its name: git's own test says what is
  # text (`git ls-files --eol`: i/-text is binary, such as a PNG); JSON
  # has no comments and the fuzz corpora are inputs, not sources.
  r=${1:-.}
  n=0
  while IFS= read -r f; do
    n=$((n + 1))
    head -n 3 "$r/$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' ||
      bad "$f has no SPDX-License-Identifier line in its first three lines"
  done < <(git -C "$r" ls-files --eol | awk -F '\t' '$1 !~ /^i\/-text / { print $2 }' |
    grep -vE '^tests/fuzz/corpus/|\.json$')
  [ $fail = 0 ] && echo "ok: $n files carry an SPDX line"
  ;;
functions)
  max=${1:-120}
  shift || true
  # clang-format (LLVM style, tests/check_format.sh) puts a definition's
  # first line and its closing brace in column 0; a line at column 0 with a
  # '(' that ends in '{' opens one (after a multi-line signature too; a
  # blank or preprocessor line first ends it: a macro call, no signature).
  if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(git ls-files 'host/*.c' 'src/*.c' 'tools/*.c'); fi
  report=$(awk -v max="$max" '
    FNR == 1 { in_fn = 0; sig = "" }
    in_fn { if ($0 ~ /^}/) { n++; len = FNR - start + 1
              if (len > max) print FILENAME ":" start ": " name "() has " len " lines" }
            in_fn = in_fn && $0 !~ /^}/; next }
    sig != "" && ($0 ~ /^[ \t]*$/ || $0 ~ /^#/) { sig = "" } # a macro call: MBEDTLS_IMPLS(X)
    sig != "" { sig = sig " " $0
                if ($0 ~ /[;}][ \t]*$/) sig = ""; else if ($0 ~ /\{[ \t]*$/) open_fn()
                next }
    /^[A-Za-z_]/ && !/^(typedef|struct|enum|union|__attribute__)[ \t(]/ {
      if ($0 ~ /[;}][ \t]*$/ || $0 !~ /\(/) next
      sig = $0; start = FNR
      if ($0 ~ /\{[ \t]*$/) open_fn() }
    function open_fn(  s, w, k) {
      s = sig; sig = ""
      if (s ~ /=[^=]*\{[ \t]*$/ && s !~ /\)[ \t]*\{[ \t]*$/) return
      sub(/\(.*/, "", s); k = split(s, w, /[ \t*]+/); name = w[k]; in_fn = 1 }
    END { print "#", n }' "${files[@]}")
  count=$(printf '%s\n' "$report" | sed -n 's/^# //p')
  while read -r line; do
    [ -n "$line" ] && bad "$line (at most $max; split it into named steps)"
  done < <(printf '%s\n' "$report" | grep -v '^#' || true)
  [ "${count:-0}" -gt 0 ] || { echo "FAIL: no functions found in host/, src/, tools/"; exit 1; }
  [ $fail = 0 ] && echo "ok: $count functions in host/, src/ and tools/, none over $max lines"
  ;;
repeats)
  node tests/check_repeats.mjs "${1:-.}" || fail=1
  ;;
layers)
  r=${1:-.}
  rules=$(awk '/^```layers$/ { on = 1; next } /^```/ { on = 0 } on' "$r/docs/host.md")
  [ -n "$rules" ] || { echo "FAIL: no \`\`\`layers block in $r/docs/host.md"; exit 1; }
  n=0
  while IFS= read -r f; do
    own=${f#"$r"/host/}
    own=${own%%/*}
    allowed=$(awk -F: -v d="$own" '$1 == d { print $2 }' <<<"$rules")
    if ! grep -q "^$own:" <<<"$rules"; then
      bad "$f: folder host/$own/ is not in docs/host.md's layers block"
      continue
    fi
    while IFS=: read -r line inc; do
      to=${inc#*\"}
      to=${to%%/*}
      [ "$to" = "$own" ] && continue
      [ -d "$r/host/$to" ] || continue # src/ headers (mcore.h ...), generated ones
      n=$((n + 1))
      case " $allowed " in
      *" $to "*) ;;
      *) bad "${f#"$r"/}:$line includes host/$to/, which host/$own/ may not use (docs/host.md: $own:$allowed)" ;;
      esac
    done < <(grep -n '^#include "[a-z]*/' "$f" | sed 's/:#include /:/')
  done < <(find "$r/host" -mindepth 2 -name '*.[ch]' | sort)
  [ $fail = 0 ] && echo "ok: $n includes across folders, every one downwards"
  [ -n "${2:-}" ] || exit $fail
  export LC_ALL=C # one order for sort and join
  # The objects: OBJDIR/<target>.dir/<folder>/<file>.o ("__": not host/'s).
  objs=$(find "$2" -path '*.dir/*' -name '*.o' ! -path '*.dir/__/*' | sort)
  [ -n "$objs" ] || { echo "FAIL: no objects under $2"; exit 1; }
  # "FILE: SYMBOL" lines of nm -A, as "SYMBOL FOLDER FILE"
  rooms='{ f = $1; sub(/:.*$/, "", f); r = f; sub(/.*\.dir\//, "", r); sub(/\/.*/, "", r)
           print $NF, r, f }'
  # shellcheck disable=SC2086 # object paths have no spaces (CMake's)
  defs=$(nm -A --defined-only -g $objs | awk 'NF == 3' | awk "$rooms" |
    awk '{ print $1, $2 }' | sort -u)
  n=0
  while read -r sym from obj to; do
    [ "$from" = "$to" ] && continue
    n=$((n + 1))
    allowed=$(awk -F: -v d="$from" '$1 == d { print $2 }' <<<"$rules")
    case " $allowed " in
    *" $to "*) ;;
    *) bad "${obj#"$2"/}: host/$from/ uses $sym of host/$to/, which host/$from/ may not use (docs/host.md: $from:$allowed)" ;;
    esac
  # shellcheck disable=SC2086
  done < <(nm -A -u $objs | awk "$rooms" | sort -k1,1 |
    join -o 1.1,1.2,1.3,2.2 - <(printf '%s\n' "$defs"))
  [ $fail = 0 ] && echo "ok: $n symbols used across folders, every one downwards"
  ;;
*)
  echo "usage: check_style.sh prefixes NM DIR... | paths | spdx | functions [MAX [FILE...]] | repeats [ROOT] | layers [ROOT [OBJDIR]]" >&2
  exit 2
  ;;
esac
exit $fail
