/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A constrained node: no public-key operation at all (docs/workflows.md).
 * Device and gateway share a 32-byte root key. For each epoch the device
 * walks a two-level key ladder with HKDF-SHA256:
 *   epoch key   = HKDF(ikm = root key,  info = "merlin epoch" || epoch)
 *   frame key   = HKDF(ikm = epoch key, info = "merlin frames") -> key || IV
 * sends the epoch number, then MWF_FRAMES frames of 64 bytes under
 * AES-128-GCM (mwf_frames.c). It stores the epoch number (so that a
 * (key, nonce) pair is never reused across restarts).
 */
#include "mwf.h"

#include <string.h>

enum { R_KDF, R_AEAD };
enum { M_EPOCH, M_FRAMES };

static const uint8_t epoch_info[] = "merlin epoch";
static const uint8_t frame_info[] = "merlin frames";

static struct {
  uint8_t root[MWF_ROOT_KEY_LEN];
  uint32_t epoch;
  uint8_t plain[MWF_FRAMES][MWF_FRAME_LEN];
  mwf_chan dev, gw;
} K;

static int setup(mwf_ctx *c, int first) {
  (void)c;
  if (first) {
    mcore_rng_fill(K.root, sizeof K.root);
    K.epoch = 0;
  }
  K.epoch++;
  mcore_rng_fill(&K.plain[0][0], sizeof K.plain);
  return MCORE_OK;
}

static int ladder(const mwf_ctx *c, mwf_chan *ch, const uint8_t *epoch) {
  const mcore_kdf_vt *kdf = c->impl[R_KDF]->vt.kdf;
  uint8_t info[sizeof epoch_info - 1 + MWF_EPOCH_LEN], ek[32];
  uint8_t okm[MWF_KEY_LEN + MWF_NONCE_LEN];
  memcpy(info, epoch_info, sizeof epoch_info - 1);
  memcpy(info + sizeof epoch_info - 1, epoch, MWF_EPOCH_LEN);
  if (kdf->derive(ek, sizeof ek, NULL, 0, K.root, sizeof K.root, info,
                  sizeof info) != MCORE_OK ||
      kdf->derive(okm, sizeof okm, NULL, 0, ek, sizeof ek, frame_info,
                  sizeof frame_info - 1) != MCORE_OK)
    return MCORE_ERR;
  mwf_chan_start(ch, okm, c);
  return MCORE_OK;
}

static int dev_ladder(mwf_ctx *c) {
  uint8_t *m = c->msg[M_EPOCH];
  for (int k = 0; k < MWF_EPOCH_LEN; k++)
    m[k] = (uint8_t)(K.epoch >> (8 * (MWF_EPOCH_LEN - 1 - k)));
  int rc = ladder(c, &K.dev, m);
  c->stored = MWF_EPOCH_LEN;
  mwf_sent(c, M_EPOCH, MWF_EPOCH_LEN);
  return mwf_op(c, rc, "device key ladder");
}

static int dev_frames(mwf_ctx *c) {
  uint8_t *out = c->msg[M_FRAMES];
  for (size_t f = 0; f < MWF_FRAMES; f++)
    if (mwf_chan_seal(&K.dev, c->impl[R_KDF], c->impl[R_AEAD], K.plain[f],
                      out + f * MWF_SEALED_LEN) != MCORE_OK)
      return mwf_fail(c, "operation", "device frame protection");
  mwf_sent(c, M_FRAMES, MWF_FRAMES * MWF_SEALED_LEN);
  return MCORE_OK;
}

static int gw_receive(mwf_ctx *c) {
  uint8_t pt[MWF_FRAME_LEN];
  if (ladder(c, &K.gw, c->msg[M_EPOCH]) != MCORE_OK)
    return mwf_fail(c, "operation", "gateway key ladder");
  if (memcmp(K.dev.key0, K.gw.key0, sizeof K.dev.key0) != 0)
    return mwf_fail(c, MWF_STEP_KEY,
                    "device and gateway derived different keys");
  const uint8_t *in = c->msg[M_FRAMES];
  for (size_t f = 0; f < MWF_FRAMES; f++) {
    if (mwf_chan_open(c, &K.gw, c->impl[R_KDF], c->impl[R_AEAD],
                      in + f * MWF_SEALED_LEN, pt) != MCORE_OK)
      return MCORE_ERR;
    if (memcmp(pt, K.plain[f], MWF_FRAME_LEN) != 0)
      return mwf_fail(c, MWF_STEP_TAG, "a frame opened to other bytes");
  }
  return MCORE_OK;
}

static const mwf_step steps[] = {{"ladder", MWF_DEVICE, dev_ladder},
                                 {"frames", MWF_DEVICE, dev_frames},
                                 {"check", MWF_PEER, gw_receive}};
static const mwf_msg msgs[] = {{"epoch", 1}, {"frames", 1}};

const mwf_def mwf_constrained_defs[] = {
    {"constrained",
     "hkdf-aes128gcm",
     {MCORE_ALG_HKDF_SHA256, MCORE_ALG_AES_128_GCM},
     2,
     steps,
     sizeof steps / sizeof steps[0],
     msgs,
     sizeof msgs / sizeof msgs[0],
     setup}};
const size_t mwf_n_constrained_defs = 1;
