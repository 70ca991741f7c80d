# SPDX-License-Identifier: Apache-2.0
# PQClean (npm package `pqclean`, C sources under deps/PQClean): the "clean"
# portable C implementations. Library code is compiled as is; only
# randombytes is ours (adapter.c) and malloc in common/fips202.c is routed to
# the harness allocator by a compile definition (configured, not patched).
set(PQCLEAN_DIR "${MERLIN_THIRD_PARTY}/pqclean/deps/PQClean")
if(NOT EXISTS "${PQCLEAN_DIR}/common/fips202.c")
  message(FATAL_ERROR "PQClean sources not found in ${PQCLEAN_DIR}: run scripts/fetch-deps")
endif()

set(PQCLEAN_SCHEMES "")
if(MERLIN_PROFILE_ROUTES MATCHES "ml-kem-512:pqclean")
  list(APPEND PQCLEAN_SCHEMES crypto_kem/ml-kem-512/clean)
endif()

set(PQCLEAN_SOURCES ${PQCLEAN_DIR}/common/fips202.c)
set(PQCLEAN_INCLUDES ${PQCLEAN_DIR}/common)
foreach(scheme IN LISTS PQCLEAN_SCHEMES)
  file(GLOB scheme_sources ${PQCLEAN_DIR}/${scheme}/*.c)
  list(APPEND PQCLEAN_SOURCES ${scheme_sources})
endforeach()

add_library(pqclean_lib STATIC ${PQCLEAN_SOURCES})
target_include_directories(pqclean_lib PRIVATE ${PQCLEAN_INCLUDES})
target_compile_definitions(pqclean_lib PRIVATE
  malloc=mcore_malloc free=mcore_free)
# fips202.c uses malloc without seeing our prototype; declare it.
target_compile_options(pqclean_lib PRIVATE
  -include ${CMAKE_SOURCE_DIR}/src/backends/pqclean/pqclean_alloc.h)

add_library(merlin_backend_pqclean OBJECT
  ${CMAKE_SOURCE_DIR}/src/backends/pqclean/adapter.c)
target_include_directories(merlin_backend_pqclean PRIVATE
  ${PQCLEAN_DIR}/common ${PQCLEAN_DIR})
target_compile_options(merlin_backend_pqclean PRIVATE ${MERLIN_WARNINGS})
target_compile_definitions(merlin_backend_pqclean PRIVATE
  MERLIN_PQCLEAN_VERSION="${MERLIN_DEP_PQCLEAN_VERSION}")
target_link_libraries(merlin_backend_pqclean PUBLIC merlin_headers pqclean_lib)
