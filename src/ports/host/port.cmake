# SPDX-License-Identifier: Apache-2.0
# The host (Linux) target's extra build steps (cmake_include of
# boards/host.board): the image is a plain executable.
# The runner runs on a thread whose stack the port owns (guard page, stack
# meter): src/ports/host/port_host.c.
find_package(Threads REQUIRED)
set(MERLIN_PORT_LINK Threads::Threads)

# A merlin built with MERLIN_SANITIZE builds its host images with ASan and
# UBSan as well (every source: the harness and the libraries).
if(MERLIN_SANITIZE)
  add_compile_options(${MERLIN_SANITIZE_FLAGS})
  add_link_options(${MERLIN_SANITIZE_FLAGS})
endif()
