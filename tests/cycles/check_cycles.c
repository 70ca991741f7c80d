/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checks results.json files of the cycle-model e2e test (e2e_cycles.sh):
 *   check_cycles A.json B.json OFF.json
 * A and B: two runs of qemu-m4 with the plugin; OFF: --cycle-model off.
 * Every op has instructions and est_cycles, identical in A and B; the
 * instruction figures are the same with and without the plugin; the
 * classes add up to the instruction count (plus the fixed bracket edge);
 * ML-KEM-768 and ML-DSA-44 show a hashing share.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failed;

#define FAIL(...)                                                              \
  do {                                                                         \
    fprintf(stderr, "check_cycles: " __VA_ARGS__);                             \
    fputc('\n', stderr);                                                       \
    failed = 1;                                                                \
  } while (0)

static const char *const stats[] = {"median", "p99",  "iqr",    "min",
                                    "max",    "mean", "stddev", "cv"};

static json_t *load(const char *path) {
  json_error_t e;
  json_t *j = json_load_file(path, 0, &e);
  if (!j)
    FAIL("%s: %s", path, e.text);
  return j;
}

static json_t *ops_of(json_t *j) {
  return json_object_get(json_array_get(json_object_get(j, "runs"), 0), "ops");
}

static const char *label(json_t *op, char *buf, size_t n) {
  json_t *b = json_object_get(op, "bytes");
  snprintf(buf, n, "%s %s %lld", json_string_value(json_object_get(op, "alg")),
           json_string_value(json_object_get(op, "op")),
           json_is_integer(b) ? json_integer_value(b) : -1LL);
  return buf;
}

static double num(json_t *o, const char *k) {
  json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

static void check_op(json_t *op) {
  char l[128];
  label(op, l, sizeof l);
  if (strcmp(json_string_value(json_object_get(op, "unit")), "instructions"))
    FAIL("%s: unit is not instructions", l);
  json_t *est = json_object_get(op, "est_cycles");
  if (!json_is_object(est)) {
    FAIL("%s: no est_cycles", l);
    return;
  }
  for (size_t i = 0; i < sizeof stats / sizeof stats[0]; i++)
    if (!isfinite(num(est, stats[i])))
      FAIL("%s: est_cycles.%s is not a number", l, stats[i]);
  const char *m = json_string_value(json_object_get(op, "cycle_model"));
  if (!m || strcmp(m, "cortex-m4 2") != 0)
    FAIL("%s: cycle_model is '%s', not 'cortex-m4 2'", l, m ? m : "(none)");
  double med = num(op, "median");
  if (!(num(est, "median") >= med))
    FAIL("%s: est_cycles median %g below %g instructions", l,
         num(est, "median"), med);
  json_t *cls = json_object_get(op, "insn_classes");
  const char *k;
  json_t *v;
  double sum = 0;
  json_object_foreach(cls, k, v) sum += json_number_value(v);
  if (json_object_size(cls) != 10)
    FAIL("%s: insn_classes has %zu classes, not 10", l, json_object_size(cls));
  /* the region of a sample is the counter's plus the fixed bracket edge */
  if (!(sum >= med && sum <= med + 64))
    FAIL("%s: classes add up to %g, instructions %g", l, sum, med);
  json_t *p = json_object_get(op, "profile");
  double hs = num(p, "hash_share");
  json_t *top = json_object_get(p, "top");
  if (!(hs >= 0 && hs <= 1) || !json_is_array(top) ||
      json_array_size(top) == 0 || json_array_size(top) > 5)
    FAIL("%s: profile malformed", l);
  double prev = 1, total = 0;
  for (size_t i = 0; i < json_array_size(top); i++) {
    double s = num(json_array_get(top, i), "share");
    if (!(s > 0 && s <= prev))
      FAIL("%s: profile.top not in decreasing share order", l);
    prev = s;
    total += s;
  }
  if (total > 1 + 1e-9)
    FAIL("%s: top shares add up to %g", l, total);
  const char *alg = json_string_value(json_object_get(op, "alg"));
  if ((strcmp(alg, "ml-kem-768") == 0 || strcmp(alg, "ml-dsa-44") == 0 ||
       strcmp(alg, "sha256") == 0) &&
      !(hs > 0.2))
    FAIL("%s: hash_share %g: hashing not found", l, hs);
  else
    printf(
        "%-24s %10.0f insns %10.0f est. cycles  hash share %4.1f%%  top "
        "%s\n",
        l, med, num(est, "median"), 100 * hs,
        json_string_value(json_object_get(json_array_get(top, 0), "function")));
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: check_cycles A.json B.json OFF.json\n");
    return 2;
  }
  json_t *a = load(argv[1]), *b = load(argv[2]), *off = load(argv[3]);
  if (!a || !b || !off)
    return 1;
  json_t *prov = json_object_get(json_array_get(json_object_get(a, "runs"), 0),
                                 "provenance");
  json_t *cm = json_object_get(prov, "cycle_model");
  if (!json_is_string(json_object_get(cm, "name")) ||
      strcmp(json_string_value(json_object_get(cm, "name")), "cortex-m4") ||
      !json_is_integer(json_object_get(cm, "plugin_offset_insns")))
    FAIL("provenance.cycle_model missing or not cortex-m4");
  json_t *pb = json_object_get(json_array_get(json_object_get(b, "runs"), 0),
                               "provenance");
  if (!json_equal(cm, json_object_get(pb, "cycle_model")))
    FAIL("provenance.cycle_model differs between two runs");
  json_t *poff = json_object_get(
      json_array_get(json_object_get(off, "runs"), 0), "provenance");
  if (json_object_get(poff, "cycle_model"))
    FAIL("--cycle-model off: provenance still has cycle_model");
  json_t *oa = ops_of(a), *ob = ops_of(b), *oo = ops_of(off);
  if (json_array_size(oa) == 0 || json_array_size(oa) != json_array_size(ob) ||
      json_array_size(oa) != json_array_size(oo))
    FAIL("the three runs have different operations");
  for (size_t i = 0; i < json_array_size(oa); i++) {
    json_t *x = json_array_get(oa, i), *y = json_array_get(ob, i),
           *z = json_array_get(oo, i);
    char l[128];
    label(x, l, sizeof l);
    check_op(x);
    if (!json_equal(json_object_get(x, "est_cycles"),
                    json_object_get(y, "est_cycles")) ||
        !json_equal(json_object_get(x, "insn_classes"),
                    json_object_get(y, "insn_classes")) ||
        !json_equal(json_object_get(x, "profile"),
                    json_object_get(y, "profile")) ||
        !json_equal(json_object_get(x, "samples"),
                    json_object_get(y, "samples")))
      FAIL("%s: two runs differ", l);
    if (!json_equal(json_object_get(x, "samples"),
                    json_object_get(z, "samples")))
      FAIL("%s: instruction samples change when the plugin is loaded", l);
    if (json_object_get(z, "est_cycles") || json_object_get(z, "profile"))
      FAIL("%s: --cycle-model off still has est_cycles/profile", l);
  }
  json_decref(a);
  json_decref(b);
  json_decref(off);
  if (!failed)
    printf("check_cycles: ok\n");
  return failed;
}
