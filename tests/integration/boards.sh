#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A real-board image builds warning-free (scripts/build-boards, as `make
# boards` runs it) and has the shape its boot ROM needs; run without --port
# it says how to flash and read it. One board here, the Pico, whose build
# has the most steps (boot2 sealed with its CRC, UF2): all four take about
# 2.5 min on 2 cores cold, so `make boards` is not part of `make test`.
#   boards.sh MERLIN SOURCE_DIR
set -euo pipefail
merlin=$1 src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/merlin-boards.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"

BOARDS=rp2040-pico "$src/scripts/build-boards" "$merlin" default | tee "$work/log"
grep -q '^== rp2040-pico (default): ' "$work/log" || fail "no image line"
grep -qP '^\s+text\s+data\s+bss' "$work/log" || fail "no arm-none-eabi-size output"
img=$(sed -n 's/^== rp2040-pico (default): //p' "$work/log")
dir=$(dirname "$img")

# The vector table right after the 256-byte boot2, whose CRC the bootrom
# checks (RP2040 Datasheet 2.8.1.3.1), and a UF2 of the same bytes.
readelf -S "$img" | grep -qE '\.boot2 +PROGBITS +10000000 ' || fail ".boot2 not at 0x10000000"
readelf -S "$img" | grep -qE '\.text +PROGBITS +10000100 ' || fail ".text not at 0x10000100"
node - "$dir/merlin-image.bin" "$dir/merlin-image.uf2" <<'JS' || fail "boot2 CRC or UF2"
const fs = require('fs');
const [bin, uf2] = process.argv.slice(2).map((p) => fs.readFileSync(p));
function crc(b) {
  let c = 0xffffffff;
  for (const x of b) {
    c ^= x << 24;
    for (let i = 0; i < 8; i++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    c >>>= 0;
  }
  return c >>> 0;
}
if (crc(Buffer.from('123456789')) !== 0x0376e6e7) throw new Error('crc check value');
if (crc(bin.subarray(0, 252)) !== bin.readUInt32LE(252)) throw new Error('boot2 crc');
const n = uf2.length / 512;
if (n !== Math.ceil(bin.length / 256)) throw new Error('uf2 block count');
for (let i = 0; i < n; i++) {
  const b = uf2.subarray(i * 512, (i + 1) * 512);
  if (b.readUInt32LE(0) !== 0x0a324655 || b.readUInt32LE(508) !== 0x0ab16f30 ||
      b.readUInt32LE(28) !== 0xe48bff56 || b.readUInt32LE(12) !== 0x10000000 + i * 256 ||
      b.readUInt32LE(20) !== i || b.readUInt32LE(24) !== n ||
      !b.subarray(32, 32 + 256).equals(Buffer.concat([bin.subarray(i * 256, (i + 1) * 256), Buffer.alloc(256)]).subarray(0, 256)))
    throw new Error('uf2 block ' + i);
}
console.log(`boot2 crc ok, ${n} UF2 blocks ok`);
JS

# No --port or --from: the image is built, then how to flash and read it.
set +e
"$merlin" run --target rp2040-pico --out "$work/out" >"$work/run" 2>&1
rc=$?
set -e
cat "$work/run"
[ "$rc" -eq 2 ] || fail "run without --port: exit $rc, want 2"
grep -q "rp2040-pico is a real board" "$work/run" || fail "no board message"
grep -qF "picotool load -x $dir/merlin-image.uf2" "$work/run" || fail "no flash command"
grep -qF -- "--port /dev/ttyACM0" "$work/run" || fail "no --port hint"
[ ! -e "$work/out" ] || fail "results written"
echo "boards: all checks passed"
