/* SPDX-License-Identifier: Apache-2.0 */
/* The cycle plugin's side file on the host (host/run/cycles.c): matching to the
 * console samples, estimates, classes, profile, and every way a side file
 * can be wrong. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "config/targets.h"
#include "model/cycles_json.h"
#include "run/board_model.h"
#include "run/ct_trace.h"
#include "run/cycles.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char side[] = "/tmp/merlin-test-cycles-XXXXXX";

static void write_side(const char *text) {
  FILE *f = fopen(side, "w");
  CHECK(f != NULL);
  if (!f)
    return;
  fputs(text, f);
  fclose(f);
}

/* One op, batch 2, three samples; k = 40/128 (mps2 at -icount shift=7):
 * 3200 ticks = 1000 instructions. */
static void fill_run(mh_run *run, mh_op ops[1], uint64_t *raw) {
  static char alg[] = "ml-kem-768", op[] = "keygen";
  memset(run, 0, sizeof *run);
  memset(ops, 0, sizeof *ops);
  ops[0].alg = alg;
  ops[0].op = op;
  ops[0].batch = 2;
  ops[0].raw = raw;
  ops[0].n_raw = 3;
  ops[0].n_samples = 3;
  run->ops = ops;
  run->n_ops = 1;
  run->ticks_to_unit = 40.0 / 128.0;
  run->icount_shift = 7;
}

/* The same on one static operation (the tests run one after another). */
static void make_run(mh_run *run, uint64_t *raw) {
  static mh_op ops[1];
  fill_run(run, ops, raw);
}

static void clear_run(mh_run *run) {
  for (size_t i = 0; i < run->n_ops; i++) {
    mh_cyc_op_free(run->ops[i].cyc);
    free(run->ops[i].cyc);
    run->ops[i].cyc = NULL;
  }
  mh_cyc_run_free(run->cyc);
  free(run->cyc);
  run->cyc = NULL;
}

#define CLASSES(a)                                                             \
  "alu=" a " mul=0 mac=0 div=0 load=0 store=0 ldm_stm=0 "                      \
  "branch_taken=0 branch_not_taken=0 fp=0 exc=0"

/* Calibration 60 instructions, 80 cycles; samples 1049/2049/3049
 * instructions (offset 49 against 1000/2000/3000 counted). */
static const char good[] =
    "merlin-cycles 1\n"
    "model cortex-m4 1 ws=0\n"
    "sample 0 insns=60 cycles=80 " CLASSES(
        "10") "\n"
              "fn mport_counter_read 56 74\n"
              "sample 1 insns=1049 cycles=1080 " CLASSES(
                  "100") "\n"
                         "fn BlockSha3 600 700\n"
                         "fn mport_counter_read 56 74\n"
                         "fn mlkem_ntt 300 306\n"
                         "sample 2 insns=2049 cycles=2080 " CLASSES(
                             "210") "\n"
                                    "fn BlockSha3 1200 1500\n"
                                    "fn mlkem_ntt 700 506\n"
                                    "sample 3 insns=3049 cycles=3080 " CLASSES(
                                        "300") "\n"
                                               "end 4\n";

static void test_good(void) {
  uint64_t raw[3] = {3200, 6400, 9600};
  mh_run run;
  make_run(&run, raw);
  write_side(good);
  char err[512] = "";
  CHECK(mh_cycles_attach(&run, side, NULL, err, sizeof err) == 0);
  CHECK(run.cyc && strcmp(run.cyc->model, "cortex-m4") == 0);
  CHECK(run.cyc && run.cyc->offset == 49);
  const mh_cyc_op *c = run.ops[0].cyc;
  CHECK(c != NULL);
  if (!c) {
    clear_run(&run);
    return;
  }
  /* (cycles - 80) / batch 2: 500, 1000, 1500. */
  CHECK(c->has_est && c->n_est == 3);
  CHECK_EQ_DBL(c->est.median, 1000, 1e-9);
  CHECK_EQ_DBL(c->est.min, 500, 1e-9);
  /* Median sample by instructions: sample 2; alu (210 - 10) / 2. */
  CHECK_EQ_DBL(c->classes[0], 100, 1e-9);
  /* Profile of sample 2 in cycles: BlockSha3 1500, mlkem_ntt 506 - 0;
   * hash share 1500 / 2006. */
  CHECK_EQ_DBL(c->hash_share, 1500.0 / 2006.0, 1e-12);
  CHECK(c->n_top == 2 && strcmp(c->top[0].name, "BlockSha3") == 0);
  /* JSON round trip of the op fields and the provenance. */
  json_t *o = json_object(), *p = json_object();
  CHECK(mh_cycles_op_json(o, &run, &run.ops[0]) == 0);
  CHECK(mh_cycles_prov_json(p, &run) == 0);
  CHECK(strcmp(json_string_value(json_object_get(o, "cycle_model")),
               "cortex-m4 1") == 0);
  mh_op back;
  mh_run rback;
  memset(&back, 0, sizeof back);
  memset(&rback, 0, sizeof rback);
  CHECK(mh_cycles_read_op(o, &back, err, sizeof err) == 0);
  CHECK(mh_cycles_read_prov(p, &rback, err, sizeof err) == 0);
  CHECK(back.cyc && back.cyc->has_est &&
        back.cyc->est.median == c->est.median &&
        back.cyc->hash_share == c->hash_share && back.cyc->n_top == 2);
  CHECK(rback.cyc && rback.cyc->offset == 49);
  mh_cyc_op_free(back.cyc);
  free(back.cyc);
  mh_cyc_run_free(rback.cyc);
  free(rback.cyc);
  json_decref(o);
  json_decref(p);
  clear_run(&run);
}

