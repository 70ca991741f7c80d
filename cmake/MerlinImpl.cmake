# SPDX-License-Identifier: Apache-2.0
# Implementation folders as backends (docs/bring-your-own.md): a folder in
# the NIST/SUPERCOP/PQClean/pqm4 shape (api.h and its *.c, *.s, *.S) built
# into the image with no change to Merlin's code.
#
# The host (host/config/impl.c) reads each folder and writes what it found
# into the generated merlin_profile.cmake: MERLIN_IMPLS lists indexes K,
# and MERLIN_IMPL_<K>_<FIELD> holds DIR, SOURCES (relative to DIR), ALG
# (algorithm id), ALG_ENUM, NEW_ALG (1: not in src/ops/algs.def), CLASS (KEM
# or SIG), BACKEND (its name), BACKEND_ENUM, NEW_BACKEND (1: not in
# backends.def), VARIANT, NS (the prefix of its api.h names), DETACHED,
# SIGN_OPEN, FAMILY, N, PK, SK, CT, SS (api.h's sizes), EXPECT and
# EXPECT_FROM (the NIST KAT records expected, and their source).
# MERLIN_IMPL_HASH is the Keccak behind fips202.h: c (PQClean's
# common/fips202.c) or thumb2-asm (wolfSSL's Thumb-2 Keccak-f[1600]).
#
# For each folder: its sources and entry.c (src/backends/impl) compiled
# with the image's flags and the folder's include path, then linked into
# one object whose only global symbols are the entry points (every other
# one made local with objcopy, so that folders sharing internal names, as
# pqm4's do, share an image); its randombytes() renamed to Merlin's
# (mbe_impl_randombytes), and with thumb2-asm its fips202.h functions to
# Merlin's Thumb-2 sponge. Then adapter.c, compiled with Merlin's warnings.
# Generated into MERLIN_GEN: impl_algs.def, impl_sizes.def,
# impl_backends.def, impl_limits.h (the largest sizes, for the scratch
# buffers of src/ops) and impl_registry.c (the backends).

set(MBI_DIR "${CMAKE_SOURCE_DIR}/src/backends/impl")
set(MBI_PQCLEAN_COMMON "${MERLIN_THIRD_PARTY}/pqclean/deps/PQClean/common")
if(NOT EXISTS "${MBI_PQCLEAN_COMMON}/fips202.c")
  message(FATAL_ERROR "PQClean's common code not found in "
                      "${MBI_PQCLEAN_COMMON}: run scripts/fetch-deps")
endif()
if(NOT MERLIN_IMPL_HASH)
  set(MERLIN_IMPL_HASH c)
endif()
if(NOT MERLIN_IMPL_HASH MATCHES "^(c|thumb2-asm)$")
  message(FATAL_ERROR "MERLIN_IMPL_HASH='${MERLIN_IMPL_HASH}': c or thumb2-asm")
endif()
target_compile_definitions(merlin_headers INTERFACE MERLIN_IMPL_DEFS=1)

# ---- the common code every folder may call ------------------------------
# PQClean's common API (fips202.h, sha2.h, aes.h, sp800-185.h,
# nistseedexpander.h, randombytes.h), pinned; its malloc/free (incremental
# hash contexts, AES key schedules) go to the harness allocator, as for the
# pqclean backend (src/backends/pqclean/backend.cmake).
add_library(merlin_impl_common STATIC
  ${MBI_PQCLEAN_COMMON}/fips202.c ${MBI_PQCLEAN_COMMON}/sha2.c
  ${MBI_PQCLEAN_COMMON}/aes.c ${MBI_PQCLEAN_COMMON}/sp800-185.c
  ${MBI_PQCLEAN_COMMON}/nistseedexpander.c)
target_include_directories(merlin_impl_common PRIVATE ${MBI_PQCLEAN_COMMON})
target_compile_definitions(merlin_impl_common PRIVATE
  malloc=mcore_malloc free=mcore_free)
