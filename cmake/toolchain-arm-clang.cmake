# SPDX-License-Identifier: Apache-2.0
# clang for Cortex-M (MERLIN_CC=clang), included by
# toolchain-arm-none-eabi.cmake. clang compiles for --target=arm-none-eabi
# against the newlib headers of Debian's libnewlib-arm-none-eabi, with
# -fshort-enums to match newlib's ABI (arm-none-eabi-gcc's default);
# arm-none-eabi-gcc links, so newlib, nano.specs and libgcc of the matching
# multilib are the ones a gcc image links. clang-newlib/ holds two wrapper
# headers for newlib/clang mismatches (see the files).
separate_arguments(merlin_cpu_list UNIX_COMMAND "${MERLIN_CPU_FLAGS}")
execute_process(COMMAND arm-none-eabi-gcc ${merlin_cpu_list} -print-file-name=libc.a
                OUTPUT_VARIABLE merlin_libc OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE merlin_rc)
execute_process(COMMAND arm-none-eabi-gcc ${merlin_cpu_list} -print-multi-directory
                OUTPUT_VARIABLE merlin_multi OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT merlin_rc EQUAL 0 OR NOT IS_ABSOLUTE "${merlin_libc}")
  message(FATAL_ERROR "MERLIN_CC=clang needs arm-none-eabi-gcc and newlib to "
    "find the sysroot (arm-none-eabi-gcc -print-file-name=libc.a gave "
    "'${merlin_libc}'): run scripts/setup")
endif()
# <sysroot>/lib/<multilib>/libc.a -> <sysroot>
get_filename_component(merlin_sysroot "${merlin_libc}" DIRECTORY)
if(NOT merlin_multi STREQUAL ".")
  string(REGEX REPLACE "[^/]+" ".." merlin_up "${merlin_multi}")
  get_filename_component(merlin_sysroot "${merlin_sysroot}/${merlin_up}"
                         ABSOLUTE)
endif()
get_filename_component(merlin_sysroot "${merlin_sysroot}/.." ABSOLUTE)
if(NOT EXISTS "${merlin_sysroot}/include/stdlib.h")
  message(FATAL_ERROR "MERLIN_CC=clang: no newlib headers in "
    "${merlin_sysroot}/include (from ${merlin_libc}): install "
    "libnewlib-arm-none-eabi (scripts/setup)")
endif()
# The driver: a clang driver's path (MERLIN_CC), else the one the target
# names (boards/<id>.board 'clang'), else clang-19, Debian 12's newest, on
# every target (docs/targets.md "Compilers").
if(MERLIN_CC MATCHES "^/")
  set(MERLIN_CLANG_NAME "${MERLIN_CC}")
elseif(NOT MERLIN_CLANG_NAME)
  set(MERLIN_CLANG_NAME clang-19)
endif()
if(NOT MERLIN_CLANG_CPU_FLAGS)
  set(MERLIN_CLANG_CPU_FLAGS "${MERLIN_CPU_FLAGS}")
endif()
if(MERLIN_CC MATCHES "^/")
  set(MERLIN_CLANG "${MERLIN_CC}")
else()
  find_program(MERLIN_CLANG ${MERLIN_CLANG_NAME})
endif()
if(NOT MERLIN_CLANG)
  message(FATAL_ERROR "MERLIN_CC=clang but ${MERLIN_CLANG_NAME} is not "
    "installed: run scripts/setup test (Debian package ${MERLIN_CLANG_NAME})")
endif()
set(CMAKE_C_COMPILER "${MERLIN_CLANG}")
set(CMAKE_ASM_COMPILER "${MERLIN_CLANG}")
set(CMAKE_C_COMPILER_TARGET arm-none-eabi)
set(CMAKE_ASM_COMPILER_TARGET arm-none-eabi)
set(MERLIN_CLANG_FLAGS
    "${MERLIN_CLANG_CPU_FLAGS} -fshort-enums --sysroot=${merlin_sysroot} -isystem ${CMAKE_CURRENT_LIST_DIR}/clang-newlib")
set(CMAKE_C_FLAGS_INIT "${MERLIN_CLANG_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${MERLIN_CLANG_FLAGS}")
# Link with the GNU driver: the clang-only compile flags stay out of it.
# clang objects carry .note.GNU-stack and newlib's do not: say it, or ld
# warns about an executable stack.
string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -Wl,-z,noexecstack")
set(CMAKE_C_LINK_EXECUTABLE
    "arm-none-eabi-gcc ${MERLIN_CPU_FLAGS} <CMAKE_C_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
