#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Cycle-model unit tests (docs/cycle-model.md): hand-written instruction
# sequences (snippets_v7m.S, snippets_v6m.S) run under QEMU with the plugin;
# every bracketed sequence must give exactly the instructions, estimated
# cycles and classes below. Each expected figure follows from the TRM
# instruction timing table of the model; the rule is written next to it.
#
# usage: model_test.sh PLUGIN_SO OUTDIR
set -euo pipefail
plugin=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
fail=0

build() {  # build SRC CPU ELF
  arm-none-eabi-gcc -mcpu="$2" -mthumb -nostdlib -nostartfiles \
    -Wl,-Ttext=0 -Wl,-e,reset "$here/$1" -o "$3"
}

run() {  # run ELF MACHINE CPU MODEL WS -> prints the sample lines
  local side="$out/$4-ws$5.side"
  rm -f "$side"
  qemu-system-arm -M "$2" -cpu "$3" -display none -monitor none -serial null \
    -semihosting-config enable=on,target=native \
    -icount shift=7,align=off,sleep=off -kernel "$1" \
    -plugin "$plugin,elf=$1,out=$side,model=$4,ws=$5"
  grep -q '^end ' "$side" || { echo "FAIL: $side has no end record"; return 1; }
  awk '/^sample /{ $1 = ""; $2 = ""; sub(/^  /, ""); print }' "$side"
}

check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    echo "ok: $1"
  else
    echo "FAIL: $1"
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | sed 's/^/  /'
    fail=1
  fi
}

# Class columns: alu mul mac div load store ldm_stm branch_taken
# branch_not_taken fp. Every sequence ends with the BL into the end marker,
# counted as a taken branch (BL: 1+P on M3/M4 = 2, 3 on M0+).
row() {  # row INSNS CYCLES alu mul mac div load store ldm_stm bt bnt fp
  printf 'insns=%s cycles=%s alu=%s mul=%s mac=%s div=%s load=%s store=%s ldm_stm=%s branch_taken=%s branch_not_taken=%s fp=%s exc=0\n' "$@"
}

build snippets_v7m.S cortex-m4 "$out/v7m.elf"
build snippets_v6m.S cortex-m0plus "$out/v6m.elf"

# ---- Cortex-M4 (TRM r0p1 3.3.1 Table 3-1; P = 1) ----------------------
m4=$(
  # 1: LDR 2, the next three pipelined with their neighbour: 1 each
  #    (2+1+1+1) + BL 2 = 7
  row 5 7 0 0 0 0 4 0 0 1 0 0
  # 2: MOVS 1 + 4 x SUBS 1 + 3 x BNE taken (1+P = 2) + BNE not taken 1
  #    = 12, + BL 2 = 14
  row 10 14 5 0 0 0 0 0 0 4 1 0
  # 3: LDM, STM, PUSH, POP of 4 registers: 1+N = 5 each, + BL 2 = 22
  row 5 22 0 0 0 0 0 0 4 1 0 0
  # 4: MUL 1, MLA 1, UMULL 1, UMLAL 1 (single cycle on M4), + BL 2 = 6
  row 5 6 0 2 2 0 0 0 0 1 0 0
  # 5: UDIV, SDIV 2..12: the upper end 12 each, + BL 2 = 26
  row 3 26 0 0 0 2 0 0 0 1 0 0
  # 6: STR 2, the second pipelined: 1, + BL 2 = 5
  row 3 5 0 0 0 0 0 2 0 1 0 0
  # 7: BL 2 + PUSH {r4,lr} 1+2 + POP {r4,pc} 1+2+P, + BL 2 = 11
  row 4 11 0 0 0 0 0 0 1 3 0 0
)
check "cortex-m4 model" "$m4" \
  "$(run "$out/v7m.elf" mps2-an386 cortex-m4 m4 0)"

