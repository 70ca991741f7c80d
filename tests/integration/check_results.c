/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checks a results.json against the contract (docs/results.md), for the
 * end-to-end tests:
 *   check_results structure FILE TARGET [ALG/OP/BACKEND ...]
 *       every run/op field present and consistent, every KAT passed, and
 *       each listed operation present for TARGET;
 *   check_results same-medians FILE_A FILE_B
 *       the two files hold the same operations with identical medians.
 * Prints one line per failed check and "N passed, N failed".
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;

static void check(int ok, const char *what, const char *detail) {
  if (ok) {
    passed++;
  } else {
    failed++;
    printf("FAIL: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  }
}

static int finish(void) {
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

static json_t *load(const char *path) {
  json_error_t err;
  json_t *root = json_load_file(path, 0, &err);
  if (!root)
    printf("FAIL: %s: line %d: %s\n", path, err.line, err.text);
  return root;
}

static void op_label(json_t *op, char *buf, size_t n) {
  json_t *bytes = json_object_get(op, "bytes");
  snprintf(
      buf, n, "%s/%s/%s/%lld", json_string_value(json_object_get(op, "alg")),
      json_string_value(json_object_get(op, "op")),
      json_string_value(json_object_get(op, "backend")),
      json_is_integer(bytes) ? (long long)json_integer_value(bytes) : -1LL);
}

static const char *const stat_fields[] = {"median", "p99",  "iqr",    "min",
                                          "max",    "mean", "stddev", "cv"};

static void check_op(json_t *op) {
  char label[160];
  op_label(op, label, sizeof label);
  const char *strs[] = {"alg", "op", "backend", "variant", "unit", "kat"};
  for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
    check(json_is_string(json_object_get(op, strs[i])), label, strs[i]);
  check(json_object_get(op, "bytes") != NULL, label, "bytes present");
  const char *kat = json_string_value(json_object_get(op, "kat"));
  check(kat && strcmp(kat, "pass") == 0, label, "kat is pass");
  json_t *samples = json_object_get(op, "samples");
  json_int_t n = json_integer_value(json_object_get(op, "n"));
  check(json_is_array(samples) && (json_int_t)json_array_size(samples) == n &&
            n > 0,
        label, "samples has n entries");
  for (size_t i = 0; i < sizeof stat_fields / sizeof stat_fields[0]; i++)
    check(json_is_number(json_object_get(op, stat_fields[i])), label,
          stat_fields[i]);
  double median = json_number_value(json_object_get(op, "median"));
  double min = json_number_value(json_object_get(op, "min"));
  double max = json_number_value(json_object_get(op, "max"));
  double p99 = json_number_value(json_object_get(op, "p99"));
  check(min <= median && median <= p99 && p99 <= max, label,
        "min <= median <= p99 <= max");
  check(median > 0, label, "median is positive (never a zero time)");
  check(json_integer_value(json_object_get(op, "batch")) >= 1, label,
        "batch >= 1");
  /* Every operation calls at least one function: its stack is never 0; heap
   * may be. */
  json_t *sb = json_object_get(op, "stack_bytes");
  check(json_is_integer(sb) && json_integer_value(sb) > 0, label,
        "stack_bytes is a positive integer");
  check(json_is_integer(json_object_get(op, "heap_bytes")), label,
        "heap_bytes is an integer");
  check(json_is_integer(json_object_get(op, "heap_allocs")), label,
        "heap_allocs is an integer");
}

static json_t *find_run(json_t *root, const char *target) {
  size_t i;
  json_t *run;
  json_array_foreach(json_object_get(root, "runs"), i, run) {
    const char *t = json_string_value(json_object_get(run, "target"));
    if (t && strcmp(t, target) == 0)
      return run;
  }
  return NULL;
}

static int structure(const char *path, const char *target, int n_want,
                     char **want) {
  json_t *root = load(path);
  if (!root)
    return 1;
  check(json_integer_value(json_object_get(root, "schema")) == 1, "schema",
        "is 1");
  json_t *run = find_run(root, target);
  check(run != NULL, "run for target", target);
  if (!run) {
    json_decref(root);
    return finish();
  }
  json_t *prov = json_object_get(run, "provenance");
  const char *pfields[] = {"core",   "counter", "unit",   "compiler",
                           "cflags", "source",  "profile"};
  check(json_is_object(prov), "provenance", "object");
  for (size_t i = 0; i < sizeof pfields / sizeof pfields[0]; i++) {
    json_t *v = json_object_get(prov, pfields[i]);
    if (!v)
      v = json_object_get(run, pfields[i]);
    check(json_is_string(v), "provenance field", pfields[i]);
  }
  check(json_is_object(json_object_get(prov, "libraries")), "provenance field",
        "libraries");
  size_t i;
  json_t *op;
  json_t *ops = json_object_get(run, "ops");
  check(json_array_size(ops) > 0, "ops", "non-empty");
  json_array_foreach(ops, i, op) check_op(op);
  for (int w = 0; w < n_want; w++) {
    char alg[64], name[32], backend[32];
    if (sscanf(want[w], "%63[^/]/%31[^/]/%31s", alg, name, backend) != 3) {
      check(0, "bad expectation", want[w]);
      continue;
    }
    int found = 0;
    json_array_foreach(ops, i, op) {
      if (strcmp(json_string_value(json_object_get(op, "alg")), alg) == 0 &&
          strcmp(json_string_value(json_object_get(op, "op")), name) == 0 &&
          strcmp(json_string_value(json_object_get(op, "backend")), backend) ==
              0)
        found = 1;
    }
    check(found, "operation present", want[w]);
  }
  json_decref(root);
  return finish();
}

/* Every operation with a secret input carries a constant-time verdict that
 * applied at least one method, and every finding is in the list
 * (constant-time/expected-findings.txt): a new finding fails the test. The
 * algorithms' object sizes, code sizes and fits are there too. */
static int ct_and_costs(const char *path, const char *target) {
  static const char *const secret_ops[] = {"mac",     "derive",  "setup",
                                           "encrypt", "decrypt", "auth",
                                           "shared",  "sign",    "decaps"};
  json_t *root = load(path);
  if (!root)
    return 1;
  json_t *run = find_run(root, target);
  check(run != NULL, "run for target", target);
  size_t i;
  json_t *op;
  int n_ct = 0;
  json_array_foreach(json_object_get(run, "ops"), i, op) {
    char label[160];
    op_label(op, label, sizeof label);
    const char *name = json_string_value(json_object_get(op, "op"));
    int secret = 0;
    for (size_t k = 0; name && k < sizeof secret_ops / sizeof *secret_ops; k++)
      secret |= strcmp(name, secret_ops[k]) == 0;
    json_t *ct = json_object_get(op, "ct");
    if (!secret) {
      check(ct == NULL, label, "no ct verdict without a secret input");
      continue;
    }
    n_ct++;
    const char *st = json_string_value(json_object_get(ct, "status"));
    const char *why = json_string_value(json_object_get(ct, "detail"));
    if (st && strcmp(st, "unchecked") == 0 && why && strstr(why, "ASan"))
      continue; /* make test-sanitize: no memcheck on an ASan image */
    check(st && (strcmp(st, "none") == 0 || strcmp(st, "expected") == 0 ||
                 strcmp(st, "finding") == 0),
          label, "ct status is none, expected or finding (a method applied)");
    check(json_array_size(json_object_get(ct, "method")) > 0, label,
          "ct names its method");
    check(json_is_true(json_object_get(ct, "listed")), label,
          "every constant-time finding is in the expected-findings list");
  }
  check(n_ct > 0, "ct verdicts", "present");
  json_t *alg;
  json_array_foreach(json_object_get(run, "algorithms"), i, alg) {
    const char *a = json_string_value(json_object_get(alg, "alg"));
    check(json_is_object(json_object_get(alg, "object_bytes")), a,
          "object_bytes");
    json_t *fl = json_object_get(alg, "flash_bytes");
    check(json_is_integer(fl) && json_integer_value(fl) > 0, a,
          "flash_bytes is positive");
    check(json_is_integer(json_object_get(alg, "ram_bytes")), a, "ram_bytes");
  }
  json_decref(root);
  return finish();
}

static int same_medians(const char *a_path, const char *b_path) {
  json_t *a = load(a_path), *b = load(b_path);
  if (!a || !b) {
    json_decref(a);
    json_decref(b);
    return 1;
  }
  size_t r;
  json_t *run_a;
  json_array_foreach(json_object_get(a, "runs"), r, run_a) {
    const char *target = json_string_value(json_object_get(run_a, "target"));
    json_t *run_b = find_run(b, target ? target : "");
    check(run_b != NULL, "target in both files", target);
    if (!run_b)
      continue;
    json_t *ops_a = json_object_get(run_a, "ops");
    json_t *ops_b = json_object_get(run_b, "ops");
    check(json_array_size(ops_a) == json_array_size(ops_b), "same op count",
          target);
    for (size_t i = 0; i < json_array_size(ops_a) && i < json_array_size(ops_b);
         i++) {
      char la[160], lb[160], msg[400];
      op_label(json_array_get(ops_a, i), la, sizeof la);
      op_label(json_array_get(ops_b, i), lb, sizeof lb);
      double ma = json_number_value(
          json_object_get(json_array_get(ops_a, i), "median"));
      double mb = json_number_value(
          json_object_get(json_array_get(ops_b, i), "median"));
      snprintf(msg, sizeof msg, "%s: %.17g vs %.17g", la, ma, mb);
      check(strcmp(la, lb) == 0 && ma == mb, "identical median", msg);
    }
  }
  json_decref(a);
  json_decref(b);
  return finish();
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "structure") == 0)
    return structure(argv[2], argv[3], argc - 4, argv + 4);
  if (argc == 4 && strcmp(argv[1], "same-medians") == 0)
    return same_medians(argv[2], argv[3]);
  if (argc == 4 && strcmp(argv[1], "ct-costs") == 0)
    return ct_and_costs(argv[2], argv[3]);
  fprintf(stderr,
          "usage: check_results structure FILE TARGET [ALG/OP/BACKEND...]\n"
          "       check_results same-medians FILE_A FILE_B\n"
          "       check_results ct-costs FILE TARGET\n");
  return 2;
}
