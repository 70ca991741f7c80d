# SPDX-License-Identifier: Apache-2.0
# The target's descriptor, boards/${MERLIN_TARGET}.board (docs/boards.md
# "Targets"), read into CMake variables: MERLIN_T_<key> for every key, and
# what the image build uses (MERLIN_CORE, MERLIN_PORT_SOURCES,
# MERLIN_PORT_INCLUDES, MERLIN_PORT_DEFINES, MERLIN_LINKER_SCRIPT,
# MERLIN_PORT_LINK, MERLIN_IMAGE_SUFFIX). Included twice: by the top
# CMakeLists.txt before project() (toolchain and CPU flags), and by
# cmake/MerlinImage.cmake (the port). The host CLI reads the same file
# (host/config/boards.c), which checks it strictly; here only its lines are
# split.
set(merlin_desc "${CMAKE_CURRENT_LIST_DIR}/../boards/${MERLIN_TARGET}.board")
if(NOT EXISTS "${merlin_desc}")
  message(FATAL_ERROR "unknown MERLIN_TARGET '${MERLIN_TARGET}': no "
                      "boards/${MERLIN_TARGET}.board")
endif()
file(STRINGS "${merlin_desc}" merlin_lines)
foreach(line IN LISTS merlin_lines)
  if(line MATCHES "^[ \t]*([a-z_]+)[ \t]*=[ \t]*(.*[^ \t])[ \t]*$")
    set(MERLIN_T_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  endif()
endforeach()
if(NOT MERLIN_T_kind)
  message(FATAL_ERROR "boards/${MERLIN_TARGET}.board describes a part, not a "
                      "target (no 'kind')")
endif()

# Space-separated paths of the descriptor, relative to the tree, made
# absolute.
function(merlin_tree_paths out value)
  separate_arguments(items UNIX_COMMAND "${value}")
  set(paths "")
  get_filename_component(root "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/.." ABSOLUTE)
  foreach(item IN LISTS items)
    list(APPEND paths "${root}/${item}")
  endforeach()
  set(${out} "${paths}" PARENT_SCOPE)
endfunction()

if(MERLIN_T_kind MATCHES "^(native|qemu-user)$")
  set(MERLIN_IMAGE_SUFFIX "")
else()
  set(MERLIN_CORE "${MERLIN_T_core}")
  set(MERLIN_IMAGE_SUFFIX ".elf")
  # The part's facts, stated once in the descriptor, for the port's
  # mport_part (src/ports/port.h).
  set(MERLIN_PORT_DEFINES MERLIN_TARGET_ID="${MERLIN_TARGET}"
      MERLIN_CORE="${MERLIN_T_core}" MERLIN_PART_CLOCK_HZ=${MERLIN_T_clock_hz}u
      MERLIN_PART_FLASH_BYTES=${MERLIN_T_flash_bytes}u
      MERLIN_PART_RAM_BYTES=${MERLIN_T_ram_bytes}u)
  if(MERLIN_T_port_defines)
    separate_arguments(extra UNIX_COMMAND "${MERLIN_T_port_defines}")
    list(APPEND MERLIN_PORT_DEFINES ${extra})
  endif()
endif()
merlin_tree_paths(MERLIN_PORT_SOURCES "${MERLIN_T_port_sources}")
merlin_tree_paths(MERLIN_PORT_INCLUDES "${MERLIN_T_port_includes}")
if(MERLIN_T_linker_script)
  merlin_tree_paths(MERLIN_LINKER_SCRIPT "${MERLIN_T_linker_script}")
endif()
merlin_tree_paths(merlin_link_dirs "${MERLIN_T_link_dirs}")
set(MERLIN_PORT_LINK "")
foreach(dir IN LISTS merlin_link_dirs)
  list(APPEND MERLIN_PORT_LINK "-L${dir}")
endforeach()
