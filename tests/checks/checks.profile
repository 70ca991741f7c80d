# SPDX-License-Identifier: Apache-2.0
# tests/integration/sample_checks.sh: one algorithm of each class, on the
# backends whose checks differ (wolfCrypt's own DRBG, Mbed TLS's PSA keys,
# PQClean through its randombytes).
description = per-sample output checks: one algorithm of each class
sha256 = wolfcrypt
shake128 = wolfcrypt
hmac-sha256 = wolfcrypt
hkdf-sha256 = wolfcrypt
aes-128-gcm = wolfcrypt, mbedtls
x25519 = wolfcrypt, mbedtls
ecdsa-p256 = wolfcrypt, mbedtls
ml-kem-512 = wolfcrypt, pqclean
ml-dsa-44 = wolfcrypt, pqclean