static void expect_error(const char *name, const char *text, const char *msg) {
  uint64_t raw[3] = {3200, 6400, 9600};
  mh_run run;
  make_run(&run, raw);
  if (text)
    write_side(text);
  else
    unlink(side);
  char err[512] = "";
  int rc = mh_cycles_attach(&run, side, NULL, err, sizeof err);
  CHECK(rc == -1);
  if (rc != -1 || !strstr(err, msg))
    fprintf(stderr, "%s: got '%s', want '%s'\n", name, err, msg);
  CHECK_CONTAINS(err, msg);
  CHECK(run.ops[0].cyc == NULL);
  clear_run(&run);
}

static void test_errors(void) {
  expect_error("missing", NULL, "missing or unreadable");
  expect_error("empty", "", "empty");
  /* cut short: no end record, or a partial last line */
  char cut[sizeof good];
  memcpy(cut, good, sizeof good);
  *strstr(cut, "end 4\n") = '\0';
  expect_error("no end", cut, "cut short");
  cut[strlen(cut) - 3] = '\0';
  expect_error("partial line", cut, "incomplete");
  expect_error("bad header", "merlin-cycles 2\nend 0\n", "version 1");
  expect_error("garbled", "merlin-cycles 1\nmodel m 1 ws=0\nsample 0 x\n",
               "garbled");
  expect_error("end count", "merlin-cycles 1\nmodel m 1 ws=0\nend 3\n",
               "end record says 3");
  expect_error("count", "merlin-cycles 1\nmodel m 1 ws=0\nend 0\n",
               "cannot be matched");
  char off[sizeof good];
  memcpy(off, good, sizeof good);
  memcpy(strstr(off, "insns=2049"), "insns=2050", 10);
  expect_error("offset", off, "differs");
  /* with an exception in the sample: beyond what it accounts for (the
   * per-exception difference, at most MH_CYC_WRAP_SLACK) is an error */
  char *e = strstr(strstr(off, "sample 2 "), "exc=0");
  e[4] = '1';
  memcpy(strstr(off, "insns=2050"), "insns=2080", 10);
  expect_error("offset beyond slack", off, "exceptions account for");
  /* many wraps: a second sample that breaks the derived per-wrap rule by
   * more than the once-per-sample allowance */
  char many[sizeof good];
  memcpy(many, good, sizeof good);
  memcpy(strstr(many, "insns=2049"), "insns=2069", 10);
  strstr(strstr(many, "sample 2 "), "exc=0")[4] = '5';
  memcpy(strstr(many, "insns=3049"), "insns=3078", 10);
  strstr(strstr(many, "sample 3 "), "exc=0")[4] = '3';
  expect_error("many wraps, inconsistent", many, "exceptions account for");
}

/* Samples spanning many timer wraps (issue 20): 5 wraps add 20
 * instructions, 3 wraps 12: the per-wrap difference (4) is derived from
 * the first and required of the second, however many wraps each spans. */
static void test_many_wraps(void) {
  uint64_t raw[3] = {3200, 6400, 9600};
  mh_run run;
  make_run(&run, raw);
  char w[sizeof good];
  memcpy(w, good, sizeof good);
  memcpy(strstr(w, "insns=2049"), "insns=2069", 10);
  strstr(strstr(w, "sample 2 "), "exc=0")[4] = '5';
  memcpy(strstr(w, "insns=3049"), "insns=3061", 10);
  strstr(strstr(w, "sample 3 "), "exc=0")[4] = '3';
  write_side(w);
  char err[512] = "";
  CHECK(mh_cycles_attach(&run, side, NULL, err, sizeof err) == 0);
  if (err[0])
    fprintf(stderr, "many wraps: %s\n", err);
  CHECK(run.cyc && run.cyc->offset == 49 && run.cyc->wrap_samples == 2 &&
        run.cyc->wrap_insns == 4);
  clear_run(&run);
}

