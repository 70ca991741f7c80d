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

run() {  # run ELF MACHINE CPU MODEL WS [MEM] -> prints the sample lines
  local side="$out/$4-ws$5${6:+-mem}${QEMU_SPLIT:+-split}.side"
  rm -f "$side"
  # shellcheck disable=SC2086 # QEMU_SPLIT: an option or nothing
  qemu-system-arm -M "$2" -cpu "$3" -display none -monitor none -serial null \
    -semihosting-config enable=on,target=native ${QEMU_SPLIT:-} \
    -icount shift=7,align=off,sleep=off -kernel "$1" \
    -plugin "$plugin,elf=$1,out=$side,model=$4,ws=$5${6:+,$6}"
  grep -q '^end ' "$side" || { echo "FAIL: $side has no end record"; return 1; }
  awk '/^sample /{ $1 = ""; $2 = ""; sub(/^  /, ""); print }' "$side"
}

check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    echo "ok: $1"
  else
    echo "FAIL: $1"
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | sed 's/^/  /' || true
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
build snippets_m33m7.S cortex-m4 "$out/m33m7.elf"
build snippets_split.S cortex-m4 "$out/split.elf"

# ---- Cortex-M4 (version 2: TRM r0p1 3.3.1 Table 3-1 and 3.3.2; P = 1) --
# A block entered by a taken branch (the marker's BX LR returns to the
# instruction after its BL) whose first instruction is 32-bit at a
# halfword address costs one more: the second fetch (rows 3, 4, 5, 7);
# three or more 32-bit instructions in a row at halfword addresses one
# more (rows 4 and 5, the BL into the end marker among them).
m4=$(
  # 1: LDR 2, the next three pipelined with the load before: 1 each
  #    (2+1+1+1) + BL 2 = 7
  row 5 7 0 0 0 0 4 0 0 1 0 0
  # 2: MOVS 1 + 4 x SUBS 1 + 3 x BNE taken (1+P = 2) + BNE not taken 1
  #    = 12, + BL 2 = 14
  row 10 14 5 0 0 0 0 0 0 4 1 0
  # 3: LDM, STM, PUSH, POP of 4 registers: 1+N = 5 each, + BL 2 = 22;
  #    LDM.W at a halfword address after the marker's return: 23
  row 5 23 0 0 0 0 0 0 4 1 0 0
  # 4: MUL 1, MLA 1, UMULL 1, UMLAL 1 (single cycle on M4), + BL 2 = 6;
  #    MUL.W at a halfword address: 7; the five a group: 8
  row 5 8 0 2 2 0 0 0 0 1 0 0
  # 5: UDIV, SDIV 2..12: the upper end 12 each, + BL 2 = 26; UDIV at a
  #    halfword address: 27; the three a group: 28
  row 3 28 0 0 0 2 0 0 0 1 0 0
  # 6: STR 1 ("STR Rx,[Ry,#imm] is always one cycle"), STR 1, + BL 2 = 4
  row 3 4 0 0 0 0 0 2 0 1 0 0
  # 7: BL 2 + PUSH {r4,lr} 1+2 + POP {r4,pc} 1+2+3 (a PC loaded from
  #    memory: "three cycles for the pipeline reload"), + BL 2 = 13; both
  #    BLs are 32-bit at halfword addresses, reached by branches: 15
  row 4 15 0 0 0 0 0 0 1 3 0 0
)
check "cortex-m4 model" "$m4" \
  "$(run "$out/v7m.elf" mps2-an386 cortex-m4 m4 0)"

# ---- Cortex-M3 (TRM r2p1 3.3.1 Table 3.1, version 1): as the M4's table
# without 3.3.2's rules (every load or store 2, 1 right after another),
# the refill P = 1 for every branch, and multiplies of their own -----------
m3=$(
  row 5 7 0 0 0 0 4 0 0 1 0 0
  row 10 14 5 0 0 0 0 0 0 4 1 0
  row 5 22 0 0 0 0 0 0 4 1 0 0
  # 4: MUL 1, MLA 2, UMULL 3..5 -> 5, UMLAL 4..7 -> 7 (upper ends), + BL 2
  row 5 17 0 2 2 0 0 0 0 1 0 0
  row 3 26 0 0 0 2 0 0 0 1 0 0
  # 6: STR 2, the second pipelined: 1, + BL 2 = 5
  row 3 5 0 0 0 0 0 2 0 1 0 0
  # 7: BL 2 + PUSH {r4,lr} 1+2 + POP {r4,pc} 1+2+P, + BL 2 = 11
  row 4 11 0 0 0 0 0 0 1 3 0 0
)
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

