/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A session between two capable nodes, device A and peer B
 * (docs/workflows.md). Both hold Ed25519 long-term keys and know the
 * other's public key.
 *   A: X25519 key pair                  -> a_hello = A's share
 *   B: X25519 key pair, shared secret, Ed25519 signature over
 *      a_hello || B's share             -> b_hello = B's share || signature
 *   A: verify, shared secret, Ed25519 signature over B's share || A's share
 *                                        -> a_auth = signature
 *   A: session key and IV with HKDF-SHA256, then MWF_FRAMES frames of 64
 *      bytes under AES-128-GCM        -> frames
 *   B: verify a_auth, same keys, open every frame (tag and counter).
 * Two scalar multiplications per side (key pair and shared secret).
 */
#include "mwf.h"

#include <string.h>

enum { R_X, R_SIG, R_KDF, R_AEAD };
enum { M_A_HELLO, M_B_HELLO, M_A_AUTH, M_FRAMES };

static const uint8_t kdf_info[] = "merlin session v1";

static struct {
  uint8_t a_pk[32], a_sk[128], b_pk[32], b_sk[128]; /* Ed25519 long-term */
  uint8_t a_xpk[32], a_xsk[32], b_xpk[32], b_xsk[32];
  uint8_t a_ss[32], b_ss[32];
  uint8_t plain[MWF_FRAMES][MWF_FRAME_LEN];
  mwf_chan a_ch, b_ch;
} S;

static int setup(mwf_ctx *c, int first) {
  const mcore_sig_vt *sig = c->impl[R_SIG]->vt.sig;
  if (first && (sig->keygen(S.a_pk, S.a_sk) != MCORE_OK ||
                sig->keygen(S.b_pk, S.b_sk) != MCORE_OK))
    return mwf_fail(c, "operation", "long-term key generation");
  mcore_rng_fill(&S.plain[0][0], sizeof S.plain);
  return MCORE_OK;
}

static int a_keygen(mwf_ctx *c) {
  int rc = c->impl[R_X]->vt.ka->keygen(S.a_xpk, S.a_xsk);
  memcpy(c->msg[M_A_HELLO], S.a_xpk, sizeof S.a_xpk);
  mwf_sent(c, M_A_HELLO, sizeof S.a_xpk);
  return mwf_op(c, rc, "A key generation");
}

/* Transcript of two shares: first || second. */
static void pair(uint8_t t[64], const uint8_t *first, const uint8_t *second) {
  memcpy(t, first, 32);
  memcpy(t + 32, second, 32);
}

static int keys(const mwf_ctx *c, mwf_chan *ch, const uint8_t *ss,
                const uint8_t *a_share, const uint8_t *b_share) {
  uint8_t salt[64], okm[MWF_KEY_LEN + MWF_NONCE_LEN];
  pair(salt, a_share, b_share);
  int rc =
      c->impl[R_KDF]->vt.kdf->derive(okm, sizeof okm, salt, sizeof salt, ss, 32,
                                     kdf_info, sizeof kdf_info - 1);
  mwf_chan_start(ch, okm, c);
  return rc;
}

static int b_answer(mwf_ctx *c) {
  const mcore_ka_vt *x = c->impl[R_X]->vt.ka;
  const uint8_t *a_share = c->msg[M_A_HELLO];
  uint8_t t[64];
  uint8_t *m = c->msg[M_B_HELLO];
  size_t sig_len = c->impl[R_SIG]->vt.sig->sig_len;
  if (x->keygen(S.b_xpk, S.b_xsk) != MCORE_OK ||
      x->shared(S.b_ss, S.b_xsk, a_share) != MCORE_OK)
    return mwf_fail(c, "operation", "B key agreement");
  pair(t, a_share, S.b_xpk);
  if (c->impl[R_SIG]->vt.sig->sign(m + 32, &sig_len, t, sizeof t, S.b_sk) !=
      MCORE_OK)
    return mwf_fail(c, "operation", "B signature");
  memcpy(m, S.b_xpk, 32);
  mwf_sent(c, M_B_HELLO, 32 + sig_len);
  return MCORE_OK;
}

static int a_verify(mwf_ctx *c) {
  const uint8_t *m = c->msg[M_B_HELLO];
  uint8_t t[64];
  if (c->msg_len[M_B_HELLO] <= 32)
    return mwf_fail(c, MWF_STEP_VERIFY, "b_hello carries no signature");
  pair(t, S.a_xpk, m);
  if (c->impl[R_SIG]->vt.sig->verify(m + 32, c->msg_len[M_B_HELLO] - 32, t,
                                     sizeof t, S.b_pk) != MCORE_OK)
    return mwf_fail(c, MWF_STEP_VERIFY,
                    "the peer's Ed25519 signature did not verify");
  return MCORE_OK;
}

