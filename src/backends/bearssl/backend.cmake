# SPDX-License-Identifier: Apache-2.0
# BearSSL ${MERLIN_DEP_BEARSSL_VERSION} (Debian source package `bearssl`):
# the constant-time portable C implementations ("ct" AES, "ctmul32" GHASH,
# "m31" P-256 and Curve25519, "i31" big integers). The library is compiled
# as is from third_party/bearssl, only the files the profile's routes need,
# and configured (never patched) through its documented BR_* macros, given
# here as compile definitions: src/config.h ships with every option
# commented out, so a definition here is the whole configuration. BearSSL
# never allocates and needs nothing from libc but mem* and strlen.
set(BEARSSL_DIR "${MERLIN_THIRD_PARTY}/bearssl")
set(BEARSSL_BACKEND_DIR "${CMAKE_SOURCE_DIR}/src/backends/bearssl")
if(NOT EXISTS "${BEARSSL_DIR}/src/inner.h")
  message(FATAL_ERROR
    "BearSSL sources not found in ${BEARSSL_DIR}: run scripts/fetch-deps")
endif()
# BearSSL has no version macro. br_hkdf (src/kdf/hkdf.c) first shipped in
# 0.6 and every file used below must exist, so a 0.5 tree or a repacked
# tarball missing a file fails here rather than at link time.
if(NOT MERLIN_DEP_BEARSSL_VERSION MATCHES "^0\\.6([^0-9]|$)")
  message(FATAL_ERROR "BearSSL backend: expects BearSSL 0.6, versions.cmake "
    "records '${MERLIN_DEP_BEARSSL_VERSION}'")
endif()

# ---- what the profile routes here -----------------------------------------
# MERLIN_PROFILE_ROUTES is a list of "alg:backend" items: match whole items
# ("sha256:bearssl" is a substring of "hmac-sha256:bearssl").
set(BEARSSL_ROUTED "")
foreach(alg IN ITEMS sha256 hmac-sha256 hkdf-sha256 aes-128-gcm aes-256-gcm
                     aes-128-ccm ecdh-p256 x25519 ecdsa-p256 rsa-2048)
  if("${alg}:bearssl" IN_LIST MERLIN_PROFILE_ROUTES)
    list(APPEND BEARSSL_ROUTED ${alg})
  endif()
endforeach()

# ---- source groups (explicit lists, paths under src/) -----------------------
# SHA-256 (FIPS 180-4) and the big-endian codecs it uses.
set(BEARSSL_SRC_SHA256
  hash/sha2small.c codec/dec32be.c codec/enc32be.c)
set(BEARSSL_SRC_HMAC mac/hmac.c)             # RFC 2104
set(BEARSSL_SRC_HKDF kdf/hkdf.c)             # RFC 5869
# AES "ct": bitsliced, constant-time, 32-bit (no tables).
set(BEARSSL_SRC_AES_CT symcipher/aes_ct.c symcipher/aes_ct_enc.c)
# GCM (SP 800-38D): AES-CTR + GHASH "ctmul32" (constant-time 32-bit
# multiplications, the BearSSL choice for 32-bit cores).
set(BEARSSL_SRC_GCM
  aead/gcm.c symcipher/aes_ct_ctr.c hash/ghash_ctmul32.c)
# CCM (SP 800-38C): AES CTR + CBC-MAC in one "ctrcbc" object.
set(BEARSSL_SRC_CCM aead/ccm.c symcipher/aes_ct_ctrcbc.c)
# br_ccopy, the constant-time conditional copy (curves and i31).
set(BEARSSL_SRC_CCOPY codec/ccopy.c)
# EC key generation and public key computation (any curve).
set(BEARSSL_SRC_EC_KEY ec/ec_keygen.c ec/ec_pubkey.c)
# P-256 "m31": specialised, constant-time, 31-bit limbs.
set(BEARSSL_SRC_P256 ec/ec_p256_m31.c)
# Curve25519 "m31" (RFC 7748 Montgomery ladder, constant-time).
set(BEARSSL_SRC_C25519 ec/ec_c25519_m31.c)
# The i31 big integers: what ECDSA (arithmetic modulo n) and RSA share, then
# what only one of them uses.
set(BEARSSL_SRC_I31
  int/i31_add.c int/i31_bitlen.c int/i31_decmod.c int/i31_decode.c
  int/i31_encode.c int/i31_fmont.c int/i31_montmul.c int/i31_muladd.c
  int/i31_ninv31.c int/i31_rshift.c int/i31_sub.c int/i31_tmont.c
  int/i32_div32.c)
set(BEARSSL_SRC_I31_ECDSA int/i31_iszero.c int/i31_modpow.c)
set(BEARSSL_SRC_I31_RSA
  int/i31_decred.c int/i31_modpow2.c int/i31_mulacc.c int/i31_reduce.c)
# ECDSA (FIPS 186-5) over i31 with RFC 6979 nonces from HMAC_DRBG.
# ecdsa_i31_sign_raw.c names the curve descriptors of P-256, P-384 and P-521
# (constant data) in one switch, so all three are linked.
set(BEARSSL_SRC_ECDSA
  ec/ecdsa_i31_sign_raw.c ec/ecdsa_i31_vrfy_raw.c ec/ecdsa_i31_bits.c
  ec/ec_secp256r1.c ec/ec_secp384r1.c ec/ec_secp521r1.c rand/hmac_drbg.c)
