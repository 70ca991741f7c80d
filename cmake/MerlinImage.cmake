# SPDX-License-Identifier: Apache-2.0
# One benchmark image: the runner, the operation catalogue, the port of
# MERLIN_TARGET and the backends the profile selects. Profiles are turned
# into MERLIN_PROFILE_DIR/merlin_profile.{h,cmake} by `merlin build`.

if(NOT MERLIN_PROFILE_DIR OR
   NOT EXISTS "${MERLIN_PROFILE_DIR}/merlin_profile.cmake")
  message(FATAL_ERROR
    "An image build needs a generated profile (MERLIN_PROFILE_DIR). Images "
    "are configured by the CLI: build/host/merlin build --target "
    "${MERLIN_TARGET} --profile default")
endif()
include("${MERLIN_PROFILE_DIR}/merlin_profile.cmake")

if(NOT EXISTS "${CMAKE_SOURCE_DIR}/cmake/targets/${MERLIN_TARGET}.cmake")
  message(FATAL_ERROR "unknown MERLIN_TARGET '${MERLIN_TARGET}'")
endif()
include("${CMAKE_SOURCE_DIR}/cmake/targets/${MERLIN_TARGET}.cmake")

if(NOT EXISTS "${MERLIN_THIRD_PARTY}/versions.cmake")
  message(FATAL_ERROR "library sources are missing: run scripts/fetch-deps "
                      "(${MERLIN_THIRD_PARTY}/versions.cmake not found)")
endif()
include("${MERLIN_THIRD_PARTY}/versions.cmake")

set(MERLIN_OPT "-O2" CACHE STRING "optimisation flags of the image")
set(MERLIN_KAT_CORRUPT "" CACHE STRING
    "test hook: alg/op whose KAT compares against a corrupted value")
string(APPEND CMAKE_C_FLAGS " ${MERLIN_OPT} -g -ffunction-sections -fdata-sections")
set(MERLIN_GEN "${CMAKE_BINARY_DIR}/generated")
file(MAKE_DIRECTORY "${MERLIN_GEN}")

# Headers every part of the image sees.
add_library(merlin_headers INTERFACE)
target_include_directories(merlin_headers INTERFACE
  ${CMAKE_SOURCE_DIR}/src/core ${CMAKE_SOURCE_DIR}/src/ops
  ${CMAKE_SOURCE_DIR}/src/backends ${CMAKE_SOURCE_DIR}/src/ports
  ${MERLIN_PORT_INCLUDES} "${MERLIN_PROFILE_DIR}" "${MERLIN_GEN}")

# ---- backends: each folder defines merlin_backend_<name> -------------------
set(MERLIN_BACKEND_TARGETS "")
set(MERLIN_REGISTRY_DECLS "")
set(MERLIN_REGISTRY_ITEMS "")
foreach(backend IN LISTS MERLIN_BACKENDS)
  set(dir "${CMAKE_SOURCE_DIR}/src/backends/${backend}")
  if(NOT EXISTS "${dir}/backend.cmake")
    message(FATAL_ERROR "profile ${MERLIN_PROFILE_NAME} uses backend "
                        "'${backend}' but ${dir}/backend.cmake does not exist")
  endif()
  include("${dir}/backend.cmake")
  list(APPEND MERLIN_BACKEND_TARGETS merlin_backend_${backend})
  string(MAKE_C_IDENTIFIER "${backend}" backend_c)
  string(APPEND MERLIN_REGISTRY_DECLS
         "extern const mcore_backend mbe_${backend_c}_backend;\n")
  string(APPEND MERLIN_REGISTRY_ITEMS "    &mbe_${backend_c}_backend,\n")
endforeach()
configure_file(${CMAKE_SOURCE_DIR}/cmake/registry.c.in
               ${MERLIN_GEN}/registry.c @ONLY)

# ---- build provenance --------------------------------------------------
string(STRIP "${CMAKE_C_FLAGS}" MERLIN_BUILD_CFLAGS)
get_filename_component(MERLIN_CC_NAME "${CMAKE_C_COMPILER}" NAME)
set(MERLIN_BUILD_COMPILER
    "${MERLIN_CC_NAME} ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/merlin_build_info.h.in
               ${MERLIN_GEN}/merlin_build_info.h @ONLY)
