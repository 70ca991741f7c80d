# SPDX-License-Identifier: Apache-2.0
# AWS-LC's FIPS 202 (SHA-3, SHAKE) for mlkem-native and mldsa-native, both
# from Debian's rust-aws-lc-sys source. Included by both backend.cmake files;
# the target is defined once (both backends in one image share it, and two
# copies would define SHA3_256, SHAKE_Init ... twice).
#
# Compile definitions, PUBLIC because every unit that includes AWS-LC's
# headers (the glue headers pull in sha/internal.h) must see the same ones:
#   OPENSSL_NO_ASM  portable C Keccak; without it AWS-LC selects s2n-bignum
#                   assembly on x86_64 and AArch64 hosts.
#   OPENSSL_NO_THREADS_CORRUPT_MEMORY_AND_LEAK_SECRETS_IF_THREADED
#                   AWS-LC's switch for targets without threads (it chooses
#                   it itself for bare-metal targets it knows): its headers
#                   otherwise need pthread types, which newlib does not
#                   have. The harness is single-threaded and FIPS 202 keeps
#                   no global state.
# NDEBUG (private): the asserts in keccak1600.c are off, as in AWS-LC's
# release builds.
set(MERLIN_AWSLC_DIR "${MERLIN_THIRD_PARTY}/aws-lc-sys/aws-lc")
if(NOT EXISTS "${MERLIN_AWSLC_DIR}/crypto/fipsmodule/sha/sha3.c")
  message(FATAL_ERROR "AWS-LC sources not found in ${MERLIN_AWSLC_DIR}: "
                      "run scripts/fetch-deps")
endif()

# The AWS-LC release the sources come from (include/openssl/base.h).
file(STRINGS "${MERLIN_AWSLC_DIR}/include/openssl/base.h" awslc_ver_line
     REGEX "^#define AWSLC_VERSION_NUMBER_STRING \"[^\"]+\"")
string(REGEX REPLACE ".*\"([^\"]+)\".*" "\\1" MERLIN_AWSLC_VERSION
       "${awslc_ver_line}")
if(NOT MERLIN_AWSLC_VERSION)
  set(MERLIN_AWSLC_VERSION "unknown")
endif()

if(NOT TARGET merlin_awslc_fips202)
  add_library(merlin_awslc_fips202 STATIC
    ${CMAKE_SOURCE_DIR}/src/backends/mlkem-native/awslc_fips202.c)
  target_include_directories(merlin_awslc_fips202 SYSTEM PUBLIC
    ${MERLIN_AWSLC_DIR}/include)
  target_include_directories(merlin_awslc_fips202 PRIVATE
    ${MERLIN_AWSLC_DIR}/crypto)
  target_compile_definitions(merlin_awslc_fips202 PUBLIC OPENSSL_NO_ASM
    OPENSSL_NO_THREADS_CORRUPT_MEMORY_AND_LEAK_SECRETS_IF_THREADED)
  target_compile_definitions(merlin_awslc_fips202 PRIVATE NDEBUG)
endif()
