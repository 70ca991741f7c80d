# SPDX-License-Identifier: Apache-2.0
# wolfCrypt (wolfSSL ${MERLIN_DEP_WOLFSSL_VERSION}, Debian source package):
# the library is compiled as is from third_party/wolfssl, configured only by
# user_settings.h in this folder (WOLFSSL_USER_SETTINGS); nothing is patched.
#
# Profile options (merlin_profile.cmake; defaults when unset):
#   MERLIN_OPT_WOLFCRYPT_VARIANT  c (portable C, every target) or thumb2-asm
#                                 (wolfSSL's Cortex-M Thumb-2 assembly; Arm
#                                 cores with Thumb-2 only)
#   MERLIN_OPT_WOLFCRYPT_MEM      default or small (the low-memory ML-DSA and
#                                 ML-KEM code paths)
# The variant string of every algorithm served says both, e.g. "c",
# "thumb2-asm-smallmem".
set(WOLFSSL_DIR "${MERLIN_THIRD_PARTY}/wolfssl")
set(WOLFCRYPT_BACKEND_DIR "${CMAKE_SOURCE_DIR}/src/backends/wolfcrypt")
if(NOT EXISTS "${WOLFSSL_DIR}/wolfcrypt/src/wc_mlkem.c")
  message(FATAL_ERROR
    "wolfSSL sources not found in ${WOLFSSL_DIR}: run scripts/fetch-deps")
endif()

# ---- profile options --------------------------------------------------------
if(NOT DEFINED MERLIN_OPT_WOLFCRYPT_VARIANT OR
   MERLIN_OPT_WOLFCRYPT_VARIANT STREQUAL "")
  set(MERLIN_OPT_WOLFCRYPT_VARIANT "c")
endif()
if(NOT DEFINED MERLIN_OPT_WOLFCRYPT_MEM OR MERLIN_OPT_WOLFCRYPT_MEM STREQUAL "")
  set(MERLIN_OPT_WOLFCRYPT_MEM "default")
endif()

if(MERLIN_OPT_WOLFCRYPT_VARIANT STREQUAL "c")
  set(WOLFCRYPT_ASM 0)
elseif(MERLIN_OPT_WOLFCRYPT_VARIANT STREQUAL "thumb2-asm")
  set(WOLFCRYPT_ASM 1)
  if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
    message(FATAL_ERROR "wolfcrypt.variant = thumb2-asm needs an Arm "
                        "(Cortex-M) target; this build is for "
                        "${CMAKE_SYSTEM_PROCESSOR}")
  endif()
  if(MERLIN_CORE MATCHES "^cortex-m(0|0plus|1|23)$")
    # ARMv6-M / ARMv8-M baseline have no Thumb-2 (UMULL, UMAAL, IT blocks).
    message(FATAL_ERROR "wolfcrypt.variant = thumb2-asm: the wolfSSL Thumb-2 "
                        "assembly does not run on ${MERLIN_CORE}")
  endif()
else()
  message(FATAL_ERROR "wolfcrypt.variant '${MERLIN_OPT_WOLFCRYPT_VARIANT}' "
                      "unknown; valid: c, thumb2-asm")
endif()

if(MERLIN_OPT_WOLFCRYPT_MEM STREQUAL "default")
  set(WOLFCRYPT_SMALL_MEM 0)
  set(MERLIN_WOLFCRYPT_VARIANT "${MERLIN_OPT_WOLFCRYPT_VARIANT}")
elseif(MERLIN_OPT_WOLFCRYPT_MEM STREQUAL "small")
  set(WOLFCRYPT_SMALL_MEM 1)
  set(MERLIN_WOLFCRYPT_VARIANT "${MERLIN_OPT_WOLFCRYPT_VARIANT}-smallmem")
else()
  message(FATAL_ERROR "wolfcrypt.mem '${MERLIN_OPT_WOLFCRYPT_MEM}' unknown; "
                      "valid: default, small")
endif()

# ---- sources: what the routed algorithms need --------------------------------
# The routes of this backend, e.g. "sha256;ml-kem-512".
set(WOLFCRYPT_ALGS "")
foreach(route IN LISTS MERLIN_PROFILE_ROUTES)
  if(route MATCHES "^(.+):wolfcrypt$")
    list(APPEND WOLFCRYPT_ALGS "${CMAKE_MATCH_1}")
  endif()
