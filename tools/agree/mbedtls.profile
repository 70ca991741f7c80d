# SPDX-License-Identifier: Apache-2.0
# merlin agree --backend mbedtls: the classical-mbedtls profile as is (every
# algorithm of it but the controls has rows in Mbed TLS's own benchmark).
# Control primitives (every profile): HMAC-SHA256 and HKDF-SHA256 on wolfcrypt.
description = merlin agree: classical-mbedtls
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