# RSASSA-PKCS1-v1_5 (RFC 8017 section 8.2) over i31 (CRT private key), and
# the DER private key decoder (PKCS #1 RSAPrivateKey, RFC 8017 A.1.2).
set(BEARSSL_SRC_RSA
  rsa/rsa_i31_pkcs1_sign.c rsa/rsa_i31_priv.c rsa/rsa_pkcs1_sig_pad.c
  rsa/rsa_i31_pkcs1_vrfy.c rsa/rsa_i31_pub.c rsa/rsa_pkcs1_sig_unpad.c
  x509/skey_decoder.c)

# Which groups each algorithm needs; MERLIN_BEARSSL_<GROUP>=1 tells the
# adapter what was built, so its routing assertions can check it.
set(BEARSSL_GROUPS "")
macro(bearssl_need)
  list(APPEND BEARSSL_GROUPS ${ARGN})
endmacro()
foreach(alg IN LISTS BEARSSL_ROUTED)
  if(alg STREQUAL "sha256")
    bearssl_need(SHA256)
  elseif(alg STREQUAL "hmac-sha256")
    bearssl_need(SHA256 HMAC)
  elseif(alg STREQUAL "hkdf-sha256")
    bearssl_need(SHA256 HMAC HKDF)
  elseif(alg MATCHES "^aes-(128|256)-gcm$")
    bearssl_need(AES_CT GCM)
  elseif(alg STREQUAL "aes-128-ccm")
    bearssl_need(AES_CT CCM)
  elseif(alg STREQUAL "ecdh-p256")
    bearssl_need(CCOPY EC_KEY P256)
  elseif(alg STREQUAL "x25519")
    bearssl_need(CCOPY C25519)
  elseif(alg STREQUAL "ecdsa-p256")
    bearssl_need(SHA256 HMAC CCOPY EC_KEY P256 I31 I31_ECDSA ECDSA)
  elseif(alg STREQUAL "rsa-2048")
    bearssl_need(SHA256 CCOPY I31 I31_RSA RSA)
  endif()
endforeach()
list(REMOVE_DUPLICATES BEARSSL_GROUPS)

set(BEARSSL_SOURCES "")
set(BEARSSL_GROUP_DEFINES "")
foreach(group IN LISTS BEARSSL_GROUPS)
  list(APPEND BEARSSL_SOURCES ${BEARSSL_SRC_${group}})
  list(APPEND BEARSSL_GROUP_DEFINES MERLIN_BEARSSL_${group}=1)
endforeach()
list(TRANSFORM BEARSSL_SOURCES PREPEND "${BEARSSL_DIR}/src/")
foreach(f IN LISTS BEARSSL_SOURCES)
  if(NOT EXISTS "${f}")
    message(FATAL_ERROR "BearSSL backend: ${f} is missing from the fetched "
                        "sources (repacked tarball?): run scripts/fetch-deps")
  endif()
endforeach()

# ---- configuration (src/config.h options) -----------------------------------
# Every target runs the same portable C paths, so host and Cortex-M images
# differ only in the compiler: no x86/POWER intrinsics, no unaligned-access
# codecs, no 128-bit multiplications, no OS random source or clock (the
# harness supplies randomness; nothing here reads the time).
set(BEARSSL_CONFIG
  BR_AES_X86NI=0 BR_SSE2=0 BR_POWER8=0 BR_RDRAND=0 BR_INT128=0 BR_UMUL128=0
  BR_LE_UNALIGNED=0 BR_BE_UNALIGNED=0
  BR_USE_URANDOM=0 BR_USE_WIN32_RAND=0 BR_USE_UNIX_TIME=0 BR_USE_WIN32_TIME=0)
# BR_ARMEL_CORTEXM_GCC is left off: it only switches the i15 Montgomery
# multiplication to inline assembly and sets BR_LOMUL, which steers the
# "default" implementation selectors; this backend calls the ct/m31/i31
# implementations by name, so it would change nothing but the claim of
# portable C.
#
# The Cortex-M3's UMULL/SMULL finish early for small operands (ARM DDI 0337,
# "Instruction timings"), so the i31/m31 products are not constant-time
# there; BR_CT_MUL31 is BearSSL's fix for exactly that. The Cortex-M4's
# UMULL takes one cycle whatever the operands (ARM DDI 0439, "Processor
# instructions"), so the default 31-bit products stay; check the TRM before
# adding a core here.
if(MERLIN_CORE STREQUAL "cortex-m3")
  list(APPEND BEARSSL_CONFIG BR_CT_MUL31=1)
endif()

if(BEARSSL_SOURCES)
  # Third-party code: built without Merlin's warning flags.
  add_library(bearssl_lib STATIC ${BEARSSL_SOURCES})
  target_include_directories(bearssl_lib PRIVATE ${BEARSSL_DIR}/src)
  # SYSTEM: Merlin's strict warnings apply to the adapter, not to BearSSL's
  # public headers. The configuration is PUBLIC so the adapter is compiled
  # against exactly the settings the library was built with.
  target_include_directories(bearssl_lib SYSTEM PUBLIC ${BEARSSL_DIR}/inc)
  target_compile_definitions(bearssl_lib PUBLIC ${BEARSSL_CONFIG})
  set(BEARSSL_LINK bearssl_lib)
else()
  set(BEARSSL_LINK "")
endif()

add_library(merlin_backend_bearssl OBJECT ${BEARSSL_BACKEND_DIR}/adapter.c)
target_include_directories(merlin_backend_bearssl SYSTEM PRIVATE
                           ${BEARSSL_DIR}/inc)
target_compile_options(merlin_backend_bearssl PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(merlin_backend_bearssl PRIVATE
  MERLIN_BEARSSL_VERSION="${MERLIN_DEP_BEARSSL_VERSION}"
  ${BEARSSL_GROUP_DEFINES})
target_link_libraries(merlin_backend_bearssl PUBLIC merlin_headers
                      ${BEARSSL_LINK})
