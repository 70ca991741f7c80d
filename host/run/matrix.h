/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler x optimisation matrix of `merlin run --cc ... --opt ...`
 * (docs/cli.md "Compiler and optimisation matrix"): the option values, the
 * checks made before anything is built (the row a run belongs to is
 * model/build.h). */
#ifndef MERLIN_HOST_MATRIX_H
#define MERLIN_HOST_MATRIX_H

#include <stddef.h>

#define MH_CC_DEFAULT "gcc"
#define MH_OPT_DEFAULT "O2" /* cmake/MerlinImage.cmake MERLIN_OPT */
#define MH_CC_VALID "gcc, clang or the path of a gcc or clang driver"
/* --cc clang: Debian 12's newest clang, on every target (docs/targets.md) */
#define MH_CLANG "clang-19"
#define MH_OPT_VALID "O0, O1, O2, O3, Os, Oz"

/* Split a comma list ("gcc,clang", "Os,-O2") into malloc'd, checked,
 * distinct values (an --opt value loses its leading '-'; a --cc value with
 * a '/' is a compiler driver's path, made absolute). what is "--cc" or
 * "--opt". Returns 0, or -1 with a message in err. */
int mh_matrix_split(const char *what, const char *arg, char ***vals, size_t *n,
                    char *err, size_t errlen);
void mh_matrix_free(char **vals, size_t n);

/* Whether the compiler cc can be used: clang (MH_CLANG) must be on PATH, a
 * path must name an executable whose path an image's provenance can carry.
 * 0, or -1 with what to do in err. */
int mh_matrix_check_cc(const char *cc, char *err, size_t errlen);

#endif
