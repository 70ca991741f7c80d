# SPDX-License-Identifier: Apache-2.0
# Mbed TLS 3.6 (Debian source package `mbedtls`), used through the PSA Crypto
# API with the library's built-in software drivers. The library is compiled
# as is, configured (never patched) by mbedtls_config.h and
# merlin_psa_config.h in this folder; randomness and the allocator are
# hooked up by adapter.c.
#
# The library is configured for a set of algorithms: each becomes
# MERLIN_MBEDTLS_HAS_<ALG>=1 (seen by the library and the adapter, which
# checks it against merlin_profile.h), merlin_psa_config.h turns those into
# PSA_WANT_xxx, and the file list below follows the same table
# (mbedtls_config.h explains the mapping). In an ordinary image that set is
# every algorithm the backend offers, whatever the profile routes here: the
# PSA core's dispatch and error mapping are compiled from the
# configuration, so an operation's instructions would otherwise depend on
# which other Mbed TLS algorithms the image holds (measured on qemu-m4:
# SHA-256 over 8 bytes, 3639 instructions beside the default profile's
# other algorithms against 3615 alone; docs/measurements.md, "Independent
# cells"). A size image (MERLIN_BACKEND_SUFFIX, below) is configured for
# its one algorithm only.
#
# Profile option: MERLIN_OPT_MBEDTLS_AES_TABLES = ram (default) | rom
# (MBEDTLS_AES_ROM_TABLES); the AES-based entries report variant
# "psa-builtin-aesrom" when rom.
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

# Target names. The size images of `merlin sizes` (cmake/MerlinImage.cmake,
# MERLIN_SIZES) include this file once more per algorithm routed here, with
# MERLIN_PROFILE_ROUTES cut down to that algorithm and a MERLIN_BACKEND_SUFFIX
# naming its own library: the PSA core dispatches to every mechanism the
# configuration enables, so an image must be configured for one algorithm to
# hold only that one (docs/sizes.md). An ordinary image has no suffix.
set(MBEDTLS_LIB "mbedtls_lib${MERLIN_BACKEND_SUFFIX}")
set(MBEDTLS_ADAPTER "merlin_backend_mbedtls${MERLIN_BACKEND_SUFFIX}")

# ---- what the profile routes here ------------------------------------------
set(MBEDTLS_OFFERED sha256 sha3-256 hmac-sha256 hkdf-sha256 aes-128-gcm
    aes-256-gcm aes-128-ccm ecdh-p256 x25519 ffdhe-2048 ecdsa-p256 rsa-2048)
set(MBEDTLS_ROUTED "")
set(MBEDTLS_HAS_DEFS "")
foreach(route IN LISTS MERLIN_PROFILE_ROUTES)
  if(NOT route MATCHES "^([^:]+):mbedtls$")
    continue()
  endif()
  set(alg "${CMAKE_MATCH_1}")
  if(NOT alg IN_LIST MBEDTLS_OFFERED)
    message(FATAL_ERROR "profile ${MERLIN_PROFILE_NAME} routes '${alg}' to "
                        "mbedtls, which does not serve it")
  endif()
  list(APPEND MBEDTLS_ROUTED "${alg}")
endforeach()
if(MERLIN_BACKEND_SUFFIX)
  set(MBEDTLS_BUILT ${MBEDTLS_ROUTED})
  set(MBEDTLS_EXACT 1)
else()
  set(MBEDTLS_BUILT ${MBEDTLS_OFFERED})
  set(MBEDTLS_EXACT 0)
endif()
foreach(alg IN LISTS MBEDTLS_BUILT)
  string(TOUPPER "${alg}" alg_enum)
  string(MAKE_C_IDENTIFIER "${alg_enum}" alg_enum)
  list(APPEND MBEDTLS_HAS_DEFS "MERLIN_MBEDTLS_HAS_${alg_enum}=1")
endforeach()

# mbedtls_any(<var> <alg>...): whether the library is built for any of the
# algorithms.
function(mbedtls_any var)
  set(found FALSE)
  foreach(alg IN LISTS ARGN)
    if(alg IN_LIST MBEDTLS_BUILT)
      set(found TRUE)
    endif()
  endforeach()
  set(${var} ${found} PARENT_SCOPE)
endfunction()

mbedtls_any(MBEDTLS_NEED_HASH
  sha256 sha3-256 hmac-sha256 hkdf-sha256 ecdsa-p256 rsa-2048)
mbedtls_any(MBEDTLS_NEED_HMAC hmac-sha256 hkdf-sha256)
mbedtls_any(MBEDTLS_NEED_AES aes-128-gcm aes-256-gcm aes-128-ccm)
mbedtls_any(MBEDTLS_NEED_GCM aes-128-gcm aes-256-gcm)
mbedtls_any(MBEDTLS_NEED_ECC ecdh-p256 x25519 ecdsa-p256)
mbedtls_any(MBEDTLS_NEED_ECDH ecdh-p256 x25519)
mbedtls_any(MBEDTLS_NEED_BIGNUM ecdh-p256 x25519 ecdsa-p256 ffdhe-2048 rsa-2048)
mbedtls_any(MBEDTLS_NEED_ASN1 ecdsa-p256 rsa-2048)

# ---- AES table placement (profile option) ----------------------------------
if(NOT DEFINED MERLIN_OPT_MBEDTLS_AES_TABLES OR
   MERLIN_OPT_MBEDTLS_AES_TABLES STREQUAL "")
  set(MERLIN_OPT_MBEDTLS_AES_TABLES "ram")
