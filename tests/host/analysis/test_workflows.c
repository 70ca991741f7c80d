/* SPDX-License-Identifier: Apache-2.0 */
/* The workflow analysis (host/analysis/workflows.c): the classical reference
 * of a provisioning workflow, the bytes each way, and the fairness check of
 * the control medians. */
#include "analysis/workflows.h"
#include "check.h"

#include <string.h>

static char PROV[] = "provision", CL[] = "classical-p256", PQ[] = "ml-kem-512";
static char A[] = "a", B[] = "b";

static void test_reference_and_bytes(void) {
  mh_wf w[3] = {0};
  w[0].workflow = PROV, w[0].variant = CL, w[0].backend = A;
  w[1].workflow = PROV, w[1].variant = CL, w[1].backend = B;
  w[2].workflow = PROV, w[2].variant = PQ, w[2].backend = B;
  for (size_t i = 0; i < 3; i++)
    w[i].n_samples = 1;
  mh_run run = {.wfs = w, .n_wfs = 3};
  /* The same backend first, the first classical one failing that. */
  CHECK(mh_an_wf_reference(&run, &w[2]) == &w[1]);
  w[1].n_samples = 0;
  CHECK(mh_an_wf_reference(&run, &w[2]) == &w[0]);
  mh_wf_msg m[3] = {{NULL, 1, 100}, {NULL, 0, 40}, {NULL, 1, 2}};
  w[2].msgs = m, w[2].n_msgs = 3;
  uint64_t sent, recv;
  mh_an_wf_bytes(&w[2], &sent, &recv);
  CHECK(sent == 102 && recv == 40);
}

static void test_fairness(void) {
  mh_wf w[2] = {0};
  w[0].workflow = w[1].workflow = PROV;
  w[0].variant = CL, w[1].variant = PQ;
  w[0].backend = w[1].backend = A;
  w[0].has_ctl[0] = w[1].has_ctl[0] = 1;
  w[0].ctl[0] = 100, w[1].ctl[0] = 102; /* HKDF control: 2 % apart */
  char target[] = "host", profile[] = "default";
  mh_result x = {0};
  x.target = target, x.profile = profile;
  x.run.wfs = w, x.run.n_wfs = 2;
  mh_results r = {.runs = &x, .n_runs = 1};
  double largest;
  char what[256];
  CHECK(mh_an_wf_fairness(&r, "host", &largest, what, sizeof what) == 2);
  CHECK_EQ_DBL(largest, 0.02, 1e-12);
  CHECK(largest <= MH_AN_FAIR_LIMIT);
  CHECK(strstr(what, "ml-kem-512") != NULL);
  CHECK(mh_an_wf_fairness(&r, "qemu-m4", &largest, what, sizeof what) == 0);
}

int main(void) {
  test_reference_and_bytes();
  test_fairness();
  return check_report();
}
