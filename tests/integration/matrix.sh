#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The compiler x optimisation matrix and parallel jobs of `merlin run`
# (docs/cli.md), on qemu-m4 with a one-algorithm profile written here
# (sha256 on Mbed TLS), few runs:
#   matrix.sh MERLIN run [KEEP]  --cc gcc,clang --opt Os,O2 -j2: four images,
#                            each run's provenance names its compiler, version
#                            and flags; report.md has four rows per operation;
#                            results.csv and the console logs per row; the
#                            results are copied to KEEP (the browser test's)
#   matrix.sh MERLIN jobs    the same two images with -j1 and -j2: identical
#                            instruction counts, sample for sample
#   matrix.sh MERLIN path    --cc gcc,PATH with PATH a second install of
#                            Debian's GNU toolchain (symlinks in a temporary
#                            directory): the same instruction counts as gcc,
#                            the path in the provenance, the row named by it
#   matrix.sh MERLIN errors  unknown --cc/--opt, a bad -j, clang missing, a bad
#                            compiler path, a bad MERLIN_CC for cmake: exit
#                            codes and messages
set -euo pipefail
merlin=$1 mode=$2 keep=${3:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-matrix.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
# The profile's name is the file name: build/img/qemu-m4-matrix-it-<cc>-<opt>.
profile=$work/matrix-it.profile
cat >"$profile" <<'EOF'
# merlin run --cc/--opt integration test (tests/integration/matrix.sh)
description = matrix test: sha256 on Mbed TLS
sha256 = mbedtls
EOF
runs=(--runs 5 --warmup 1)

case $mode in
run)
  "$merlin" run --target qemu-m4 --profile "$profile" --cc gcc,clang \
    --opt Os,O2 -j2 "${runs[@]}" --out "$work/out" 2>"$work/err" ||
    fail "matrix run failed: $(tail -30 "$work/err")"
  cat "$work/err"
  d=$work/out/latest
  # Progress: one line per state change of each of the four jobs.
  for row in "gcc -Os" "gcc -O2" "clang -Os" "clang -O2"; do
    for state in building built running done; do
      grep -Eq "^merlin: \[[1-4]/4\] qemu-m4 matrix-it $row: $state" \
        "$work/err" || fail "no '$state' line for $row"
    done
  done
  node -e '
    const fs = require("fs");
    const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const bad = (m) => { console.error("matrix.sh: FAIL: " + m); process.exit(1); };
    const want = [["GNU", "-Os"], ["GNU", "-O2"], ["Clang", "-Os"], ["Clang", "-O2"]];
    if (j.runs.length !== 4) bad("runs: " + j.runs.length + ", want 4");
    j.runs.forEach((r, i) => {
      const p = r.provenance, [id, opt] = want[i];
      if (r.target !== "qemu-m4" || r.profile !== "matrix-it") bad("run " + i);
      // "<driver> <CMake id> <version>"
      if (!new RegExp("^\\S+ " + id + " [0-9]+\\.[0-9]+").test(p.compiler))
        bad("run " + i + " compiler " + p.compiler);
      const os = p.cflags.split(/\s+/).filter((f) => /^-O/.test(f));
      if (os[os.length - 1] !== opt) bad("run " + i + " cflags " + p.cflags);
      if (id === "Clang" && !/-fshort-enums/.test(p.cflags))
        bad("clang cflags lack -fshort-enums: " + p.cflags);
      // --cc clang: clang-19, Debian 12 newest, on every target
      if (id === "Clang" && !/^clang-19 Clang 19\./.test(p.compiler))
        bad("--cc clang is not clang-19: " + p.compiler);
      if (!/-mcpu=cortex-m4/.test(p.cflags)) bad("cflags lack the cpu: " + p.cflags);
      if (r.ops.length !== 3) bad("run " + i + ": " + r.ops.length + " ops");
      for (const o of r.ops) {
        if (o.kat !== "pass" || !(o.median > 0)) bad("run " + i + " " + o.alg);
        if (o.unit !== "instructions") bad("unit " + o.unit);
      }
    });
    // The compiler and the flag change the code: not four identical counts.
    const m = new Set(j.runs.map((r) => r.ops[1].median));
    if (m.size < 2) bad("every row has the same median: " + [...m]);
  ' "$d/results.json"
  # report.md: the matrix section, four rows (gcc/clang x Os/O2) per
  # operation, in order.
  grep -q "^## Compiler and optimisation matrix" "$d/report.md" ||
    fail "report.md has no matrix section"
  for b in 8 64 256; do
    rows=$(grep -E "^\| sha256 hash $b B \| mbedtls \| (gcc|clang) " "$d/report.md" |
      awk -F'|' '{split($4, c, " "); gsub(/ /, "", $5); print c[1] $5}' |
      paste -sd' ')
    [ "$rows" = "gcc-Os gcc-O2 clang-Os clang-O2" ] ||
      fail "sha256 $b B: matrix rows '$rows', want gcc-Os gcc-O2 clang-Os clang-O2"
  done
  grep -q "^### qemu-m4 (profile matrix-it, clang -O2)" "$d/report.md" ||
    fail "no run title with compiler and opt"
  head -1 "$d/results.csv" | grep -q ",ct_status,cc,opt$" ||
    fail "results.csv header: $(head -1 "$d/results.csv")"
  pairs=$(tail -n +2 "$d/results.csv" | awk -F, '{print $(NF-1) $NF}' | sort -u | paste -sd' ')
  [ "$pairs" = "clang-O2 clang-Os gcc-O2 gcc-Os" ] || fail "csv rows: $pairs"
  for row in gcc-Os gcc-O2 clang-Os clang-O2; do
    [ -s "$d/console-qemu-m4-matrix-it-$row.log" ] || fail "no console log $row"
  done
  # merlin compare pairs runs by (target, profile, compiler, opt).
  "$merlin" compare "$d" "$d" >"$work/cmp" || fail "compare exited $?"
  grep -q "no change" "$work/cmp" || fail "compare: $(cat "$work/cmp")"
  if [ -n "$keep" ]; then
    rm -rf "$keep"
    mkdir -p "$(dirname "$keep")"
    cp -rL "$d" "$keep"
  fi
  ;;
