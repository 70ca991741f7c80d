/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin merge DIR... --out OUT` (docs/scaling.md): the results
 * directories of the shards of one plan (merlin run --shard K/N) joined
 * into one results directory in OUT, the one a single machine would have
 * written: the runs of every job in plan order, the reports made again.
 * Refused, naming the reason and writing nothing, when a directory is no
 * shard, the shards come from different plans, a shard is missing or
 * given twice, a job is missing or doubled, or they differ in merlin
 * version, source revision, compiler, library or QEMU version, or host
 * timings would come from two machines. Returns the exit status. */
#ifndef MERLIN_HOST_PLAN_MERGE_H
#define MERLIN_HOST_PLAN_MERGE_H

#include <stddef.h>

int mh_merge(const char *const *dirs, size_t n, const char *out);

#endif