/* A timer wrap in sample 2 moves the counter's start by 4 instructions. */
static void test_wrap(void) {
  uint64_t raw[3] = {3200, 6400, 9600};
  mh_run run;
  make_run(&run, raw);
  char w[sizeof good];
  memcpy(w, good, sizeof good);
  memcpy(strstr(w, "insns=2049"), "insns=2053", 10);
  strstr(strstr(w, "sample 2 "), "exc=0")[4] = '1';
  write_side(w);
  char err[512] = "";
  CHECK(mh_cycles_attach(&run, side, NULL, err, sizeof err) == 0);
  CHECK(run.cyc && run.cyc->offset == 49 && run.cyc->wrap_samples == 1);
  clear_run(&run);
}

static void test_models(void) {
  const char *why;
  CHECK(strcmp(mh_cycles_model_arg("qemu-m4", "auto", &why), "m4") == 0);
  CHECK(why == NULL);
  CHECK(strcmp(mh_cycles_model_arg("qemu-m33", "auto", &why), "m33") == 0);
  CHECK(strcmp(mh_cycles_model_arg("qemu-m7", "auto", &why), "m7") == 0);
  CHECK(strcmp(mh_cycles_model_arg("qemu-m55", "auto", &why), "m55") == 0);
  CHECK(strcmp(mh_cycles_model_arg("qemu-m85", "auto", &why), "m85") == 0);
  /* a real board counts cycles itself: no model, and why */
  CHECK(strcmp(mh_cycles_model_arg("nucleo-h573zi", "auto", &why), "none") ==
        0);
  CHECK_CONTAINS(why, "counts core cycles");
  CHECK(strcmp(mh_cycles_model_arg("qemu-m3", "m4", &why), "m4") == 0);
  CHECK(mh_cycles_choice_valid("off") && mh_cycles_choice_valid("m7") &&
        mh_cycles_choice_valid("m33") && mh_cycles_choice_valid("m55") &&
        mh_cycles_choice_valid("m85") && !mh_cycles_choice_valid("m95"));
  CHECK(mh_cycles_is_hash_fn("KeccakF1600_StatePermute"));
  CHECK(mh_cycles_is_hash_fn("Transform_Sha256"));
  CHECK(mh_cycles_is_hash_fn("BlockSha3"));
  CHECK(!mh_cycles_is_hash_fn("mlkem_ntt"));
}

/* -plugin's value is QEMU option syntax: a comma in a path (MERLIN_ROOT,
 * MERLIN_QEMU_PLUGIN) is doubled, or QEMU would split the path there. */
static void test_argv_commas(void) {
  char **argv = calloc(2, sizeof *argv);
  CHECK(argv && (argv[0] = strdup("qemu-system-arm")));
  argv = mh_cycles_argv(argv, "/p,q/merlin_cycles.so", "/r,s/img.elf",
                        "/r,s/cycles.side", "m4", 2, "miss=0");
  CHECK(argv && strcmp(argv[1], "-plugin") == 0);
  CHECK(argv && strcmp(argv[2], "/p,,q/merlin_cycles.so,elf=/r,,s/img.elf,"
                                "out=/r,,s/cycles.side,model=m4,ws=2,"
                                "miss=0") == 0);
  argv = argv ? mh_ct_trace_argv(argv, "/r,s/ct.side") : NULL;
  CHECK(argv && strstr(argv[2], ",miss=0,ct=/r,,s/ct.side"));
  mh_argv_free(argv);
}

/* A board run's side file: memory-system record per sample, calls per
 * function. The calibration's stall cycles (cold caches) are not
 * subtracted from the samples. */
