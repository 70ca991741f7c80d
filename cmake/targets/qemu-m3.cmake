# SPDX-License-Identifier: Apache-2.0
# QEMU mps2-an385 (Cortex-M3, no FPU).
set(MERLIN_CORE cortex-m3)
set(MERLIN_PORT_SOURCES
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/startup.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/semihost.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/syscalls.c
  ${CMAKE_SOURCE_DIR}/src/ports/qemu-mps2/board_mps2.c)
set(MERLIN_PORT_INCLUDES ${CMAKE_SOURCE_DIR}/src/ports/cortexm)
set(MERLIN_PORT_DEFINES MERLIN_TARGET_ID="qemu-m3" MERLIN_CORE="cortex-m3")
set(MERLIN_LINKER_SCRIPT ${CMAKE_SOURCE_DIR}/src/ports/qemu-mps2/mps2.ld)
set(MERLIN_IMAGE_SUFFIX ".elf")
