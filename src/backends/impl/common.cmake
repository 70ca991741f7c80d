# SPDX-License-Identifier: Apache-2.0
# A checkout's own common code (docs/bring-your-own.md, "From a pqm4
# checkout"): MERLIN_IMPL_COMMON_<J>_DIRS, the directories of --impl-common
# or of a pqm4/mupq checkout (its common/, then mupq/common/), built into one
# object whose global symbols are renamed mbe_uc<J>_<name>, so that the
# folders built against it (and only they: their calls are renamed the
# same) share an image with the pinned PQClean common code of the rest.
#
# The files, as pqm4's mk/crypto.mk picks them: every *.c, *.s and *.S of
# the directories but the platform and test code (hal-*, *test*,
# randombytes.*: randombytes() is Merlin's, the known-answer DRBG); a file
# name (without its extension) is taken from the first directory that has
# it, so pqm4's common/keccakf1600.S comes before mupq's keccakf1600.c. An
# assembly file that does not assemble for this target (pqm4's Cortex-M4
# code on an ARMv6-M core or the host) takes its directory out for every
# name a later directory has too (mupq's C Keccak and AES then), and is
# dropped. What was taken is written to impl-common.txt for the run's
# provenance ("<J><TAB><file>;<file>..."). MERLIN_IMPL_COMMON_<J>_FILES, when
# set, names the files instead (the host reference build's side of a pqm4
# or mupq checkout: the portable C of mupq's mk/host-crypto.mk).
set(MBI_COMMON_FILE "${CMAKE_BINARY_DIR}/impl-common.txt")
file(WRITE "${MBI_COMMON_FILE}" "")

# Whether file f assembles for this target (into a scratch object).
function(mbi_assembles f dirs out)
  separate_arguments(flags UNIX_COMMAND "${CMAKE_ASM_FLAGS}")
  set(incs "")
  foreach(d IN LISTS dirs)
    list(APPEND incs "-I${d}")
  endforeach()
  execute_process(
    COMMAND ${CMAKE_ASM_COMPILER} ${flags} ${incs} -c "${f}"
            -o "${CMAKE_BINARY_DIR}/impl/asm-check.o"
    RESULT_VARIABLE rv OUTPUT_QUIET ERROR_QUIET)
  if(rv EQUAL 0)
    set(${out} 1 PARENT_SCOPE)
  else()
    set(${out} 0 PARENT_SCOPE)
  endif()
endfunction()

# The files of common code j (into MBI_UC_<j>_FILES).
function(mbi_common_files j)
  set(dirs ${MERLIN_IMPL_COMMON_${j}_DIRS})
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/impl")
  set(per_dir "") # "<dir index>|<stem>|<file>|<asm ok>"
  set(broken "")  # indexes of directories with assembly that fails here
  set(i 0)
  foreach(d IN LISTS dirs)
    file(GLOB files LIST_DIRECTORIES false "${d}/*.c" "${d}/*.s" "${d}/*.S")
    list(SORT files)
    foreach(f IN LISTS files)
      get_filename_component(name "${f}" NAME)
      if(name MATCHES "^(hal-.*|.*test.*|randombytes\\..*)$" OR
         NOT EXISTS "${f}")
        continue() # platform and test code, a dangling link
      endif()
      string(REGEX REPLACE "\\.[csS]$" "" stem "${name}")
      set(ok 1)
      if(name MATCHES "\\.[sS]$")
        mbi_assembles("${f}" "${dirs}" ok)
        if(NOT ok)
          list(APPEND broken ${i})
        endif()
      endif()
      list(APPEND per_dir "${i}|${stem}|${f}|${ok}")
    endforeach()
    math(EXPR i "${i} + 1")
  endforeach()
  set(taken "")
  set(chosen "")
  set(i 0)
  foreach(d IN LISTS dirs)
    set(here "")
    foreach(e IN LISTS per_dir)
      string(REPLACE "|" ";" e "${e}")
      list(GET e 0 di)
      list(GET e 1 stem)
      list(GET e 2 f)
      list(GET e 3 ok)
      if(NOT di EQUAL i OR stem IN_LIST taken OR NOT ok)
        continue()
      endif()
      if(i IN_LIST broken) # does a later directory have this name?
        set(later 0)
        foreach(e2 IN LISTS per_dir)
          string(REPLACE "|" ";" e2 "${e2}")
          list(GET e2 0 di2)
          list(GET e2 1 stem2)
          if(di2 GREATER i AND stem2 STREQUAL stem)
            set(later 1)
          endif()
        endforeach()
        if(later)
          continue()
        endif()
      endif()
      list(APPEND chosen "${f}")
      list(APPEND here "${stem}")
    endforeach()
    list(APPEND taken ${here})
    math(EXPR i "${i} + 1")
  endforeach()
  if(NOT chosen)
    message(FATAL_ERROR "impl common code ${j}: no source in ${dirs}")
  endif()
  set(MBI_UC_${j}_FILES "${chosen}" PARENT_SCOPE)
