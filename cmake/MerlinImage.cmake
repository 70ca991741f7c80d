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

# The port of the target, from its descriptor; then the target's own build
# steps, if it has any (cmake_include).
include("${CMAKE_SOURCE_DIR}/cmake/target.cmake")
if(MERLIN_T_cmake_include)
  include("${CMAKE_SOURCE_DIR}/${MERLIN_T_cmake_include}")
endif()

if(NOT EXISTS "${MERLIN_THIRD_PARTY}/versions.cmake")
  message(FATAL_ERROR "library sources are missing: run scripts/fetch-deps "
                      "(${MERLIN_THIRD_PARTY}/versions.cmake not found)")
endif()
include("${MERLIN_THIRD_PARTY}/versions.cmake")

set(MERLIN_OPT "-O2" CACHE STRING
    "optimisation of the image and its libraries: O2, Os, O3 (or -O2 ...)")
# The compiler MERLIN_CC asked for, not a stale cache or $CC.
if((MERLIN_CC STREQUAL "clang" AND NOT CMAKE_C_COMPILER_ID MATCHES "Clang") OR
   (MERLIN_CC STREQUAL "gcc" AND NOT CMAKE_C_COMPILER_ID STREQUAL "GNU") OR
   (MERLIN_CC MATCHES "^/" AND NOT CMAKE_C_COMPILER STREQUAL MERLIN_CC))
  message(FATAL_ERROR "MERLIN_CC=${MERLIN_CC} but the C compiler is "
    "${CMAKE_C_COMPILER} (${CMAKE_C_COMPILER_ID}): configure a fresh build "
    "directory")
endif()
if(NOT MERLIN_OPT MATCHES "^-")
  set(MERLIN_OPT "-${MERLIN_OPT}")
endif()
set(MERLIN_KAT_CORRUPT "" CACHE STRING
    "test hook: alg/op whose KAT compares against a corrupted value")
string(APPEND CMAKE_C_FLAGS " ${MERLIN_OPT} -g -ffunction-sections -fdata-sections")
set(MERLIN_GEN "${CMAKE_BINARY_DIR}/generated")
file(MAKE_DIRECTORY "${MERLIN_GEN}")

# Headers every part of the image sees.
add_library(merlin_headers INTERFACE)
target_include_directories(merlin_headers INTERFACE
  ${CMAKE_SOURCE_DIR}/src/core ${CMAKE_SOURCE_DIR}/src/ops
  ${CMAKE_SOURCE_DIR}/src/wire ${CMAKE_SOURCE_DIR}/src/workflows
  ${CMAKE_SOURCE_DIR}/src/backends ${CMAKE_SOURCE_DIR}/src/ports
  ${MERLIN_PORT_INCLUDES} "${MERLIN_PROFILE_DIR}" "${MERLIN_GEN}")

# ---- backends: each folder defines merlin_backend_<name> -------------------
# MERLIN_BACKEND_SERVES: the algorithms the backend's manifest serves
# (src/backends/<name>/backend.manifest, docs/backends.md), for a
# backend.cmake that checks or selects by them.
function(merlin_backend_serves backend)
  file(STRINGS "${CMAKE_SOURCE_DIR}/src/backends/${backend}/backend.manifest"
       lines REGEX "^serves[ \t]*=")
  set(serves "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^serves[ \t]*=[ \t]*" "" line "${line}")
    separate_arguments(algs UNIX_COMMAND "${line}")
    list(APPEND serves ${algs})
  endforeach()
  set(MERLIN_BACKEND_SERVES "${serves}" PARENT_SCOPE)
endfunction()

