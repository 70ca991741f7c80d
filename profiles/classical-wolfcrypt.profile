# SPDX-License-Identifier: Apache-2.0
# Classical algorithms on wolfCrypt (portable C).
# Control primitives (every profile): HMAC-SHA256 and HKDF-SHA256 on wolfcrypt.
description = classical algorithms on wolfCrypt (portable C)
sha256 = wolfcrypt
sha3-256 = wolfcrypt
shake128 = wolfcrypt
shake256 = wolfcrypt
ascon-hash256 = wolfcrypt
hmac-sha256 = wolfcrypt
hkdf-sha256 = wolfcrypt
aes-128-gcm = wolfcrypt
aes-256-gcm = wolfcrypt
aes-128-ccm = wolfcrypt
ascon-aead128 = wolfcrypt
ecdh-p256 = wolfcrypt
x25519 = wolfcrypt
ffdhe-2048 = wolfcrypt
ecdsa-p256 = wolfcrypt
ed25519 = wolfcrypt
rsa-2048 = wolfcrypt
