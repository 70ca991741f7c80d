# SPDX-License-Identifier: Apache-2.0
# An ARMv6-M (Cortex-M0+) image run on QEMU mps2-an385: QEMU has no
# Cortex-M0/M0+ model, and its Cortex-M3 executes an ARMv6-M instruction stream
# exactly (ARMv6-M is a subset of ARMv7-M), with the an385's 4 MB of RAM. The
# counts are those of the M0+ instruction stream. The exception model at run
# time is the M3's, but an ARMv6-M build leaves SHCSR alone (startup.c), so
# every fault escalates to HardFault, as on a real M0+.
set(MERLIN_CORE cortex-m0plus)
set(MERLIN_PORT_SOURCES
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/startup.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/semihost.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/syscalls.c
  ${CMAKE_SOURCE_DIR}/src/ports/qemu-mps2/board_mps2.c)
set(MERLIN_PORT_INCLUDES ${CMAKE_SOURCE_DIR}/src/ports/cortexm)
set(MERLIN_PORT_DEFINES MERLIN_TARGET_ID="qemu-m0plus" MERLIN_CORE="cortex-m0plus")
set(MERLIN_LINKER_SCRIPT ${CMAKE_SOURCE_DIR}/src/ports/qemu-mps2/mps2.ld)
set(MERLIN_IMAGE_SUFFIX ".elf")
