# SPDX-License-Identifier: Apache-2.0
# Raspberry Pi Pico (RP2040, Cortex-M0+ at 133 MHz): a real board, built
# here and flashed by the user (README "Real boards", docs/targets.md). The
# image starts with our 256-byte second-stage boot (boot2.S), assembled on
# its own and sealed with the CRC-32 the bootrom checks by
# scripts/rp2040-image.mjs; the same script writes merlin-image.uf2.
set(MERLIN_CORE cortex-m0plus)
set(BRD ${CMAKE_SOURCE_DIR}/src/ports/boards)
find_program(MERLIN_NODE node REQUIRED)
set(RP_GEN ${CMAKE_BINARY_DIR}/generated)
add_custom_command(
  OUTPUT ${RP_GEN}/boot2_blob.c
  COMMAND ${CMAKE_C_COMPILER} -mcpu=cortex-m0plus -mthumb -c
          ${BRD}/rp2040-pico/boot2.S -o ${RP_GEN}/boot2.o
  COMMAND ${CMAKE_OBJCOPY} -O binary -j .text ${RP_GEN}/boot2.o
          ${RP_GEN}/boot2.bin
  COMMAND ${MERLIN_NODE} ${CMAKE_SOURCE_DIR}/scripts/rp2040-image.mjs boot2
          ${RP_GEN}/boot2.bin ${RP_GEN}/boot2_blob.c
  DEPENDS ${BRD}/rp2040-pico/boot2.S
          ${CMAKE_SOURCE_DIR}/scripts/rp2040-image.mjs
  VERBATIM)
set(MERLIN_PORT_SOURCES
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/startup.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/syscalls.c
  ${BRD}/common/nosemihost.c ${BRD}/common/clockcheck.c
  ${BRD}/rp2040-pico/board_rp2040.c ${RP_GEN}/boot2_blob.c)
set(MERLIN_PORT_INCLUDES ${CMAKE_SOURCE_DIR}/src/ports/cortexm ${BRD}/common)
set(MERLIN_PORT_DEFINES MERLIN_TARGET_ID="rp2040-pico" MERLIN_CORE="cortex-m0plus")
set(MERLIN_LINKER_SCRIPT ${BRD}/rp2040-pico/rp2040.ld)
set(MERLIN_PORT_LINK -L${BRD}/common)
set(MERLIN_IMAGE_SUFFIX ".elf")
include(${BRD}/common/board-image.cmake)
function(merlin_rp2040_uf2)
  add_custom_command(TARGET merlin-image POST_BUILD
    COMMAND ${MERLIN_NODE} ${CMAKE_SOURCE_DIR}/scripts/rp2040-image.mjs uf2
            ${CMAKE_BINARY_DIR}/merlin-image.bin 0x10000000
            ${CMAKE_BINARY_DIR}/merlin-image.uf2
    VERBATIM)
endfunction()
cmake_language(DEFER CALL merlin_rp2040_uf2)