jobs)
  # Two images, built and run at once or one after the other: QEMU counts
  # (-icount) do not depend on the load, so every sample is the same.
  for j in 1 2; do
    "$merlin" run --target qemu-m4 --profile "$profile" --cc gcc \
      --opt Os,O2 -j$j "${runs[@]}" --out "$work/j$j" --quiet ||
      fail "-j$j run failed"
  done
  node -e '
    const fs = require("fs");
    const [a, b] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
    const bad = (m) => { console.error("matrix.sh: FAIL: " + m); process.exit(1); };
    if (a.runs.length !== 2 || b.runs.length !== 2) bad("two runs each");
    let n = 0;
    a.runs.forEach((r, i) => r.ops.forEach((o, k) => {
      const p = b.runs[i].ops[k];
      if (o.alg !== p.alg || o.bytes !== p.bytes) bad("op order differs");
      if (JSON.stringify(o.samples) !== JSON.stringify(p.samples))
        bad(r.provenance.cflags + " " + o.alg + " " + o.bytes + ": -j1 " +
            JSON.stringify(o.samples) + " vs -j2 " + JSON.stringify(p.samples));
      n++;
    }));
    console.log(n + " operations, identical samples with -j1 and -j2");
  ' "$work/j1/latest/results.json" "$work/j2/latest/results.json"
  ;;