# ---- Cortex-M33 (docs/cycle-model.md "Cortex-M33", version 2) ----------
# Single load/store 1, its data a cycle late; MUL/MAC result a cycle late;
# two 16-bit ALU instructions do not pair (only a NOP or IT with another,
# and a 16-bit branch after a 16-bit instruction: taken 1 when that one
# does not set the flags, not taken 0); BL 2, taken B<cond> 2. Rows 1 to 9
# of snippets_m33m7.S; the published measurements: published_test.sh.
m33=$(
  row 3 5 1 0 0 0 1 0 0 1 0 0   # LDR 1, ADDS uses it: 1 + stall 1, BL 2
  row 3 4 1 0 0 0 1 0 0 1 0 0   # LDR 1, independent ADDS 1, BL 2
  row 5 6 4 0 0 0 0 0 0 1 0 0   # 4 independent ADDS: 4 (no pairs), BL 2
  row 5 6 4 0 0 0 0 0 0 1 0 0   # 4 dependent ADDS: 4, BL 2
  row 3 5 1 0 1 0 0 0 0 1 0 0   # MLA 1, ADDS uses it: 1 + stall 1, BL 2
  row 3 4 0 0 0 0 0 2 0 1 0 0   # STR 1 + STR 1 (no pairing of stores), BL 2
  row 3 4 0 2 0 0 0 0 0 1 0 0   # MUL 1 + independent MUL 1, BL 2
  row 3 5 1 0 0 0 1 0 0 1 0 0   # LDRB, ADDS uses it: as row 1
  # loop: MOVS 1, SUBS 1, BNE taken 2 (SUBS set the flags: no pair), three
  # times SUBS 1 + BNE (taken 2, twice; not taken, paired: 0), BL 2 = 13
  row 10 13 5 0 0 0 0 0 0 4 1 0
)
check "cortex-m33 model (load-use, MAC latency, 16-bit pairs)" "$m33" \
  "$(run "$out/m33m7.elf" mps2-an386 cortex-m4 m33 0 | sed -n 1,9p)"

# ---- Cortex-M7 (docs/cycle-model.md "Cortex-M7") ----------------------
# Two instructions issue together unless: the second reads or writes what
# the first writes, both need the one store port, the one MAC or the one
# branch unit, either is single-issue, or the second reads flags the
# first sets. Byte/halfword loads and multiplies: result latency 2 (a
# stall when used at once). A branch pairs as the second instruction (the
# BL into the end marker, cost 0, when the instruction before allows it).
# A mispredicted branch costs 6 more (2-bit counter + last target).
m7=$(
  row 3 2 1 0 0 0 1 0 0 1 0 0   # LDR 1, dependent ADDS 1, BL paired 0
  row 3 2 1 0 0 0 1 0 0 1 0 0   # LDR + ADDS paired 1, BL 1
  row 5 3 4 0 0 0 0 0 0 1 0 0   # two pairs 1 + 1, BL 1
  # 4 dependent ADDS: the first in the early ALU forwards to the second in
  # the late ALU (paired) 1; the third reads a late result: 1, the fourth
  # 1 (no early forward from a late one), BL paired 0
  row 5 3 4 0 0 0 0 0 0 1 0 0
  row 3 3 1 0 1 0 0 0 0 1 0 0   # MLA 1, ADDS 1 + stall 1, BL paired 0
  row 3 2 0 0 0 0 0 2 0 1 0 0   # STR 1, STR 1 (one store port), BL paired 0
  row 3 2 0 2 0 0 0 0 0 1 0 0   # MUL 1, MUL 1 (one MAC), BL paired 0
  row 3 3 1 0 0 0 1 0 0 1 0 0   # LDRB 1, ADDS 1 + stall 1, BL paired 0
  # loop: MOVS + SUBS (early-ALU forward, paired) 1, BNE 1 (reads SUBS's
  # flags: no pair) | 3 x (SUBS 1 + BNE 1) | BL 1 = 9; mispredicted: the
  # first BNE (counter weakly not taken) and its last (not taken), each
  # with the flags set right before: 2 x 8 = 16. The one BNE has one
  # counter, though QEMU translates it in two blocks (MOVS-SUBS-BNE, then
  # SUBS-BNE from the loop's head): the predictor is indexed by the
  # branch's address, not by QEMU's block
  row 10 25 5 0 0 0 0 0 0 4 1 0
)
check "cortex-m7 model (dual issue, latencies, branch prediction)" "$m7" \
  "$(run "$out/m33m7.elf" mps2-an386 cortex-m4 m7 0 | sed -n 1,9p)"

