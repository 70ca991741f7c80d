# SPDX-License-Identifier: Apache-2.0
# Mbed TLS 3.6 (Debian source package `mbedtls`), used through the PSA Crypto
# API with the library's built-in software drivers. The library is compiled
# as is, configured (never patched) by mbedtls_config.h and
# merlin_psa_config.h in this folder; randomness and the allocator are
# hooked up by adapter.c.
set(MBEDTLS_DIR "${MERLIN_THIRD_PARTY}/mbedtls")
set(MBEDTLS_BACKEND_DIR "${CMAKE_SOURCE_DIR}/src/backends/mbedtls")
if(NOT EXISTS "${MBEDTLS_DIR}/library/psa_crypto.c")
  message(FATAL_ERROR "Mbed TLS sources not found in ${MBEDTLS_DIR}: run scripts/fetch-deps")
endif()

# The version reported on the wire is the one recorded by fetch-deps; make
# sure it is the version of the sources actually compiled.
file(STRINGS "${MBEDTLS_DIR}/include/mbedtls/build_info.h" MBEDTLS_VERSION_LINE
     REGEX "^#define MBEDTLS_VERSION_STRING +\"[^\"]+\"")
string(REGEX REPLACE ".*\"([^\"]+)\".*" "\\1" MBEDTLS_SOURCE_VERSION
       "${MBEDTLS_VERSION_LINE}")
if(NOT MBEDTLS_SOURCE_VERSION STREQUAL MERLIN_DEP_MBEDTLS_VERSION)
  message(FATAL_ERROR "Mbed TLS in ${MBEDTLS_DIR} is version "
    "'${MBEDTLS_SOURCE_VERSION}' but versions.cmake records "
    "'${MERLIN_DEP_MBEDTLS_VERSION}': run scripts/fetch-deps again")
endif()

# Exactly the files the configuration needs (see mbedtls_config.h).
set(MBEDTLS_SOURCES
  # PSA Crypto core, key store and built-in drivers
  psa_crypto.c
  psa_crypto_client.c
  psa_crypto_driver_wrappers_no_static.c
  psa_crypto_slot_management.c
  psa_crypto_hash.c
  psa_crypto_mac.c
  psa_crypto_ecp.c
  # psa_asymmetric_{en,de}crypt dispatch to this file unconditionally; without
  # RSA it only holds their PSA_ERROR_NOT_SUPPORTED stubs (needed to link
  # without --gc-sections)
  psa_crypto_rsa.c
  psa_util.c
  # platform
  platform.c
  platform_util.c
  constant_time.c
  # SHA-256, the MD layer and HMAC_DRBG (deterministic ECDSA nonces)
  sha256.c
  md.c
  hmac_drbg.c
  # bignum and P-256
  bignum.c
  bignum_core.c
  ecp.c
  ecp_curves.c
  ecdh.c
  ecdsa.c
  asn1parse.c
  asn1write.c)
list(TRANSFORM MBEDTLS_SOURCES PREPEND "${MBEDTLS_DIR}/library/")

# Third-party code: built without Merlin's warning flags.
add_library(mbedtls_lib STATIC ${MBEDTLS_SOURCES})
target_include_directories(mbedtls_lib PRIVATE ${MBEDTLS_DIR}/library)
# The public headers are SYSTEM headers for everything that links the
# library, so the adapter's strict warnings apply to the adapter only.
target_include_directories(mbedtls_lib SYSTEM PUBLIC ${MBEDTLS_DIR}/include)
target_compile_definitions(mbedtls_lib PUBLIC
  MBEDTLS_CONFIG_FILE="${MBEDTLS_BACKEND_DIR}/mbedtls_config.h"
  MBEDTLS_PSA_CRYPTO_CONFIG_FILE="${MBEDTLS_BACKEND_DIR}/merlin_psa_config.h")

add_library(merlin_backend_mbedtls OBJECT ${MBEDTLS_BACKEND_DIR}/adapter.c)
target_compile_options(merlin_backend_mbedtls PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(merlin_backend_mbedtls PRIVATE
  MERLIN_MBEDTLS_VERSION="${MERLIN_DEP_MBEDTLS_VERSION}")
target_link_libraries(merlin_backend_mbedtls PUBLIC merlin_headers mbedtls_lib)
