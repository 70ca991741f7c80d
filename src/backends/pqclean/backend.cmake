# SPDX-License-Identifier: Apache-2.0
# PQClean (npm package `pqclean`, C sources under deps/PQClean): the "clean"
# portable C implementations of ML-KEM (FIPS 203), ML-DSA (FIPS 204) and
# SPHINCS+ round 3.1 (a pre-FIPS 205 baseline, not SLH-DSA).
#
# Library code is compiled as is. Only randombytes is ours (adapter.c), and
# malloc/free in common/fips202.c and common/sha2.c (incremental hash
# contexts, allocated on every call) are routed to the harness allocator by
# compile definitions, so their heap use is measured (configured, not
# patched). Both files call exit(111) when an allocation fails; on a target
# that ends the run with that status, which the host reports as a failure.
#
# Each parameter set is compiled only when MERLIN_PROFILE_ROUTES routes it
# here; MERLIN_PQCLEAN_HAS_<ALG> tells the adapter which ones were, and
# adapter.c fails the build when that disagrees with merlin_profile.h.
set(PQCLEAN_DIR "${MERLIN_THIRD_PARTY}/pqclean/deps/PQClean")
set(PQCLEAN_BACKEND_DIR "${CMAKE_SOURCE_DIR}/src/backends/pqclean")
if(NOT EXISTS "${PQCLEAN_DIR}/common/fips202.c")
  message(FATAL_ERROR "PQClean sources not found in ${PQCLEAN_DIR}: run scripts/fetch-deps")
endif()

# algorithm id | enum name (algs.def) | PQClean scheme folder | family
set(PQCLEAN_CATALOGUE
  "ml-kem-512|ML_KEM_512|crypto_kem/ml-kem-512/clean|mlkem"
  "ml-kem-768|ML_KEM_768|crypto_kem/ml-kem-768/clean|mlkem"
  "ml-kem-1024|ML_KEM_1024|crypto_kem/ml-kem-1024/clean|mlkem"
  "ml-dsa-44|ML_DSA_44|crypto_sign/ml-dsa-44/clean|mldsa"
  "ml-dsa-65|ML_DSA_65|crypto_sign/ml-dsa-65/clean|mldsa"
  "ml-dsa-87|ML_DSA_87|crypto_sign/ml-dsa-87/clean|mldsa"
  "sphincs-sha2-128s-simple-r3|SPHINCS_SHA2_128S_R3|crypto_sign/sphincs-sha2-128s-simple/clean|sphincs"
  "sphincs-sha2-128f-simple-r3|SPHINCS_SHA2_128F_R3|crypto_sign/sphincs-sha2-128f-simple/clean|sphincs"
  "sphincs-shake-128s-simple-r3|SPHINCS_SHAKE_128S_R3|crypto_sign/sphincs-shake-128s-simple/clean|sphincs"
  "sphincs-shake-128f-simple-r3|SPHINCS_SHAKE_128F_R3|crypto_sign/sphincs-shake-128f-simple/clean|sphincs")

set(PQCLEAN_SOURCES ${PQCLEAN_DIR}/common/fips202.c)
set(PQCLEAN_ADAPTER_SOURCES ${PQCLEAN_BACKEND_DIR}/adapter.c)
set(PQCLEAN_HAS_DEFINES "")
set(PQCLEAN_FAMILIES "")
set(PQCLEAN_NEEDS_SHA2 OFF)
foreach(entry IN LISTS PQCLEAN_CATALOGUE)
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 alg)
  list(GET fields 1 alg_enum)
  list(GET fields 2 scheme)
  list(GET fields 3 family)
  if(NOT "${alg}:pqclean" IN_LIST MERLIN_PROFILE_ROUTES)
    continue()
  endif()
  if(NOT EXISTS "${PQCLEAN_DIR}/${scheme}/api.h")
    message(FATAL_ERROR "PQClean has no ${scheme} (needed for ${alg})")
  endif()
  file(GLOB scheme_sources ${PQCLEAN_DIR}/${scheme}/*.c)
  list(APPEND PQCLEAN_SOURCES ${scheme_sources})
  list(APPEND PQCLEAN_HAS_DEFINES MERLIN_PQCLEAN_HAS_${alg_enum}=1)
  list(APPEND PQCLEAN_FAMILIES ${family})
  if(alg MATCHES "^sphincs-sha2-")
    set(PQCLEAN_NEEDS_SHA2 ON) # SPHINCS+-SHA2 hashes with common/sha2.c
  endif()
endforeach()
if(PQCLEAN_NEEDS_SHA2)
  list(APPEND PQCLEAN_SOURCES ${PQCLEAN_DIR}/common/sha2.c)
endif()
list(REMOVE_DUPLICATES PQCLEAN_FAMILIES)
foreach(family IN LISTS PQCLEAN_FAMILIES)
  list(APPEND PQCLEAN_ADAPTER_SOURCES
       ${PQCLEAN_BACKEND_DIR}/adapter_${family}.c)
endforeach()

add_library(pqclean_lib STATIC ${PQCLEAN_SOURCES})
target_include_directories(pqclean_lib PRIVATE ${PQCLEAN_DIR}/common)
target_compile_definitions(pqclean_lib PRIVATE
  malloc=mcore_malloc free=mcore_free)
# fips202.c and sha2.c use malloc without seeing our prototype; declare it.
target_compile_options(pqclean_lib PRIVATE
  -include ${PQCLEAN_BACKEND_DIR}/pqclean_alloc.h)

add_library(merlin_backend_pqclean OBJECT ${PQCLEAN_ADAPTER_SOURCES})
target_include_directories(merlin_backend_pqclean PRIVATE
  ${PQCLEAN_DIR}/common ${PQCLEAN_DIR} ${PQCLEAN_BACKEND_DIR})
target_compile_options(merlin_backend_pqclean PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(merlin_backend_pqclean PRIVATE
  MERLIN_PQCLEAN_VERSION="${MERLIN_DEP_PQCLEAN_VERSION}"
  ${PQCLEAN_HAS_DEFINES})
target_link_libraries(merlin_backend_pqclean PUBLIC merlin_headers pqclean_lib)