endforeach()
function(wolfcrypt_routes_any out)
  set(hit FALSE)
  foreach(alg IN LISTS ARGN)
    if(alg IN_LIST WOLFCRYPT_ALGS)
      set(hit TRUE)
    endif()
  endforeach()
  set(${out} ${hit} PARENT_SCOPE)
endfunction()

set(WC "${WOLFSSL_DIR}/wolfcrypt/src")
set(ARM "${WC}/port/arm")
# Always: library init, the DRBG, and the hashes HMAC can be keyed with
# (hmac.c refers to every configured hash, so they link together), and
# hash.c, the generic hash interface asn.c and wc_mldsa.c call (the image
# links without it only because --gc-sections drops the callers).
set(WOLFSSL_SOURCES
  ${WC}/wc_port.c       # wolfCrypt_Init / wolfCrypt_Cleanup
  ${WC}/random.c        # WC_RNG: Hash_DRBG seeded by merlin_wolfcrypt_seed
  ${WC}/hash.c          # wc_HashGetDigestSize, wc_Sha256Hash ...
  ${WC}/sha256.c        # SHA-256
  ${WC}/sha512.c        # SHA-512 (Ed25519, SLH-DSA-SHA2; HMAC)
  ${WC}/sha3.c          # SHA-3 / SHAKE (ML-KEM, ML-DSA, SLH-DSA; HMAC)
  ${WC}/hmac.c)         # HMAC and HKDF
if(WOLFCRYPT_ASM)
  list(APPEND WOLFSSL_SOURCES
    ${ARM}/thumb2-sha256-asm_c.c  # SHA-256 transform
    ${ARM}/thumb2-sha512-asm_c.c  # SHA-512 transform
    ${ARM}/thumb2-sha3-asm_c.c)   # Keccak-f[1600]
endif()

wolfcrypt_routes_any(need_ascon ascon-hash256 ascon-aead128)
if(need_ascon)
  list(APPEND WOLFSSL_SOURCES ${WC}/ascon.c)
endif()

wolfcrypt_routes_any(need_aes aes-128-gcm aes-256-gcm aes-128-ccm)
if(need_aes)
  list(APPEND WOLFSSL_SOURCES ${WC}/aes.c)
  if(WOLFCRYPT_ASM)
    list(APPEND WOLFSSL_SOURCES ${ARM}/thumb2-aes-asm_c.c) # AES and GHASH
  endif()
endif()

wolfcrypt_routes_any(need_ecc ecdh-p256 ecdsa-p256)
wolfcrypt_routes_any(need_rsa rsa-2048)
wolfcrypt_routes_any(need_dh ffdhe-2048)
if(need_ecc OR need_rsa)
  # ECC and RSA come together with asn.c: RSA needs it for the DER private
  # key, and with ASN on, ecc.c's private-key import refers to
  # wc_EccPublicKeyDecode and asn.c to wc_ecc_get_oid.
  list(APPEND WOLFSSL_SOURCES ${WC}/ecc.c ${WC}/rsa.c ${WC}/asn.c)
endif()
if(need_dh)
  list(APPEND WOLFSSL_SOURCES ${WC}/dh.c)
endif()
if(need_ecc OR need_rsa OR need_dh)
  list(APPEND WOLFSSL_SOURCES
    ${WC}/sp_int.c      # mp_int (WOLFSSL_SP_MATH_ALL)
    ${WC}/wolfmath.c)   # mp_ helpers shared by the math back ends
  if(WOLFCRYPT_ASM)
    list(APPEND WOLFSSL_SOURCES ${WC}/sp_cortexm.c)
  elseif(CMAKE_SIZEOF_VOID_P EQUAL 8)
    # The SP code for the digit size user_settings.h selects: 64-bit digits
    # where the compiler has a 128-bit integer type (the x86_64 host,
    # HAVE___UINT128_T), 32-bit digits on Cortex-M. The other file would
    # compile to nothing; a mismatch shows up as undefined sp_* functions.
    list(APPEND WOLFSSL_SOURCES ${WC}/sp_c64.c)
  else()
    list(APPEND WOLFSSL_SOURCES ${WC}/sp_c32.c)
  endif()
endif()

wolfcrypt_routes_any(need_x25519 x25519)
wolfcrypt_routes_any(need_ed25519 ed25519)
if(need_x25519)
  list(APPEND WOLFSSL_SOURCES ${WC}/curve25519.c)
