#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs/cli.md against the CLI (test cli-docs-match): every command and every
# option of each command, as the option tables in host/cli/cli_<command>.c declare them
# (`merlin help --options` lists them: "COMMAND OPTION" per line), must be
# in `merlin COMMAND --help` and in the synopsis at the top of
# docs/cli.md, and the other way round; the option table of a command's
# section in docs/cli.md lists all its options and only those; every
# `--option` named anywhere in docs/cli.md exists (or is listed below as
# another program's);
# `merlin --help` and the unknown-command message name every command
# (`--options` of `merlin help` is the one option outside the tables).
#   tests/check_cli_docs.sh MERLIN [ROOT]
set -euo pipefail
merlin=$1
root=${2:-$(cd "$(dirname "$0")/.." && pwd)}
doc=$root/docs/cli.md
. "$(dirname "$0")/lib.sh"
# Options docs/cli.md names that belong to other programs: the image's own
# (--wf-corrupt, --ct-only, --xcheck: docs/cli.md says they are not merlin
# options), CMake's (--preset, --build), clang's (--sysroot), git's (--init,
# --recursive: `git submodule update`) and `merlin help`'s own --all.
foreign="--wf-corrupt --ct-only --xcheck --preset --build --sysroot --init --recursive --all"

# Options of one command, from its table in host/cli/cli_<command>.c.
options=$("$merlin" help --options)
code_opts() {
  echo "$options" | awk -v c="$1" '$1 == c { print $2 }' | sort -u
}
# Option names at the start of the option lines of `merlin help --all CMD`.
help_opts() {
  "$merlin" help --all "$1" | grep -E '^  -' |
    grep -oE '^  (-[a-zA-Z], )?--?[a-z][a-z0-9-]*' | tr -d ' ' | tr ',' '\n' |
    grep -vxE -- '-h|--help' | sort -u
}
# The synopsis: the first ``` block of docs/cli.md, continuation lines
# joined to their `merlin COMMAND` line.
synopsis() {
  awk '/^```/ { n++; next } n == 1' "$doc" |
    awk '/^merlin / { if (l) print l; l = $0; next } { l = l " " $0 }
      END { if (l) print l }'
}
syn_opts() {
  synopsis | awk -v c="$1" '$2 == c' |
    grep -oE '(^|[ [|(])--?[a-z][a-z0-9-]*' | grep -oE -- '--?[a-z][a-z0-9-]*' |
    grep -vxE -- '-h|--help' | sort -u
}
# First cells of the option tables in docs/cli.md's `## `merlin CMD` sections.
table_opts() {
  awk -v h="## \`merlin $1" 'index($0, h) == 1 { on = 1; next }
    /^## / { on = 0 } on && /^\| `-/' "$doc" |
    cut -d'|' -f2 | grep -oE -- '--?[a-z][a-z0-9-]*' |
    grep -vxE -- '-h|--help' | sort -u || true
}
# diff_sets WHAT A B LABEL_A LABEL_B
diff_sets() {
  local extra
  extra=$(comm -23 <(echo "$2") <(echo "$3") | grep . || true)
  [ -z "$extra" ] || soft_fail "$1: in $4, not in $5: $(echo $extra)"
  extra=$(comm -13 <(echo "$2") <(echo "$3") | grep . || true)
  [ -z "$extra" ] || soft_fail "$1: in $5, not in $4: $(echo $extra)"
}

commands=$(echo "$options" | awk '{ print $1 }' | sort -u)
[ -n "$commands" ] || soft_fail "merlin help --options lists no command"
help_cmds=$("$merlin" --help | awk '/^commands:/ { on = 1; next }
  on && /^$/ { exit } on { print $1 }' | sort -u)
diff_sets "commands" "$commands" "$help_cmds" "merlin help --options" "merlin --help"
doc_cmds=$(synopsis | awk '$2 !~ /^-/ && $2 != "help" { print $2 }' | sort -u)
diff_sets "commands" "$commands" "$doc_cmds" "merlin help --options" "the docs/cli.md synopsis"
unknown=$("$merlin" frobnicate 2>&1 || true)
all_code=
for c in $commands; do
  grep -q "## \`merlin $c" "$doc" || soft_fail "docs/cli.md has no section for $c"
  case $unknown in *" $c,"* | *" $c "*) ;;
  *) soft_fail "the unknown-command message leaves out $c: $unknown" ;;
  esac
  code=$(code_opts "$c")
  all_code="$all_code $code"
  diff_sets "merlin $c" "$code" "$(help_opts "$c")" "the option table" "merlin $c --help"
  diff_sets "merlin $c" "$code" "$(syn_opts "$c")" "the option table" \
    "the docs/cli.md synopsis"
  # A section with an option table lists every option there, and only those.
  table=$(table_opts "$c")
  [ -z "$table" ] ||
    diff_sets "merlin $c" "$code" "$table" "the option table" \
      "the option table of docs/cli.md"
done

# Every long option named anywhere in docs/cli.md.
known=$(printf '%s\n' $all_code $foreign --help --version --options | sort -u)
named=$(grep -oE -- '(^|[^a-zA-Z0-9-])--[a-z][a-z0-9-]*' "$doc" |
  grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)
extra=$(comm -13 <(echo "$known") <(echo "$named") | grep . || true)
[ -z "$extra" ] || soft_fail "docs/cli.md names options no command has: $(echo $extra)"

if [ "$failed" -eq 0 ]; then
  echo "docs/cli.md matches the CLI: $(echo $commands | wc -w) commands," \
    "$(echo $all_code | wc -w) options"
fi
[ "$failed" -eq 0 ]