set(MERLIN_BACKEND_TARGETS "")
set(MERLIN_REGISTRY_DECLS "")
set(MERLIN_REGISTRY_ITEMS "")
# Implementation folders (docs/bring-your-own.md): a library backend of
# folders (kind = folders, pqclean) and the run's own folders, each of
# those a backend. MerlinImpl defines their targets and backend objects.
list(LENGTH MERLIN_IMPLS merlin_n_impls) # indexes from 0: "0" is false
# The compiler workarounds applied to this image's folders, one per line
# "BACKEND<TAB>FLAGS -- reason": merlin run puts them in the run's
# provenance (results.json "compiler_workarounds"). Written empty on every
# configure so that a profile without folders leaves no stale line.
set(MERLIN_WORKAROUNDS_FILE "${CMAKE_BINARY_DIR}/compiler-workarounds.txt")
file(WRITE "${MERLIN_WORKAROUNDS_FILE}" "")
if(merlin_n_impls GREATER 0)
  include(MerlinImpl)
endif()
macro(merlin_registry_add name)
  string(MAKE_C_IDENTIFIER "${name}" backend_c)
  string(APPEND MERLIN_REGISTRY_DECLS
         "extern const mcore_backend mbe_${backend_c}_backend;\n")
  string(APPEND MERLIN_REGISTRY_ITEMS "    &mbe_${backend_c}_backend,\n")
endmacro()
foreach(backend IN LISTS MERLIN_BACKENDS)
  if(backend IN_LIST MERLIN_FOLDER_BACKENDS)
    merlin_registry_add(${backend}) # at its place in the catalogue
    continue()
  endif()
  set(dir "${CMAKE_SOURCE_DIR}/src/backends/${backend}")
  if(NOT EXISTS "${dir}/backend.cmake")
    message(FATAL_ERROR "profile ${MERLIN_PROFILE_NAME} uses backend "
                        "'${backend}' but ${dir}/backend.cmake does not exist")
  endif()
  merlin_backend_serves(${backend})
  include("${dir}/backend.cmake")
  list(APPEND MERLIN_BACKEND_TARGETS merlin_backend_${backend})
  merlin_registry_add(${backend})
endforeach()
foreach(be IN LISTS MBI_NEW_BACKENDS) # the run's folders, after the rest
  merlin_registry_add(${be})
endforeach()
# Test hook (tests/ct/plant.sh): the planted constant-time leaks, a backend
# of the test tree that no shipped image carries.
option(MERLIN_TEST_CT_PLANT "test hook: add the planted-leak backend" OFF)
if(MERLIN_TEST_CT_PLANT)
  include("${CMAKE_SOURCE_DIR}/tests/ct/plant/plant.cmake")
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/registry.c.in
               ${MERLIN_GEN}/registry.c @ONLY)

# ---- build provenance --------------------------------------------------
string(STRIP "${CMAKE_C_FLAGS}" MERLIN_BUILD_CFLAGS)
# the driver's name, or with --cc PATH its path (merlin's matrix row)
get_filename_component(MERLIN_CC_NAME "${CMAKE_C_COMPILER}" NAME)
if(MERLIN_CC MATCHES "^/")
  set(MERLIN_CC_NAME "${MERLIN_CC}")
endif()
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
  ${CMAKE_SOURCE_DIR}/src/core/control.c
  ${CMAKE_SOURCE_DIR}/src/core/markers.c
  ${CMAKE_SOURCE_DIR}/src/wire/wire_out.c
  ${CMAKE_SOURCE_DIR}/src/core/crc32.c
  ${CMAKE_SOURCE_DIR}/src/core/rng.c
  ${CMAKE_SOURCE_DIR}/src/core/fresh.c
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
  ${CMAKE_SOURCE_DIR}/src/workflows/mwf_run.c
  ${CMAKE_SOURCE_DIR}/src/workflows/mwf_frames.c
  ${CMAKE_SOURCE_DIR}/src/workflows/mwf_provision.c
  ${CMAKE_SOURCE_DIR}/src/workflows/mwf_session.c
  ${CMAKE_SOURCE_DIR}/src/workflows/mwf_constrained.c
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
# The wire's longest line (src/wire/wire_out.c): the begin record names
# every backend and route, so an image with a user's folders (a whole pqm4
# checkout: 51) gets 256 bytes more per folder than the 4 KB of the rest.
if(MBI_N_USER GREATER 0)
  math(EXPR merlin_wire_line "4096 + 256 * ${MBI_N_USER}")
  target_compile_definitions(merlin_core PRIVATE
                             MERLIN_WIRE_LINE_MAX=${merlin_wire_line})