target_compile_options(merlin_impl_common PRIVATE
  -include ${CMAKE_SOURCE_DIR}/src/backends/pqclean/pqclean_alloc.h)

# Merlin's side: the NIST KAT procedure and the randomness of the folders.
add_library(merlin_impl_core OBJECT ${MBI_DIR}/nistkat.c)
target_include_directories(merlin_impl_core PRIVATE ${MBI_DIR}
                           SYSTEM ${MBI_PQCLEAN_COMMON})
target_compile_options(merlin_impl_core PRIVATE ${MERLIN_WARNINGS})
target_link_libraries(merlin_impl_core PUBLIC merlin_headers
                      merlin_impl_common)
list(APPEND MERLIN_BACKEND_TARGETS merlin_impl_core) # its objects: linked

set(MBI_REDEFINE "${MERLIN_GEN}/impl_redefine.txt")
set(MBI_REDEFINE_TEXT "randombytes mbe_impl_randombytes\n"
                      "PQCLEAN_randombytes mbe_impl_randombytes_pqclean\n")
if(MERLIN_IMPL_HASH STREQUAL "thumb2-asm")
  include("${MBI_DIR}/keccak_thumb2.cmake")
endif()
string(CONCAT MBI_REDEFINE_TEXT ${MBI_REDEFINE_TEXT})
file(CONFIGURE OUTPUT "${MBI_REDEFINE}" CONTENT "${MBI_REDEFINE_TEXT}")

# ---- each folder --------------------------------------------------------
set(MBI_ALGS_DEF "")
set(MBI_SIZES_DEF "")
set(MBI_BACKENDS_DEF "")
set(MBI_SEEN_ALGS "")
set(MBI_SEEN_BACKENDS "")
set(MBI_MAX_PK 0)
set(MBI_MAX_SK 0)
set(MBI_MAX_CT 0)
set(MBI_MAX_SS 0)
set(MBI_REGISTRY "")
macro(mbi_get field)
  set(${field} "${MERLIN_IMPL_${k}_${field}}")