static int a_shared(mwf_ctx *c) {
  return mwf_op(c,
                c->impl[R_X]->vt.ka->shared(S.a_ss, S.a_xsk, c->msg[M_B_HELLO]),
                "A shared secret");
}

static int a_sign(mwf_ctx *c) {
  uint8_t t[64];
  size_t sig_len = c->impl[R_SIG]->vt.sig->sig_len;
  pair(t, c->msg[M_B_HELLO], S.a_xpk);
  int rc = c->impl[R_SIG]->vt.sig->sign(c->msg[M_A_AUTH], &sig_len, t, sizeof t,
                                        S.a_sk);
  mwf_sent(c, M_A_AUTH, sig_len);
  return mwf_op(c, rc, "A signature");
}

static int a_kdf(mwf_ctx *c) {
  return mwf_op(c, keys(c, &S.a_ch, S.a_ss, S.a_xpk, c->msg[M_B_HELLO]),
                "A key derivation");
}

static int a_frames(mwf_ctx *c) {
  uint8_t *out = c->msg[M_FRAMES];
  for (size_t f = 0; f < MWF_FRAMES; f++)
    if (mwf_chan_seal(&S.a_ch, c->impl[R_KDF], c->impl[R_AEAD], S.plain[f],
                      out + f * MWF_SEALED_LEN) != MCORE_OK)
      return mwf_fail(c, "operation", "A frame protection");
  mwf_sent(c, M_FRAMES, MWF_FRAMES * MWF_SEALED_LEN);
  return MCORE_OK;
}

static int b_receive(mwf_ctx *c) {
  uint8_t t[64], pt[MWF_FRAME_LEN];
  pair(t, S.b_xpk, c->msg[M_A_HELLO]);
  if (c->impl[R_SIG]->vt.sig->verify(c->msg[M_A_AUTH], c->msg_len[M_A_AUTH], t,
                                     sizeof t, S.a_pk) != MCORE_OK)
    return mwf_fail(c, MWF_STEP_VERIFY,
                    "the device's Ed25519 signature did not verify");
  if (keys(c, &S.b_ch, S.b_ss, c->msg[M_A_HELLO], S.b_xpk) != MCORE_OK)
    return mwf_fail(c, "operation", "B key derivation");
  if (memcmp(S.a_ch.key0, S.b_ch.key0, sizeof S.a_ch.key0) != 0)
    return mwf_fail(c, MWF_STEP_KEY, "A and B derived different keys");
  const uint8_t *in = c->msg[M_FRAMES];
  if (c->msg_len[M_FRAMES] != MWF_FRAMES * MWF_SEALED_LEN)
    return mwf_fail(c, MWF_STEP_TAG, "frames message has the wrong length");
  for (size_t f = 0; f < MWF_FRAMES; f++) {
    if (mwf_chan_open(c, &S.b_ch, c->impl[R_KDF], c->impl[R_AEAD],
                      in + f * MWF_SEALED_LEN, pt) != MCORE_OK)
      return MCORE_ERR;
    if (memcmp(pt, S.plain[f], MWF_FRAME_LEN) != 0)
      return mwf_fail(c, MWF_STEP_TAG, "a frame opened to other bytes");
  }
  /* The refresh logic: frames 0..N-1 with `limit` frames per key. */
  uint32_t want =
      c->frame_limit < MWF_FRAMES ? (MWF_FRAMES - 1) / c->frame_limit : 0;
  if (S.a_ch.refreshes != want || S.b_ch.refreshes != want)
    return mwf_fail(c, "key refresh",
                    "the key was not refreshed before the counter limit");
  c->refreshes = want;
  return MCORE_OK;
}

static const mwf_step steps[] = {
    {"keygen", MWF_DEVICE, a_keygen}, {"peer", MWF_PEER, b_answer},
    {"verify", MWF_DEVICE, a_verify}, {"shared", MWF_DEVICE, a_shared},
    {"sign", MWF_DEVICE, a_sign},     {"kdf", MWF_DEVICE, a_kdf},
    {"frames", MWF_DEVICE, a_frames}, {"check", MWF_PEER, b_receive}};
static const mwf_msg msgs[] = {
    {"a_hello", 1}, {"b_hello", 0}, {"a_auth", 1}, {"frames", 1}};

const mwf_def mwf_session_defs[] = {
    {"session",
     "x25519-ed25519",
     {MCORE_ALG_X25519, MCORE_ALG_ED25519, MCORE_ALG_HKDF_SHA256,
      MCORE_ALG_AES_128_GCM},
     4,
     steps,
     sizeof steps / sizeof steps[0],
     msgs,
     sizeof msgs / sizeof msgs[0],
     setup}};
const size_t mwf_n_session_defs = 1;
