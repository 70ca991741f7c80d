# SPDX-License-Identifier: Apache-2.0
# mldsa-native (ML-DSA, FIPS 204) as vendored in AWS-LC, from Debian's
# rust-aws-lc-sys ${MERLIN_DEP_AWS_LC_SYS_VERSION} source package:
# aws-lc/crypto/fipsmodule/ml_dsa/mldsa/. Compiled as is, configured only by
# merlin_mldsa_config.h (MLD_CONFIG_FILE); nothing is patched.
#
# Variant "c": mldsa-native's portable C, FIPS 202 from AWS-LC's portable C
# Keccak, shared with mlkem-native (src/backends/mlkem-native/
# awslc_fips202.cmake defines the target once for both). Only the parameter
# sets the profile routes here are compiled (mldsa_native_lib.c reads
# merlin_profile.h).
#
# The vendored copy carries no version file (AWS-LC keeps it in META.yml,
# which the crate does not ship) and is no release: mldsa-native's first
# release is v2.0.0, while this copy has the v1 API (sign and verify take
# a signature length, mldsa_native.h announces the removal of the legacy
# configuration "in mldsa-native-v2"). It is the main-branch snapshot that
# AWS-LC ${MERLIN_AWSLC_VERSION} ships, hence the version string.
set(MLDSA_NATIVE_VERSION "pre-2.0 main snapshot")

include(${CMAKE_SOURCE_DIR}/src/backends/mlkem-native/awslc_fips202.cmake)
set(MLDSA_NATIVE_BACKEND_DIR "${CMAKE_SOURCE_DIR}/src/backends/mldsa-native")
set(MLDSA_NATIVE_DIR "${MERLIN_AWSLC_DIR}/crypto/fipsmodule/ml_dsa/mldsa")
if(NOT EXISTS "${MLDSA_NATIVE_DIR}/mldsa_native_bcm.c")
  message(FATAL_ERROR "mldsa-native sources not found in ${MLDSA_NATIVE_DIR}: "
                      "run scripts/fetch-deps")
endif()

# The library: one unit holding every routed parameter set.
add_library(mldsa_native_lib STATIC
  ${MLDSA_NATIVE_BACKEND_DIR}/mldsa_native_lib.c)
target_include_directories(mldsa_native_lib PRIVATE
  ${MLDSA_NATIVE_BACKEND_DIR} ${MLDSA_NATIVE_DIR})
target_link_libraries(mldsa_native_lib PRIVATE merlin_headers
                      merlin_awslc_fips202)

add_library(merlin_backend_mldsa-native OBJECT
  ${MLDSA_NATIVE_BACKEND_DIR}/adapter.c)
target_include_directories(merlin_backend_mldsa-native PRIVATE
  ${MLDSA_NATIVE_BACKEND_DIR})
# mldsa_native.h only: a SYSTEM include, outside Merlin's warning flags.
target_include_directories(merlin_backend_mldsa-native SYSTEM PRIVATE
  ${MLDSA_NATIVE_DIR})
target_compile_options(merlin_backend_mldsa-native PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(merlin_backend_mldsa-native PRIVATE
  MERLIN_MLDSA_NATIVE_VERSION="${MLDSA_NATIVE_VERSION}"
  MERLIN_AWSLC_VERSION="${MERLIN_AWSLC_VERSION}"
  MERLIN_AWS_LC_SYS_VERSION="${MERLIN_DEP_AWS_LC_SYS_VERSION}")
target_link_libraries(merlin_backend_mldsa-native PUBLIC merlin_headers
                      mldsa_native_lib)
