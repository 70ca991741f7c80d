/* SPDX-License-Identifier: Apache-2.0 */
/* The provenance of a run's implementation folders (results.json
 * "implementations", docs/results.md). */
#ifndef MERLIN_HOST_IMPL_RECORD_H
#define MERLIN_HOST_IMPL_RECORD_H

#include "impl/impl.h"
#include "model/results.h"

#include <stdio.h>

/* Every folder of s that is not a library backend's into res: its path and
 * content hash, the Keccak and common code it was built with (bdir's
 * impl-common.txt), where its known answers came from, the compiler
 * workaround bdir's build applied (compiler-workarounds.txt), and, when
 * off[i] is set, why[i]: why it was left out (off[i] without a why:
 * another part's image holds it, and it is not recorded). bdir may be
 * NULL (no build: --from). 0, or -1 (memory). */
int mh_impl_record(const mh_impl_set *s, const char *bdir,
                   const unsigned char *off, char *const *why, mh_result *res);

/* Mark the folders of s left out of every image (s->excluded) in a
 * target's *off and *why (allocated when first needed, n entries each).
 * 0, or -1 (memory). */
int mh_impl_off_init(const mh_impl_set *s, unsigned char **off, char ***why);

/* One line per folder of res left out of its image ("  <label>: <backend>
 * left out: <why>") to f (NULL: none); returns how many. */
size_t mh_impl_print_left_out(FILE *f, const mh_result *res, const char *label);

/* The exit status of a run whose results were written but left folders
 * out of some image (docs/cli.md, "Exit status"). */
#define MH_EXIT_LEFT_OUT 3

#endif
