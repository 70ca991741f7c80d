#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The results database and its site (docs/results.md, "The results
# database", "The site"), on the report-data fixture (a host and a qemu-m4
# run of the default profile, tests/integration/html.sh) and copies of it
# as another revision would write them:
#   site.sh MERLIN ART db     import of two runs, a re-import (nothing
#                             changes), a damaged directory refused with
#                             the database unchanged, two imports at once
#                             on a new file, list, rm
#   site.sh MERLIN ART pqm4   the site's benchmarks.md of a database of
#                             one run: the tables of report --format pqm4
#   site.sh MERLIN ART site   the site of two revisions, one operation 25 %
#                             slower in the second, in chromium (site.mjs);
#                             screenshots in ART/site
set -euo pipefail
merlin=$1 art=$2 mode=$3
here=$(cd "$(dirname "$0")" && pwd)
data=$art/report-data
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-site.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
[ -s "$data/results.json" ] || fail "no report-data fixture in $data"

# revision DIR SOURCE [SCALE]: a copy of the fixture as revision SOURCE
# wrote it, ML-KEM-512 keygen on wolfCrypt (qemu-m4) SCALE times as costly
# (its samples and statistics, instructions and estimated cycles alike).
revision() {
  mkdir -p "$1"
  node -e '
    const fs = require("fs");
    const [src, out, rev, scale] = process.argv.slice(1);
    const j = JSON.parse(fs.readFileSync(src));
    for (const r of j.runs) {
      r.provenance.source = rev;
      if (r.target !== "qemu-m4" || scale === "1") continue;
      const o = r.ops.find((x) => x.alg === "ml-kem-512" && x.op === "keygen" && x.backend === "wolfcrypt");
      const k = Number(scale);
      o.samples = o.samples.map((v) => v * k);
      if (o.est_cycles && o.est_cycles.samples)
        o.est_cycles.samples = o.est_cycles.samples.map((v) => v * k);
      for (const f of ["median", "p99", "iqr", "min", "max", "mean", "stddev"]) {
        o[f] *= k;
        if (o.est_cycles) o.est_cycles[f] *= k;
      }
    }
    fs.writeFileSync(out, JSON.stringify(j, null, 2));
  ' "$data/results.json" "$1/results.json" "$2" "${3:-1}"
}
runs_in() { "$merlin" db list "$1" | tail -1 | awk '{ print $1 }'; }

