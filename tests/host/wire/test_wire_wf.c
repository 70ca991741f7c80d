/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The workflow records of the wire reader (host/wire/wire_wf.c,
 * docs/wire-format.md): a valid stream parses into the model with the
 * right totals and step medians, and each broken rule is rejected with a
 * message naming it.
 */
#include "check.h"
#include "model/model.h"
#include "model/workflow.h"
#include "wire/wire.h"

#include "crc32.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 32

static const char *const base[] = {
    "begin v=1 target=host core=x clock_hz=1 counter=c unit=ns "
    "counter_hz=1000000000 compiler=c cflags=c profile=p source=s runs=2 "
    "warmup=0",
    "wf id=0 workflow=constrained variant=hkdf-aes128gcm backend=wolfcrypt "
    "algs=hkdf-sha256:wolfcrypt steps=ladder,frames msgs=epoch:tx,frames:rx",
    "overhead ticks=10",
    "wfcheck id=0 result=pass msgs=4,672 stored=4",
    "wfplan id=0 warmup=0 n=2",
    "wfsample id=0 i=0 v=110,210",
    "wfsample id=0 i=1 v=120,220",
    "wfend id=0 n=2 stack=100 heap=8 allocs=1 ctl_hkdf=50 ctl_hmac=60 "
    "ctl_hkdf_batch=1 ctl_hmac_batch=2",
    "end",
};
#define N_BASE (sizeof base / sizeof base[0])

/* The stream of bodies (NULL entries skipped), numbered and checksummed;
 * the last body gets "records=<seq> status=ok". */
static char *stream(const char *const *body, size_t n) {
  static char buf[16384];
  size_t at = 0;
  unsigned long seq = 0;
  for (size_t i = 0; i < n; i++) {
    if (!body[i])
      continue;
    char line[1024];
    int k = strcmp(body[i], "end") == 0
                ? snprintf(line, sizeof line,
                           "@M1 %lu end records=%lu "
                           "status=ok",
                           seq, seq)
                : snprintf(line, sizeof line, "@M1 %lu %s", seq, body[i]);
    uint32_t crc = mcore_crc32(0, line, (size_t)k);
    at += (size_t)snprintf(buf + at, sizeof buf - at, "%s #%08" PRIx32 "\n",
                           line, crc);
    seq++;
  }
  return buf;
}

/* Parse base with line i replaced by repl (NULL: dropped); expect failure
 * with want in the message. */
static void rejects(size_t i, const char *repl, const char *want) {
  const char *b[N_BASE];
  for (size_t k = 0; k < N_BASE; k++)
    b[k] = k == i ? repl : base[k];
  char *s = stream(b, N_BASE);
  mh_run run;
  mh_wire_error err;
  CHECK(mh_wire_parse(s, strlen(s), &run, &err) == -1);
  CHECK_CONTAINS(err.msg, want);
}

static void valid(void) {
  char *s = stream(base, N_BASE);
  mh_run run;
  mh_wire_error err;
  CHECK(mh_wire_parse(s, strlen(s), &run, &err) == 0);
  CHECK(run.n_wfs == 1);
  if (run.n_wfs != 1)
    return;
  mh_wf *w = &run.wfs[0];
  CHECK(strcmp(w->workflow, "constrained") == 0);
  CHECK(strcmp(w->algs, "hkdf-sha256:wolfcrypt") == 0);
  CHECK(w->n_steps == 2 && strcmp(w->steps[1], "frames") == 0);
  CHECK(w->n_msgs == 2 && w->msgs[0].tx == 1 && w->msgs[1].tx == 0);
  CHECK(w->msgs[1].bytes == 672 && mh_wf_wire_bytes(w) == 676);
  CHECK(w->stored == 4 && w->stack_bytes == 100 && w->heap_bytes == 8);
  char msg[128];
  CHECK(mh_run_finish(&run, 1.0, "ns", -1, msg, sizeof msg) == 0);
  /* Overhead 10 off each step: (100 + 200), (110 + 210). */
  CHECK(w->n_samples == 2);
  CHECK_EQ_DBL(w->samples[0], 300.0, 0);
  CHECK_EQ_DBL(w->samples[1], 320.0, 0);
  CHECK_EQ_DBL(w->stats.median, 310.0, 0);
  CHECK_EQ_DBL(w->step_median[0], 105.0, 0);
  CHECK_EQ_DBL(w->step_median[1], 205.0, 0);
  CHECK(w->has_ctl[0] && w->has_ctl[1]);
  CHECK_EQ_DBL(w->ctl[0], 40.0, 0);
  CHECK_EQ_DBL(w->ctl[1], 25.0, 0); /* (60 - 10) / 2 */
  mh_run_free(&run);
}

