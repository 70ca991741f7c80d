/* SPDX-License-Identifier: Apache-2.0 */
/* Constant-time verdicts on the host (host/run/ct.c, ct_trace.c,
 * model/ct_json.c): the expected-findings list with its methods and
 * qualifiers, the plugin's trace side file and every way it can be wrong,
 * the verdict of path, addresses and variable-latency instructions per
 * core, and the results.json fields read back. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "model/ct_json.h"
#include "run/ct.h"
#include "run/ct_trace.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_list(const char *text, mh_ct_list *l, char *err,
                      size_t errlen) {
  return mh_ct_list_parse("list", text, strlen(text), l, err, errlen);
}

static void test_list(void) {
  mh_ct_list l;
  char err[256];
  CHECK(parse_list("# comment\n\n"
                   "x25519 wolfcrypt shared instruction-count,path known "
                   "core=cortex-m0plus fn=fe_* libgcc's multiply\n"
                   "* * * variable-latency accepted insn=udiv fn=Sha3Update "
                   "divides the input length by the rate\n",
                   &l, err, sizeof err) == 0);
  CHECK(l.n == 2);
  if (l.n == 2) {
    CHECK(strcmp(l.e[0].method, "instruction-count,path") == 0);
    CHECK(l.e[0].core && strcmp(l.e[0].core, "cortex-m0plus") == 0);
    CHECK(l.e[0].fn && strcmp(l.e[0].fn, "fe_*") == 0);
    CHECK(!l.e[0].insn);
    CHECK(strcmp(l.e[0].reason, "libgcc's multiply") == 0);
    CHECK(l.e[1].insn && strcmp(l.e[1].insn, "udiv") == 0);
    CHECK(!l.e[1].core);
  }
  mh_ct_list_free(&l);
  const struct {
    const char *text, *why;
  } bad[] = {
      {"a b c path\n", "expected ALG"},
      {"a b c paths known why\n", "method 'paths'"},
      {"a b c path,valgrind2 known why\n", "method"},
      {"a b c path maybe why\n", "kind 'maybe'"},
      {"a b c path known\n", "a reason is required"},
      {"a b c path known core=cortex-m4\n", "a reason is required"},
      {"a b c variable-latency known insn=mul why\n", "insn is one of"},
      {"a b c path known core= why\n", "empty or repeated"},
      {"a b c path known fn=x fn=y why\n", "empty or repeated"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = '\0';
    CHECK(parse_list(bad[i].text, &l, err, sizeof err) == -1);
    CHECK_CONTAINS(err, bad[i].why);
    CHECK_CONTAINS(err, "list:1: ");
  }
}

/* Two runs that agree, then a check whose second run departs in path and
 * memory (memory first), with a UDIV and a UMULL site. */
static const char good[] =
    "merlin-ct 1\n"
    "check 0\n"
    "run 0 insns=100 exc=0 path=00000000000000aa/5 mem=00000000000000bb/9 "
    "sp=0x203ffdb0 heap=0x00000000 kept=1\n"
    "run 1 insns=100 exc=0 path=00000000000000aa/5 mem=00000000000000bb/9 "
    "sp=0x203ffdb0 heap=0x00000000 kept=1\n"
    "done 0 runs=2\n"
    "check 1\n"
    "run 0 insns=200 exc=0 path=0000000000000001/5 mem=0000000000000002/9 "
    "sp=0x203ffdb0 heap=0x20001000 kept=1\n"
    "run 1 insns=200 exc=1 path=0000000000000003/6 mem=0000000000000004/9 "
    "sp=0x203ffdb0 heap=0x20001000 kept=1\n"
    "pathdiv 1 at=3 ref=0x00001000@f+0x10>0x00001020@f+0x30 "
    "got=0x00001000@f+0x10>0x00001040@g+0x0\n"
    "memdiv 1 at=2 ref=0x00001008@f+0x8:r:0x00002000@tab+0x0 "
    "got=0x00001008@f+0x8:r:0x00002040@tab+0x40 path_first=0\n"
    "vl 0x00001010@f+0x20 udiv 3 3\n"
    "vl 0x00001050@g+0x10 umull 1 2\n"
    "done 1 runs=2\n"
    "end 2\n";