# ---- Cortex-M3 (TRM r2p1 3.3.1 Table 3.1): as M4 except multiplies ------
m3=$(printf '%s\n' "$m4" | sed -n 1,3p
  # 4: MUL 1, MLA 2, UMULL 3..5 -> 5, UMLAL 4..7 -> 7 (upper ends), + BL 2
  row 5 17 0 2 2 0 0 0 0 1 0 0
  printf '%s\n' "$m4" | sed -n 5,7p)
check "cortex-m3 model" "$m3" \
  "$(run "$out/v7m.elf" mps2-an386 cortex-m4 m3 0)"

# ---- flash wait states: every pipeline refill costs ws more ------------
# The loop with ws=2: 4 taken branches (3 BNE + BL) x 2 = 8 more: 22.
ws=$(run "$out/v7m.elf" mps2-an386 cortex-m4 m4 2 | sed -n 2p)
check "cortex-m4 model, 2 flash wait states (loop)" \
  "$(row 10 22 5 0 0 0 0 0 0 4 1 0)" "$ws"

# ---- Cortex-M0+ (TRM r0p1 3.3 Table 3.1) -------------------------------
m0=$(
  # 1: LDR 2 each (no pipelining on M0+), + BL 3 = 11
  row 5 11 0 0 0 0 4 0 0 1 0 0
  # 2: MOVS 1 + 4 x SUBS 1 + 3 x BNE taken 2 + BNE not taken 1, + BL 3 = 15
  row 10 15 5 0 0 0 0 0 0 4 1 0
  # 3: LDM, STM, PUSH, POP of 4 registers: 1+N = 5 each, + BL 3 = 23
  row 5 23 0 0 0 0 0 0 4 1 0 0
  # 4: MULS 1 each (fast multiplier), + BL 3 = 5
  row 3 5 0 2 0 0 0 0 0 1 0 0
  # 5: STR 2 each, + BL 3 = 7
  row 3 7 0 0 0 0 0 2 0 1 0 0
  # 6: BL 3 + PUSH {r4,lr} 1+2 + POP {r4,pc} 3+2, + BL 3 = 14
  row 4 14 0 0 0 0 0 0 1 3 0 0
)
check "cortex-m0plus model" "$m0" \
  "$(run "$out/v6m.elf" mps2-an385 cortex-m3 m0plus 0)"
# The small multiplier: MULS 32 cycles: 2 x 32 + BL 3 = 67.
m0s=$(printf '%s\n' "$m0" | sed -n 1,3p
  row 3 67 0 2 0 0 0 0 0 1 0 0
  printf '%s\n' "$m0" | sed -n 5,6p)
check "cortex-m0plus-smallmul model" "$m0s" \
  "$(run "$out/v6m.elf" mps2-an385 cortex-m3 m0plus-smallmul 0)"

# ---- without a model: exact counts, zero cycles ------------------------
none=$(run "$out/v7m.elf" mps2-an386 cortex-m4 none 0 | awk '{ print $1, $2 }' | head -n 2)
check "no model: instructions only" \
  "$(printf 'insns=5 cycles=0\ninsns=10 cycles=0')" "$none"

# ---- failure paths: the plugin refuses bad arguments, QEMU stops -------
for bad in "model=m9" "bogus=1" ""; do
  args="$plugin,elf=$out/v7m.elf,out=$out/bad.side${bad:+,$bad}"
  [ -n "$bad" ] || args="$plugin,out=$out/bad.side"
  if qemu-system-arm -M mps2-an386 -cpu cortex-m4 -display none -monitor none \
       -serial null -semihosting-config enable=on,target=native \
       -icount shift=7 -kernel "$out/v7m.elf" -plugin "$args" \
       >"$out/bad.log" 2>&1; then
    echo "FAIL: plugin accepted '${bad:-no elf=}'"; fail=1
  elif ! grep -q 'merlin_cycles:' "$out/bad.log"; then
    echo "FAIL: no plugin message for '${bad:-no elf=}'"; fail=1
  else
    echo "ok: plugin refuses '${bad:-no elf=}': $(grep -m1 'merlin_cycles:' "$out/bad.log")"
  fi
done

exit "$fail"
