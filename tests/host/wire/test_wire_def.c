/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writer and reader agree on src/wire/wire.def: a stream written by the
 * image's own writer (src/wire/wire_out.c, compiled in here with a console
 * that captures) holding every record type of wire.def and every field it
 * declares is accepted by the reader (host/wire/wire.c); the same stream
 * without any one required field is rejected, naming it; an undeclared field
 * in a closed record is rejected; a fault rejects the run.
 */
#include "check.h"
#include "model/model.h"
#include "wire/wire.h"
#include "wire/wire_def.h"

#include "../../../src/wire/wire_out.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char out[65536];
static size_t out_len;

void mport_console_write(const char *s, size_t n) {
  if (out_len + n > sizeof out) {
    fprintf(stderr, "test stream too long\n");
    exit(2);
  }
  memcpy(out + out_len, s, n);
  out_len += n;
}

_Noreturn void mport_exit(int code) {
  fprintf(stderr, "the writer stopped the run (%d)\n", code);
  exit(2);
}

/* What the next stream leaves out or adds. */
static int omit_rec = -1, omit_fld = -1, extra_rec = -1;
static int rec_seen[MWIRE_R_COUNT], fld_seen[MH_WIRE_N_FIELDS];

static int keep(int rec, int fld) {
  fld_seen[fld] = 1;
  return !(rec == omit_rec && fld == omit_fld);
}