static void test_side(void) {
  char buf[sizeof good], err[256];
  mh_ct_trace *t = NULL;
  size_t n = 0;
  memcpy(buf, good, sizeof good);
  CHECK(mh_ct_trace_parse(buf, strlen(buf), &t, &n, err, sizeof err) == 0);
  CHECK(n == 2);
  if (n == 2) {
    CHECK(t[0].runs == 2 && t[0].path_equal && t[0].addr_equal == 1);
    CHECK(t[0].layout_equal && !t[0].path_div && t[0].n_vl == 0);
    CHECK(!t[1].path_equal && t[1].addr_equal == 0 && t[1].layout_equal);
    CHECK(t[1].insns_min == 200 && t[1].insns_max == 200 && t[1].exc == 1);
    CHECK_CONTAINS(t[1].path_div, "secret 2 departs from secret 1 at "
                                  "control transfer 4");
    CHECK_CONTAINS(t[1].path_div, "0x00001040 (g+0x0)");
    CHECK(t[1].path_fn && strcmp(t[1].path_fn, "f") == 0);
    CHECK_CONTAINS(t[1].addr_div, "read 0x00002040 (tab+0x40)");
    CHECK(t[1].n_vl == 2);
    if (t[1].n_vl == 2) {
      CHECK(strcmp(t[1].vl[0].function, "f") == 0);
      CHECK(t[1].vl[0].count_min == 3 && t[1].vl[0].count_max == 3);
      CHECK(t[1].vl[1].count_min == 1 && t[1].vl[1].count_max == 2);
    }
  }
  for (size_t i = 0; i < n; i++)
    mh_ct_trace_free(&t[i]);
  free(t);
  /* Broken files: each names what is wrong. */
  const struct {
    const char *from, *to, *why;
  } bad[] = {
      {"merlin-ct 1", "merlin-ct 2", "not a merlin-ct version 1"},
      {"end 2\n", "", "no end record"},
      {"end 2\n", "end 3\n", "the end record's count"},
      {"done 0 runs=2", "done 0 runs=3", "line 5: garbled"},
      {"run 1 insns=100", "run 2 insns=100", "line 4: garbled"},
      {"check 1\n", "check 5\n", "line 6: garbled"},
      {"vl 0x00001050@g+0x10 umull 1 2", "vl 0x00001050@g+0x10 umull 1",
       "garbled"},
      {"pathdiv 1 at=3 ref=0x00001000@f+0x10>", "pathdiv 1 at=3 ref=zz",
       "garbled"},
      {"end 2\n", "end 2", "incomplete"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[sizeof good + 64];
    const char *at = strstr(good, bad[i].from);
    CHECK(at != NULL);
    if (!at)
      continue;
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, bad[i].to,
             at + strlen(bad[i].from));
    err[0] = '\0';
    CHECK(mh_ct_trace_parse(text, strlen(text), &t, &n, err, sizeof err) == -1);
    CHECK_CONTAINS(err, bad[i].why);
  }
}

/* The verdict of check 1 above on an operation of a qemu-m4 run, with and
 * without list entries, on two cores. */