endif()
if(MERLIN_OPT_MBEDTLS_AES_TABLES STREQUAL "rom")
  set(MBEDTLS_AES_ROM 1)
  set(MBEDTLS_AES_VARIANT "psa-builtin-aesrom")
elseif(MERLIN_OPT_MBEDTLS_AES_TABLES STREQUAL "ram")
  set(MBEDTLS_AES_ROM 0)
  set(MBEDTLS_AES_VARIANT "psa-builtin")
else()
  message(FATAL_ERROR "MERLIN_OPT_MBEDTLS_AES_TABLES is "
    "'${MERLIN_OPT_MBEDTLS_AES_TABLES}'; valid: ram, rom")
endif()

# ---- the library files the configuration needs -----------------------------
set(MBEDTLS_SOURCES
  # PSA Crypto core and key store
  psa_crypto.c
  psa_crypto_client.c
  psa_crypto_driver_wrappers_no_static.c
  psa_crypto_slot_management.c
  # psa_asymmetric_{en,de}crypt dispatch to this file unconditionally; without
  # RSA it only holds their PSA_ERROR_NOT_SUPPORTED stubs
  psa_crypto_rsa.c
  psa_util.c
  # platform
  platform.c
  platform_util.c
  constant_time.c)
if(MBEDTLS_NEED_HASH)
  # PSA's hash driver, the MD layer (HMAC_DRBG, RSA's hash lookups) and both
  # hashes: merlin_psa_config.h enables SHA-256 and SHA3-256 together
  list(APPEND MBEDTLS_SOURCES psa_crypto_hash.c md.c sha256.c sha3.c)
endif()
if(MBEDTLS_NEED_HMAC)
  list(APPEND MBEDTLS_SOURCES psa_crypto_mac.c)
endif()
if(MBEDTLS_NEED_AES)
  # PSA's AEAD driver, its key-type lookup (psa_crypto_cipher.c), AES and
  # the block-cipher layer under GCM and CCM
  list(APPEND MBEDTLS_SOURCES psa_crypto_aead.c psa_crypto_cipher.c aes.c
       block_cipher.c)
endif()
if(MBEDTLS_NEED_GCM)
  list(APPEND MBEDTLS_SOURCES gcm.c)
endif()
if("aes-128-ccm" IN_LIST MBEDTLS_BUILT)
  list(APPEND MBEDTLS_SOURCES ccm.c)
endif()
if(MBEDTLS_NEED_BIGNUM)
  list(APPEND MBEDTLS_SOURCES bignum.c bignum_core.c)
endif()
if(MBEDTLS_NEED_ECC)
  list(APPEND MBEDTLS_SOURCES psa_crypto_ecp.c ecp.c ecp_curves.c)
endif()
if(MBEDTLS_NEED_ECDH)
  list(APPEND MBEDTLS_SOURCES ecdh.c)
endif()
if("ecdsa-p256" IN_LIST MBEDTLS_BUILT)
  # ECDSA and the RFC 6979 nonce generator
  list(APPEND MBEDTLS_SOURCES ecdsa.c hmac_drbg.c)
endif()
if(MBEDTLS_NEED_ASN1)
  list(APPEND MBEDTLS_SOURCES asn1parse.c asn1write.c)
endif()
if("ffdhe-2048" IN_LIST MBEDTLS_BUILT)
  list(APPEND MBEDTLS_SOURCES psa_crypto_ffdh.c)
endif()
if("rsa-2048" IN_LIST MBEDTLS_BUILT)
  # RSA, its key-completion helpers and the OID table of the PKCS #1 v1.5
  # DigestInfo
  list(APPEND MBEDTLS_SOURCES rsa.c rsa_alt_helpers.c oid.c)
endif()
list(TRANSFORM MBEDTLS_SOURCES PREPEND "${MBEDTLS_DIR}/library/")

# Third-party code: built without Merlin's warning flags.
add_library(${MBEDTLS_LIB} STATIC ${MBEDTLS_SOURCES})
target_include_directories(${MBEDTLS_LIB} PRIVATE ${MBEDTLS_DIR}/library)
# The public headers are SYSTEM headers for everything that links the
# library, so the adapter's strict warnings apply to the adapter only. The
# configuration is PUBLIC: the adapter must see exactly the configuration
# the library was built with (structure layouts, enabled mechanisms).
target_include_directories(${MBEDTLS_LIB} SYSTEM PUBLIC ${MBEDTLS_DIR}/include)
target_compile_definitions(${MBEDTLS_LIB} PUBLIC
  MBEDTLS_CONFIG_FILE="${MBEDTLS_BACKEND_DIR}/mbedtls_config.h"
  MBEDTLS_PSA_CRYPTO_CONFIG_FILE="${MBEDTLS_BACKEND_DIR}/merlin_psa_config.h"
  MERLIN_MBEDTLS_AES_ROM_TABLES=${MBEDTLS_AES_ROM}
  ${MBEDTLS_HAS_DEFS})

add_library(${MBEDTLS_ADAPTER} OBJECT ${MBEDTLS_BACKEND_DIR}/adapter.c)
target_compile_options(${MBEDTLS_ADAPTER} PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(${MBEDTLS_ADAPTER} PRIVATE
  MERLIN_MBEDTLS_VERSION="${MERLIN_DEP_MBEDTLS_VERSION}"
  MERLIN_MBEDTLS_AES_VARIANT="${MBEDTLS_AES_VARIANT}"
  MERLIN_MBEDTLS_EXACT=${MBEDTLS_EXACT})
target_link_libraries(${MBEDTLS_ADAPTER} PUBLIC merlin_headers ${MBEDTLS_LIB})