case $mode in
db)
  db=$work/r.db
  "$merlin" db add "$db" "$data" >"$work/out" || fail "db add of the fixture"
  grep -q "2 runs added, 0 already" "$work/out" || fail "first import: $(cat "$work/out")"
  [ "$(runs_in "$db")" = 2 ] || fail "db list after the first import: $(runs_in "$db")"
  before=$(sha256sum <"$db")
  "$merlin" db add "$db" "$data" >"$work/out" || fail "db add again"
  grep -q "0 runs added, 2 already" "$work/out" || fail "re-import: $(cat "$work/out")"
  [ "$(sha256sum <"$db")" = "$before" ] || fail "a re-import changed the database"
  # A damaged directory, given with a good one: refused, nothing imported.
  revision "$work/good" goodrev
  mkdir -p "$work/bad"
  node -e '
    const fs = require("fs");
    const j = JSON.parse(fs.readFileSync(process.argv[1]));
    j.runs[0].ops[1].median *= 1.5;
    fs.writeFileSync(process.argv[2], JSON.stringify(j));
  ' "$data/results.json" "$work/bad/results.json"
  set +e
  "$merlin" db add "$db" "$work/good" "$work/bad" >"$work/out" 2>&1
  rc=$?
  set -e
  [ $rc = 1 ] || fail "a damaged directory: exit $rc, expected 1"
  grep -q "$work/bad: refused: .*is not the median of" "$work/out" ||
    fail "the refusal does not name the directory and the reason: $(cat "$work/out")"
  grep -q "nothing imported" "$work/out" || fail "the refusal: $(cat "$work/out")"
  [ "$(sha256sum <"$db")" = "$before" ] || fail "a refused import changed the database"
  # Two imports at once on a new file: both succeed.
  revision "$work/rev2" rev2
  fresh=$work/fresh.db
  "$merlin" db add "$fresh" "$data" >"$work/a" 2>&1 &
  a=$!
  "$merlin" db add "$fresh" "$work/rev2" >"$work/b" 2>&1 &
  b=$!
  wait $a || fail "the first of two imports at once: $(cat "$work/a")"
  wait $b || fail "the second of two imports at once: $(cat "$work/b")"
  [ "$(runs_in "$fresh")" = 4 ] || fail "two imports at once: $(runs_in "$fresh") runs, expected 4"
  # rm: by number, by hash; an unknown run is an error.
  out=$("$merlin" db rm "$fresh" 1) || fail "db rm 1"
  case $out in "removed run 1 ("*) ;; *) fail "db rm said: $out" ;; esac
  hash=$("$merlin" db list "$fresh" | awk 'NR == 2 { print $2 }')
  "$merlin" db rm "$fresh" "$hash" >/dev/null || fail "db rm by hash $hash"
  [ "$(runs_in "$fresh")" = 2 ] || fail "after two rm: $(runs_in "$fresh") runs"
  set +e
  "$merlin" db rm "$fresh" 999 >"$work/out" 2>&1
  rc=$?
  "$merlin" db list "$work/none.db" >"$work/none" 2>&1
  rc2=$?
  set -e
  [ $rc = 1 ] && grep -q "no run '999'" "$work/out" || fail "db rm 999: exit $rc, $(cat "$work/out")"
  [ $rc2 = 1 ] && [ ! -e "$work/none.db" ] || fail "db list of no database: exit $rc2"
  # The tables hold the figures: every operation of the fixture's runs.
  ops=$(node -e 'console.log(require(process.argv[1]).runs.reduce((n, r) => n + r.ops.length, 0))' "$data/results.json")
  [ "$(sqlite3 "$db" 'SELECT count(*) FROM cells')" = "$ops" ] ||
    fail "cells: $(sqlite3 "$db" 'SELECT count(*) FROM cells'), expected $ops"
  # Another schema, a file that is no database, usage errors.
  cp "$db" "$work/v2.db"
  sqlite3 "$work/v2.db" "UPDATE meta SET value = '2' WHERE key = 'schema'"
  echo "not a database" >"$work/text.db"
  for bad in v2 text; do
    set +e
    "$merlin" db add "$work/$bad.db" "$data" >"$work/out" 2>&1
    rc=$?
    set -e
    [ $rc = 1 ] || fail "db add to $bad.db: exit $rc"
    case $bad in
    v2) grep -q "database schema 2; this merlin reads schema 1" "$work/out" || fail "$bad: $(cat "$work/out")" ;;
    text) grep -q "$work/text.db: .*not a database" "$work/out" || fail "$bad: $(cat "$work/out")" ;;
    esac
  done
  for args in "db" "db add $db" "db list" "db rm $db" "db frob $db" "site"; do
    set +e
    # shellcheck disable=SC2086 # the words of args
    "$merlin" $args >"$work/out" 2>&1
    rc=$?
    set -e
    [ $rc = 2 ] || fail "merlin $args: exit $rc, expected 2 (usage): $(cat "$work/out")"
  done
  ;;
pqm4)
  db=$work/one.db
  "$merlin" db add "$db" "$data" --quiet
  "$merlin" site "$db" --out "$work/site" >/dev/null
  "$merlin" report "$data" --format pqm4 >"$work/report.md"
  node -e '
    const fs = require("fs");
    const [site, report] = process.argv.slice(1).map((f) => fs.readFileSync(f, "utf8").split("\n"));
    // report: from "# qemu-m4 (profile default)" to the next run or the end
    const r0 = report.indexOf("# qemu-m4 (profile default)");
    let r1 = report.findIndex((l, i) => i > r0 && /^# [^ ]+ \(profile /.test(l));
    if (r1 < 0) r1 = report.length;
    // the site: the qemu-m4 set, up to the list of its runs
    const s0 = site.findIndex((l) => l.startsWith("# qemu-m4 (cortex-m4): "));
    const s1 = site.findIndex((l, i) => i > s0 && l.startsWith("Runs ("));
    if (r0 < 0 || s0 < 0 || s1 < 0) { console.log("FAIL: no qemu-m4 tables"); process.exit(1); }
    const a = report.slice(r0 + 1, r1).join("\n").trimEnd(), b = site.slice(s0 + 1, s1).join("\n").trimEnd();
    if (a !== b || !/# Speed Evaluation/.test(a)) {
      console.log("FAIL: the site'"'"'s pqm4 tables differ from report --format pqm4");
      process.exit(1);
    }
    console.log("the pqm4 tables of qemu-m4: " + (r1 - r0 - 1) + " lines, the same");
  ' "$work/site/qemu-m4-benchmarks.md" "$work/report.md"
  ;;
site)
  db=$work/two.db
  revision "$work/rev2" feedfacecafe 1.25
  "$merlin" db add "$db" "$data" "$work/rev2" --quiet
  "$merlin" site "$db" --out "$work/site" >/dev/null || fail "merlin site"
  node "$here/site.mjs" "$work/site" "$art/site" "$work/rev2/results.json" \
    "ml-kem-512 keygen (wolfcrypt"
  exit $?
  ;;
*)
  fail "usage: site.sh MERLIN ART db|pqm4|site"
  ;;
esac
echo "1 passed, 0 failed"
