# SPDX-License-Identifier: Apache-2.0
# mlkem-native (ML-KEM, FIPS 203) as vendored in AWS-LC, from Debian's
# rust-aws-lc-sys ${MERLIN_DEP_AWS_LC_SYS_VERSION} source package:
# aws-lc/crypto/fipsmodule/ml_kem/mlkem/. Compiled as is, configured only by
# merlin_mlkem_config.h (MLK_CONFIG_FILE); nothing is patched.
#
# Variant "c": mlkem-native's portable C, FIPS 202 from AWS-LC's portable C
# Keccak (awslc_fips202.cmake). Only the parameter sets the profile routes
# here are compiled (mlkem_native_lib.c reads merlin_profile.h).
#
# The vendored copy carries no version file (AWS-LC keeps it in META.yml,
# which the crate does not ship). Its API is mlkem-native v1.1.0's:
# randombytes returning int, MLK_CONFIG_MULTILEVEL_BUILD, the
# MLK_TOTAL_ALLOC_* constants, and mlkem_native.h announcing the removal of
# the legacy configuration in v2; AWS-LC imported v1.1.0 in aws-lc#3090 and
# moved to v2.0.0 only after its 5.x releases (aws-lc#3367).
set(MLKEM_NATIVE_VERSION "1.1.0")

include(${CMAKE_SOURCE_DIR}/src/backends/mlkem-native/awslc_fips202.cmake)
set(MLKEM_NATIVE_BACKEND_DIR "${CMAKE_SOURCE_DIR}/src/backends/mlkem-native")
set(MLKEM_NATIVE_DIR "${MERLIN_AWSLC_DIR}/crypto/fipsmodule/ml_kem/mlkem")
if(NOT EXISTS "${MLKEM_NATIVE_DIR}/mlkem_native_bcm.c")
  message(FATAL_ERROR "mlkem-native sources not found in ${MLKEM_NATIVE_DIR}: "
                      "run scripts/fetch-deps")
endif()

# The library: one unit holding every routed parameter set.
add_library(mlkem_native_lib STATIC
  ${MLKEM_NATIVE_BACKEND_DIR}/mlkem_native_lib.c)
target_include_directories(mlkem_native_lib PRIVATE
  ${MLKEM_NATIVE_BACKEND_DIR} ${MLKEM_NATIVE_DIR})
target_link_libraries(mlkem_native_lib PRIVATE merlin_headers
                      merlin_awslc_fips202)

add_library(merlin_backend_mlkem-native OBJECT
  ${MLKEM_NATIVE_BACKEND_DIR}/adapter.c)
target_include_directories(merlin_backend_mlkem-native PRIVATE
  ${MLKEM_NATIVE_BACKEND_DIR})
# mlkem_native.h only: a SYSTEM include, outside Merlin's warning flags.
target_include_directories(merlin_backend_mlkem-native SYSTEM PRIVATE
  ${MLKEM_NATIVE_DIR})
target_compile_options(merlin_backend_mlkem-native PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(merlin_backend_mlkem-native PRIVATE
  MERLIN_MLKEM_NATIVE_VERSION="${MLKEM_NATIVE_VERSION}"
  MERLIN_AWSLC_VERSION="${MERLIN_AWSLC_VERSION}"
  MERLIN_AWS_LC_SYS_VERSION="${MERLIN_DEP_AWS_LC_SYS_VERSION}")
target_link_libraries(merlin_backend_mlkem-native PUBLIC merlin_headers
                      mlkem_native_lib)
