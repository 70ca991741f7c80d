/* SPDX-License-Identifier: Apache-2.0 */
/*
 * End-to-end device workflows (docs/workflows.md): provisioning a new key,
 * a session between two capable nodes, a constrained node. A workflow is a
 * list of steps over the backend-neutral vtables of mcore.h; device steps
 * are timed one by one, peer steps and checks run untimed. The runner
 * (src/core/runner.c) calls the three entry points at the end of this
 * header; mwf_run.c gates, times and reports every instance.
 *
 * Message layouts (every field, its size, its order) are documented in
 * docs/workflows.md, whose table a test compares with the bytes a run
 * reports. The constants below are the fields that are not objects of a
 * primitive (whose sizes come from the vtables).
 */
#ifndef MERLIN_MWF_H
#define MERLIN_MWF_H

#include "mcore.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MWF_DEVICE_ID_LEN 8 /* device identifier in device_hello */
#define MWF_KEY_ID_LEN 4    /* identifier of a stored key */
#define MWF_NONCE_LEN 12    /* AES-128-GCM nonce */
#define MWF_TAG_LEN 16      /* AES-128-GCM tag */
#define MWF_KEY_LEN 16      /* AES-128 key */
#define MWF_NEW_KEY_LEN 32  /* key material a provisioning delivers */
#define MWF_ROOT_KEY_LEN 32 /* device root key (storage, key ladder) */
#define MWF_CTR_LEN 4       /* frame counter on the wire */
#define MWF_EPOCH_LEN 4     /* key-ladder epoch on the wire */
#define MWF_FRAME_LEN 64    /* payload of one frame (one CAN FD frame) */
#define MWF_FRAMES 8        /* frames per session / constrained run */
/* One protected frame: counter || ciphertext || tag. */
#define MWF_SEALED_LEN (MWF_CTR_LEN + MWF_FRAME_LEN + MWF_TAG_LEN)

#define MWF_MAX_ALGS 6
#define MWF_MAX_STEPS 12
#define MWF_MAX_MSGS 4
#define MWF_MSG_MAX 8192

/* Failure kinds a workflow names (docs/workflows.md). */
#define MWF_STEP_VERIFY "signature verify"
#define MWF_STEP_KEY "key mismatch"
#define MWF_STEP_TAG "tag check"
#define MWF_STEP_REPLAY "replay check"

typedef struct mwf_ctx mwf_ctx;

typedef enum { MWF_DEVICE, MWF_PEER } mwf_side;

typedef struct {
  const char *name; /* device steps: the step name on the wire */
  mwf_side side;
  int (*fn)(mwf_ctx *c);
} mwf_step;

typedef struct {
  const char *name;
  int device_sends; /* 1: device -> peer, 0: peer -> device */
} mwf_msg;

typedef struct {
  const char *workflow;         /* provision, session, constrained */
  const char *variant;          /* classical-p256, pqc-mlkem512-mldsa44 ... */
  mcore_alg algs[MWF_MAX_ALGS]; /* the primitives, by role (see each file) */
  size_t n_algs;
  const mwf_step *steps;
  size_t n_steps;
  const mwf_msg *msgs;
  size_t n_msgs;
  /* Resets the workflow's state for one run (untimed; long-term keys of
   * both sides are made once per instance by the first call). */
  int (*setup)(mwf_ctx *c, int first);
} mwf_def;

struct mwf_ctx {
  const mwf_def *def;
  const mcore_impl *impl[MWF_MAX_ALGS]; /* parallel to def->algs */
  uint8_t *msg[MWF_MAX_MSGS];           /* message buffers */
  size_t msg_len[MWF_MAX_MSGS];         /* bytes actually produced */
  size_t stored;                        /* bytes the device stores */
  uint32_t frame_limit;  /* frames per key before a refresh (session) */
  uint32_t refreshes;    /* key refreshes done in this run */
  const char *fail_step; /* on failure: MWF_STEP_* or "operation" */
  char detail[96];
};

/* Record that message i is complete with len bytes (the producing step
 * calls it); applies the --wf-corrupt test hook. */