static const char with_mem[] =
    "merlin-cycles 1\n"
    "model cortex-m4 1 ws=0\n"
    "memsys flash=0x0-0x1000 ic=1024/16/64 dc=0/0/0 miss=5 prefetch=1 "
    "unified=0 mispredict=0\n"
    "sample 0 insns=60 cycles=180 " CLASSES(
        "10") "\n"
              "mem ic_miss=20 dc_miss=0 mispredict=0 stall=100\n"
              "fn mport_counter_read 56 174 2\n"
              "sample 1 insns=1049 cycles=1080 " CLASSES(
                  "100") "\n"
                         "mem ic_miss=4 dc_miss=2 mispredict=0 stall=30\n"
                         "fn KeccakF1600_StatePermute 600 700 6\n"
                         "fn PQCLEAN_MLKEM768_CLEAN_poly_ntt 100 106 2\n"
                         "fn PQCLEAN_MLKEM768_CLEAN_ntt 200 200 2\n"
                         "fn PQCLEAN_MLKEM768_CLEAN_invntt 50 60 2\n"
                         "sample 2 insns=2049 cycles=2080 " CLASSES(
                             "210") "\n"
                                    "mem ic_miss=0 dc_miss=0 mispredict=0 "
                                    "stall=0\n"
                                    "sample 3 insns=3049 cycles=3080 " CLASSES(
                                        "300") "\n"
                                               "mem ic_miss=0 dc_miss=0 "
                                               "mispredict=0 stall=0\n"
                                               "end 4\n";

static void test_board_and_accel(void) {
  mh_run run;
  uint64_t raw[3] = {1000 * 128 / 40, 2000 * 128 / 40, 3000 * 128 / 40};
  char err[512];
  make_run(&run, raw);
  write_side(with_mem);
  CHECK(mh_cycles_attach(&run, side, NULL, err, sizeof err) == 0);
  const mh_cyc_op *c = run.ops[0].cyc;
  CHECK(c && c->has_est && c->has_mem && c->has_acc);
  /* calibration: 180 - 100 stall = 80 table cycles; batch 2 */
  CHECK_EQ_DBL(c->est.min, (1080 - 80) / 2.0, 1e-9);
  CHECK_EQ_DBL(c->est.median, (2080 - 80) / 2.0, 1e-9);
  CHECK(run.cyc && run.cyc->memsys && strstr(run.cyc->memsys, "miss=5"));
  /* median sample (by instructions) is sample 2: no events, no profile;
   * sample 1 is the min. The profile is of the median sample. */
  CHECK_EQ_DBL(c->ic_miss, 0, 1e-12);
  clear_run(&run);

  /* The projection on a synthetic profile (Amdahl): 10 000 cycles, 6 000
   * in 40 Keccak calls, 2 000 in 4 NTT calls; at 124 and 1 536 cycles a
   * call the NTT accelerator would take longer (4 x 1 536 > 2 000), so the
   * NTT keeps its software cycles (a projection never adds time):
   * 10 000 - 6 000 + 40 x 124 = 8 960. */
  mh_acc_group g[MH_ACC_GROUPS] = {{6000, 40}, {2000, 4}, {500, 3}, {0, 0}};
  double cost[MH_ACC_GROUPS] = {124, 1536, -1, -1};
  CHECK_EQ_DBL(mh_accel_project(10000, g, cost), 8960, 1e-9);
  cost[MH_ACC_NTT] = 100; /* 10 000 - 8 000 + 4 960 + 400 */
  CHECK_EQ_DBL(mh_accel_project(10000, g, cost), 7360, 1e-9);
  cost[MH_ACC_SHA256] = 10; /* and SHA-256: - 500 + 30 */
  CHECK_EQ_DBL(mh_accel_project(10000, g, cost), 6890, 1e-9);
  double d[MH_ACC_GROUPS];
  memcpy(d, mh_accel_default, sizeof d);
  CHECK(mh_accel_parse("keccak=50,ntt=900", d, err, sizeof err) == 0);
  CHECK(d[MH_ACC_KECCAK] == 50 && d[MH_ACC_NTT] == 900 &&
        d[MH_ACC_SHA256] == mh_accel_default[MH_ACC_SHA256]);
  CHECK(mh_accel_parse("none", d, err, sizeof err) == 0 && d[0] < 0);
  CHECK(mh_accel_parse("keccak", d, err, sizeof err) == -1);
  CHECK_CONTAINS(err, "NAME=CYCLES");
  CHECK(mh_accel_parse("sha1=5", d, err, sizeof err) == -1);
  CHECK(mh_accel_parse("ntt=-1", d, err, sizeof err) == -1);
  int inv;
  CHECK(mh_cycles_acc_group("KeccakF1600_StatePermute", &inv) == MH_ACC_KECCAK);
  CHECK(mh_cycles_acc_group("BlockSha3", &inv) == MH_ACC_KECCAK);
  CHECK(mh_cycles_acc_group("PQCLEAN_MLDSA44_CLEAN_invntt_tomont", &inv) ==
            MH_ACC_NTT &&
        inv);
  CHECK(mh_cycles_acc_group("mlkem_ntt", &inv) == MH_ACC_NTT && !inv);
  CHECK(mh_cycles_acc_group("Transform_Sha256", &inv) == MH_ACC_SHA256);
  CHECK(mh_cycles_acc_group("mlkem_keygen", &inv) == -1);
  /* Energy: 168e6 cycles at 168 MHz = 1 s, x 3.3 V x 46 mA = 151.8 mJ. */
  CHECK_EQ_DBL(mh_energy_uj(168e6, 168e6, 46000, 3300), 151800, 1e-6);
  CHECK_EQ_DBL(mh_energy_uj(1, 0, 46000, 3300), 0, 1e-12);
}

