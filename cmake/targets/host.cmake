# SPDX-License-Identifier: Apache-2.0
# The host (Linux) target: the image is a plain executable.
set(MERLIN_PORT_SOURCES ${CMAKE_SOURCE_DIR}/src/ports/host/port_host.c)
set(MERLIN_PORT_INCLUDES "")
set(MERLIN_IMAGE_SUFFIX "")
set(MERLIN_PORT_LINK "")
