# SPDX-License-Identifier: Apache-2.0
# NUCLEO-H573ZI (STM32H573ZI, Cortex-M33 at 250 MHz): a real board, built
# here and flashed by the user (README "Real boards", docs/targets.md).
set(MERLIN_CORE cortex-m33)
set(BRD ${CMAKE_SOURCE_DIR}/src/ports/boards)
set(MERLIN_PORT_SOURCES
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/startup.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/syscalls.c
  ${BRD}/common/nosemihost.c ${BRD}/common/dwt.c ${BRD}/common/clockcheck.c
  ${BRD}/nucleo-h573zi/board_h573.c)
set(MERLIN_PORT_INCLUDES ${CMAKE_SOURCE_DIR}/src/ports/cortexm ${BRD}/common)
set(MERLIN_PORT_DEFINES MERLIN_TARGET_ID="nucleo-h573zi" MERLIN_CORE="cortex-m33")
set(MERLIN_LINKER_SCRIPT ${BRD}/nucleo-h573zi/h573zi.ld)
set(MERLIN_PORT_LINK -L${BRD}/common)
set(MERLIN_IMAGE_SUFFIX ".elf")
include(${BRD}/common/board-image.cmake)
