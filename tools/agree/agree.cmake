# SPDX-License-Identifier: Apache-2.0
# The agree image (merlin agree, docs/operations.md): a library's own
# benchmark program built from the pinned sources in third_party/ with the
# library configured exactly as Merlin's images configure it (the same
# backend.cmake, user_settings.h, mbedtls_config.h), on the same port
# (startup, console, counter) as Merlin's image of the target. Included by
# the top-level CMakeLists.txt after cmake/MerlinImage.cmake when
# MERLIN_AGREE names the library: wolfcrypt or mbedtls.
#
# The benchmark program is compiled as the library ships it; what it needs
# from a platform comes through its documented configuration points
# (wolfSSL: WOLFSSL_USER_CURRTIME, NO_MAIN_FUNCTION, BENCH_EMBEDDED,
# USE_CERT_BUFFERS_*; Mbed TLS:
# MBEDTLS_USER_CONFIG_FILE with MBEDTLS_TIMING_ALT and the platform's
# printf/exit hooks). The one workaround: Mbed TLS's benchmark.c defines
# main(), which the port's startup owns, so it is compiled with
# -Dmain=merlin_agree_mbedtls_main.
set(AGREE_DIR "${CMAKE_SOURCE_DIR}/tools/agree")
if(NOT MERLIN_AGREE MATCHES "^(wolfcrypt|mbedtls)$")
  message(FATAL_ERROR "MERLIN_AGREE='${MERLIN_AGREE}': use wolfcrypt or mbedtls")
endif()
if(NOT TARGET merlin_backend_${MERLIN_AGREE})
  message(FATAL_ERROR "MERLIN_AGREE=${MERLIN_AGREE}: the profile routes "
                      "nothing to ${MERLIN_AGREE}")
endif()

if(MERLIN_LINKER_SCRIPT)
  set(AGREE_BARE 1)
else()
  set(AGREE_BARE 0)
endif()

# The port and the harness services it calls (wire writer for fault
# reports, the allocator and the random stream the libraries' hooks use);
# the "runner" of this image is tools/agree/agree_main.c.
add_executable(merlin-agree
  ${AGREE_DIR}/agree_main.c
  ${AGREE_DIR}/agree_${MERLIN_AGREE}.c
  ${MERLIN_PORT_SOURCES}
  ${CMAKE_SOURCE_DIR}/src/wire/wire_out.c
  ${CMAKE_SOURCE_DIR}/src/core/crc32.c
  ${CMAKE_SOURCE_DIR}/src/core/rng.c
  ${CMAKE_SOURCE_DIR}/src/core/alloc.c
  ${CMAKE_SOURCE_DIR}/src/core/stackmeter.c)
set_target_properties(merlin-agree PROPERTIES SUFFIX "${MERLIN_IMAGE_SUFFIX}")
target_compile_definitions(merlin-agree PRIVATE ${MERLIN_PORT_DEFINES}
                           MERLIN_AGREE_BARE=${AGREE_BARE}
                           MERLIN_AGREE_LIBRARY="${MERLIN_AGREE}")
set_source_files_properties(${AGREE_DIR}/agree_main.c
  ${AGREE_DIR}/agree_${MERLIN_AGREE}.c PROPERTIES COMPILE_OPTIONS
  "${MERLIN_WARNINGS}")
target_link_libraries(merlin-agree PRIVATE merlin_headers ${MERLIN_PORT_LINK})
add_dependencies(merlin-agree merlin_source_rev)

if(MERLIN_AGREE STREQUAL "wolfcrypt")
  set(bench "${WOLFSSL_DIR}/wolfcrypt/benchmark/benchmark.c")
  target_sources(merlin-agree PRIVATE ${bench})
  # benchmark.c refers to everything user_settings.h enables; the files of
  # algorithms the agree profile leaves out (Ascon, SLH-DSA) are compiled
  # here with the same settings.
  foreach(file ascon.c wc_slhdsa.c)
    if(NOT "${WC}/${file}" IN_LIST WOLFSSL_SOURCES)
      target_sources(merlin-agree PRIVATE "${WC}/${file}")
    endif()
  endforeach()
  target_link_libraries(merlin-agree PRIVATE wolfssl_lib)
  # Benchmark-only settings (benchmark.c reads them; the library does
  # not): no main() of its own, the RSA and ECC
  # test keys compiled in (no file system), and on a bare-metal target
  # the embedded sizes and current_time() from tools/agree.
  set(bench_defs NO_MAIN_FUNCTION USE_CERT_BUFFERS_2048 USE_CERT_BUFFERS_256)
  if(AGREE_BARE)
    list(APPEND bench_defs BENCH_EMBEDDED WOLFSSL_USER_CURRTIME)
  else()
    # The program uses POSIX clocks; the image builds as strict C11.
    list(APPEND bench_defs _GNU_SOURCE)
  endif()
  set_source_files_properties(${bench} PROPERTIES COMPILE_DEFINITIONS
                              "${bench_defs}")
  target_include_directories(merlin-agree PRIVATE
                             "${WOLFSSL_DIR}/wolfcrypt/benchmark")
else()
  set(bench "${MBEDTLS_DIR}/programs/test/benchmark.c")
  target_sources(merlin-agree PRIVATE ${bench})
  target_link_libraries(merlin-agree PRIVATE ${MBEDTLS_LIB})
  set_source_files_properties(${bench} PROPERTIES COMPILE_DEFINITIONS
                              "main=merlin_agree_mbedtls_main")
  # Added to Merlin's mbedtls_config.h for the library and the program:
  # MBEDTLS_HAVE_TIME, which the program needs, and what it needs to
  # benchmark RSA (MBEDTLS_GENPRIME); on a bare-metal target the timing,
  # printf and exit hooks (agree_mbedtls_config.h says why none of them
  # changes the code of an operation).
  target_compile_definitions(${MBEDTLS_LIB} PUBLIC
    MBEDTLS_USER_CONFIG_FILE="${AGREE_DIR}/agree_mbedtls_config.h"
    MERLIN_AGREE_BARE=${AGREE_BARE})
endif()

if(MERLIN_LINKER_SCRIPT)
  # nano.specs leaves %f out of printf unless asked: wolfCrypt's benchmark
  # prints its figures with %f.
  target_link_options(merlin-agree PRIVATE -T${MERLIN_LINKER_SCRIPT}
    -Wl,--gc-sections -Wl,--no-warn-rwx-segments -u _printf_float)
  set_target_properties(merlin-agree PROPERTIES LINK_DEPENDS
                        ${MERLIN_LINKER_SCRIPT})
else()
  target_link_options(merlin-agree PRIVATE -Wl,--gc-sections)
endif()
