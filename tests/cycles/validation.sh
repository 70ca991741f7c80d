#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# docs/cycle-model.md's validation tables and per-function table are what
# scripts/cycle-validation.mjs renders from the data kept here (docs/
# cycle-model.md, "Validation against silicon"). To regenerate both after a
# new run: `node scripts/cycle-validation.mjs write`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
node "$root/scripts/cycle-validation.mjs" check
