#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Security and reliability, round four (issue 43; docs/robustness.md): what
# merlin takes from files others may write, each case a finding that failed
# before its fix. Host only; no QEMU.
#   hostile4.sh MERLIN ref-cache  the host reference run of a folder: a
#       crash, an exit in the middle, a line of its own and a stack overflow
#       name the folder; the kept records (build/cache/nistkat) are used
#       only with this user's tag: a planted, damaged or other key's entry
#       is a miss with a note and the reference runs again; a key open to
#       others is not used; --no-ref-cache (two host builds, ~40 s cold)
#   hostile4.sh MERLIN merge      merge reads only what the plan's jobs
#       wrote: a console log that is a link, a FIFO, too large, or a
#       results.json that is a link refused; other files ignored, named; an
#       OUT/latest merlin did not make refused; report and compare alike
#   hostile4.sh MERLIN merge-signal  SIGINT, SIGTERM, SIGHUP while merge
#       writes: exit 130, its temporary removed, nothing written
#   hostile4.sh MERLIN out-dir    merlin removes only its own temporaries
#       (the full name, the marker inside); OUT/latest that is a file or a
#       foreign link is refused before anything runs, and left alone
#   hostile4.sh MERLIN plan       plans carry what to run: a plan's args
#       with execution options, a plan's parts without folders or with
#       foreign ones refused before anything builds; --plan-only --costs
#       keeps a host job's nanoseconds apart; a cost of 1.2e301 printed
#       whole; the minor command-line findings (--shard, empty names,
#       merlin help/version, a non-integer CRYPTO_PUBLICKEYBYTES)
set -euo pipefail
merlin=$1 mode=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-hostile4.XXXXXX")
trap 'rm -rf "$work"' EXIT
expect_log=$work/expect.log
craft=$here/craft.js

# A results directory of a crafted qemu-m4 stream (--from: no build) in
# $work/NAME/latest; a slice of its own one-job plan, as merge takes it.
shard() {
  node "$craft" one valid qemu-m4 "$work/$1.log"
  "$merlin" run --target qemu-m4 --from "$work/$1.log" --out "$work/$1" --quiet >/dev/null
}
# The listing of a directory, sorted, one line.
ls1() { (cd "$1" && LC_ALL=C ls -A | tr '\n' ' '); }

case $mode in
ref-cache)
  export MERLIN_REF_CACHE_KEY=$work/config/ref-cache.key
  printf 'description = hostile4 ref-cache\nhmac-sha256 = wolfcrypt\n' >"$work/h4ref.profile"
  dir=$work/tree/crypto_kem/toy-crash/ref
  mkdir -p "$dir"
  cp "$root"/tests/impl/crypto_kem/toy-kem/ref/* "$dir/"
  # keygen breaks as MERLIN_TOY_CRASH says: one image for every case.
  cat >"$dir/crash.c" <<'EOF'
/* SPDX-License-Identifier: Apache-2.0 */
/* Made by tests/integration/hostile4.sh: keygen breaks as asked. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static int deep(volatile char *up, int n) {
  volatile char pad[4096];
  pad[0] = up ? up[0] : 1;
  return n ? deep(pad, n - 1) + pad[0] : pad[0];
}
/* stdout goes to /dev/null in a host image (the wire has a descriptor of
 * its own, src/ports/host/port_host.c): a folder that means to reach the
 * wire writes to every descriptor it may be. */
