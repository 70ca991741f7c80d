# SPDX-License-Identifier: Apache-2.0
# NUCLEO-F439ZI (STM32F439ZI, Cortex-M4F at 168 MHz): a real board, built
# here and flashed by the user (README "Real boards", docs/targets.md).
set(MERLIN_CORE cortex-m4)
set(BRD ${CMAKE_SOURCE_DIR}/src/ports/boards)
set(MERLIN_PORT_SOURCES
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/startup.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/syscalls.c
  ${BRD}/common/nosemihost.c ${BRD}/common/dwt.c ${BRD}/common/clockcheck.c
  ${BRD}/nucleo-f439zi/board_f439.c)
set(MERLIN_PORT_INCLUDES ${CMAKE_SOURCE_DIR}/src/ports/cortexm ${BRD}/common)
set(MERLIN_PORT_DEFINES MERLIN_TARGET_ID="nucleo-f439zi" MERLIN_CORE="cortex-m4")
set(MERLIN_LINKER_SCRIPT ${BRD}/nucleo-f439zi/f439zi.ld)
set(MERLIN_PORT_LINK -L${BRD}/common)
set(MERLIN_IMAGE_SUFFIX ".elf")
include(${BRD}/common/board-image.cmake)
