/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin merge`: its command line (the merge is host/plan/merge.h). */
#include "cli/cli_parse.h"
#include "plan/merge.h"

typedef struct {
  const char *out;
} merge_args;

static const mh_opt_def MERGE_OPTS[] = {
    {"--out", NULL, "DIR",
     "where the merged results directory goes (default:\nresults)",
     offsetof(merge_args, out), 0, 0, 0, 0, NULL},
};

static int cmd_merge(const mh_cmd_def *cmd, int argc, char **argv) {
  merge_args a = {0};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  int rc = mh_cli_parse_cmd(&s, argc, argv, 1, NULL, NULL, NULL);
  if (rc == 0 && s.n_pos < 1)
    rc = mh_cli_usage_error(&s, "expects the results directories of the "
                                "shards: merlin merge S0 S1 ... --out OUT");
  if (rc == 0)
    rc = mh_cli_parse_only
             ? 0
             : mh_merge(s.pos, s.n_pos, a.out ? a.out : MH_OUT_DEFAULT);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_merge = {
    "merge",
    "usage: merlin merge DIR... [--out OUT]\n"
    "\n"
    "Join the results of the shards of one plan (merlin run --shard K/N, "
    "each a\n"
    "results directory, or the --out directory holding latest) into one "
    "results\n"
    "directory in OUT, the one a single machine would have written. "
    "Refused,\n"
    "writing nothing, when the shards come from different plans, trees or\n"
    "toolchains, or a shard or job is missing or given twice "
    "(docs/scaling.md).\n",
    MH_OPTS(MERGE_OPTS),
    NULL,
    0,
    cmd_merge};