endif()
set(MERLIN_TEST_FAULT "" CACHE STRING
    "test hook: busfault, usagefault or hang right after the announcements")
if(MERLIN_TEST_FAULT)
  target_compile_definitions(merlin_core PRIVATE
                             MERLIN_TEST_FAULT="${MERLIN_TEST_FAULT}")
endif()
set(MERLIN_TEST_TIMER_BITS "" CACHE STRING
    "test hook (qemu-mps2 ports): period of the counter's timer in bits")
if(MERLIN_TEST_TIMER_BITS)
  set_property(SOURCE ${CMAKE_SOURCE_DIR}/src/ports/qemu-mps2/board_mps2.c
               APPEND PROPERTY COMPILE_DEFINITIONS
               MPS2_TIMER_BITS=${MERLIN_TEST_TIMER_BITS})
endif()
if(MERLIN_KAT_CORRUPT)
  target_compile_definitions(merlin_core PRIVATE
                             MERLIN_KAT_CORRUPT="${MERLIN_KAT_CORRUPT}")
endif()
option(MERLIN_TEST_NO_SAMPLE_CHECKS
       "test hook: skip the per-sample output checks (tests/integration/sample_checks.sh)" OFF)
if(MERLIN_TEST_NO_SAMPLE_CHECKS)
  target_compile_definitions(merlin_core PRIVATE MERLIN_TEST_NO_SAMPLE_CHECKS=1)
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
# An emulated part's image that holds a user's implementation folders
# (MerlinImpl.cmake, MBI_USER_FOLDERS) gives its stack half the part's RAM
# (the linker scripts' STACK_SIZE; 256 KB otherwise), so that whether a
# folder fits is decided by its own stack measured there: pqm4's MAYO3 and
# AIMer-256s m4speed use 590 to 620 KB (docs/bring-your-own.md, "Not
# built, does not fit, left out").
if(MBI_USER_FOLDERS AND MERLIN_LINKER_SCRIPT AND MERLIN_T_kind STREQUAL "qemu"
   AND MERLIN_T_ram_bytes)
  math(EXPR mbi_stack "${MERLIN_T_ram_bytes} / 2")
  target_link_options(merlin-image PRIVATE
                      -Wl,--defsym=STACK_SIZE=${mbi_stack})
endif()

