#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of the workflows (docs/workflows.md).
#   wf.sh MERLIN run TARGET      a run has every workflow variant of the
#                                default profile, complete and consistent,
#                                the documented layouts add up to the bytes
#                                it reports, and report.md has the table and
#                                the fairness line
#   wf.sh MERLIN corrupt host    one corrupted byte per workflow fails the
#                                run, names the step, and times nothing
#   wf.sh MERLIN images host     two images (default, classical-wolfcrypt):
#                                the second builds only the variants its
#                                primitives allow; the fairness line
#                                compares across the images too
#   wf.sh MERLIN gate host       a failed KAT of a primitive (HKDF-SHA256)
#                                fails every workflow using it at "kat"
#   wf.sh MERLIN corrupt qemu-m4 the same for provision/server_hello, QEMU
#                                started as `merlin run` does (docs/cli.md)
#                                with the image's --wf-corrupt argument
set -euo pipefail
merlin=$1 mode=$2 target=$3
here=$(cd "$(dirname "$0")" && pwd)
doc=$here/../../docs/workflows.md
check=$here/wf_check.js
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-wf.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"

variants=(provision/classical-p256 provision/pqc-mlkem512-mldsa44
  provision/pqc-mlkem768-mldsa65 provision/hybrid-x25519-mlkem768-mldsa44
  provision/hybrid-x25519-mlkem768-ed25519 session/x25519-ed25519
  constrained/hkdf-aes128gcm)

case $mode in
run)
  runs=(--runs 11 --warmup 2)
  [ "$target" = host ] || runs=(--runs 3 --warmup 1)
  "$merlin" run --target "$target" "${runs[@]}" --out "$work/out" --quiet
  r=$work/out/latest/results.json
  node "$check" structure "$r" "$target" "${variants[@]}" || fail "structure"
  node "$check" layout "$doc" "$r" || fail "layout"
  # The layout check can fail: one documented byte off is caught.
  sed '0,/| 65 | 1 |/s//| 66 | 1 |/' "$doc" >"$work/bad.md"
  if node "$check" layout "$work/bad.md" "$r" >"$work/bad.log"; then
    fail "a wrong layout table passed"
  fi
  grep -q "device_hello is 73 bytes, the documented fields add up to 74" \
    "$work/bad.log" || fail "the wrong layout was not named"
  md=$work/out/latest/report.md
  grep -q "^## Workflows" "$md" || fail "report.md lacks the Workflows section"
  for v in "${variants[@]}"; do
    grep -q "| ${v%%/*} | ${v#*/} |" "$md" || fail "report.md lacks $v"
  done
  grep -q "^\*\*Fairness ($target, 1 image):\*\* .*largest difference" "$md" ||
    fail "report.md lacks the fairness line"
  grep -q "Step breakdown" "$md" || fail "report.md lacks the step breakdown"
  if [ "$target" != host ]; then
    # Exact instruction counts: the control is the same after every workflow.
    grep -q "largest difference 0.00%" "$md" || fail "QEMU control differs"
  fi
  echo "4 passed, 0 failed"
  ;;
