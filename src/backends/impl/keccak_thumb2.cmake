# SPDX-License-Identifier: Apache-2.0
# impl.hash = thumb2-asm (cmake/MerlinImpl.cmake): the folders' fips202.h
# calls go to keccak_thumb2.c, a FIPS 202 sponge over wolfSSL's Thumb-2
# Keccak-f[1600] (BlockSha3 of wolfcrypt/src/port/arm/thumb2-sha3-asm.S,
# pinned, assembled as is with the switches of keccak_thumb2/
# user_settings.h).
set(MBI_WOLFSSL_DIR "${MERLIN_THIRD_PARTY}/wolfssl")
set(MBI_KT2_ASM
    "${MBI_WOLFSSL_DIR}/wolfcrypt/src/port/arm/thumb2-sha3-asm.S")
if(NOT EXISTS "${MBI_KT2_ASM}")
  message(FATAL_ERROR "impl.hash = thumb2-asm needs wolfSSL's ${MBI_KT2_ASM}: "
                      "run scripts/fetch-deps")
endif()
add_library(merlin_impl_keccak_thumb2 STATIC ${MBI_DIR}/keccak_thumb2.c
            "${MBI_KT2_ASM}")
target_include_directories(merlin_impl_keccak_thumb2 PRIVATE
  ${MBI_PQCLEAN_COMMON} ${MBI_DIR}/keccak_thumb2 ${MBI_WOLFSSL_DIR})
# BlockSha3 under a name of ours: wolfSSL's own C build (the wolfcrypt
# backend) defines one too.
target_compile_definitions(merlin_impl_keccak_thumb2 PRIVATE
  WOLFSSL_USER_SETTINGS BlockSha3=mbe_kt2_BlockSha3)
set_source_files_properties(${MBI_DIR}/keccak_thumb2.c PROPERTIES
  COMPILE_OPTIONS "${MERLIN_WARNINGS}")
# A user's folder built with it (not a library's: the built-in pqclean
# backend keeps PQClean's C Keccak) links it and has its fips202.h calls
# renamed (MBI_REDEFINE_KT2, cmake/MerlinImpl.cmake).
set(MBI_REDEFINE_KT2 "${MERLIN_GEN}/impl_redefine_kt2.txt")
mbi_rename_file("${MBI_REDEFINE_KT2}" mbe_kt2_ ${MBI_FIPS202_FNS})
