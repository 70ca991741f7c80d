# SPDX-License-Identifier: Apache-2.0
# GNU Arm Embedded (Debian gcc-arm-none-eabi + libnewlib-arm-none-eabi).
# The CPU flags come from the preset (MERLIN_CPU_FLAGS) so one toolchain file
# serves every Cortex-M core.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
set(CMAKE_AR arm-none-eabi-ar)
set(CMAKE_RANLIB arm-none-eabi-ranlib)
set(CMAKE_SIZE arm-none-eabi-size)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

set(CMAKE_C_FLAGS_INIT "${MERLIN_CPU_FLAGS}")
set(CMAKE_ASM_FLAGS_INIT "${MERLIN_CPU_FLAGS}")
# Our own startup (src/ports/cortexm) replaces crt0.
set(CMAKE_EXE_LINKER_FLAGS_INIT "--specs=nano.specs -nostartfiles")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

# MERLIN_CC=clang (merlin run --cc clang) or a clang driver's path: clang
# compiles, the GNU toolchain links against newlib
# (cmake/toolchain-arm-clang.cmake). A gcc driver's path (merlin run --cc
# /opt/arm-gnu-toolchain/bin/arm-none-eabi-gcc): that toolchain compiles,
# assembles and links with its own newlib and libgcc, and its binutils
# beside it (arm-none-eabi-ar ...; from PATH when it has none).
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES MERLIN_CC MERLIN_CPU_FLAGS
     MERLIN_CLANG_NAME MERLIN_CLANG_CPU_FLAGS)
get_filename_component(merlin_cc_file "${MERLIN_CC}" NAME)
if(MERLIN_CC STREQUAL "clang" OR
   (MERLIN_CC MATCHES "^/" AND merlin_cc_file MATCHES "clang"))
  include("${CMAKE_CURRENT_LIST_DIR}/toolchain-arm-clang.cmake")
elseif(MERLIN_CC MATCHES "^/")
  set(CMAKE_C_COMPILER "${MERLIN_CC}")
  set(CMAKE_ASM_COMPILER "${MERLIN_CC}")
  get_filename_component(merlin_cc_dir "${MERLIN_CC}" DIRECTORY)
  string(REGEX REPLACE "gcc(-[0-9.]+)?$" "" merlin_cc_prefix "${merlin_cc_file}")
  foreach(tool ar ranlib size)
    string(TOUPPER "${tool}" TOOL)
    if(EXISTS "${merlin_cc_dir}/${merlin_cc_prefix}${tool}")
      set(CMAKE_${TOOL} "${merlin_cc_dir}/${merlin_cc_prefix}${tool}")
    endif()
  endforeach()
endif()
