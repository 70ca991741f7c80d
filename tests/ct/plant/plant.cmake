# SPDX-License-Identifier: Apache-2.0
# The planted-leak backend (adapter.c): added to an image only by the test
# hook MERLIN_TEST_CT_PLANT (cmake/MerlinImage.cmake, tests/ct/plant.sh).
# Every part of the image sees MERLIN_TEST_CT_PLANT, so that they agree on
# the backend ids (src/core/mcore.h).
target_compile_definitions(merlin_headers INTERFACE MERLIN_TEST_CT_PLANT=1)
add_library(merlin_backend_ct_plant OBJECT
            "${CMAKE_SOURCE_DIR}/tests/ct/plant/adapter.c")
target_compile_options(merlin_backend_ct_plant PRIVATE ${MERLIN_WARNINGS})
target_link_libraries(merlin_backend_ct_plant PUBLIC merlin_headers)
list(APPEND MERLIN_BACKEND_TARGETS merlin_backend_ct_plant)
string(APPEND MERLIN_REGISTRY_DECLS
       "extern const mcore_backend mbe_ct_plant_backend;\n")
string(APPEND MERLIN_REGISTRY_ITEMS "    &mbe_ct_plant_backend,\n")