static void every_fd(const char *s) {
  for (int fd = 1; fd < 10; fd++)
    if (fd != 2)
      (void)!write(fd, s, strlen(s));
}
void toy_crash(void);
void toy_crash(void) {
  const char *k = getenv("MERLIN_TOY_CRASH");
  if (!k)
    return;
  if (!strcmp(k, "segv"))
    *(volatile int *)0 = 1;
  if (!strcmp(k, "exit0"))
    exit(0);
  if (!strcmp(k, "line"))
    every_fd("@M1 9 end status=pass #00000000\n");
  if (!strcmp(k, "print"))
    (void)!write(1, "@M1 9 end status=pass #00000000\n",
                 strlen("@M1 9 end status=pass #00000000\n"));
  if (!strcmp(k, "stack"))
    (void)deep(NULL, 1 << 20);
}
EOF
  sed -i 's|^int crypto_kem_keypair(uint8_t \*pk, uint8_t \*sk) {|void toy_crash(void);\n&\n  toy_crash();|' "$dir/kem.c"
  grep -q '^  toy_crash();' "$dir/kem.c" || fail "the crashing folder was not made (toy-kem/ref/kem.c changed?)"
  # no entry of an earlier run of this test: each run makes its own key
  { grep -ls "impl:toy-crash/ref" "$root"/build/cache/nistkat/* || true; } | xargs -r rm -f
  run=("$merlin" run --target host --profile "$work/h4ref.profile" --impl "$dir" --kat-only)
  expect_timeout=600
  for k in segv exit0 line stack; do
    expect 1 "implementation folder $dir" env MERLIN_TOY_CRASH=$k "${run[@]}" --no-ref-cache
    grep -q "during toy-crash keygen" "$expect_log" || { cat "$expect_log"; fail "$k: no operation named"; }
    lacks "the reference image's stream: line"
  done
  # What a folder prints on stdout is dropped, as on a Cortex-M image.
  expect 0 "every KAT passed" env MERLIN_TOY_CRASH=print "${run[@]}" --no-ref-cache
  expect 0 "every KAT passed" "${run[@]}"
  [ "$(stat -c %a "$MERLIN_REF_CACHE_KEY")" = 600 ] || fail "the key is not mode 600"
  [ "$(stat -c %a "$work/config")" = 700 ] || fail "the key's folder is not mode 700"
  entry=$(grep -l "impl:toy-crash/ref" "$root"/build/cache/nistkat/* | head -n 1)
  [ -f "$entry" ] || fail "no cache entry names impl:toy-crash/ref"
  # With MERLIN_TOY_CRASH set the target image crashes too (after the
  # references: "console stream rejected"); whether the reference ran is
  # whether its own crash is said ("in its host known-answer run").
  ran="in its host known-answer run"
  # kept: the reference is not run again (it would crash now)
  expect 1 "kept from an earlier run" env MERLIN_TOY_CRASH=segv "${run[@]}"
  lacks "$ran"
  # --no-ref-cache: it is run again, and crashes
  expect 1 "$ran" env MERLIN_TOY_CRASH=segv "${run[@]}" --no-ref-cache
  # planted: the records of another folder under the same tag
  sed -i 's/sha256=\([0-9a-f]\)/sha256=0\1/' "$entry"
  cp "$entry" "$work/planted"
  expect 1 "its tag is not this user's key's over it" env MERLIN_TOY_CRASH=segv "${run[@]}"
  grep -q "not used, the references run again" "$expect_log" || fail "no note of the planted entry"
  grep -q "$ran" "$expect_log" || fail "the reference did not run again"
  expect 0 "not used, the references run again" "${run[@]}"
  cmp -s "$entry" "$work/planted" && fail "the planted entry was not replaced"
  # damaged, and a link to a good entry: not used
  cp "$entry" "$work/good"
  head -c 40 "$work/good" >"$entry"
  expect 1 "not an entry of this merlin" env MERLIN_TOY_CRASH=segv "${run[@]}"
  grep -q "$ran" "$expect_log" || fail "damaged: the reference did not run again"
  rm -f "$entry" && ln -s "$work/good" "$entry"
  expect 1 "a symbolic link" env MERLIN_TOY_CRASH=segv "${run[@]}"
  grep -q "$ran" "$expect_log" || fail "link: the reference did not run again"
  rm -f "$entry" && cp "$work/good" "$entry"
  # another user's key: the same entry is not authentic under it
  expect 1 "its tag is not this user's key's" env MERLIN_TOY_CRASH=segv \
    MERLIN_REF_CACHE_KEY="$work/other.key" "${run[@]}"
  grep -q "$ran" "$expect_log" || fail "other key: the reference did not run again"
  # a key open to others is not used at all
  chmod 644 "$MERLIN_REF_CACHE_KEY"
  expect 1 "the reference cache is not used: its key" env MERLIN_TOY_CRASH=segv "${run[@]}"
  grep -q "open to other users" "$expect_log" || fail "the note does not say why"
  grep -q "$ran" "$expect_log" || fail "open key: the reference did not run again"
  chmod 600 "$MERLIN_REF_CACHE_KEY"
  expect 1 "kept from an earlier run" env MERLIN_TOY_CRASH=segv "${run[@]}"
  lacks "$ran"
  ;;
merge)
  shard s
  s=$work/s/latest
  expect 0 "results written" "$merlin" merge "$s" --out "$work/m1"
  [ "$(ls1 "$work/m1/latest")" = "console-qemu-m4-crafted.log report.html report.md results.csv results.json " ] ||
    fail "the merged directory holds: $(ls1 "$work/m1/latest")"
  # files no job wrote: ignored with a message, never copied
  touch "$s/console-<img src=x onerror=alert(1)>.log" "$s/notes.txt"
  mkdir "$s/sub"
  expect 0 "notes.txt ignored (no job of the plan wrote it)" "$merlin" merge "$s" --out "$work/m2"
  grep -q "console-<img src=x onerror=alert(1)>.log ignored" "$expect_log" || fail "the planted log is not named"
  [ "$(ls1 "$work/m2/latest")" = "console-qemu-m4-crafted.log report.html report.md results.csv results.json " ] ||
    fail "the merged directory holds: $(ls1 "$work/m2/latest")"
  # the job's console log as a link (to /etc/passwd), a FIFO, too large
  c=$s/console-qemu-m4-crafted.log
  mv "$c" "$work/console.log"
  ln -s /etc/passwd "$c"
  expect 1 "a symbolic link (not followed" "$merlin" merge "$s" --out "$work/m3"
  rm "$c" && mkfifo "$c"
  expect 1 "not a regular file (a FIFO)" "$merlin" merge "$s" --out "$work/m3"
  rm "$c" && truncate -s 300M "$c"
  expect 1 "larger than 268435456 bytes" "$merlin" merge "$s" --out "$work/m3"
  [ ! -e "$work/m3" ] || fail "a refused merge wrote $work/m3"
  mv "$work/console.log" "$c"
  # results.json as a link: refused by merge, report and compare
  mv "$s/results.json" "$work/results.json" && ln -s "$work/results.json" "$s/results.json"
  expect 1 "a symbolic link" "$merlin" merge "$s" --out "$work/m3"
  expect 1 "a symbolic link" "$merlin" report "$s"
  expect 2 "a symbolic link" "$merlin" compare "$s" "$work/m1/latest"
  rm "$s/results.json" && mv "$work/results.json" "$s/results.json"
  # an --out directory whose latest merlin did not make: not read through
  mkdir -p "$work/o1" && ln -s "$s" "$work/o1/latest"
  expect 1 "not at a results directory merlin names" "$merlin" merge "$work/o1" --out "$work/m3"
  expect 2 "not at a results directory merlin names" "$merlin" compare "$work/o1" "$s"
  # report writes beside a planted link, never through it
  echo victim >"$work/victim"
  ln -sf "$work/victim" "$s/report.md"
  expect 0 "wrote" "$merlin" report "$s"
  [ "$(cat "$work/victim")" = victim ] || fail "report wrote through a planted link"
  [ -f "$s/report.md" ] && [ ! -L "$s/report.md" ] || fail "report.md is not a file of its own"
  # OUT/latest that merlin did not make: refused, left alone
  mkdir -p "$work/m4" && echo mine >"$work/m4/latest"
  expect 1 "is not the symbolic link merlin makes" "$merlin" merge "$s" --out "$work/m4"
  [ "$(ls1 "$work/m4")" = "latest " ] && [ "$(cat "$work/m4/latest")" = mine ] ||
    fail "a refused merge touched $work/m4: $(ls1 "$work/m4")"
  ;;
merge-signal)
  shard s
  s=$work/s/latest
  # a console log large enough that writing it takes a while
  head -c 100000000 /dev/zero >>"$s/console-qemu-m4-crafted.log"
  for sig in INT TERM HUP; do
    out=$work/m-$sig
    mkdir -p "$out"
    "$merlin" merge "$s" --out "$out" >"$work/log-$sig" 2>&1 &
    pid=$!
    for _ in $(seq 6000); do # until its temporary is there (60 s at most)
      compgen -G "$out/.tmp-*/.merlin-tmp" >/dev/null && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.01
    done
    kill -STOP "$pid" 2>/dev/null || true
    t=$(compgen -G "$out/.tmp-*" || true)
    [ -n "$t" ] || { cat "$work/log-$sig"; fail "SIG$sig: merge wrote no temporary (finished first?)"; }
    [ -f "$t/.merlin-tmp" ] || fail "SIG$sig: its temporary has no marker"
    kill "-$sig" "$pid"
    kill -CONT "$pid"
    rc=0
    wait "$pid" || rc=$?
    cat "$work/log-$sig"
    [ "$rc" = 130 ] || fail "SIG$sig: merge exited $rc, want 130"
    grep -q "interrupted; nothing written" "$work/log-$sig" || fail "SIG$sig: no message"
    [ -z "$(ls -A "$out")" ] || fail "SIG$sig: merge left $(ls1 "$out")"
    passed=$((passed + 1))
  done
  ;;
out-dir)
  shard s
  out=$work/out
  mkdir -p "$out"
  sh -c 'exit 0' &
  dead=$!
  wait "$dead"
  marker() { # marker PID: the text merlin writes (model/results_dir.c)
    printf 'merlin: results being written by process %s; removed with this directory when that process is gone\n' "$1"
  }
  # merlin's own, of a dead run: removed
  mkdir "$out/.tmp-20260101-000000-$dead"
  marker "$dead" >"$out/.tmp-20260101-000000-$dead/.merlin-tmp"
  echo '{}' >"$out/.tmp-20260101-000000-$dead/results.json"
  ln -s 20260101-000000 "$out/.latest.tmp-$dead"
  # like names that are not merlin's, or not whole: left alone
  mkdir "$out/.tmp-mynotes-999999" && echo mine >"$out/.tmp-mynotes-999999/notes.txt"
  mkdir "$out/.tmp-20260101-000001-$dead" && echo mine >"$out/.tmp-20260101-000001-$dead/notes.txt"
  mkdir "$out/.tmp-20260101-000002-${dead}x" && marker "$dead" >"$out/.tmp-20260101-000002-${dead}x/.merlin-tmp"
  mkdir "$out/.tmp-20260101-000003-$dead" && marker 1234567 >"$out/.tmp-20260101-000003-$dead/.merlin-tmp"
  mkdir -p "$out/.tmp-20260101-000004-$dead/sub" && marker "$dead" >"$out/.tmp-20260101-000004-$dead/.merlin-tmp"
  ln -s /etc "$out/.latest.tmp-$((dead + 1))"
  expect 0 "results written" "$merlin" run --target qemu-m4 --from "$work/s.log" --out "$out" --quiet
  [ ! -e "$out/.tmp-20260101-000000-$dead" ] || fail "the dead run's temporary directory was kept"
  [ ! -L "$out/.latest.tmp-$dead" ] || fail "the dead run's temporary link was kept"
  for keep in ".tmp-mynotes-999999/notes.txt" ".tmp-20260101-000001-$dead/notes.txt" \
    ".tmp-20260101-000002-${dead}x/.merlin-tmp" ".tmp-20260101-000003-$dead/.merlin-tmp" \
    ".tmp-20260101-000004-$dead/sub" ".latest.tmp-$((dead + 1))"; do
    [ -e "$out/$keep" ] || [ -L "$out/$keep" ] || fail "$keep was removed"
  done
  [ ! -e "$out/latest/.merlin-tmp" ] || fail "the marker stayed in the results directory"
  # OUT/latest that is a file, or a link merlin did not make: refused
  # before anything runs, left as it was, nothing written
  for how in file link; do
    o=$work/o-$how
    mkdir -p "$o"
    if [ $how = file ]; then echo mine >"$o/latest"; else ln -s /etc "$o/latest"; fi
    expect 1 "merlin neither reads through nor replaces it" \
      "$merlin" run --target qemu-m4 --from "$work/s.log" --out "$o" --quiet
    [ "$(ls1 "$o")" = "latest " ] || fail "$how: a refused run wrote $(ls1 "$o")"
  done
  [ "$(cat "$work/o-file/latest")" = mine ] || fail "the file latest was changed"
  [ "$(readlink "$work/o-link/latest")" = /etc ] || fail "the link latest was changed"
  ;;