/* The field's index in the reader's table (host/wire/wire_def.c). */
#define FLD(r, k) ((int)mh_wire_records[MH_WIRE_R_##r].first + MH_WIRE_K(r, k))
#define START(r) (rec_seen[MWIRE_R_##r] = 1, mcore_wire_start(MWIRE_R(r)))
#define STR(r, k, v)                                                           \
  (keep(MH_WIRE_R_##r, FLD(r, k)) ? mcore_wire_str(MWIRE_K(r, k), v) : (void)0)
#define U64(r, k, v)                                                           \
  (keep(MH_WIRE_R_##r, FLD(r, k)) ? mcore_wire_u64(MWIRE_K(r, k), v) : (void)0)
#define HEX(r, k, v)                                                           \
  (keep(MH_WIRE_R_##r, FLD(r, k)) ? mcore_wire_hex(MWIRE_K(r, k), v) : (void)0)
#define LIST(r, k, ...)                                                        \
  do {                                                                         \
    const uint64_t list_[] = {__VA_ARGS__};                                    \
    if (keep(MH_WIRE_R_##r, FLD(r, k)))                                        \
      mcore_wire_u64_list(MWIRE_K(r, k), list_,                                \
                          sizeof list_ / sizeof list_[0]);                     \
  } while (0)
#define END(r)                                                                 \
  do {                                                                         \
    if (extra_rec == MWIRE_R_##r)                                              \
      mcore_wire_u64("zz", 1);                                                 \
    mcore_wire_end();                                                          \
  } while (0)

static void reset(void) {
  seq = 0; /* the writer's own state (wire_out.c, included above) */
  out_len = 0;
}

static void begin(void) {
  START(begin);
  U64(begin, v, 1);
  STR(begin, target, "qemu-m4");
  STR(begin, core, "cortex-m4");
  U64(begin, clock_hz, 25000000);
  STR(begin, counter, "systick");
  STR(begin, unit, "ticks");
  U64(begin, counter_hz, 25000000);
  STR(begin, cycle_counter, "none");
  U64(begin, clock_measured_hz, 25000000);
  STR(begin, wallclock, "tim2 1 MHz");
  STR(begin, compiler, "gcc 12");
  STR(begin, cflags, "-O2 -g");
  STR(begin, profile, "default");
  STR(begin, source, "abc123");
  U64(begin, runs, 2);
  U64(begin, warmup, 0);
  U64(begin, stack_probe_bytes, 64);
  U64(begin, stack_capacity, 4096);
  CHECK(strcmp(MWIRE_P(begin, lib), "lib.") == 0);
  mcore_wire_str("lib.wolfssl", "5.7.0");
  CHECK(strcmp(MWIRE_P(begin, route), "route.") == 0);
  mcore_wire_str("route.sha256", "wolfcrypt:c");
  END(begin);
}

static void ops(void) {
  START(op);
  U64(op, id, 0);
  STR(op, alg, "sha256");
  STR(op, op, "hash");
  STR(op, backend, "wolfcrypt");
  STR(op, variant, "c");
  U64(op, bytes, 64);
  STR(op, obj, "ss:32");
  END(op);
  START(op);
  U64(op, id, 1);
  STR(op, alg, "sha256");
  STR(op, op, "hash");
  STR(op, backend, "mbedtls");
  STR(op, variant, "c");
  STR(op, bytes, "-");
  END(op);
}

static void wf(uint64_t id) {
  START(wf);
  U64(wf, id, id);
  STR(wf, workflow, "constrained");
  STR(wf, variant, "hkdf-aes128gcm");
  STR(wf, backend, "wolfcrypt");
  STR(wf, algs, "hkdf-sha256:wolfcrypt");
  STR(wf, steps, "ladder,frames");
  STR(wf, msgs, "epoch:tx,frames:rx");
  END(wf);
}

static void op_records(void) {
  START(overhead);
  U64(overhead, ticks, 10);
  END(overhead);
  START(nistkat);
  U64(nistkat, id, 0);
  STR(nistkat, records, "seed=0011223344556677,sha256=00,stack=8");
  END(nistkat);
  START(kat);
  U64(kat, id, 0);
  STR(kat, result, "pass");
  END(kat);
  START(ct);
  U64(ct, id, 0);
  U64(ct, n, 2);
  U64(ct, fresh, 1);
  LIST(ct, v, 100, 110);
  U64(ct, vg, 0);
  END(ct);
  START(plan);
  U64(plan, id, 0);
  U64(plan, batch, 1);
  U64(plan, warmup, 0);
  U64(plan, n, 2);
  END(plan);
  START(samples);
  U64(samples, id, 0);
  U64(samples, i, 0);
  LIST(samples, v, 100, 120);
  END(samples);
  START(ctl);
  U64(ctl, id, 0);
  U64(ctl, batch, 2);
  LIST(ctl, v, 300, 310);
  LIST(ctl, tsc, 900, 930);
  END(ctl);
  START(opend);
  U64(opend, id, 0);
  U64(opend, n, 2);
  U64(opend, stack, 100);
  U64(opend, heap, 8);
  U64(opend, allocs, 1);
  END(opend);
  START(kat);
  U64(kat, id, 1);
  STR(kat, result, "fail");
  STR(kat, detail, "vector 3");
  END(kat);
  START(error);
  STR(error, id, "-");
  STR(error, msg, "a run-wide error");
  END(error);
}

static void wf_records(void) {
  START(wfcheck);
  U64(wfcheck, id, 0);
  STR(wfcheck, result, "pass");
  LIST(wfcheck, msgs, 4, 672);
  U64(wfcheck, stored, 4);
  END(wfcheck);
  START(wfplan);
  U64(wfplan, id, 0);
  U64(wfplan, warmup, 0);
  U64(wfplan, n, 1);
  END(wfplan);
  START(wfsample);
  U64(wfsample, id, 0);
  U64(wfsample, i, 0);
  LIST(wfsample, v, 110, 210);
  END(wfsample);
  START(wfend);
  U64(wfend, id, 0);
  U64(wfend, n, 1);
  U64(wfend, stack, 100);
  U64(wfend, heap, 8);
  U64(wfend, allocs, 1);
  U64(wfend, ctl_hkdf, 50);
  U64(wfend, ctl_hkdf_batch, 1);
  U64(wfend, ctl_hmac, 60);
  U64(wfend, ctl_hmac_batch, 2);
  END(wfend);
  START(wfcheck);
  U64(wfcheck, id, 1);
  STR(wfcheck, result, "pass");
  LIST(wfcheck, msgs, 4, 672);
  U64(wfcheck, stored, 4);
  END(wfcheck);
  START(wferror);
  U64(wferror, id, 1);
  STR(wferror, msg, "the memory run failed");
  END(wferror);
  START(wfcheck);
  U64(wfcheck, id, 2);
  STR(wfcheck, result, "fail");
  STR(wfcheck, step, "kat");
  STR(wfcheck, detail, "sha256");
  END(wfcheck);
}

/* One run as the runner writes it, every record type but fault. */
static void write_run(void) {
  reset();
  begin();
  ops();
  for (uint64_t id = 0; id < 3; id++)
    wf(id);
  op_records();
  wf_records();
  START(end);
  U64(end, records, mcore_wire_count());
  STR(end, status, "ok");
  END(end);
}

static int parse(mh_wire_error *e) {
  mh_run run;
  int rc = mh_wire_parse(out, out_len, &run, e);
  if (rc == 0)
    mh_run_free(&run);
  return rc;
}

/* The writer's and the reader's view of wire.def are the same list. */
static void test_tables(void) {
  CHECK((int)MWIRE_R_COUNT == (int)MH_WIRE_R_COUNT);
  CHECK(strcmp(mh_wire_records[MH_WIRE_R_wfend].name, "wfend") == 0);
  CHECK(strcmp(mh_wire_fields[mh_wire_records[MH_WIRE_R_op].first +
                              (size_t)MH_WIRE_K(op, bytes)]
                   .key,
               "bytes") == 0);
  size_t total = 0;
  for (int r = 0; r < MH_WIRE_R_COUNT; r++) {
    size_t n = mh_wire_nfields(r);
    CHECK(n >= 1 && n <= MH_WIRE_MAX_FIELDS);
    CHECK(mh_wire_record_find(mh_wire_records[r].name,
                              strlen(mh_wire_records[r].name)) == r);
    total += n;
  }
  CHECK(total == MH_WIRE_N_FIELDS);
  CHECK(mh_wire_record_find("wfbogus", 7) == -1);
}

static void test_accepted(void) {
  mh_wire_error e;
  write_run();
  CHECK(parse(&e) == 0);
  if (e.msg[0])
    fprintf(stderr, "rejected: %s\n", e.msg);
  for (int r = 0; r < MH_WIRE_R_COUNT; r++)
    if (r != MH_WIRE_R_fault && !rec_seen[r])
      fprintf(stderr, "record %s not written\n", mh_wire_records[r].name);
  for (int r = 0; r < MH_WIRE_R_COUNT; r++)
    CHECK(r == MH_WIRE_R_fault || rec_seen[r]);
  for (size_t i = 0; i < MH_WIRE_N_FIELDS; i++) {
    if (mh_wire_fields[i].rec == MH_WIRE_R_fault)
      continue;
    if (!fld_seen[i])
      fprintf(stderr, "field %s.%s not written\n",
              mh_wire_records[mh_wire_fields[i].rec].name,
              mh_wire_fields[i].key);
    CHECK(fld_seen[i]);
  }
}

/* Without any one required field, the record is rejected, naming it. */
static void test_required(void) {
  size_t n_req = 0;
  for (size_t i = 0; i < MH_WIRE_N_FIELDS; i++) {
    const mh_wire_field *f = &mh_wire_fields[i];
    if (f->rec == MH_WIRE_R_fault || f->required != MWIRE_REQ)
      continue;
    omit_rec = f->rec;
    omit_fld = (int)i;
    write_run();
    mh_wire_error e;
    char want[96];
    snprintf(want, sizeof want, "%s record is missing required field '%s'",
             mh_wire_records[f->rec].name, f->key);
    CHECK(parse(&e) != 0);
    CHECK_CONTAINS(e.msg, want);
    n_req++;
  }
  omit_rec = omit_fld = -1;
  CHECK(n_req > 40);
}

/* A field wire.def does not declare: rejected in a closed record. */
static void test_unknown(void) {
  for (int r = 0; r < MH_WIRE_R_COUNT; r++) {
    if (r == MH_WIRE_R_fault)
      continue;
    extra_rec = r;
    write_run();
    mh_wire_error e;
    int rc = parse(&e);
    if (mh_wire_records[r].open == MWIRE_OPEN) {
      CHECK(rc == 0);
    } else {
      char want[64];
      snprintf(want, sizeof want, "unknown field 'zz' in %s record",
               mh_wire_records[r].name);
      CHECK(rc != 0);
      CHECK_CONTAINS(e.msg, want);
    }
  }
  extra_rec = -1;
}

static void test_fault(void) {
  reset();
  begin();
  START(fault);
  STR(fault, kind, "hardfault");
  U64(fault, exception, 3);
  HEX(fault, pc, 0x1234u);
  HEX(fault, lr, 0xfffffff9u);
  HEX(fault, exc_return, 0xfffffff9u);
  HEX(fault, cfsr, 0);
  HEX(fault, hfsr, 0x40000000u);
  HEX(fault, mmfar, 0);
  HEX(fault, bfar, 0);
  U64(fault, code, 0);
  U64(fault, heap_failures, 0);
  U64(fault, signal, 11);
  HEX(fault, addr, 0);
  STR(fault, detail, "kem.c:41: crypto_kem_enc: 0");
  END(fault);
  mh_wire_error e;
  CHECK(parse(&e) != 0);
  CHECK_CONTAINS(e.msg, "target fault: kind=hardfault pc=0x00001234");
  for (size_t i = 0; i < MH_WIRE_N_FIELDS; i++)
    CHECK(mh_wire_fields[i].rec != MH_WIRE_R_fault || fld_seen[i]);
}

int main(void) {
  test_tables();
  test_accepted();
  test_required();
  test_unknown();
  test_fault();
  return check_report();
}
