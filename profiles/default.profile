# The default image: every algorithm of the catalogue, classical ones on
# wolfCrypt and Mbed TLS, ML-KEM-512 on wolfCrypt and PQClean, side by side.
# Format: docs/cli.md ("Profiles").
description = all algorithms; classical on wolfcrypt and mbedtls, ML-KEM-512 on wolfcrypt and pqclean

sha256 = wolfcrypt, mbedtls
hmac-sha256 = wolfcrypt, mbedtls
hkdf-sha256 = wolfcrypt, mbedtls
ecdh-p256 = wolfcrypt, mbedtls
ecdsa-p256 = wolfcrypt, mbedtls
ml-kem-512 = wolfcrypt, pqclean
