/* SPDX-License-Identifier: Apache-2.0 */
/* The agree image's seam between agree_main.c and the library's part. */
#ifndef MERLIN_AGREE_H
#define MERLIN_AGREE_H

/* Run the library's own benchmark program with these arguments (argv[0]
 * is the program's name); returns its exit status. */
int merlin_agree_library_main(int argc, char **argv);

/* v in decimal, in buf (newlib's nano printf has no %llu). */
#include <stdint.h>
const char *merlin_agree_u64(uint64_t v, char buf[24]);

#endif
