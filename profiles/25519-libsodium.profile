# SPDX-License-Identifier: Apache-2.0
# X25519 and Ed25519 (and SHA-256, HMAC, ML-KEM-768) on libsodium.
# Control primitives (every profile): HMAC-SHA256 and HKDF-SHA256 on wolfcrypt.
description = X25519, Ed25519, SHA-256, HMAC and ML-KEM-768 on libsodium
sha256 = libsodium
hmac-sha256 = wolfcrypt, libsodium
hkdf-sha256 = wolfcrypt
x25519 = libsodium
ed25519 = libsodium
ml-kem-768 = libsodium