void mwf_sent(mwf_ctx *c, size_t i, size_t len);
/* Fail with kind (MWF_STEP_*) and a detail; returns MCORE_ERR. */
int mwf_fail(mwf_ctx *c, const char *kind, const char *detail);
/* An operation returned an error: fails with kind "operation". */
int mwf_op(mwf_ctx *c, int rc, const char *what);

/* AES-128-GCM one-shot through the AEAD vtable (context set up each call,
 * as a node that holds no expanded key would). */
int mwf_seal(const mcore_impl *aead, const uint8_t *key, const uint8_t *nonce,
             const uint8_t *aad, size_t aad_len, const uint8_t *pt, size_t len,
             uint8_t *ct, uint8_t *tag);
int mwf_open(const mcore_impl *aead, const uint8_t *key, const uint8_t *nonce,
             const uint8_t *aad, size_t aad_len, const uint8_t *ct, size_t len,
             const uint8_t *tag, uint8_t *pt);
/* The counter nonce of frame ctr: iv XOR (ctr, big-endian, last 4 bytes). */
void mwf_frame_nonce(uint8_t nonce[MWF_NONCE_LEN], const uint8_t *iv,
                     uint32_t ctr);

/* A one-way channel of protected frames (mwf_frames.c): AES-128-GCM under
 * key, nonce = iv XOR counter, the counter sent with each frame (and
 * authenticated as its AAD). Before the counter reaches limit, both ends
 * refresh the key: key || iv = HKDF-SHA256(ikm = key || iv, info =
 * "merlin refresh"), and the counter restarts at 0. The receiver accepts
 * only the next counter value (an in-order link): anything else is a
 * replay or a loss (MWF_STEP_REPLAY). */
typedef struct {
  uint8_t key[MWF_KEY_LEN], iv[MWF_NONCE_LEN];
  uint32_t ctr, limit, refreshes;
  uint8_t key0[MWF_KEY_LEN + MWF_NONCE_LEN]; /* as derived, for the check */
} mwf_chan;

/* Start a channel on okm = key || iv as derived (each workflow derives it
 * its own way): counter 0, no refresh yet, c's frame limit. Inline, and the
 * limit read last, so that both callers run what they ran when each had its
 * own copy. */
static inline void mwf_chan_start(mwf_chan *ch, const uint8_t *okm,
                                  const mwf_ctx *c) {
  memcpy(ch->key, okm, MWF_KEY_LEN);
  memcpy(ch->iv, okm + MWF_KEY_LEN, MWF_NONCE_LEN);
  memcpy(ch->key0, okm, sizeof ch->key0);
  ch->ctr = 0;
  ch->refreshes = 0;
  ch->limit = c->frame_limit;
}

/* out: MWF_SEALED_LEN bytes. */
int mwf_chan_seal(mwf_chan *ch, const mcore_impl *kdf, const mcore_impl *aead,
                  const uint8_t *pt, uint8_t *out);
/* MCORE_OK, or a failure through mwf_fail (tag check, replay check). */
int mwf_chan_open(mwf_ctx *c, mwf_chan *ch, const mcore_impl *kdf,
                  const mcore_impl *aead, const uint8_t *in, uint8_t *pt);

/* The workflow tables (one file each). */
extern const mwf_def mwf_provision_defs[];
extern const size_t mwf_n_provision_defs;
extern const mwf_def mwf_session_defs[];
extern const size_t mwf_n_session_defs;
extern const mwf_def mwf_constrained_defs[];
extern const size_t mwf_n_constrained_defs;

/* ---- entry points for the runner (src/core/runner.c) --------------- */

/* The outcome of one operation's KAT (every op of every impl reports). */
void mwf_note_kat(const mcore_impl *impl, int rc);
/* Announce every workflow instance of the image (wf records). */
void mwf_announce(void);
/* Gate, check, time and report every instance; returns 1 if any failed.
 * runs == 0: --kat-only (correctness check only). */
int mwf_run_all(uint32_t runs, uint32_t warmup);
/* --wf-corrupt WORKFLOW/MESSAGE: flip one byte of that message in the
 * correctness run. Returns 0, or -1 when the value is malformed. */
int mwf_set_corrupt(const char *spec);

#endif
