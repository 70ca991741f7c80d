# SPDX-License-Identifier: Apache-2.0
# ML-KEM on mlkem-native and ML-DSA on mldsa-native (portable C), from
# Debian's rust-aws-lc-sys source.
# Control primitives (every profile): HMAC-SHA256 and HKDF-SHA256 on wolfcrypt.
description = ML-KEM on mlkem-native, ML-DSA on mldsa-native
hmac-sha256 = wolfcrypt
hkdf-sha256 = wolfcrypt
ml-kem-512 = mlkem-native
ml-kem-768 = mlkem-native
ml-kem-1024 = mlkem-native
ml-dsa-44 = mldsa-native
ml-dsa-65 = mldsa-native
ml-dsa-87 = mldsa-native
