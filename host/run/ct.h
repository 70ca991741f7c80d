/* SPDX-License-Identifier: Apache-2.0 */
/* Constant-time verdicts (docs/constant-time.md): from an operation's ct
 * record (instruction counts over fresh secrets under QEMU; memcheck errors
 * with the secret poisoned under valgrind on the host) and the list of
 * known findings, constant-time/expected-findings.txt. */
#ifndef MERLIN_HOST_CT_H
#define MERLIN_HOST_CT_H

#include "model/ct.h"
#include "model/model.h"

#include <stddef.h>

/* One line of the list: ALG BACKEND OP METHODS KIND [QUALIFIERS] REASON
 * ("*" matches any alg, backend or op; METHODS one method or several joined
 * by commas; KIND accepted: not a leak, with the reason; known: a real
 * finding, reported as such, listed so that tests notice new ones;
 * qualifiers core=CORE, fn=FUNCTION (a trailing * matches a prefix) and
 * insn=MNEMONIC narrow the entry to findings there). */
typedef struct {
  char *alg, *backend, *op, *method, *kind, *reason;
  char *core, *fn, *insn; /* NULL: any */
  size_t line;
  int seen; /* matched a finding of this run */
} mh_ct_entry;

typedef struct {
  mh_ct_entry *e;
  size_t n;
} mh_ct_list;

/* Parse the list held in buf; file names it in messages. 0, or -1 with err
 * (file:line: what is wrong). */
int mh_ct_list_parse(const char *file, const char *buf, size_t len,
                     mh_ct_list *l, char *err, size_t errlen);
/* ROOT/constant-time/expected-findings.txt; 0 or -1 with err. */
int mh_ct_list_load(const char *root, mh_ct_list *l, char *err, size_t errlen);
void mh_ct_list_free(mh_ct_list *l);

/* The verdict on op of run (after mh_run_finish: run->icount_shift says
 * whether counts are exact). Sets op->ct_status, op->ct_methods ("a,b"),
 * op->ct_detail and op->ct_listed (every finding is in the list); marks
 * the entries that matched. Returns 0 or -1 (out of memory). */
int mh_ct_judge(const mh_run *run, mh_op *op, mh_ct_list *l);

/* Why an instruction's latency depends on its operands on core, citing the
 * source, or NULL when it does not there (docs/constant-time.md). */
const char *mh_ct_vl_source(const char *core, const char *insn);

#endif
