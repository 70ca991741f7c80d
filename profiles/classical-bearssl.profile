# SPDX-License-Identifier: Apache-2.0
# Classical algorithms on BearSSL 0.6 (constant-time implementations).
# Control primitives (every profile): HMAC-SHA256 and HKDF-SHA256 on wolfcrypt.
description = classical algorithms on BearSSL (constant-time ct/i31 code)
sha256 = bearssl
hmac-sha256 = wolfcrypt, bearssl
hkdf-sha256 = wolfcrypt, bearssl
aes-128-gcm = bearssl
aes-256-gcm = bearssl
aes-128-ccm = bearssl
ecdh-p256 = bearssl
x25519 = bearssl
ecdsa-p256 = bearssl
rsa-2048 = bearssl