static void failed_check(void) {
  const char *b[] = {base[0], base[1], base[2],
                     "wfcheck id=0 result=fail step=tag%20check "
                     "detail=a%20frame",
                     "end"};
  char *s = stream(b, 5);
  mh_run run;
  mh_wire_error err;
  CHECK(mh_wire_parse(s, strlen(s), &run, &err) == 0);
  CHECK(run.n_wfs == 1 && run.wfs[0].check == -1);
  if (run.n_wfs == 1)
    CHECK(strcmp(run.wfs[0].fail_step, "tag check") == 0);
  char out[512] = "";
  FILE *f = fmemopen(out, sizeof out, "w");
  CHECK(f && mh_wf_report_failures(&run, "host", f) == 1);
  if (f)
    fclose(f);
  CHECK_CONTAINS(out, "workflow constrained hkdf-aes128gcm (wolfcrypt) "
                      "failed at tag check: a frame");
  mh_run_free(&run);
}

/* A workflow whose KEM comes from an implementation folder names the
 * folder's backend, "impl:<scheme>/<impl>" (docs/bring-your-own.md). */
static void impl_backend(void) {
  const char *b[N_BASE];
  for (size_t k = 0; k < N_BASE; k++)
    b[k] = base[k];
  b[1] = "wf id=0 workflow=constrained variant=v "
         "backend=impl:ml-kem-512/clean+wolfcrypt "
         "algs=ml-kem-512:impl:ml-kem-512/clean,hkdf-sha256:wolfcrypt "
         "steps=ladder,frames msgs=epoch:tx,frames:rx";
  char *s = stream(b, N_BASE);
  mh_run run;
  mh_wire_error err;
  CHECK(mh_wire_parse(s, strlen(s), &run, &err) == 0);
  CHECK(run.n_wfs == 1 &&
        strcmp(run.wfs[0].backend, "impl:ml-kem-512/clean+wolfcrypt") == 0);
  mh_run_free(&run);
}

int main(void) {
  valid();
  failed_check();
  impl_backend();
  rejects(1,
          "wf id=0 workflow=constrained variant=v:x backend=b algs=a:b "
          "steps=ladder msgs=epoch:tx",
          "malformed variant");
  rejects(1,
          "wf id=0 workflow=constrained variant=v backend=b algs=a:b "
          "steps=ladder msgs=epoch:tx x=1",
          "unknown field 'x' in wf record");
  rejects(1,
          "wf id=0 workflow=constrained variant=v backend=b algs=a:b "
          "steps=ladder msgs=epoch:up",
          "malformed msgs");
  rejects(3, "wfcheck id=0 result=pass msgs=4,672,1 stored=4",
          "expected 2 comma separated numbers");
  rejects(3, "wfcheck id=0 result=pass msgs=4,0 stored=4", "has 0 bytes");
  rejects(3, "wfcheck id=0 result=maybe", "expected pass or fail");
  rejects(5, "wfsample id=0 i=0 v=110", "has 1 values, expected 2");
  rejects(5, "wfsample id=7 i=0 v=110,210", "never announced");
  rejects(5, "wfsample id=0 i=1 v=110,210", "expected 0 of 2");
  rejects(7, NULL, "passed its check and never ended");
  rejects(7, "wfend id=0 n=1 stack=1 heap=1 allocs=1",
          "says n=1 but 2 sample(s) were received");
  rejects(7, "wfend id=0 n=2", "a timed workflow ends with stack");
  rejects(7, "wfend id=0 n=2 stack=1 heap=1 allocs=1 ctl_hkdf=50",
          "ctl_hkdf and ctl_hkdf_batch come together");
  rejects(4, NULL, "wfsample record for workflow 0 outside its plan");
  rejects(3, "wfcheck id=0 result=fail step=kat detail=x",
          "wfplan record for workflow 0 out of place");
  rejects(2, "wfbogus id=0", "unknown record type 'wfbogus'");
  return check_report();
}
