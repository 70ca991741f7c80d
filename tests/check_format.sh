#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every C file of ours is clang-format clean (.clang-format: LLVM style).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null || find src host tests -name '*.[ch]')
if clang-format --dry-run -Werror "${files[@]}"; then
  echo "1 passed, 0 failed"
else
  echo "0 passed, 1 failed"
  exit 1
fi
