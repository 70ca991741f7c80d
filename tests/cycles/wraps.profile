# SPDX-License-Identifier: Apache-2.0
# The many-wraps cycle-model test (tests/cycles/wraps.sh): operations long
# enough to span hundreds of wraps of a 16-bit test timer.
description = cycle model: samples across many timer wraps

sha256 = wolfcrypt
ml-dsa-44 = wolfcrypt
