/* SPDX-License-Identifier: Apache-2.0 */
/* The fairness line of report.md (host/report/report_wf.c): fair when the
 * controls agree within 3%; "not judged" naming the machine's noise when
 * the control timed after every operation varied by more than 3% within
 * the run itself (issue 19: on a loaded machine the line must blame the
 * noise, not the images); "not fair" when they differ on a steady
 * machine; and the line with no control figures at all. */
#include "analysis/workflows.h"
#include "check.h"
#include "report/report_wf.h"

#include <string.h>

#define PROBES 40

static char PROV[] = "provision", CL[] = "classical-p256", PQ[] = "ml-kem-512";
static char A[] = "a", HOST[] = "host", PROFILE[] = "default";

static mh_wf wfs[2];
static mh_result run;
static double ctl[PROBES];

/* One run on the host: two workflows whose HKDF controls are `a` and `b`,
 * and the control timed after every operation varying by `noise` (the
 * last quarter of the probes that much slower). */
static mh_results results_of(double a, double b, double noise, size_t probes) {
  memset(wfs, 0, sizeof wfs);
  wfs[0].workflow = wfs[1].workflow = PROV;
  wfs[0].variant = CL, wfs[1].variant = PQ;
  wfs[0].backend = wfs[1].backend = A;
  wfs[0].has_ctl[0] = wfs[1].has_ctl[0] = 1;
  wfs[0].ctl[0] = a, wfs[1].ctl[0] = b;
  for (size_t i = 0; i < probes; i++)
    ctl[i] = i >= probes - probes / 4 ? 1000.0 * (1.0 + noise) : 1000.0;
  memset(&run, 0, sizeof run);
  run.target = HOST, run.profile = PROFILE;
  run.run.wfs = wfs, run.run.n_wfs = 2;
  run.run.ctl = ctl, run.run.n_ctl = probes, run.run.ticks_to_unit = 1;
  mh_results r = {.runs = &run, .n_runs = 1};
  return r;
}

static void line_of(const mh_results *r, const char *target, char *out,
                    size_t cap) {
  mh_sb b = {0};
  mh_report_fairness(&b, r, target, 0);
  CHECK(!b.failed && b.s != NULL);
  snprintf(out, cap, "%s", b.s ? b.s : "");
  mh_sb_free(&b);
}

static void test_fair(void) {
  mh_results r = results_of(100, 102, 0.01, PROBES);
  char s[2048];
  line_of(&r, "host", s, sizeof s);
  CHECK_CONTAINS(s, "**Fairness (host, 1 image):**");
  CHECK_CONTAINS(s, "largest difference 2.00%");
  CHECK_CONTAINS(s, "The comparison is fair");
}

static void test_noisy_machine(void) {
  /* The controls 10% apart while the machine itself moved by 20%: the
   * line names the noise and does not call the images unfair. */
  mh_results r = results_of(100, 110, 0.20, PROBES);
  char s[2048];
  line_of(&r, "host", s, sizeof s);
  CHECK_CONTAINS(s, "largest difference 10.00%");
  CHECK_CONTAINS(s, "**Not judged: the machine was not steady.**");
  CHECK_CONTAINS(s, "varied by 20.0% within the runs themselves");
  CHECK(strstr(s, "not fair") == NULL);
}

static void test_steady_but_different(void) {
  mh_results r = results_of(100, 110, 0.01, PROBES);
  char s[2048];
  line_of(&r, "host", s, sizeof s);
  CHECK_CONTAINS(s, "**The comparison is not fair**");
  /* Too few probes for a noise figure: no excuse either. */
  r = results_of(100, 110, 0.20, 7);
  line_of(&r, "host", s, sizeof s);
  CHECK_CONTAINS(s, "**The comparison is not fair**");
}

static void test_nothing_to_compare(void) {
  mh_results r = results_of(100, 110, 0.20, PROBES);
  char s[2048];
  line_of(&r, "qemu-m4", s, sizeof s);
  CHECK_CONTAINS(s, "nothing to compare");
}

int main(void) {
  test_fair();
  test_noisy_machine();
  test_steady_but_different();
  test_nothing_to_compare();
  return check_report();
}