corrupt)
  image=$("$merlin" build --target "$target" --quiet | tail -n 1)
  [ -f "$image" ] || fail "no $target image"
  # The image with its arguments: natively, or as merlin runs QEMU.
  run_image() {
    if [ "$target" = host ]; then
      "$image" "$@"
    else
      local semi=enable=on,target=native,arg=merlin-image a
      for a in "$@"; do semi+=",arg=$a"; done
      timeout 600 qemu-system-arm -M mps2-an386 -cpu cortex-m4 -display none \
        -monitor none -serial stdio -semihosting-config "$semi" \
        -icount shift=7,align=off,sleep=off -kernel "$image"
    fi
  }
  cases=("provision/server_hello:signature verify")
  [ "$target" = host ] && cases+=("session/frames:tag check"
    "constrained/epoch:key mismatch")
  n=0
  for c in "${cases[@]}"; do
    spec=${c%%:*} step=${c#*:} wf=${spec%%/*}
    set +e
    run_image --runs 1 --warmup 0 --wf-corrupt "$spec" >"$work/console.log"
    rc=$?
    "$merlin" run --target "$target" --from "$work/console.log" \
      --out "$work/out" >"$work/msg" 2>&1
    mrc=$?
    set -e
    cat "$work/msg"
    [ "$rc" -eq 1 ] || fail "$spec: the image exited $rc, not 1"
    [ "$mrc" -ne 0 ] || fail "$spec: merlin accepted the run"
    grep -q "workflow $wf .* failed at $step:" "$work/msg" ||
      fail "$spec: no message naming '$step'"
    if find "$work/out" -name results.json 2>/dev/null | grep -q .; then
      fail "$spec: results were written"
    fi
    # No timing for any instance of that workflow: every one failed its
    # check, and none has a plan or samples.
    ids=$(grep -o "wf id=[0-9]* workflow=$wf " "$work/console.log" |
      sed 's/wf id=\([0-9]*\).*/\1/')
    [ -n "$ids" ] || fail "$spec: no $wf workflow announced"
    for id in $ids; do
      grep -q "wfcheck id=$id result=fail step=${step// /%20} " "$work/console.log" ||
        fail "$spec: workflow $id did not fail its check at $step"
      if grep -qE "wf(plan|sample|end) id=$id " "$work/console.log"; then
        fail "$spec: workflow $id was timed"
      fi
    done
    n=$((n + 1))
  done
  if [ "$target" != host ]; then
    echo "$n passed, 0 failed"
    exit 0
  fi
  # A message no workflow sends is an error, not a silent pass.
  set +e
  "$image" --runs 1 --warmup 0 --wf-corrupt session/nothing >"$work/console.log"
  rc=$?
  set -e
  [ "$rc" -eq 1 ] || fail "--wf-corrupt session/nothing exited $rc"
  grep -q "wf-corrupt%20names%20no%20message" "$work/console.log" ||
    fail "--wf-corrupt session/nothing: no error"
  echo "$((n + 1)) passed, 0 failed"
  ;;
images)
  "$merlin" run --target "$target" --profile default,classical-wolfcrypt \
    --runs 5 --warmup 1 --out "$work/out" --quiet
  r=$work/out/latest/results.json
  node "$check" structure "$r" "$target" || fail "structure"
  node "$check" layout "$doc" "$r" || fail "layout"
  got=$(node -e '
    const j = require(process.argv[1]);
    const r = j.runs.find(r => r.profile === "classical-wolfcrypt");
    console.log(r.workflows.map(w => w.workflow + "/" + w.variant).join(" "));' "$r")
  [ "$got" = "provision/classical-p256 session/x25519-ed25519 constrained/hkdf-aes128gcm" ] ||
    fail "classical-wolfcrypt built the workflows '$got'"
  grep -q "^\*\*Fairness ($target, 2 images):\*\* .*and the operations across the images.*largest difference" \
    "$work/out/latest/report.md" || fail "no fairness line across 2 images"
  echo "3 passed, 0 failed"
  ;;
gate)
  set +e
  "$merlin" run --target "$target" --runs 3 --warmup 0 --out "$work/out" \
    --kat-corrupt hkdf-sha256/derive --quiet >"$work/msg" 2>&1
  rc=$?
  set -e
  cat "$work/msg"
  [ "$rc" -ne 0 ] || fail "a run with a failed HKDF KAT exited 0"
  for v in "${variants[@]}"; do
    grep -q "workflow ${v%%/*} ${v#*/} (.*) failed at kat: known-answer test of hkdf-sha256 on .* failed; no timing" \
      "$work/msg" || fail "$v was not stopped by the HKDF KAT"
  done
  if find "$work/out" -name results.json 2>/dev/null | grep -q .; then
    fail "results were written"
  fi
  echo "2 passed, 0 failed"
  ;;
*)
  echo "usage: wf.sh MERLIN run|corrupt|gate|images TARGET" >&2
  exit 2
  ;;
esac
