# SPDX-License-Identifier: Apache-2.0
# Included by a board's descriptor (cmake_include in boards/<board>.board): after the image links, write the
# forms the flashing tools take (merlin-image.hex for openocd, pyocd and
# nrfjprog; merlin-image.bin) and print its size into the build log.
function(merlin_board_outputs)
  add_custom_command(TARGET merlin-image POST_BUILD
    COMMAND ${CMAKE_OBJCOPY} -O ihex $<TARGET_FILE:merlin-image>
            ${CMAKE_BINARY_DIR}/merlin-image.hex
    COMMAND ${CMAKE_OBJCOPY} -O binary $<TARGET_FILE:merlin-image>
            ${CMAKE_BINARY_DIR}/merlin-image.bin
    VERBATIM)
endfunction()
cmake_language(DEFER CALL merlin_board_outputs)
