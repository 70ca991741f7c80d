/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The interleaved control (docs/results.md, "noise"): after every
 * operation's samples the runner times the same control primitive, the
 * HMAC-SHA256 of a 64-byte message on wolfCrypt that every profile carries,
 * a few times. Under QEMU its count never moves; on the host it shows what
 * the machine did during the run, operation by operation, so that a drift
 * of the machine's speed shows up as drift of the control, not as a
 * difference between operations. Outside the samples: no timed span
 * changes.
 */
#include "control.h"
#include "mcore.h"
#include "port.h"
#include "wire_out.h"

#define CTL_PROBES 3
#define CTL_MAX_BATCH 4096u

/* A port without a second counter leaves this default (port.h). */
__attribute__((weak)) uint64_t mport_cycles_read(void) { return 0; }

static const mcore_mac_vt *ctl_vt;
static uint32_t ctl_batch; /* fixed at the first probe: probes compare */

static const mcore_mac_vt *find_control(void) {
  for (size_t b = 0; b < mcore_n_backends; b++) {
    const mcore_backend *be = mcore_backends[b];
    if (be->id != MCORE_BACKEND_WOLFCRYPT)
      continue;
    for (size_t i = 0; i < be->n_impls; i++)
      if (be->impls[i].alg == MCORE_ALG_HMAC_SHA256)
        return be->impls[i].vt.mac;
  }
  return NULL;
}

void mcore_control_probe(uint32_t id) {
  static const uint8_t key[32] = {1};
  static const uint8_t msg[64] = {2};
  uint8_t tag[32];
  uint64_t v[CTL_PROBES], c[CTL_PROBES];
  if (!ctl_batch) {
    ctl_vt = find_control();
    if (!ctl_vt)
      return;
    uint64_t t0 = mport_counter_read();
    ctl_vt->mac(tag, key, sizeof key, msg, sizeof msg);
    uint64_t once = mport_counter_read() - t0;
    uint64_t floor_ticks = mport_describe()->min_sample_ticks;
    ctl_batch = 1;
    while (once * ctl_batch < floor_ticks && ctl_batch < CTL_MAX_BATCH)
      ctl_batch *= 2;
  }
  if (!ctl_vt)
    return;
  for (int p = 0; p < CTL_PROBES; p++) {
    mport_counter_restart();
    uint64_t c0 = mport_cycles_read();
    uint64_t t0 = mport_counter_read();
    for (uint32_t k = 0; k < ctl_batch; k++)
      ctl_vt->mac(tag, key, sizeof key, msg, sizeof msg);
    uint64_t t1 = mport_counter_read();
    c[p] = mport_cycles_read() - c0;
    v[p] = t1 - t0;
  }
  mcore_wire_start(MWIRE_R(ctl));
  mcore_wire_u64(MWIRE_K(ctl, id), id);
  mcore_wire_u64(MWIRE_K(ctl, batch), ctl_batch);
  mcore_wire_u64_list(MWIRE_K(ctl, v), v, CTL_PROBES);
  if (c[0])
    mcore_wire_u64_list(MWIRE_K(ctl, tsc), c, CTL_PROBES);
  mcore_wire_end();
}
