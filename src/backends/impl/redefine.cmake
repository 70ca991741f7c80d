# SPDX-License-Identifier: Apache-2.0
# cmake -DNM=nm -DIN=obj -DOUT=file -DPREFIX=p -P redefine.cmake: an objcopy
# --redefine-syms list renaming every global symbol obj defines to
# <PREFIX><name> (src/backends/impl/common.cmake: a checkout's common code
# under names of its own).
execute_process(COMMAND "${NM}" -g --defined-only "${IN}"
                OUTPUT_VARIABLE out RESULT_VARIABLE rv)
if(NOT rv EQUAL 0)
  message(FATAL_ERROR "${NM} ${IN} failed (${rv})")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(text "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([A-Za-z_.][A-Za-z0-9_.$]*)$")
    string(APPEND text "${CMAKE_MATCH_1} ${PREFIX}${CMAKE_MATCH_1}\n")
  endif()
endforeach()
file(WRITE "${OUT}" "${text}")