# ---- memory system of a board (memsys.c), on the M4 model ---------------
# A 64-byte direct-mapped instruction cache of 16-byte lines (4 sets), a
# miss costs 5 cycles (flash wait states), no prefetch.
# Row 10 (hit): MOVS 1 + B 2 (line A, miss: 5), loop SUBS+BNE 3 + 3 + 2
# (line A+1, a miss the first time: 5, then hits), BL 2 (line A+1: hit)
# = 13 + 10 = 23.
# Row 11 (miss): MOVS 1 + B 2 (line A: 5), loop of 38 NOP + SUBS + BNE
# over lines A+1..A+5 (A+1 and A+5 share a set): 41 + 41 + 40 cycles;
# misses: 5 the first time, then A+1 and A+5 every time (2 x 2), BL 2
# (line A+6: miss) = 127 + 5 x (1 + 5 + 4 + 1) = 182.
mem="ic=64/16/1,miss=5,flash=0x0-0x400000,prefetch=0"
check "board memory system: a loop that hits, one that misses" \
  "$(row 9 23 4 0 0 0 0 0 0 4 1 0; row 123 182 118 0 0 0 0 0 0 4 1 0)" \
  "$(run "$out/m33m7.elf" mps2-an386 cortex-m4 m4 0 "$mem" | sed -n 10,11p)"
# With the prefetch buffer the line after the one executing is read while
# that one runs: its miss costs what the time spent there did not cover.
# Row 11 pays line A (5); A+1 after A, where MOVS and B took 3 cycles:
# 5 - 3 = 2; A+1 again in iterations 2 and 3 (after A+5: not sequential,
# 5 each); A+2..A+6 follow lines of eight 1-cycle NOPs: hidden. 127 + 17.
check "board memory system: prefetch hides sequential misses" \
  "$(row 123 144 118 0 0 0 0 0 0 4 1 0)" \
  "$(run "$out/m33m7.elf" mps2-an386 cortex-m4 m4 0 \
       "${mem%,prefetch=0},prefetch=1" | sed -n 11p)"
# Row 12: a 32-byte direct-mapped data cache (2 lines): five loads from a
# table in flash: lines T (miss), T (hit), T+1 (miss), T+2 (miss, evicts
# T), T (miss): 4 x 5; LDR 2 + 4 pipelined x 1 + BL 2 = 8; 28.
check "board memory system: loads from flash through the data cache" \
  "$(row 6 28 0 0 0 0 5 0 0 1 0 0)" \
  "$(run "$out/m33m7.elf" mps2-an386 cortex-m4 m4 0 \
       "dc=32/16/1,miss=5,flash=0x0-0x400000" | sed -n 12p)"

# ---- without a model: exact counts, zero cycles ------------------------
none=$(run "$out/v7m.elf" mps2-an386 cortex-m4 none 0 | awk '{ print $1, $2 }' | head -n 2)
check "no model: instructions only" \
  "$(printf 'insns=5 cycles=0\ninsns=10 cycles=0')" "$none"

# ---- exact estimates: the same whatever blocks QEMU cuts the code into --
# QEMU ends a block where an instruction budget runs out (placed by the
# host's timing), at a 1 KB page and at its size limit; the pipeline's
# state flows on across such a cut and the predictor is kept per branch,
# so every model gives the same side file when every instruction is its
# own block (-singlestep). The snippets of the M33/M7 rules and the board
# memory system, and straight-line code across page ends (snippets_split.S).
mem="ic=64/16/1,miss=5,flash=0x0-0x400000,prefetch=1"
for m in m4 m3 m0plus m33 m7 m55 m85 "m4 $mem" "m7 $mem"; do
  set -- $m
  for elf in m33m7 split; do
    a=$(run "$out/$elf.elf" mps2-an386 cortex-m4 "$1" 0 ${2:+"$2"})
    b=$(QEMU_SPLIT=-singlestep run "$out/$elf.elf" mps2-an386 cortex-m4 "$1" 0 ${2:+"$2"})
    check "$1${2:+ with a memory system}, $elf: the same estimates one instruction per block" "$a" "$b"
  done
done
set --

# ---- failure paths: the plugin refuses bad arguments, QEMU stops -------
for bad in "model=m9" "bogus=1" "ic=100/16/1" "ic=64/16/1" ""; do
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
