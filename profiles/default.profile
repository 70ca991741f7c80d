# SPDX-License-Identifier: Apache-2.0
# The default image (make bench): classical and post-quantum side by side.
# Hashing, MAC, KDF and AEAD on wolfCrypt and Mbed TLS; key establishment
# (ECDH P-256, X25519 vs ML-KEM-512/768) and signatures (ECDSA P-256,
# Ed25519 vs ML-DSA-44/65), each on two libraries where both offer it.
# Format: docs/cli.md ("Profiles").
description = classical vs post-quantum: hashes, MAC, KDF, AES-GCM, ECDH/X25519 vs ML-KEM, ECDSA/Ed25519 vs ML-DSA

sha256 = wolfcrypt, mbedtls
hmac-sha256 = wolfcrypt, mbedtls
hkdf-sha256 = wolfcrypt, mbedtls
aes-128-gcm = wolfcrypt, mbedtls
ecdh-p256 = wolfcrypt, mbedtls
x25519 = wolfcrypt, mbedtls
ecdsa-p256 = wolfcrypt, mbedtls
ed25519 = wolfcrypt
ml-kem-512 = wolfcrypt, pqclean
ml-kem-768 = wolfcrypt, pqclean
ml-dsa-44 = wolfcrypt, pqclean
ml-dsa-65 = wolfcrypt, pqclean