path)
  # A second install of Debian's GNU toolchain under another path.
  mkdir -p "$work/tc/bin"
  for f in /usr/bin/arm-none-eabi-*; do ln -s "$f" "$work/tc/bin/"; done
  cc=$work/tc/bin/arm-none-eabi-gcc
  "$merlin" run --target qemu-m4 --profile "$profile" --cc "gcc,$cc" \
    --opt O2 "${runs[@]}" --cycle-model off --out "$work/out" --quiet ||
    fail "--cc gcc,$cc failed"
  d=$work/out/latest
  node -e '
    const fs = require("fs");
    const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    const bad = (m) => { console.error("matrix.sh: FAIL: " + m); process.exit(1); };
    if (j.runs.length !== 2) bad("runs: " + j.runs.length + ", want 2");
    const [g, p] = j.runs.map((r) => r.provenance.compiler);
    if (!/^arm-none-eabi-gcc GNU 12\./.test(g)) bad("gcc row: " + g);
    if (p.split(" ")[0] !== process.argv[2] || !/ GNU 12\./.test(p))
      bad("the path row names " + p + ", not " + process.argv[2]);
    j.runs[0].ops.forEach((o, k) => {
      const q = j.runs[1].ops[k];
      if (o.alg !== q.alg || JSON.stringify(o.samples) !== JSON.stringify(q.samples))
        bad(o.alg + " " + o.bytes + ": gcc " + o.samples + " vs the same gcc by path " + q.samples);
    });
  ' "$d/results.json" "$cc"
  # The row is the driver's file name and a hash of its path.
  rows=$(tail -n +2 "$d/results.csv" | awk -F, '{print $(NF-1)}' | sort -u | paste -sd' ')
  echo "$rows" | grep -Eq '^arm-none-eabi-gcc-[0-9a-f]{8} gcc$' ||
    fail "csv cc rows: $rows"
  ls "$d"/console-qemu-m4-matrix-it-arm-none-eabi-gcc-*-O2.log >/dev/null ||
    fail "no console log for the path row"
  echo "--cc PATH: same samples as gcc, the path in provenance.compiler"
  ;;
errors)
  n=0
  expect() {
    local want=$1 needle=$2
    shift 2
    set +e
    "$@" >"$work/log" 2>&1
    local rc=$?
    set -e
    cat "$work/log"
    [ "$rc" -eq "$want" ] || fail "'$*' exited $rc, want $want"
    grep -qF -- "$needle" "$work/log" || fail "'$*': message lacks '$needle'"
    if find "$work/out" -name results.json 2>/dev/null | grep -q .; then
      fail "'$*' wrote results"
    fi
    n=$((n + 1))
  }
  out=(--out "$work/out")
  expect 2 "unknown compiler 'icc'; valid: gcc, clang or the path" \
    "$merlin" run --target qemu-m4 --cc gcc,icc "${out[@]}"
  expect 2 "unknown optimisation level 'O4'; valid: O0, O1, O2, O3, Os, Oz" \
    "$merlin" run --target qemu-m4 --opt O2,O4 "${out[@]}"
  expect 2 "--cc lists 'gcc' twice" \
    "$merlin" run --target qemu-m4 --cc gcc,gcc "${out[@]}"
  expect 2 "--opt ',' has an empty entry" \
    "$merlin" run --target qemu-m4 --opt=, "${out[@]}"
  expect 2 "--jobs must be an integer in 1..64, got '0'" \
    "$merlin" run --target qemu-m4 -j0 "${out[@]}"
  expect 2 "--jobs must be an integer in 1..64, got 'x'" \
    "$merlin" run --target qemu-m4 --jobs x "${out[@]}"
  echo 'merlin-wire 1' >"$work/stream.txt"
  expect 2 "--cc/--opt build images: not with --from" \
    "$merlin" run --target qemu-m4 --from "$work/stream.txt" --cc clang "${out[@]}"
  expect 2 "a compiler path may hold only letters, digits" \
    "$merlin" run --target qemu-m4 --cc '/tmp/a b/gcc' "${out[@]}"
  expect 1 "--cc /nonexistent-merlin/gcc: not an executable compiler driver" \
    "$merlin" run --target qemu-m4 --profile "$profile" \
    --cc /nonexistent-merlin/gcc "${out[@]}"
  # clang missing: said before anything is built.
  expect 1 "clang-19 is not on PATH; install it with scripts/setup" \
    env PATH=/nonexistent-merlin "$merlin" run --target qemu-m4 \
    --profile "$profile" --cc gcc,clang "${out[@]}"
  # The CMake cache option is checked too.
  expect 1 "MERLIN_CC='icc': use gcc, clang or the" \
    cmake -S "$root" -B "$work/cmake" -DMERLIN_CC=icc
  echo "$n error paths checked"
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
echo "1 passed, 0 failed"