static void test_judge(void) {
  char buf[sizeof good], err[256];
  mh_ct_trace *t = NULL;
  size_t n = 0;
  memcpy(buf, good, sizeof good);
  if (mh_ct_trace_parse(buf, strlen(buf), &t, &n, err, sizeof err) != 0)
    return;
  static char alg[] = "ml-kem-512", opn[] = "decaps", be[] = "wolfcrypt",
              var[] = "c", core_k[] = "core", m4[] = "cortex-m4",
              m0[] = "cortex-m0plus";
  mh_kv prov = {core_k, m4};
  mh_op op;
  memset(&op, 0, sizeof op);
  op.alg = alg;
  op.op = opn;
  op.backend = be;
  op.variant = var;
  op.bytes = -1;
  op.has_ct = op.ct_fresh = 1;
  op.ct_n = 2;
  op.ct_raw[0] = op.ct_raw[1] = 3200; /* equal counts */
  op.ct_vg = -1;
  op.ct_trace = &t[1];
  mh_run run;
  memset(&run, 0, sizeof run);
  run.prov = &prov;
  run.n_prov = 1;
  run.ops = &op;
  run.n_ops = 1;
  run.icount_shift = 7;
  run.ticks_to_unit = 40.0 / 128.0;
  mh_ct_list none = {0};
  CHECK(mh_ct_judge(&run, &op, &none) == 0);
  CHECK(op.ct_status == MH_CT_FINDING && !op.ct_listed);
  CHECK(strcmp(op.ct_methods,
               "instruction-count,path,address,variable-latency") == 0);
  CHECK_CONTAINS(op.ct_detail, "path: the executed path differs");
  CHECK_CONTAINS(op.ct_detail, "address: a load or store address differs");
  CHECK_CONTAINS(op.ct_detail, "udiv in f (1 site, 3 executions per run)");
  CHECK(!strstr(op.ct_detail, "umull")); /* constant time on the M4 */
  CHECK(!strstr(op.ct_detail, "instruction-count:"));
  CHECK(t[1].vl[0].variable && !t[1].vl[1].variable);
  CHECK(t[1].vl[0].listed && strcmp(t[1].vl[0].listed, "new") == 0);

  /* Listed: path known in f on the M4, addresses accepted, udiv accepted
   * in f; on the M3 the UMULL is variable too and not listed. */
  mh_ct_list l;
  CHECK(parse_list("ml-kem-512 wolfcrypt decaps path known core=cortex-m4 "
                   "fn=f a branch\n"
                   "ml-kem-512 * * address accepted a table\n"
                   "* * * variable-latency accepted insn=udiv fn=f public "
                   "lengths\n",
                   &l, err, sizeof err) == 0);
  CHECK(mh_ct_judge(&run, &op, &l) == 0);
  CHECK(op.ct_status == MH_CT_FINDING && op.ct_listed);
  CHECK_CONTAINS(op.ct_detail, "(known: a branch)");
  CHECK_CONTAINS(op.ct_detail, "(accepted: a table)");
  CHECK_CONTAINS(op.ct_detail, "(accepted: public lengths)");
  CHECK(strcmp(t[1].vl[0].listed, "accepted") == 0);

  /* The same trace on the M0+: no variable-latency instruction, and the
   * path entry for the M4 does not apply. */
  prov.value = m0;
  CHECK(mh_ct_judge(&run, &op, &l) == 0);
  CHECK(!op.ct_listed);
  CHECK_CONTAINS(op.ct_detail, "path: the executed path differs");
  CHECK(!strstr(op.ct_detail, "udiv"));
  CHECK(!t[1].vl[0].variable);

  /* The count spread comes from the trace (handlers left out) when there
   * is one, not from the counter's readings. */
  op.ct_raw[1] = 3232; /* 10 instructions more on the counter */
  CHECK(mh_ct_judge(&run, &op, &l) == 0);
  CHECK(!strstr(op.ct_detail, "instruction-count:"));
  t[1].insns_max = 210;
  CHECK(mh_ct_judge(&run, &op, &l) == 0);
  CHECK_CONTAINS(op.ct_detail, "instruction counts vary over 2 fresh "
                               "secrets: 200 to 210 (spread 10)");
  t[1].insns_max = 200;
  op.ct_raw[1] = 3200;

  /* results.json: written from the verdict, read back equal. */
  prov.value = m4;
  CHECK(mh_ct_judge(&run, &op, &l) == 0);
  json_t *ct = json_object();
  CHECK(mh_ct_trace_json(ct, &run, &op) == 0);
  CHECK(json_is_false(json_object_get(ct, "path_equal")));
  CHECK(json_is_false(json_object_get(ct, "address_equal")));
  CHECK(json_array_size(json_object_get(ct, "variable_latency")) == 1);
  mh_op back;
  memset(&back, 0, sizeof back);
  back.ct_methods = op.ct_methods;
  CHECK(mh_ct_trace_read(ct, &back, err, sizeof err) == 0);
  json_t *again = json_object();
  CHECK(back.ct_trace && mh_ct_trace_json(again, &run, &back) == 0);
  CHECK(json_equal(ct, again));
  json_object_set_new(ct, "address_equal", json_string("maybe"));
  CHECK(mh_ct_trace_read(ct, &back, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "\"ct\": expected core, secrets");
  json_decref(ct);
  json_decref(again);
  mh_ct_trace_free(back.ct_trace);
  free(back.ct_trace);
  free(op.ct_methods);
  free(op.ct_detail);
  mh_ct_list_free(&l);
  for (size_t i = 0; i < n; i++)
    mh_ct_trace_free(&t[i]);
  free(t);
}

/* Traces join the operations with a ct record, in order; a side file that
 * does not match the stream is an error naming why. */
static void test_attach(void) {
  char path[] = "/tmp/merlin-test-ct-XXXXXX", err[512];
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0)
    return;
  FILE *f = fdopen(fd, "w");
  fputs(good, f);
  fclose(f);
  static char alg[] = "x25519", opn[] = "shared", be[] = "bearssl";
  mh_op ops[3];
  memset(ops, 0, sizeof ops);
  for (int i = 0; i < 3; i++) {
    ops[i].alg = alg;
    ops[i].op = opn;
    ops[i].backend = be;
    ops[i].ct_n = 2;
  }
  ops[0].has_ct = ops[2].has_ct = 1; /* ops[1]: no secret input */
  mh_run run;
  memset(&run, 0, sizeof run);
  run.ops = ops;
  run.n_ops = 3;
  CHECK(mh_ct_trace_attach(&run, path, err, sizeof err) == 0);
  CHECK(ops[0].ct_trace && !ops[1].ct_trace && ops[2].ct_trace);
  CHECK(ops[2].ct_trace && !ops[2].ct_trace->path_equal);
  ops[1].has_ct = 1; /* three checks wanted, two in the file */
  CHECK(mh_ct_trace_attach(&run, path, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "0 runs in the side file, 2 in the console stream");
  ops[1].has_ct = 0;
  ops[2].ct_n = 3;
  CHECK(mh_ct_trace_attach(&run, path, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "2 runs in the side file, 3 in the console stream");
  ops[2].ct_n = 2;
  ops[2].has_ct = 0; /* one check wanted, two in the file */
  CHECK(mh_ct_trace_attach(&run, path, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "2 checks, the console stream 1");
  unlink(path);
  CHECK(mh_ct_trace_attach(&run, path, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "missing or unreadable");
  for (int i = 0; i < 3; i++) {
    mh_ct_trace_free(ops[i].ct_trace);
    free(ops[i].ct_trace);
  }
}

static void test_vl_table(void) {
  CHECK(mh_ct_vl_source("cortex-m4", "udiv") != NULL);
  CHECK(mh_ct_vl_source("cortex-m4", "umull") == NULL);
  CHECK(mh_ct_vl_source("cortex-m3", "umlal") != NULL);
  CHECK(mh_ct_vl_source("cortex-m0plus", "udiv") == NULL);
  CHECK(mh_ct_vl_source(NULL, "udiv") == NULL);
  CHECK_CONTAINS(mh_ct_vl_source("cortex-m33", "sdiv"), "assumed");
}

int main(void) {
  test_list();
  test_side();
  test_judge();
  test_attach();
  test_vl_table();
  return check_report();
}
