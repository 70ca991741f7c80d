# SPDX-License-Identifier: Apache-2.0
# nRF5340 DK application core (Cortex-M33 at 128 MHz): a real board, built
# here and flashed by the user (README "Real boards", docs/targets.md).
set(MERLIN_CORE cortex-m33)
set(BRD ${CMAKE_SOURCE_DIR}/src/ports/boards)
set(MERLIN_PORT_SOURCES
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/startup.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/syscalls.c
  ${BRD}/common/nosemihost.c ${BRD}/common/dwt.c ${BRD}/common/clockcheck.c
  ${BRD}/nrf5340dk-app/board_nrf5340.c)
set(MERLIN_PORT_INCLUDES ${CMAKE_SOURCE_DIR}/src/ports/cortexm ${BRD}/common)
set(MERLIN_PORT_DEFINES MERLIN_TARGET_ID="nrf5340dk-app" MERLIN_CORE="cortex-m33")
set(MERLIN_LINKER_SCRIPT ${BRD}/nrf5340dk-app/nrf5340-app.ld)
set(MERLIN_PORT_LINK -L${BRD}/common)
set(MERLIN_IMAGE_SUFFIX ".elf")
include(${BRD}/common/board-image.cmake)
