# SPDX-License-Identifier: Apache-2.0
# cmake -DNM=nm -DIN=obj -DOUT=file -DPREFIX=p -P redefine.cmake: an objcopy
# --redefine-syms list renaming every global symbol obj defines to
# <PREFIX><name> (src/backends/impl/common.cmake: a checkout's common code
# under names of its own). With -DTEXT_ONLY=1: every function (global or
# local) of the objects IN lists ('|' between them), none when it lists
# none (cmake/MerlinImpl.cmake: a folder's own hashing files).
string(REPLACE "|" ";" IN "${IN}")
set(text "")
if(TEXT_ONLY)
  set(args --defined-only)
else()
  set(args -g --defined-only)
endif()
foreach(obj IN LISTS IN)
  execute_process(COMMAND "${NM}" ${args} "${obj}"
                  OUTPUT_VARIABLE out RESULT_VARIABLE rv)
  if(NOT rv EQUAL 0)
    message(FATAL_ERROR "${NM} ${obj} failed (${rv})")
  endif()
  string(REPLACE "\n" ";" lines "${out}")
  foreach(line IN LISTS lines)
    if(TEXT_ONLY AND NOT line MATCHES "^[0-9a-fA-F]* *[Tt] ")
      continue()
    endif()
    if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([A-Za-z_.][A-Za-z0-9_.$]*)$")
      string(APPEND text "${CMAKE_MATCH_1} ${PREFIX}${CMAKE_MATCH_1}\n")
    endif()
  endforeach()
endforeach()
file(WRITE "${OUT}" "${text}")
