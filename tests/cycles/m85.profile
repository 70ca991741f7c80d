# SPDX-License-Identifier: Apache-2.0
# cycle-model-qemu-m85 (tests/cycles/m85.sh): one small algorithm, so that
# the qemu-m85 image builds and runs in seconds.
description = cycle model on qemu-m85: SHA-256

sha256 = wolfcrypt
