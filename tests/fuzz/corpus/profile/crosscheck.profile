# SPDX-License-Identifier: Apache-2.0
# The cross-check image (tests/xcheck, `merlin-image --xcheck`): every
# algorithm on every backend that serves it (src/backends/backends.def) and
# builds, side by side in one image, so that their outputs for fixed seeds
# can be compared with each other, with OpenSSL and with @noble. Extend a
# line when a backend gains an algorithm. Format: docs/cli.md ("Profiles").
description = cross-check: every algorithm on every backend that serves it

sha256 = wolfcrypt, mbedtls, libsodium, bearssl
sha3-256 = wolfcrypt, mbedtls
shake128 = wolfcrypt
shake256 = wolfcrypt
ascon-hash256 = wolfcrypt
hmac-sha256 = wolfcrypt, mbedtls, libsodium, bearssl
hkdf-sha256 = wolfcrypt, mbedtls, bearssl
aes-128-gcm = wolfcrypt, mbedtls, bearssl
aes-256-gcm = wolfcrypt, mbedtls, bearssl
aes-128-ccm = wolfcrypt, mbedtls, bearssl
ascon-aead128 = wolfcrypt
ecdh-p256 = wolfcrypt, mbedtls, bearssl
x25519 = wolfcrypt, mbedtls, libsodium, bearssl
ffdhe-2048 = wolfcrypt, mbedtls
ecdsa-p256 = wolfcrypt, mbedtls, bearssl
ed25519 = wolfcrypt, libsodium
rsa-2048 = wolfcrypt, mbedtls, bearssl
ml-kem-512 = wolfcrypt, pqclean, mlkem-native
ml-kem-768 = wolfcrypt, pqclean, mlkem-native, libsodium
ml-kem-1024 = wolfcrypt, pqclean, mlkem-native
ml-dsa-44 = wolfcrypt, pqclean, mldsa-native
ml-dsa-65 = wolfcrypt, pqclean, mldsa-native
ml-dsa-87 = wolfcrypt, pqclean, mldsa-native
slh-dsa-sha2-128s = wolfcrypt
slh-dsa-sha2-128f = wolfcrypt
slh-dsa-shake-128s = wolfcrypt
slh-dsa-shake-128f = wolfcrypt
# SPHINCS+ round 3.1 (pre-FIPS 205): PQClean only, no independent reference.
sphincs-sha2-128s-simple-r3 = pqclean
sphincs-sha2-128f-simple-r3 = pqclean
sphincs-shake-128s-simple-r3 = pqclean
sphincs-shake-128f-simple-r3 = pqclean
