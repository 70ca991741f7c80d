# SPDX-License-Identifier: Apache-2.0
# Post-quantum algorithms on PQClean (clean C). Its SPHINCS+ is round 3.1,
# a pre-FIPS 205 baseline, under its own ids (not SLH-DSA).
# Control primitives (every profile): HMAC-SHA256 and HKDF-SHA256 on wolfcrypt.
description = ML-KEM and ML-DSA on PQClean, plus SPHINCS+ round 3.1 (pre-FIPS 205) baseline
hmac-sha256 = wolfcrypt
hkdf-sha256 = wolfcrypt
ml-kem-512 = pqclean
ml-kem-768 = pqclean
ml-kem-1024 = pqclean
ml-dsa-44 = pqclean
ml-dsa-65 = pqclean
ml-dsa-87 = pqclean
sphincs-sha2-128s-simple-r3 = pqclean
sphincs-sha2-128f-simple-r3 = pqclean
sphincs-shake-128s-simple-r3 = pqclean
sphincs-shake-128f-simple-r3 = pqclean
