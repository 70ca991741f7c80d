# SPDX-License-Identifier: Apache-2.0
# The cycle-model e2e test (tests/cycles): a hash, ML-KEM-768 and ML-DSA-44,
# for the hashing share of the profile (docs/cycle-model.md).
description = cycle model: SHA-256, ML-KEM-768, ML-DSA-44

sha256 = wolfcrypt
ml-kem-768 = wolfcrypt
ml-dsa-44 = pqclean
