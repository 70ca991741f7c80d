# SPDX-License-Identifier: Apache-2.0
# impl.hash = thumb2-asm (cmake/MerlinImpl.cmake): the folders' fips202.h
# calls go to keccak_thumb2.c, a FIPS 202 sponge over wolfSSL's Thumb-2
# Keccak-f[1600] (BlockSha3 of wolfcrypt/src/port/arm/thumb2-sha3-asm.S,
# pinned, assembled as is with the switches of keccak_thumb2/
# user_settings.h). The renaming is appended to the folders' objcopy list.
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
target_link_libraries(merlin_impl_common INTERFACE merlin_impl_keccak_thumb2)
foreach(fn shake128_absorb shake128_squeezeblocks shake128_ctx_release
           shake128_ctx_clone shake128_inc_init shake128_inc_absorb
           shake128_inc_finalize shake128_inc_squeeze shake128_inc_ctx_clone
           shake128_inc_ctx_release shake256_absorb shake256_squeezeblocks
           shake256_ctx_release shake256_ctx_clone shake256_inc_init
           shake256_inc_absorb shake256_inc_finalize shake256_inc_squeeze
           shake256_inc_ctx_clone shake256_inc_ctx_release shake128 shake256
           sha3_256_inc_init sha3_256_inc_ctx_clone sha3_256_inc_ctx_release
           sha3_256_inc_absorb sha3_256_inc_finalize sha3_256
           sha3_384_inc_init sha3_384_inc_ctx_clone sha3_384_inc_ctx_release
           sha3_384_inc_absorb sha3_384_inc_finalize sha3_384
           sha3_512_inc_init sha3_512_inc_ctx_clone sha3_512_inc_ctx_release
           sha3_512_inc_absorb sha3_512_inc_finalize sha3_512)
  list(APPEND MBI_REDEFINE_TEXT "${fn} mbe_kt2_${fn}\n")
endforeach()