endmacro()
foreach(k IN LISTS MERLIN_IMPLS)
  foreach(field DIR SOURCES ALG ALG_ENUM NEW_ALG CLASS BACKEND BACKEND_ENUM
                NEW_BACKEND VARIANT NS DETACHED SIGN_OPEN FAMILY N PK SK CT SS
                EXPECT EXPECT_FROM)
    mbi_get(${field})
  endforeach()
  set(bdir "${CMAKE_BINARY_DIR}/impl/${k}")
  file(MAKE_DIRECTORY "${bdir}")

  # The folder's objects and its entry points.
  set(srcs "")
  foreach(s IN LISTS SOURCES)
    list(APPEND srcs "${DIR}/${s}")
  endforeach()
  if(CLASS STREQUAL "KEM")
    set(kind MBI_KEM)
    set(entries keypair enc dec)
  else()
    set(kind MBI_SIGN)
    set(entries keypair)
    if(DETACHED)
      list(APPEND entries signature verify)
    endif()
    if(SIGN_OPEN)
      list(APPEND entries sign open)
    endif()
  endif()
  set(defs MBI_K=${k} MBI_NS=${NS} ${kind} MBI_DETACHED=${DETACHED}
           MBI_SIGN_OPEN=${SIGN_OPEN} MBI_FAMILY=${FAMILY} MBI_N=${N}
           MBI_PK=${PK} MBI_SK=${SK} MBI_CT=${CT} MBI_SS=${SS})
  add_library(merlin_impl${k}_obj OBJECT ${srcs} ${MBI_DIR}/entry.c)
  target_include_directories(merlin_impl${k}_obj PRIVATE
                             "${DIR}" ${MBI_PQCLEAN_COMMON})
  set_source_files_properties(${MBI_DIR}/entry.c TARGET_DIRECTORY
    merlin_impl${k}_obj PROPERTIES COMPILE_DEFINITIONS "${defs}")
  set(keep "")
  foreach(e IN LISTS entries)
    string(APPEND keep "mbe_impl${k}_${e}\n")
  endforeach()
  file(CONFIGURE OUTPUT "${bdir}/keep.txt" CONTENT "${keep}")
  set(raw "${bdir}/folder.o")
  set(iso "${bdir}/isolated.o")
  add_custom_command(OUTPUT "${iso}"
    COMMAND ${CMAKE_LINKER} -r -o "${raw}" $<TARGET_OBJECTS:merlin_impl${k}_obj>
    COMMAND ${CMAKE_OBJCOPY} --redefine-syms=${MBI_REDEFINE}
            --keep-global-symbols=${bdir}/keep.txt "${raw}" "${iso}"
    DEPENDS $<TARGET_OBJECTS:merlin_impl${k}_obj> "${bdir}/keep.txt"
            "${MBI_REDEFINE}"
    COMMENT "" COMMAND_EXPAND_LISTS VERBATIM)
  add_library(merlin_impl${k}_lib STATIC "${iso}")
  set_source_files_properties("${iso}" PROPERTIES EXTERNAL_OBJECT TRUE
                              GENERATED TRUE)
  set_target_properties(merlin_impl${k}_lib PROPERTIES LINKER_LANGUAGE C)

  # Merlin's adapter of the folder.
  add_library(merlin_impl${k}_adapter OBJECT ${MBI_DIR}/adapter.c)
  target_compile_definitions(merlin_impl${k}_adapter PRIVATE ${defs}
    MBI_EXPECT="${EXPECT}" MBI_EXPECT_FROM="${EXPECT_FROM}")
  target_include_directories(merlin_impl${k}_adapter PRIVATE ${MBI_DIR})
  target_compile_options(merlin_impl${k}_adapter PRIVATE ${MERLIN_WARNINGS})
  target_link_libraries(merlin_impl${k}_adapter PUBLIC merlin_headers
                        merlin_impl${k}_lib merlin_impl_core)
  list(APPEND MERLIN_BACKEND_TARGETS merlin_impl${k}_adapter)

  # The catalogue entries it adds, and the largest sizes.
  if(CLASS STREQUAL "KEM")
    set(ct_room ${CT})
    set(sizes "${PK}, ${SK}, ${CT}, ${SS}")
  else()
    math(EXPR ct_room "${CT} + 256") # a signed message: MOPS_MSG_MAX more
    if(DETACHED)
      set(sizes "${PK}, ${SK}, ${CT}, 0")
    else()
      set(sizes "${PK}, ${SK}, 0, 0")
    endif()
  endif()
  if(NEW_ALG AND NOT ALG IN_LIST MBI_SEEN_ALGS)
    list(APPEND MBI_SEEN_ALGS "${ALG}")
    string(APPEND MBI_ALGS_DEF "X(${ALG_ENUM}, \"${ALG}\", ${CLASS})\n")
    string(APPEND MBI_SIZES_DEF "X(${ALG_ENUM}, ${sizes})\n")
  endif()
  foreach(pair PK:${PK} SK:${SK} CT:${ct_room} SS:${SS})
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 what)
    list(GET pair 1 v)
    if(v GREATER MBI_MAX_${what})
      set(MBI_MAX_${what} ${v})
    endif()
  endforeach()
  if(NEW_BACKEND AND NOT BACKEND IN_LIST MBI_SEEN_BACKENDS)
    string(APPEND MBI_BACKENDS_DEF
           "X(${BACKEND_ENUM}, \"${BACKEND}\", \"${ALG}\")\n")
  endif()
  if(NOT BACKEND IN_LIST MBI_SEEN_BACKENDS)
    list(APPEND MBI_SEEN_BACKENDS "${BACKEND}")
    set(MBI_BE_${BACKEND_ENUM}_NAME "${BACKEND}")
    set(MBI_BE_${BACKEND_ENUM}_ITEMS "")
    set(MBI_BE_${BACKEND_ENUM}_HASHES "")
    list(APPEND MBI_BACKEND_ENUMS ${BACKEND_ENUM})
  endif()
  string(TOLOWER "${CLASS}" iface)
  string(APPEND MBI_REGISTRY
    "extern const mcore_${iface}_vt mbe_impl${k}_${iface}_vt;\n"
    "int mbe_impl${k}_kat(const mcore_impl *impl, char *record, size_t rlen,\n"
    "                     char *detail, size_t dn);\n")
  string(APPEND MBI_BE_${BACKEND_ENUM}_ITEMS
    "    {.alg = MCORE_ALG_${ALG_ENUM},\n"
    "     .backend = MCORE_BACKEND_${BACKEND_ENUM},\n"
    "     .kat = mbe_impl${k}_kat,\n"
    "     .variant = \"${VARIANT}\",\n"
    "     .vt = {.${iface} = &mbe_impl${k}_${iface}_vt}},\n")
