# SPDX-License-Identifier: Apache-2.0
# QEMU mps3-an547 (Cortex-M55 with MVE and FPU, Corstone SSE-300). The image
# runs in the Secure state the core resets into (the SAU stays off); memory
# map and counter in src/ports/qemu-mps3/ (QEMU hw/arm/mps2-tz.c,
# hw/arm/armsse.c).
set(MERLIN_CORE cortex-m55)
set(MERLIN_PORT_SOURCES
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/startup.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/semihost.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/syscalls.c
  ${CMAKE_SOURCE_DIR}/src/ports/qemu-mps3/board_an547.c)
set(MERLIN_PORT_INCLUDES ${CMAKE_SOURCE_DIR}/src/ports/cortexm)
# 0x70000000 is the Secure alias of the DDR here: the injected bus fault
# (--inject-fault busfault) reads the hole after the 512 KB ITCM instead.
set(MERLIN_PORT_DEFINES MERLIN_TARGET_ID="qemu-m55" MERLIN_CORE="cortex-m55"
  CM_TEST_UNMAPPED_ADDR=0x10080000u)
set(MERLIN_LINKER_SCRIPT ${CMAKE_SOURCE_DIR}/src/ports/qemu-mps3/mps3-an547.ld)
set(MERLIN_IMAGE_SUFFIX ".elf")
