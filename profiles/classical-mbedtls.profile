# SPDX-License-Identifier: Apache-2.0
# Classical algorithms on Mbed TLS 3.6 through PSA (built-in drivers).
# Control primitives (every profile): HMAC-SHA256 and HKDF-SHA256 on wolfcrypt.
description = classical algorithms on Mbed TLS (PSA, built-in software)
sha256 = mbedtls
sha3-256 = mbedtls
hmac-sha256 = wolfcrypt, mbedtls
hkdf-sha256 = wolfcrypt, mbedtls
aes-128-gcm = mbedtls
aes-256-gcm = mbedtls
aes-128-ccm = mbedtls
ecdh-p256 = mbedtls
x25519 = mbedtls
ffdhe-2048 = mbedtls
ecdsa-p256 = mbedtls
rsa-2048 = mbedtls