endforeach()

# One mcore_backend per backend name (a user's folder is one; a library
# backend of folders, such as pqclean, groups several).
foreach(be IN LISTS MBI_BACKEND_ENUMS)
  string(TOLOWER "${be}" be_c)
  string(APPEND MBI_REGISTRY
    "\nstatic const mcore_impl ${be_c}_impls[] = {\n"
    "${MBI_BE_${be}_ITEMS}};\n"
    "const mcore_backend mbe_${be_c}_backend = {\n"
    "    .id = MCORE_BACKEND_${be},\n"
    "    .library = \"${MERLIN_IMPL_${be}_LIBRARY}\",\n"
    "    .version = \"${MERLIN_IMPL_${be}_VERSION}\",\n"
    "    .init = NULL,\n"
    "    .impls = ${be_c}_impls,\n"
    "    .n_impls = sizeof ${be_c}_impls / sizeof ${be_c}_impls[0]};\n")
  string(APPEND MERLIN_REGISTRY_DECLS
         "extern const mcore_backend mbe_${be_c}_backend;\n")
  string(APPEND MERLIN_REGISTRY_ITEMS "    &mbe_${be_c}_backend,\n")
endforeach()

set(MBI_GENERATED "Generated by cmake/MerlinImpl.cmake from the profile's \
implementation folders (docs/bring-your-own.md): do not edit.")
file(CONFIGURE OUTPUT "${MERLIN_GEN}/impl_algs.def" CONTENT
     "/* ${MBI_GENERATED} */\n${MBI_ALGS_DEF}")
file(CONFIGURE OUTPUT "${MERLIN_GEN}/impl_sizes.def" CONTENT
     "/* ${MBI_GENERATED} */\n${MBI_SIZES_DEF}")
file(CONFIGURE OUTPUT "${MERLIN_GEN}/impl_backends.def" CONTENT
     "/* ${MBI_GENERATED} */\n${MBI_BACKENDS_DEF}")
file(CONFIGURE OUTPUT "${MERLIN_GEN}/impl_limits.h" CONTENT
"/* ${MBI_GENERATED} */
#define MERLIN_IMPL_PK_MAX ${MBI_MAX_PK}
#define MERLIN_IMPL_SK_MAX ${MBI_MAX_SK}
#define MERLIN_IMPL_CT_MAX ${MBI_MAX_CT}
#define MERLIN_IMPL_SS_MAX ${MBI_MAX_SS}
")
file(CONFIGURE OUTPUT "${MERLIN_GEN}/impl_registry.c" CONTENT
"/* SPDX-License-Identifier: Apache-2.0 */
/* ${MBI_GENERATED} */
#include \"mcore.h\"

${MBI_REGISTRY}")
add_library(merlin_impl_registry OBJECT "${MERLIN_GEN}/impl_registry.c")
target_link_libraries(merlin_impl_registry PUBLIC merlin_headers)
target_compile_options(merlin_impl_registry PRIVATE ${MERLIN_WARNINGS})
list(APPEND MERLIN_BACKEND_TARGETS merlin_impl_registry)
