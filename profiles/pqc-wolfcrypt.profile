# SPDX-License-Identifier: Apache-2.0
# Post-quantum algorithms on wolfCrypt (portable C).
# Control primitives (every profile): HMAC-SHA256 and HKDF-SHA256 on wolfcrypt.
description = ML-KEM, ML-DSA and SLH-DSA on wolfCrypt (portable C)
hmac-sha256 = wolfcrypt
hkdf-sha256 = wolfcrypt
ml-kem-512 = wolfcrypt
ml-kem-768 = wolfcrypt
ml-kem-1024 = wolfcrypt
ml-dsa-44 = wolfcrypt
ml-dsa-65 = wolfcrypt
ml-dsa-87 = wolfcrypt
slh-dsa-sha2-128s = wolfcrypt
slh-dsa-sha2-128f = wolfcrypt
slh-dsa-shake-128s = wolfcrypt
slh-dsa-shake-128f = wolfcrypt
