# SPDX-License-Identifier: Apache-2.0
# The RP2040's extra build steps (cmake_include of boards/rp2040-pico.board):
# the second-stage boot loader, assembled and sealed with the bootrom's
# CRC-32 (scripts/rp2040-image.mjs), linked in as a port source; the .hex and
# .bin outputs of every board; and a UF2 for the RPI-RP2 drive.
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
list(APPEND MERLIN_PORT_SOURCES ${RP_GEN}/boot2_blob.c)
include(${BRD}/common/board-image.cmake)
function(merlin_rp2040_uf2)
  add_custom_command(TARGET merlin-image POST_BUILD
    COMMAND ${MERLIN_NODE} ${CMAKE_SOURCE_DIR}/scripts/rp2040-image.mjs uf2
            ${CMAKE_BINARY_DIR}/merlin-image.bin 0x10000000
            ${CMAKE_BINARY_DIR}/merlin-image.uf2
    VERBATIM)
endfunction()
cmake_language(DEFER CALL merlin_rp2040_uf2)
