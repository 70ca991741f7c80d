# SPDX-License-Identifier: Apache-2.0
# merlin agree --backend wolfcrypt: the algorithms of all-wolfcrypt that
# wolfCrypt's own benchmark measures (tools/agree/rows.txt), on wolfCrypt
# configured as in every image (src/backends/wolfcrypt/user_settings.h).
# SLH-DSA is left out: its 128s signing takes minutes per call under QEMU.
description = merlin agree: wolfCrypt's benchmarked algorithms (portable C)
sha256 = wolfcrypt
sha3-256 = wolfcrypt
hmac-sha256 = wolfcrypt
hkdf-sha256 = wolfcrypt
aes-128-gcm = wolfcrypt
aes-256-gcm = wolfcrypt
aes-128-ccm = wolfcrypt
ecdh-p256 = wolfcrypt
x25519 = wolfcrypt
ffdhe-2048 = wolfcrypt
ecdsa-p256 = wolfcrypt
ed25519 = wolfcrypt
rsa-2048 = wolfcrypt
ml-kem-512 = wolfcrypt
ml-kem-768 = wolfcrypt
ml-kem-1024 = wolfcrypt
ml-dsa-44 = wolfcrypt
ml-dsa-65 = wolfcrypt
ml-dsa-87 = wolfcrypt
