# SPDX-License-Identifier: Apache-2.0
# The area labels of every test (ctest -L AREA; docs/layout.md, "Tests"),
# from its name, in one table: unit (no image run: the host modules, the
# style and the parsers), integration (merlin builds or reads real runs),
# qemu (QEMU runs, system or user mode), browser (a page in chromium),
# slurm (scripts/slurm-sweep), docs (a page or table of docs/ and README.md
# against the code). A test may have several; `cores`, given where the
# test is added, stays. tests/check_labels.sh (test style-labels) fails on
# a test with no area label, so a new test whose name no rule knows is
# named there rather than left out of `ctest -L`.
set(MERLIN_TEST_LABEL_RULES
    # label       name (regular expression)
    "unit"        "^host\\.|^style-|^format$|^vectors-|^xcheck-selftest$|^routing-assertions$|^fuzz-smoke$|^deps-fetch-verify$|^deps-setup-purposes$|^cycle-model-(snippets|published)$"
    "integration" "^build-|^e2e-|^wf-|^shard-|^concurrent-|^kill-|^robust-|^stream-|^results-|^compare-|^crafted-|^report-|^readme-|^serial-|^board-build-|^matrix-|^progress-|^target-|^sample-|^impl-(folders|shapes|pqm4-checkout|pqm4-hang)|^hostcount-|^sizes-|^xcheck-host$|^ct-plant-|^cycle-model-(qemu|e2e|many|boards)|^agree-usage$|^hostile4-|^db-|^site-|^sanitize-"
    "qemu"        "qemu|^cycle-model-snippets$|^cycle-model-published$|^impl-folders-(same|notbuilt|sign|bad)$|^hostcount-|^target-descriptor-only$|^serial-pty$"
    "browser"     "^report-html-browser|^site-browser$|^report-compare-html$|^report-hostile-strings$"
    "slurm"       "^slurm-"
    "docs"        "^cli-docs-match$|^docs-|^readme-|^style-paths$|^style-generated-backends$|^impl-pqm4-table$|^impl-pqm4-m4-table$|^host\\.test_stages$|^cycle-model-validation-table$|^benchmarks-doc-table$")

# Called last in every CMakeLists.txt of tests/ that adds tests: the
# directory's tests, labelled by the table (CMake 3.25 sets a test's
# properties only from the directory that added it).
function(merlin_label_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  list(LENGTH MERLIN_TEST_LABEL_RULES n)
  math(EXPR last "${n} - 1")
  foreach(test IN LISTS tests)
    get_test_property(${test} LABELS labels)
    if(NOT labels)
      set(labels "")
    endif()
    foreach(i RANGE 0 ${last} 2)
      math(EXPR k "${i} + 1")
      list(GET MERLIN_TEST_LABEL_RULES ${i} label)
      list(GET MERLIN_TEST_LABEL_RULES ${k} regex)
      if(test MATCHES "${regex}")
        list(APPEND labels ${label})
      endif()
    endforeach()
    if(labels)
      list(REMOVE_DUPLICATES labels)
      set_tests_properties(${test} PROPERTIES LABELS "${labels}")
    endif()
  endforeach()
endfunction()
