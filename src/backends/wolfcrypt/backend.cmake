# SPDX-License-Identifier: Apache-2.0
# wolfCrypt (wolfSSL ${MERLIN_DEP_WOLFSSL_VERSION}, Debian source package):
# the library is compiled as is from third_party/wolfssl, configured only by
# user_settings.h in this folder (WOLFSSL_USER_SETTINGS); nothing is patched.
#
# Variants: portable C ("c", the default, host and Cortex-M) or the Thumb-2
# assembly ("thumb2-asm", MERLIN_WOLFCRYPT_ASM=ON, Cortex-M only).
set(WOLFSSL_DIR "${MERLIN_THIRD_PARTY}/wolfssl")
set(WOLFCRYPT_BACKEND_DIR "${CMAKE_SOURCE_DIR}/src/backends/wolfcrypt")
if(NOT EXISTS "${WOLFSSL_DIR}/wolfcrypt/src/wc_mlkem.c")
  message(FATAL_ERROR
    "wolfSSL sources not found in ${WOLFSSL_DIR}: run scripts/fetch-deps")
endif()

option(MERLIN_WOLFCRYPT_ASM
       "wolfCrypt: use the Thumb-2 assembly (Cortex-M only)" OFF)
if(MERLIN_WOLFCRYPT_ASM AND NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
  message(FATAL_ERROR "MERLIN_WOLFCRYPT_ASM needs an Arm (Cortex-M) target; "
                      "this build is for ${CMAKE_SYSTEM_PROCESSOR}")
endif()
if(MERLIN_WOLFCRYPT_ASM AND MERLIN_CORE MATCHES "^cortex-m(0|0plus|1|23)$")
  # ARMv6-M / ARMv8-M baseline have no Thumb-2 (UMULL, UMAAL, IT blocks).
  message(FATAL_ERROR "MERLIN_WOLFCRYPT_ASM: the wolfSSL Thumb-2 assembly "
                      "does not run on ${MERLIN_CORE}")
endif()

set(WC "${WOLFSSL_DIR}/wolfcrypt/src")
# Every file the configuration needs, listed explicitly.
set(WOLFSSL_SOURCES
  ${WC}/wc_port.c       # wolfCrypt_Init / wolfCrypt_Cleanup
  ${WC}/random.c        # WC_RNG: Hash_DRBG seeded by merlin_wolfcrypt_seed
  ${WC}/sha256.c        # SHA-256
  ${WC}/hmac.c          # HMAC and HKDF
  ${WC}/sha3.c          # SHA-3 / SHAKE for ML-KEM
  ${WC}/wc_mlkem.c      # ML-KEM
  ${WC}/wc_mlkem_poly.c # ML-KEM polynomial arithmetic
  ${WC}/ecc.c           # ECDH, ECDSA
  ${WC}/sp_int.c        # mp_int (WOLFSSL_SP_MATH_ALL)
  ${WC}/wolfmath.c      # mp_ helpers shared by the math back ends
)
if(MERLIN_WOLFCRYPT_ASM)
  set(MERLIN_WOLFCRYPT_VARIANT "thumb2-asm")
  list(APPEND WOLFSSL_SOURCES
    ${WC}/sp_cortexm.c                        # P-256 in Cortex-M assembly
    ${WC}/port/arm/thumb2-sha256-asm_c.c      # SHA-256 transform
    ${WC}/port/arm/thumb2-sha3-asm_c.c        # Keccak-f[1600]
    ${WC}/port/arm/thumb2-mlkem-asm_c.c)      # ML-KEM NTT and friends
else()
  set(MERLIN_WOLFCRYPT_VARIANT "c")
  # The SP P-256 code for the digit size user_settings.h selects: 64-bit
  # digits where the compiler has a 128-bit integer type (the x86_64 host,
  # HAVE___UINT128_T), 32-bit digits on Cortex-M. The other file would
  # compile to nothing; a mismatch shows up as undefined sp_ecc_*_256.
  if(CMAKE_SIZEOF_VOID_P EQUAL 8)
    list(APPEND WOLFSSL_SOURCES ${WC}/sp_c64.c)
  else()
    list(APPEND WOLFSSL_SOURCES ${WC}/sp_c32.c)
  endif()
endif()

add_library(wolfssl_lib STATIC ${WOLFSSL_SOURCES})
# The include directories and definitions are PUBLIC: the adapter must see
# exactly the configuration the library was built with (structure layouts).
# The wolfSSL headers are SYSTEM includes so that Merlin's warning flags on
# adapter.c do not apply to them.
target_include_directories(wolfssl_lib SYSTEM PUBLIC ${WOLFSSL_DIR})
target_include_directories(wolfssl_lib PUBLIC ${WOLFCRYPT_BACKEND_DIR})
target_compile_definitions(wolfssl_lib PUBLIC WOLFSSL_USER_SETTINGS
  MERLIN_WOLFCRYPT_ASM=$<BOOL:${MERLIN_WOLFCRYPT_ASM}>)

add_library(merlin_backend_wolfcrypt OBJECT
  ${WOLFCRYPT_BACKEND_DIR}/adapter.c)
target_compile_options(merlin_backend_wolfcrypt PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(merlin_backend_wolfcrypt PRIVATE
  MERLIN_WOLFSSL_VERSION="${MERLIN_DEP_WOLFSSL_VERSION}"
  MERLIN_WOLFCRYPT_VARIANT="${MERLIN_WOLFCRYPT_VARIANT}")
target_link_libraries(merlin_backend_wolfcrypt PUBLIC merlin_headers
                      wolfssl_lib)