# The source revision is taken at build time, so it is never stale.
add_custom_target(merlin_source_rev
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR}
          -DOUT=${MERLIN_GEN}/merlin_source_rev.h
          -P ${CMAKE_SOURCE_DIR}/cmake/source_rev.cmake
  BYPRODUCTS ${MERLIN_GEN}/merlin_source_rev.h
  COMMENT "" VERBATIM)

# ---- the image ---------------------------------------------------------
add_library(merlin_core OBJECT
  ${CMAKE_SOURCE_DIR}/src/core/runner.c
  ${CMAKE_SOURCE_DIR}/src/core/wire_out.c
  ${CMAKE_SOURCE_DIR}/src/core/crc32.c
  ${CMAKE_SOURCE_DIR}/src/core/rng.c
  ${CMAKE_SOURCE_DIR}/src/core/alloc.c
  ${CMAKE_SOURCE_DIR}/src/core/digest.c
  ${CMAKE_SOURCE_DIR}/src/core/xcheck.c
  ${CMAKE_SOURCE_DIR}/src/core/stackmeter.c
  ${CMAKE_SOURCE_DIR}/src/ops/ops_common.c
  ${CMAKE_SOURCE_DIR}/src/ops/ops_sym.c
  ${CMAKE_SOURCE_DIR}/src/ops/ops_pk.c
  ${CMAKE_SOURCE_DIR}/src/ops/ops_aead.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors_hash.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors_mac.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors_kdf.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors_ka.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors_sig.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors_kem.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors_xof.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors_aead.c
  ${CMAKE_SOURCE_DIR}/src/ops/vectors_pq.c
  ${MERLIN_PORT_SOURCES}
  ${MERLIN_GEN}/registry.c)
add_dependencies(merlin_core merlin_source_rev)
# The stack meter's probe is checked against the compiler's own figure
# (stackmeter.c.su next to the object; tests/integration/e2e.sh).
# On x86-64 a leaf function may use the 128-byte red zone below the stack
# pointer, which -fstack-usage does not count: no red zone in this file.
set(MERLIN_STACKMETER_FLAGS -fstack-usage)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64)$")
  list(APPEND MERLIN_STACKMETER_FLAGS -mno-red-zone)
endif()
set_source_files_properties(${CMAKE_SOURCE_DIR}/src/core/stackmeter.c
  PROPERTIES COMPILE_OPTIONS "${MERLIN_STACKMETER_FLAGS}")
target_link_libraries(merlin_core PUBLIC merlin_headers)
target_compile_options(merlin_core PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(merlin_core PRIVATE ${MERLIN_PORT_DEFINES})
set(MERLIN_TEST_FAULT "" CACHE STRING
    "test hook: busfault, usagefault or hang right after the announcements")
if(MERLIN_TEST_FAULT)
  target_compile_definitions(merlin_core PRIVATE
                             MERLIN_TEST_FAULT="${MERLIN_TEST_FAULT}")
endif()
if(MERLIN_KAT_CORRUPT)
  target_compile_definitions(merlin_core PRIVATE
                             MERLIN_KAT_CORRUPT="${MERLIN_KAT_CORRUPT}")
endif()

add_executable(merlin-image $<TARGET_OBJECTS:merlin_core>)
set_target_properties(merlin-image PROPERTIES SUFFIX "${MERLIN_IMAGE_SUFFIX}")
target_link_libraries(merlin-image PRIVATE merlin_headers
                      ${MERLIN_BACKEND_TARGETS} ${MERLIN_PORT_LINK})
if(MERLIN_LINKER_SCRIPT)
  target_link_options(merlin-image PRIVATE -T${MERLIN_LINKER_SCRIPT}
    -Wl,--gc-sections -Wl,-Map=${CMAKE_BINARY_DIR}/merlin-image.map
    -Wl,--no-warn-rwx-segments)
  set_target_properties(merlin-image PROPERTIES LINK_DEPENDS
                        ${MERLIN_LINKER_SCRIPT})
  add_custom_command(TARGET merlin-image POST_BUILD
    COMMAND ${CMAKE_SIZE} $<TARGET_FILE:merlin-image> VERBATIM)
else()
  target_link_options(merlin-image PRIVATE -Wl,--gc-sections)
endif()