# ---- size images (`merlin sizes`, docs/sizes.md) -------------------------
# With MERLIN_SIZES=ON this tree also defines, behind the target merlin-sizes
# and outside `all`, one image per routed (algorithm, backend) pair holding
# that pair alone, and an empty baseline image (the harness, no backend),
# under sizes/<algorithm>.<backend>/ and sizes/baseline/, each with its link
# map; sizes/manifest.txt lists them for the CLI. They are linked like
# merlin-image (same link options, --gc-sections), so a pair's flash and RAM
# are its image's minus the baseline's.
#
# Nothing is compiled per pair but the adapter: the harness objects are
# compiled once (merlin_sz_core: merlin_core without the registry), the
# libraries once, with the profile's configuration, as static archives, and
# each pair's adapter against a merlin_profile.h routing that pair alone, so
# it refers only to that algorithm and the linker takes from the archives
# what that needs. Backends listed in MERLIN_SIZES_EXACT are configured and
# compiled once per pair instead (their backend.cmake honours
# MERLIN_BACKEND_SUFFIX): Mbed TLS, whose PSA core dispatches to every
# mechanism its configuration enables and whose adapter insists that the
# configuration and the routes agree.
option(MERLIN_SIZES "also define the size images of merlin sizes" OFF)
if(MERLIN_SIZES)
  set(MERLIN_SIZES_EXACT mbedtls)
  set(SZ_DIR "${CMAKE_BINARY_DIR}/sizes")

  # Enum names of the algorithm and backend ids (not always the id spelt in
  # capitals: sphincs-sha2-128s-simple-r3 is SPHINCS_SHA2_128S_R3).
  foreach(def algs backends)
    if(def STREQUAL "algs")
      set(def_file "${CMAKE_SOURCE_DIR}/src/ops/algs.def")
    else()
      set(def_file "${CMAKE_SOURCE_DIR}/src/backends/backends.def")
    endif()
    file(STRINGS "${def_file}" sz_lines REGEX "^X\\([A-Z0-9_]+, \"")
    foreach(line IN LISTS sz_lines)
      if(line MATCHES "^X\\(([A-Z0-9_]+), \"([^\"]+)\"")
        set(SZ_ENUM_${def}_${CMAKE_MATCH_2} "${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endforeach()
  # The profile's library options, as its merlin_profile.h spells them.
  file(STRINGS "${MERLIN_PROFILE_DIR}/merlin_profile.h" SZ_OPTION_LINES
       REGEX "^#define MERLIN_OPT_")
  string(REPLACE ";" "\n" SZ_OPTION_LINES "${SZ_OPTION_LINES}")

  # The harness, compiled once for every size image: merlin_core's sources
  # and settings without the registry, which each image brings.
  get_target_property(sz_sources merlin_core SOURCES)
  list(REMOVE_ITEM sz_sources "${MERLIN_GEN}/registry.c")
  add_library(merlin_sz_core OBJECT ${sz_sources})
  foreach(prop COMPILE_DEFINITIONS COMPILE_OPTIONS INCLUDE_DIRECTORIES
               LINK_LIBRARIES)
    get_target_property(value merlin_core ${prop})
    if(value)
      set_property(TARGET merlin_sz_core PROPERTY ${prop} "${value}")
    endif()
  endforeach()
  # no source revision (merlin_build_info.h.in): a commit relinks nothing
  target_compile_definitions(merlin_sz_core PRIVATE MERLIN_SIZE_IMAGE=1)
  set_property(TARGET merlin_sz_core PROPERTY EXCLUDE_FROM_ALL TRUE)
  # merlin-image's link options, with the map written next to each image.
  get_target_property(sz_link_options merlin-image LINK_OPTIONS)
  if(NOT sz_link_options)
    set(sz_link_options "")
  endif()
  list(FILTER sz_link_options EXCLUDE REGEX "^-Wl,-Map=")
  get_target_property(sz_link_depends merlin-image LINK_DEPENDS)

  set(SZ_MANIFEST "# merlin size images: kind algorithm backend target image map\n")
  set(SZ_TARGETS "")
  set(sz_index 0)
  # The baseline first, then the routes, then the run's implementation
  # folders ("=K": folder K of MerlinImpl, after its algorithm id).
  set(sz_routes "-:-" ${MERLIN_PROFILE_ROUTES})
  foreach(k IN LISTS MERLIN_IMPLS)
    if(MERLIN_IMPL_${k}_NEW_BACKEND)
      list(APPEND sz_routes "${MERLIN_IMPL_${k}_ALG}:=${k}")
    endif()
  endforeach()
  foreach(route IN LISTS sz_routes)
    string(REPLACE ":" ";" parts "${route}")
    list(GET parts 0 alg)
    list(GET parts 1 backend)
    # A folder's pair: the one of a library backend of folders that serves
    # this route, or a run's folder.
    set(sz_impl "")
    if(backend MATCHES "^=([0-9]+)$")
      set(sz_impl ${CMAKE_MATCH_1})
      set(backend "${MERLIN_IMPL_${sz_impl}_BACKEND}")
    elseif(backend IN_LIST MERLIN_FOLDER_BACKENDS)
      foreach(k IN LISTS MERLIN_IMPLS)
        if(MERLIN_IMPL_${k}_ALG STREQUAL alg AND
           MERLIN_IMPL_${k}_BACKEND STREQUAL backend)
          set(sz_impl ${k})
        endif()
      endforeach()
    endif()
    if(route STREQUAL "-:-")
      set(kind baseline)
      set(tag baseline)
    elseif(NOT sz_impl STREQUAL "")
      set(kind pair)
      set(tag "${alg}.impl${sz_impl}")
      set(pdir "${SZ_DIR}/${tag}")
      mbi_pair_registry(${sz_impl} sz_registry)
      file(CONFIGURE OUTPUT "${pdir}/registry.c" CONTENT "${sz_registry}")
      set(adapter merlin_impl${sz_impl}_adapter merlin_impl_core)
    else()
      set(kind pair)
      set(tag "${alg}.${backend}")
      set(alg_enum "${SZ_ENUM_algs_${alg}}")
      set(backend_enum "${SZ_ENUM_backends_${backend}}")
      if(NOT alg_enum OR NOT backend_enum)
        message(FATAL_ERROR "MERLIN_SIZES: route '${route}' names an unknown "
                            "algorithm or backend")
      endif()
      string(MAKE_C_IDENTIFIER "${backend}" backend_c)
    endif()
    set(pdir "${SZ_DIR}/${tag}")
    set(target "merlin-size-${tag}")

    if(kind STREQUAL "baseline")
      # No backend at all. An array cannot be empty in ISO C: one unused
      # slot, and a count of zero.
      file(CONFIGURE OUTPUT "${pdir}/registry.c" CONTENT
"/* Generated by cmake/MerlinImage.cmake (MERLIN_SIZES): no backend. */
#include \"mcore.h\"

const mcore_backend *const mcore_backends[1] = {0};
const size_t mcore_n_backends = 0;
" @ONLY)
      set(adapter "")
    elseif(NOT sz_impl STREQUAL "")
      # A folder's pair: its adapter and objects are the benchmark image's
      # own targets, its registry was written above.
    else()
      file(CONFIGURE OUTPUT "${pdir}/merlin_profile.h" CONTENT
"/* Generated by cmake/MerlinImage.cmake (MERLIN_SIZES): profile
 * @MERLIN_PROFILE_NAME@ cut down to the route @alg@ -> @backend@. */
#ifndef MERLIN_GENERATED_PROFILE_H
#define MERLIN_GENERATED_PROFILE_H

#define MERLIN_PROFILE_NAME \"@MERLIN_PROFILE_NAME@\"

#define MERLIN_ROUTE_@alg_enum@_@backend_enum@ 1

#define MERLIN_USE_@backend_enum@ 1
@SZ_OPTION_LINES@

#endif
" @ONLY)
      file(CONFIGURE OUTPUT "${pdir}/registry.c" CONTENT
"/* Generated by cmake/MerlinImage.cmake (MERLIN_SIZES): @backend@ only. */
#include \"mcore.h\"

extern const mcore_backend mbe_@backend_c@_backend;
const mcore_backend *const mcore_backends[] = {&mbe_@backend_c@_backend};
const size_t mcore_n_backends = 1;
" @ONLY)
      if(backend IN_LIST MERLIN_SIZES_EXACT)
        # The backend configured for this algorithm alone: its own library
        # and adapter targets, outside `all` like everything here.
        get_property(sz_before DIRECTORY PROPERTY BUILDSYSTEM_TARGETS)
        set(sz_saved_routes "${MERLIN_PROFILE_ROUTES}")
        set(MERLIN_PROFILE_ROUTES "${route}")
        set(MERLIN_BACKEND_SUFFIX "_sz${sz_index}")
        merlin_backend_serves(${backend})
        include("${CMAKE_SOURCE_DIR}/src/backends/${backend}/backend.cmake")
        set(MERLIN_PROFILE_ROUTES "${sz_saved_routes}")
        unset(MERLIN_BACKEND_SUFFIX)
        set(adapter "merlin_backend_${backend}_sz${sz_index}")
        if(NOT TARGET ${adapter})
          message(FATAL_ERROR "MERLIN_SIZES: ${backend}/backend.cmake does "
                              "not honour MERLIN_BACKEND_SUFFIX")
        endif()
        get_property(sz_after DIRECTORY PROPERTY BUILDSYSTEM_TARGETS)
        list(REMOVE_ITEM sz_after ${sz_before})
        set_property(TARGET ${sz_after} PROPERTY EXCLUDE_FROM_ALL TRUE)
      else()
        # The profile's adapter target compiled again, against this pair's
        # merlin_profile.h (first on the include path). Its own include
        # directories become SYSTEM ones: a backend.cmake may have declared
        # some SYSTEM PRIVATE, which no property records, and warnings are
        # checked by the ordinary image build anyway. A backend whose
        # adapter checks MERLIN_<BACKEND>_HAS_<ALG> against the routes in
        # both directions (pqclean) keeps only this pair's.
        set(adapter "merlin_sz_adapter_${sz_index}")
        set(orig "merlin_backend_${backend}")
        get_target_property(srcs ${orig} SOURCES)
        add_library(${adapter} OBJECT ${srcs})
        foreach(prop COMPILE_OPTIONS LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
          get_target_property(value ${orig} ${prop})
          if(value)
            set_property(TARGET ${adapter} PROPERTY ${prop} "${value}")
          endif()
        endforeach()
        get_target_property(defs ${orig} COMPILE_DEFINITIONS)
        if(defs)
          set(kept "")
          foreach(def IN LISTS defs)
            if(def MATCHES "^MERLIN_${backend_enum}_HAS_([A-Z0-9_]+)=" AND
               NOT CMAKE_MATCH_1 STREQUAL alg_enum)
              continue()
            endif()
            list(APPEND kept "${def}")
          endforeach()
          set_property(TARGET ${adapter} PROPERTY COMPILE_DEFINITIONS
                       "${kept}")
        endif()
        get_target_property(dirs ${orig} INCLUDE_DIRECTORIES)
        if(dirs)
          target_include_directories(${adapter} SYSTEM PRIVATE ${dirs})
        endif()
        set_property(TARGET ${adapter} PROPERTY EXCLUDE_FROM_ALL TRUE)
      endif()
      target_include_directories(${adapter} BEFORE PRIVATE "${pdir}")
      # Warnings stay warnings here, -Werror is the ordinary build's job: an
      # adapter compiled for one route can warn where the benchmark image
      # does not (pqclean's adapter_mldsa.c beside an ML-KEM route only;
      # the Mbed TLS adapter with ecdsa-p256 alone, whose keypair_agree is
      # then unused), and the size images must build wherever that image
      # does.
      get_target_property(opts ${adapter} COMPILE_OPTIONS)
      if(opts)
        list(REMOVE_ITEM opts -Werror)
        set_property(TARGET ${adapter} PROPERTY COMPILE_OPTIONS "${opts}")
      endif()
    endif()

    add_executable(${target} $<TARGET_OBJECTS:merlin_sz_core>
                   "${pdir}/registry.c")
    set_target_properties(${target} PROPERTIES EXCLUDE_FROM_ALL TRUE
      OUTPUT_NAME image SUFFIX "${MERLIN_IMAGE_SUFFIX}"
      RUNTIME_OUTPUT_DIRECTORY "${pdir}")
    if(sz_link_depends)
      set_property(TARGET ${target} PROPERTY LINK_DEPENDS "${sz_link_depends}")
    endif()
    target_compile_options(${target} PRIVATE ${MERLIN_WARNINGS})
    target_link_libraries(${target} PRIVATE merlin_headers ${adapter}
                          ${MERLIN_PORT_LINK})
    target_link_options(${target} PRIVATE ${sz_link_options}
      -Wl,--gc-sections "-Wl,-Map=${pdir}/image.map")
    string(APPEND SZ_MANIFEST "${kind}\t${alg}\t${backend}\t${target}\t"
           "${tag}/image${MERLIN_IMAGE_SUFFIX}\t${tag}/image.map\n")
    list(APPEND SZ_TARGETS ${target})
    math(EXPR sz_index "${sz_index} + 1")
  endforeach()
  file(CONFIGURE OUTPUT "${SZ_DIR}/manifest.txt" CONTENT "${SZ_MANIFEST}")
  add_custom_target(merlin-sizes)
  add_dependencies(merlin-sizes ${SZ_TARGETS})
endif()
