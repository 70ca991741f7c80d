# SPDX-License-Identifier: Apache-2.0
# QEMU mps2-an505 (Cortex-M33 with FPU and DSP, TrustZone). The image runs
# in the Secure state the core resets into (the SAU stays off, so every
# address is Secure): code and data in the Secure aliases of the SSRAMs
# (mps2-an505.ld). The IoT Kit's peripherals differ from the other mps2
# machines: UART0 at 0x40200000, TIMER0 at 0x40000000 on IRQ 3, clocked at
# 20 MHz (QEMU hw/arm/mps2-tz.c, hw/arm/armsse.c).
set(MERLIN_CORE cortex-m33)
set(MERLIN_PORT_SOURCES
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/startup.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/semihost.c
  ${CMAKE_SOURCE_DIR}/src/ports/cortexm/syscalls.c
  ${CMAKE_SOURCE_DIR}/src/ports/qemu-mps2/board_mps2.c)
set(MERLIN_PORT_INCLUDES ${CMAKE_SOURCE_DIR}/src/ports/cortexm)
set(MERLIN_PORT_DEFINES MERLIN_TARGET_ID="qemu-m33" MERLIN_CORE="cortex-m33"
  MPS2_UART0_BASE=0x40200000u MPS2_TIMER0_BASE=0x40000000u
  MPS2_TIMER0_IRQ=3u MPS2_SYSCLK_HZ=20000000u)
set(MERLIN_LINKER_SCRIPT ${CMAKE_SOURCE_DIR}/src/ports/qemu-mps2/mps2-an505.ld)
set(MERLIN_IMAGE_SUFFIX ".elf")
