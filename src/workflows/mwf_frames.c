/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Protected 64-byte frames under AES-128-GCM with a counter nonce, and the
 * key refresh before the counter would wrap (mwf.h: mwf_chan). Used by the
 * session and the constrained node; layout in docs/workflows.md.
 */
#include "mwf.h"

#include <string.h>

static const uint8_t refresh_info[] = "merlin refresh";

static int refresh(mwf_chan *ch, const mcore_impl *kdf) {
  uint8_t ikm[MWF_KEY_LEN + MWF_NONCE_LEN], okm[sizeof ikm];
  memcpy(ikm, ch->key, MWF_KEY_LEN);
  memcpy(ikm + MWF_KEY_LEN, ch->iv, MWF_NONCE_LEN);
  int rc = kdf->vt.kdf->derive(okm, sizeof okm, NULL, 0, ikm, sizeof ikm,
                               refresh_info, sizeof refresh_info - 1);
  if (rc != MCORE_OK)
    return rc;
  memcpy(ch->key, okm, MWF_KEY_LEN);
  memcpy(ch->iv, okm + MWF_KEY_LEN, MWF_NONCE_LEN);
  ch->ctr = 0;
  ch->refreshes++;
  return MCORE_OK;
}

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

int mwf_chan_seal(mwf_chan *ch, const mcore_impl *kdf, const mcore_impl *aead,
                  const uint8_t *pt, uint8_t *out) {
  if (ch->ctr >= ch->limit && refresh(ch, kdf) != MCORE_OK)
    return MCORE_ERR;
  uint8_t nonce[MWF_NONCE_LEN];
  mwf_frame_nonce(nonce, ch->iv, ch->ctr);
  put32(out, ch->ctr);
  int rc = mwf_seal(aead, ch->key, nonce, out, MWF_CTR_LEN, pt, MWF_FRAME_LEN,
                    out + MWF_CTR_LEN, out + MWF_CTR_LEN + MWF_FRAME_LEN);
  ch->ctr++;
  return rc;
}

int mwf_chan_open(mwf_ctx *c, mwf_chan *ch, const mcore_impl *kdf,
                  const mcore_impl *aead, const uint8_t *in, uint8_t *pt) {
  if (ch->ctr >= ch->limit && refresh(ch, kdf) != MCORE_OK)
    return mwf_fail(c, "operation", "key refresh failed");
  uint32_t ctr = (uint32_t)in[0] << 24 | (uint32_t)in[1] << 16 |
                 (uint32_t)in[2] << 8 | in[3];
  if (ctr != ch->ctr)
    return mwf_fail(c, MWF_STEP_REPLAY,
                    ctr < ch->ctr ? "frame counter replayed"
                                  : "frame counter skipped ahead");
  uint8_t nonce[MWF_NONCE_LEN];
  mwf_frame_nonce(nonce, ch->iv, ctr);
  int rc = mwf_open(aead, ch->key, nonce, in, MWF_CTR_LEN, in + MWF_CTR_LEN,
                    MWF_FRAME_LEN, in + MWF_CTR_LEN + MWF_FRAME_LEN, pt);
  if (rc == MCORE_BAD_SIGNATURE)
    return mwf_fail(c, MWF_STEP_TAG, "a frame's AES-128-GCM tag did not check");
  if (rc != MCORE_OK)
    return mwf_fail(c, "operation", "AES-128-GCM decrypt failed");
  ch->ctr++;
  return MCORE_OK;
}