plan)
  toys=$root/tests/impl
  folders=(--impl "$toys/crypto_kem/toy-kem/ref" --impl "$toys/crypto_sign/toy-sign/ref")
  "$merlin" run --target host "${folders[@]}" --runs 1 --warmup 0 --plan-only "$work/p.json" >/dev/null
  # execution options in a plan's args
  for opt in "--out /anywhere" --quiet "-j 1" "--jobs=1" --no-ref-cache "--stall 5" "--plan-only x"; do
    name=${opt%% *}
    case $name in -j | --jobs=*) name=--jobs ;; esac
    # shellcheck disable=SC2086 # one option and its value
    node -e 'const fs = require("fs"), [f, g, ...a] = process.argv.slice(1);
      const p = JSON.parse(fs.readFileSync(f)); p.args.push(...a); fs.writeFileSync(g, JSON.stringify(p));' \
      "$work/p.json" "$work/x.json" $opt
    expect 2 "its args carry $name, which says how to run" "$merlin" run --plan "$work/x.json" --shard 0/1 --out "$work/r"
  done
  # parts: none of the profile's folders, a folder of no profile, one
  # folder in two parts
  part() { # part JSON-JOBS IMPLS: the plan with these jobs added, IMPLS theirs
    node -e 'const fs = require("fs"), [f, g, j] = process.argv.slice(1);
      const p = JSON.parse(fs.readFileSync(f)); p.jobs.push(...JSON.parse(j)); fs.writeFileSync(g, JSON.stringify(p));' \
      "$work/p.json" "$work/x.json" "${1//IMPLS/$2}"
  }
  sha=$(node -e 'console.log(require(process.argv[1]).jobs[0].impls[0])' "$work/p.json")
  job='{"job": 1, "target": "host", "profile": "default.partK", "impls": IMPLS}'
  part "[${job/K/1}]" "[]"
  expect 2 "default.part1 of its jobs holds none of the profile's folders" \
    "$merlin" run --plan "$work/x.json" --shard 0/1 --out "$work/r"
  lacks "building"
  part "[${job/K/2}]" "[\"$sha\"]"
  expect 2 "default.part1 of its jobs holds none" "$merlin" run --plan "$work/x.json" --out "$work/r"
  part "[${job/K/1}]" '["00ff"]'
  expect 2 "names folder 00ff, which is none of its profile's folders" \
    "$merlin" run --plan "$work/x.json" --out "$work/r"
  part "[${job/K/1}, ${job/K/2}]" "[\"$sha\"]"
  expect 2 "which another part holds" "$merlin" run --plan "$work/x.json" --out "$work/r"
  # the one reader: another format, a key twice (JSON that any reader
  # but a strict one would take), both refused before anything runs
  sed 's/"merlin_plan": *1/"merlin_plan": 2/' "$work/p.json" >"$work/x.json"
  expect 2 "not a plan of this merlin" "$merlin" run --plan "$work/x.json" --out "$work/r"
  sed 's/"merlin_plan": *1/"merlin_plan": 1, "merlin_plan": 1/' "$work/p.json" >"$work/x.json"
  expect 2 "not a plan of this merlin" "$merlin" run --plan "$work/x.json" --out "$work/r"
  [ ! -e "$work/r" ] || fail "a refused plan wrote $work/r"
  # --costs: the host job's nanoseconds apart from the instructions; a
  # cost beyond every count printed whole
  shard q
  node "$craft" one valid host "$work/h.log"
  "$merlin" run --target host --from "$work/h.log" --out "$work/h" --quiet >/dev/null
  printf 'description = crafted\nsha256 = wolfcrypt\nml-kem-512 = pqclean\n' >"$work/crafted.profile"
  mkdir -p "$work/costs" "$work/big"
  node -e '
    const fs = require("fs"), [q, h, c, b] = process.argv.slice(1);
    const set = (o, v) => { o.samples = o.samples.map(() => v);
      for (const k of ["median", "p99", "min", "max", "mean"]) o[k] = v; o.iqr = o.stddev = o.cv = 0; };
    const Q = JSON.parse(fs.readFileSync(q)), H = JSON.parse(fs.readFileSync(h));
    for (const o of H.runs[0].ops) set(o, 1e12);
    Q.runs.push(H.runs[0]);
    fs.writeFileSync(c, JSON.stringify(Q));
    const B = JSON.parse(fs.readFileSync(q));
    set(B.runs[0].ops[0], 1.2e299);
    fs.writeFileSync(b, JSON.stringify(B));' \
    "$work/q/latest/results.json" "$work/h/latest/results.json" "$work/costs/results.json" "$work/big/results.json"
  expect 0 "1 job(s) timed by the host's clock, in slice 0: 321,000,000,000,000 ns" \
    "$merlin" run --target host,qemu-m4 --profile "$work/crafted.profile" --plan-only "$work/c.json" \
    --costs "$work/costs" --shard 0/2
  grep -qE "the heaviest job, 1,060,691, bounds" "$expect_log" || fail "the summary adds the host's ns"
  grep -qE "^ +1 +qemu-m4 .* 1 of 2$" "$expect_log" || fail "the qemu-m4 job is not dealt away from the host's slice"
  expect 0 "1.284e+301" "$merlin" run --target qemu-m4 --profile "$work/crafted.profile" \
    --plan-only "$work/b.json" --costs "$work/big" --shard 0/2
  grep -qE "^ +0 +qemu-m4 +crafted +default +1\.284e\+301 " "$expect_log" || fail "the cost is not printed whole"
  # the minor findings of the command line
  expect 2 "--shard takes K/N" "$merlin" run --target host --shard 0/4294967297 --plan-only -
  expect 2 "--shard takes K/N" "$merlin" run --target host --shard 4294967296/4294967297 --plan-only -
  expect 2 "--target 'host,': an empty target name" "$merlin" run --target host, --plan-only -
  expect 2 "--target ',host': an empty target name" "$merlin" build --target ,host
  expect 2 "--alg 'sha256,': an empty algorithm name" "$merlin" run --target host --alg sha256, --backend wolfcrypt
  expect 2 "--backend 'wolfcrypt,': an empty backend name" "$merlin" run --target host --alg sha256 --backend wolfcrypt,
  expect 2 "help takes at most one command, not 'merge'" "$merlin" help run merge
  expect 2 "version takes no argument, not 'extra'" "$merlin" version extra
  expect 2 "--version takes no argument" "$merlin" --version extra
  mkdir -p "$work/f/crypto_kem/toy-float"
  cp -r "$toys/crypto_kem/toy-kem/ref" "$work/f/crypto_kem/toy-float/"
  sed -i 's/#define CRYPTO_PUBLICKEYBYTES 32$/#define CRYPTO_PUBLICKEYBYTES 32.5/' "$work/f/crypto_kem/toy-float/ref/api.h"
  grep -q 'CRYPTO_PUBLICKEYBYTES 32.5' "$work/f/crypto_kem/toy-float/ref/api.h" || fail "the float size was not made"
  expect 2 "toy-float/ref: api.h: CRYPTO_PUBLICKEYBYTES is not a whole number of bytes" \
    "$merlin" run --target host --impl "$work/f/crypto_kem/toy-float/ref" --plan-only -
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
finish