endif()
if(need_ed25519)
  list(APPEND WOLFSSL_SOURCES ${WC}/ed25519.c)
endif()
if(need_x25519 OR need_ed25519)
  # The field arithmetic: fe_operations.c in C (with the assembly it keeps
  # only what the assembly does not replace), and the group operations of
  # ge_operations.c (with the assembly, X25519 computes public keys with
  # ge_scalarmult_base too).
  list(APPEND WOLFSSL_SOURCES ${WC}/fe_operations.c ${WC}/ge_operations.c)
  if(WOLFCRYPT_ASM)
    list(APPEND WOLFSSL_SOURCES ${ARM}/thumb2-curve25519_c.c)
  endif()
endif()

wolfcrypt_routes_any(need_mlkem ml-kem-512 ml-kem-768 ml-kem-1024)
if(need_mlkem)
  list(APPEND WOLFSSL_SOURCES ${WC}/wc_mlkem.c ${WC}/wc_mlkem_poly.c)
  if(WOLFCRYPT_ASM)
    list(APPEND WOLFSSL_SOURCES ${ARM}/thumb2-mlkem-asm_c.c) # NTT and friends
  endif()
endif()

wolfcrypt_routes_any(need_mldsa ml-dsa-44 ml-dsa-65 ml-dsa-87)
if(need_mldsa)
  list(APPEND WOLFSSL_SOURCES ${WC}/wc_mldsa.c)
endif()

wolfcrypt_routes_any(need_slhdsa slh-dsa-sha2-128s slh-dsa-sha2-128f
                     slh-dsa-shake-128s slh-dsa-shake-128f)
if(need_slhdsa)
  list(APPEND WOLFSSL_SOURCES ${WC}/wc_slhdsa.c)
endif()

add_library(wolfssl_lib STATIC ${WOLFSSL_SOURCES})
# The include directories and definitions are PUBLIC: the adapter must see
# exactly the configuration the library was built with (structure layouts).
# The wolfSSL headers are SYSTEM includes so that Merlin's warning flags on
# adapter.c do not apply to them.
target_include_directories(wolfssl_lib SYSTEM PUBLIC ${WOLFSSL_DIR})
target_include_directories(wolfssl_lib PUBLIC ${WOLFCRYPT_BACKEND_DIR})
target_compile_definitions(wolfssl_lib PUBLIC WOLFSSL_USER_SETTINGS
  MERLIN_WOLFCRYPT_ASM=${WOLFCRYPT_ASM}
  MERLIN_WOLFCRYPT_SMALL_MEM=${WOLFCRYPT_SMALL_MEM})

# make test-sanitize (docs/sanitizers.md): wolfSSL's portable C loads
# 64-bit words from unaligned addresses (GHASH in aes.c) and left-shifts
# signed values that do not fit and lets signed products overflow
# (sp_c64.c): undefined in ISO C (C11 6.5p5, 6.5.7p4), which UBSan
# reports and aborts on. Those two checks are off for the library only;
# every other check, and ASan, still cover it. Configuration, not a patch.
if(MERLIN_SANITIZE)
  target_compile_options(wolfssl_lib PRIVATE
    -fno-sanitize=alignment,shift,signed-integer-overflow)
endif()

add_library(merlin_backend_wolfcrypt OBJECT
  ${WOLFCRYPT_BACKEND_DIR}/adapter.c)
target_compile_options(merlin_backend_wolfcrypt PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(merlin_backend_wolfcrypt PRIVATE
  MERLIN_WOLFSSL_VERSION="${MERLIN_DEP_WOLFSSL_VERSION}"
  MERLIN_WOLFCRYPT_VARIANT="${MERLIN_WOLFCRYPT_VARIANT}"
  # From the option strings again, for the adapter's check that the library
  # was built as the variant string says.
  MERLIN_WOLFCRYPT_VARIANT_THUMB2_ASM=$<STREQUAL:${MERLIN_OPT_WOLFCRYPT_VARIANT},thumb2-asm>
  MERLIN_WOLFCRYPT_VARIANT_SMALL_MEM=$<STREQUAL:${MERLIN_OPT_WOLFCRYPT_MEM},small>)
target_link_libraries(merlin_backend_wolfcrypt PUBLIC merlin_headers
                      wolfssl_lib)
