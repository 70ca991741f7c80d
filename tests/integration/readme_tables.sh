#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/readme-tables.mjs on the report-data fixture (ART/report-data): the
# three kinds of block of docs/measurements.md (once the README's) are
# filled from results.json, a second
# pass changes nothing, and a missing results directory, a target the run
# does not have, an unknown block kind and an unclosed block each fail
# with their message, leaving the file as it was.
#   readme_tables.sh ROOT ART
set -euo pipefail
root=$1 art=$2
script=$root/scripts/readme-tables.mjs
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-readme.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
pass=0

cp "$root/docs/measurements.md" "$work/R.md"
node "$script" "$art/report-data" "$work/R.md" 2>"$work/msg" || fail "$(cat "$work/msg")"
grep -q "3 table(s)" "$work/msg" || fail "not three tables: $(cat "$work/msg")"
node -e '
  const fs = require("fs");
  const s = fs.readFileSync(process.argv[1], "utf8");
  const j = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const r = j.runs.find((r) => r.target === "qemu-m4");
  const bad = (m) => { console.error("readme_tables.sh: FAIL: " + m); process.exit(1); };
  const block = (k) => {
    const a = s.indexOf(`<!-- merlin readme ${k} qemu-m4 -->`);
    const z = s.indexOf("<!-- /merlin readme -->", a);
    if (a < 0 || z < 0) bad("no " + k + " block");
    return s.slice(a, z).split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| operation") && !l.startsWith("| workflow"));
  };
  const fmt = (x) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  // Every public-key operation has its row with results.json median.
  const ops = r.ops.filter((o) => o.bytes === null && o.op !== "setup");
  const rows = block("ops");
  if (rows.length !== ops.length) bad(`ops: ${rows.length} rows, want ${ops.length}`);
  for (const o of ops)
    if (!rows.some((l) => l.startsWith(`| ${o.alg} ${o.op} | ${o.backend} | ${fmt(o.median)} |`)))
      bad(`ops: no row for ${o.alg} ${o.op} ${o.backend} with median ${o.median}`);
  if (block("cycles").length !== 7) bad("cycles: want 7 rows");
  const wf = block("workflows");
  if (wf.length !== r.workflows.length) bad(`workflows: ${wf.length} rows, want ${r.workflows.length}`);
  if (!wf[0].includes("| 1.00 | 1.0 |")) bad("workflows: the baseline row is not 1.00 / 1.0: " + wf[0]);
' "$work/R.md" "$art/report-data/results.json"
cp "$work/R.md" "$work/R1.md"
node "$script" "$art/report-data" "$work/R.md" 2>/dev/null
cmp -s "$work/R.md" "$work/R1.md" || fail "a second pass changed the file"
pass=$((pass + 1))

# Failure paths: exit 1, the message, the file untouched.
expect_fail() { # NAME WANT-IN-MESSAGE DIR FILE
  cp "$4" "$work/before"
  if node "$script" "$3" "$4" 2>"$work/msg"; then fail "$1: exit 0"; fi
  grep -qF "$2" "$work/msg" || fail "$1: message '$(cat "$work/msg")', want '$2'"
  cmp -s "$4" "$work/before" || fail "$1: the file changed"
  pass=$((pass + 1))
}
expect_fail "no results" "no results.json in $work/none" "$work/none" "$work/R.md"
printf 'a\n<!-- merlin readme ops qemu-m99 -->\n<!-- /merlin readme -->\n' >"$work/t.md"
expect_fail "no such target" "has no run on target qemu-m99" "$art/report-data" "$work/t.md"
printf 'a\n<!-- merlin readme sizes qemu-m4 -->\n<!-- /merlin readme -->\n' >"$work/k.md"
expect_fail "unknown kind" "unknown block kind 'sizes'" "$art/report-data" "$work/k.md"
printf 'a\n<!-- merlin readme ops qemu-m4 -->\nb\n' >"$work/u.md"
expect_fail "unclosed" "has no <!-- /merlin readme -->" "$art/report-data" "$work/u.md"
printf 'nothing here\n' >"$work/e.md"
expect_fail "no block" "no <!-- merlin readme KIND TARGET --> block" "$art/report-data" "$work/e.md"
echo "$pass passed, 0 failed"