endfunction()

function(mbi_user_common j)
  if(MERLIN_IMPL_COMMON_${j}_FILES)
    # the files named (the host side of a pqm4/mupq checkout: mupq's
    # mk/host-crypto.mk, host/impl/impl_common.c)
    set(MBI_UC_${j}_FILES ${MERLIN_IMPL_COMMON_${j}_FILES})
  else()
    mbi_common_files(${j})
  endif()
  set(files ${MBI_UC_${j}_FILES})
  set(dirs ${MERLIN_IMPL_COMMON_${j}_DIRS})
  file(APPEND "${MBI_COMMON_FILE}" "${j}\t${files}\n")
  set(bdir "${CMAKE_BINARY_DIR}/impl/common${j}")
  file(MAKE_DIRECTORY "${bdir}")
  add_library(merlin_impl_ucommon${j}_obj OBJECT ${files})
  # the dialect its users write (pqm4: -std=gnu99), and PQClean's
  # allocations, if any, measured as the pinned common code's are
  set_target_properties(merlin_impl_ucommon${j}_obj PROPERTIES
                        C_EXTENSIONS ON)
  target_include_directories(merlin_impl_ucommon${j}_obj PRIVATE
                             ${dirs} ${MBI_DIR}/hal ${MBI_PQCLEAN_COMMON})
  target_compile_definitions(merlin_impl_ucommon${j}_obj PRIVATE
                             malloc=mcore_malloc free=mcore_free)
  if(MERLIN_IMPL_COMMON_${j}_PQM4)
    target_compile_definitions(merlin_impl_ucommon${j}_obj PRIVATE PQM4)
  endif()
  target_compile_options(merlin_impl_ucommon${j}_obj PRIVATE
    $<$<COMPILE_LANGUAGE:C>:-include$<SEMICOLON>${MBI_DIR}/common_alloc.h>)
  set(raw "${bdir}/common.o")
  set(redef "${bdir}/redefine.txt")
  set(iso "${bdir}/isolated.o")
  add_custom_command(OUTPUT "${iso}" "${redef}"
    COMMAND ${CMAKE_LINKER} -r -o "${raw}"
            $<TARGET_OBJECTS:merlin_impl_ucommon${j}_obj>
    COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DIN=${raw} -DOUT=${redef}
            -DPREFIX=mbe_uc${j}_ -P ${MBI_DIR}/redefine.cmake
    COMMAND ${CMAKE_OBJCOPY} --redefine-syms=${redef}
            --redefine-syms=${MBI_REDEFINE} "${raw}" "${iso}"
    DEPENDS $<TARGET_OBJECTS:merlin_impl_ucommon${j}_obj> "${MBI_REDEFINE}"
            ${MBI_DIR}/redefine.cmake
    COMMENT "" COMMAND_EXPAND_LISTS VERBATIM)
  add_library(merlin_impl_ucommon${j} STATIC "${iso}")
  set_source_files_properties("${iso}" PROPERTIES EXTERNAL_OBJECT TRUE
                              GENERATED TRUE)
  set_target_properties(merlin_impl_ucommon${j} PROPERTIES LINKER_LANGUAGE C)
  set(MBI_UC_${j}_REDEFINE "${redef}" PARENT_SCOPE)
endfunction()