/* The accelerator groups and calls of the median sample. */
static void test_acc_profile(void) {
  mh_run run;
  uint64_t raw[3] = {1000 * 128 / 40, 1000 * 128 / 40, 1000 * 128 / 40};
  char err[512];
  static const char text[] =
      "merlin-cycles 1\n"
      "model cortex-m4 1 ws=0\n"
      "sample 0 insns=60 cycles=80 " CLASSES(
          "10") "\n"
                "sample 1 insns=1049 cycles=1080 " CLASSES(
                    "100") "\n"
                           "sample 2 insns=1049 cycles=1080 " CLASSES(
                               "100") "\n"
                                      "fn KeccakF1600_StatePermute 600 700 6\n"
                                      "fn PQCLEAN_MLKEM768_CLEAN_poly_ntt 100 "
                                      "106 2\n"
                                      "fn PQCLEAN_MLKEM768_CLEAN_ntt 200 200 "
                                      "2\n"
                                      "fn PQCLEAN_MLKEM768_CLEAN_invntt 50 60 "
                                      "4\n"
                                      "sample 3 insns=1049 "
                                      "cycles=1080 " CLASSES("100") "\n"
                                                                    "end 4\n";
  make_run(&run, raw);
  write_side(text);
  CHECK(mh_cycles_attach(&run, side, NULL, err, sizeof err) == 0);
  const mh_cyc_op *c = run.ops[0].cyc;
  /* median: the second of three equal samples; batch 2 */
  CHECK(c && c->has_acc);
  CHECK_EQ_DBL(c->acc[MH_ACC_KECCAK].cycles, 350, 1e-9);
  CHECK_EQ_DBL(c->acc[MH_ACC_KECCAK].calls, 3, 1e-9);
  /* NTT: 106 + 200 + 60 cycles; calls: forward max(2, 2) + inverse 4 */
  CHECK_EQ_DBL(c->acc[MH_ACC_NTT].cycles, 366 / 2.0, 1e-9);
  CHECK_EQ_DBL(c->acc[MH_ACC_NTT].calls, 3, 1e-9);
  clear_run(&run);
}

/* merlin run -j parses the side files of parallel jobs on threads of one
 * process: two threads attaching the good side file many times each must
 * all succeed (the parser once shared strtok's state between them and read
 * "garbled record" about a file that was whole). */
enum { PARALLEL_ROUNDS = 300 };

static void *attach_many(void *arg) {
  int *failures = arg;
  for (int i = 0; i < PARALLEL_ROUNDS; i++) {
    uint64_t raw[3] = {3200, 6400, 9600};
    mh_op ops[1];
    mh_run run;
    fill_run(&run, ops, raw);
    char err[512] = "";
    if (mh_cycles_attach(&run, side, NULL, err, sizeof err) != 0 ||
        !run.ops[0].cyc || run.ops[0].cyc->est.median != 1000) {
      if (*failures == 0)
        fprintf(stderr, "parallel attach %d: %s\n", i, err);
      (*failures)++;
    }
    clear_run(&run);
  }
  return NULL;
}

static void test_parallel(void) {
  write_side(good);
  pthread_t th[2];
  int failures[2] = {0, 0}, started[2] = {0, 0};
  for (int t = 0; t < 2; t++)
    started[t] = pthread_create(&th[t], NULL, attach_many, &failures[t]) == 0;
  for (int t = 0; t < 2; t++)
    if (started[t])
      pthread_join(th[t], NULL);
  CHECK(started[0] && started[1]);
  CHECK(failures[0] == 0 && failures[1] == 0);
}

int main(void) {
  int fd = mkstemp(side);
  CHECK(fd >= 0);
  if (fd >= 0)
    close(fd);
  test_good();
  test_errors();
  test_wrap();
  test_many_wraps();
  test_models();
  test_argv_commas();
  test_board_and_accel();
  test_acc_profile();
  test_parallel();
  unlink(side);
  return check_report();
}
