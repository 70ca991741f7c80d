/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Provisioning: the device receives a new key (docs/workflows.md).
 *   device: ephemeral key pair -> device_hello = device_id || share
 *   server: its key-establishment message and a signature, with its
 *           long-term key, over the transcript device_hello || server share
 *           -> server_hello = server share || signature
 *   device: verify, complete the key establishment, derive the new key with
 *           HKDF-SHA256, store (key id, the server's public key, nonce,
 *           the new key under AES-128-GCM, tag) with a storage key derived
 *           from its root key.
 * Shares: classical the P-256 point; post-quantum the ML-KEM encapsulation
 * key / ciphertext; hybrid as X25519MLKEM768 of draft-ietf-tls-ecdhe-mlkem:
 * ML-KEM part first, then X25519, and the shared secret is the ML-KEM
 * secret followed by the X25519 secret (both into the KDF).
 */
#include "mwf.h"

#include "mops.h"

#include <stdlib.h>
#include <string.h>

enum { R_KE, R_SIG, R_KDF, R_AEAD, R_X }; /* roles in mwf_def.algs */
enum { M_DEV_HELLO, M_SRV_HELLO };

static const uint8_t kdf_info[] = "merlin provision v1";
static const uint8_t store_info[] = "merlin storage v1";
static const uint8_t key_id[MWF_KEY_ID_LEN] = {0, 0, 0, 1};
static const uint8_t device_id[MWF_DEVICE_ID_LEN] = {'m', 'e', 'r', 'l',
                                                     'i', 'n', 0,   1};

/* The exchange's state lives on the heap (mcore_harness_malloc, outside
 * the accounting, so no heap figure changes), allocated at the first
 * setup: the workflows run after every operation, and in .bss next to the
 * operations' buffers it would not fit the smaller boards' RAM (RP2040,
 * STM32F439: docs/targets.md). */
static struct prov_state {
  uint8_t srv_pk[MOPS_CAT_PK_MAX],
      srv_sk[MOPS_CAT_SK_MAX]; /* long-term signing */
  uint8_t dev_pk[MOPS_CAT_PK_MAX],
      dev_sk[MOPS_CAT_SK_MAX];      /* device ephemeral */
  uint8_t dev_xpk[32], dev_xsk[32]; /* hybrid: X25519 */
  uint8_t srv_epk[MOPS_CAT_PK_MAX], srv_esk[MOPS_CAT_SK_MAX], srv_xsk[32];
  uint8_t share[MOPS_CAT_CT_MAX];      /* server share, as the server made it */
  uint8_t transcript[MWF_MSG_MAX * 2]; /* the device's view */
  uint8_t srv_transcript[MWF_MSG_MAX * 2]; /* the server's view */
  uint8_t dev_ss[64], srv_ss[64];
  uint8_t dev_key[MWF_NEW_KEY_LEN], srv_key[MWF_NEW_KEY_LEN];
  uint8_t root[MWF_ROOT_KEY_LEN];
  uint8_t record[MWF_KEY_ID_LEN + MOPS_CAT_PK_MAX + MWF_NONCE_LEN +
                 MWF_NEW_KEY_LEN + MWF_TAG_LEN];
  size_t dev_hello_len; /* the device's own copy of what it sent */
} * P;

static int is_kem(const mwf_ctx *c) {
  return mcore_alg_class(c->impl[R_KE]->alg) == MCORE_CLASS_KEM;
}

static int hybrid(const mwf_ctx *c) { return c->def->n_algs > R_X; }

/* Device share / server share lengths. */
static size_t dev_share_len(const mwf_ctx *c) {
  size_t n =
      is_kem(c) ? c->impl[R_KE]->vt.kem->pk_len : c->impl[R_KE]->vt.ka->pk_len;
  return n + (hybrid(c) ? c->impl[R_X]->vt.ka->pk_len : 0);
}

static size_t srv_share_len(const mwf_ctx *c) {
  size_t n =
      is_kem(c) ? c->impl[R_KE]->vt.kem->ct_len : c->impl[R_KE]->vt.ka->pk_len;
  return n + (hybrid(c) ? c->impl[R_X]->vt.ka->pk_len : 0);
}

static size_t ss_len(const mwf_ctx *c) {
  size_t n =
      is_kem(c) ? c->impl[R_KE]->vt.kem->ss_len : c->impl[R_KE]->vt.ka->ss_len;
  return n + (hybrid(c) ? c->impl[R_X]->vt.ka->ss_len : 0);
}

static int setup(mwf_ctx *c, int first) {
  if (!P && !(P = mcore_harness_malloc(sizeof *P)))
    return mwf_fail(c, "operation", "no heap for the provisioning state");
  if (first) {
    mcore_rng_fill(P->root, sizeof P->root);
    if (c->impl[R_SIG]->vt.sig->keygen(P->srv_pk, P->srv_sk) != MCORE_OK)
      return mwf_fail(c, "operation", "server long-term key generation");
  }
  return MCORE_OK;
}

/* device: ephemeral key pair(s), device_hello. */
static int dev_keygen(mwf_ctx *c) {
  uint8_t *m = c->msg[M_DEV_HELLO];
  memcpy(m, device_id, MWF_DEVICE_ID_LEN);
  uint8_t *share = m + MWF_DEVICE_ID_LEN;
  int rc;
  if (is_kem(c)) {
    uint8_t coins[64];
    mcore_rng_fill(coins, sizeof coins);
    rc = c->impl[R_KE]->vt.kem->keygen(P->dev_pk, P->dev_sk, coins);
    memcpy(share, P->dev_pk, c->impl[R_KE]->vt.kem->pk_len);
  } else {
    rc = c->impl[R_KE]->vt.ka->keygen(P->dev_pk, P->dev_sk);
    memcpy(share, P->dev_pk, c->impl[R_KE]->vt.ka->pk_len);
  }
  if (rc == MCORE_OK && hybrid(c)) {
    rc = c->impl[R_X]->vt.ka->keygen(P->dev_xpk, P->dev_xsk);
    memcpy(share + c->impl[R_KE]->vt.kem->pk_len, P->dev_xpk,
           c->impl[R_X]->vt.ka->pk_len);
  }
  P->dev_hello_len = MWF_DEVICE_ID_LEN + dev_share_len(c);
  memcpy(P->transcript, m, P->dev_hello_len); /* what the device sent */
  mwf_sent(c, M_DEV_HELLO, P->dev_hello_len);
  return mwf_op(c, rc, "device key generation");
}

static int derive(const mwf_ctx *c, uint8_t *key, const uint8_t *ss) {
  return c->impl[R_KDF]->vt.kdf->derive(key, MWF_NEW_KEY_LEN, device_id,
                                        MWF_DEVICE_ID_LEN, ss, ss_len(c),
                                        kdf_info, sizeof kdf_info - 1);
}

/* server: key establishment, signature over the transcript. */
static int srv_answer(mwf_ctx *c) {
  const uint8_t *hello = c->msg[M_DEV_HELLO];
  const uint8_t *dev_share = hello + MWF_DEVICE_ID_LEN;
  size_t share_len = srv_share_len(c);
  int rc;
  if (is_kem(c)) {
    const mcore_kem_vt *kem = c->impl[R_KE]->vt.kem;
    uint8_t coins[32];
    mcore_rng_fill(coins, sizeof coins);
    rc = kem->encaps(P->share, P->srv_ss, dev_share, coins);
  } else {
    const mcore_ka_vt *ka = c->impl[R_KE]->vt.ka;
    rc = ka->keygen(P->srv_epk, P->srv_esk);
    if (rc == MCORE_OK)
      rc = ka->shared(P->srv_ss, P->srv_esk, dev_share);
    memcpy(P->share, P->srv_epk, ka->pk_len);
  }
  if (rc == MCORE_OK && hybrid(c)) {
    const mcore_ka_vt *x = c->impl[R_X]->vt.ka;
    size_t off = c->impl[R_KE]->vt.kem->ct_len;
    rc = x->keygen(P->share + off, P->srv_xsk);
    if (rc == MCORE_OK)
      rc = x->shared(P->srv_ss + c->impl[R_KE]->vt.kem->ss_len, P->srv_xsk,
                     dev_share + c->impl[R_KE]->vt.kem->pk_len);
  }
  if (rc != MCORE_OK)
    return mwf_fail(c, "operation", "server key establishment");
  /* The server's transcript: device_hello as received || its share. */
  uint8_t *t = P->srv_transcript;
  size_t hl = MWF_DEVICE_ID_LEN + dev_share_len(c);
  memcpy(t, hello, hl);
  memcpy(t + hl, P->share, share_len);
  uint8_t *m = c->msg[M_SRV_HELLO];
  size_t sig_len = c->impl[R_SIG]->vt.sig->sig_len;
  rc = c->impl[R_SIG]->vt.sig->sign(m + share_len, &sig_len, t, hl + share_len,
                                    P->srv_sk);
  if (rc != MCORE_OK)
    return mwf_fail(c, "operation", "server signature");
  memcpy(m, P->share, share_len);
  if (derive(c, P->srv_key, P->srv_ss) != MCORE_OK)
    return mwf_fail(c, "operation", "server key derivation");
  mwf_sent(c, M_SRV_HELLO, share_len + sig_len);
  return MCORE_OK;
}

/* device: verify the server's signature over its own transcript. */
static int dev_verify(mwf_ctx *c) {
  const uint8_t *m = c->msg[M_SRV_HELLO];
  size_t share_len = srv_share_len(c);
  if (c->msg_len[M_SRV_HELLO] <= share_len)
    return mwf_fail(c, MWF_STEP_VERIFY, "server_hello carries no signature");
  memcpy(P->transcript + P->dev_hello_len, m, share_len);
  int rc = c->impl[R_SIG]->vt.sig->verify(
      m + share_len, c->msg_len[M_SRV_HELLO] - share_len, P->transcript,
      P->dev_hello_len + share_len, P->srv_pk);
  if (rc != MCORE_OK)
    return mwf_fail(c, MWF_STEP_VERIFY,
                    "the server's signature over the transcript did not "
                    "verify");
  return MCORE_OK;
}

/* device: complete the key establishment. */
static int dev_shared(mwf_ctx *c) {
  const uint8_t *share = c->msg[M_SRV_HELLO];
  int rc;
  if (is_kem(c))
    rc = c->impl[R_KE]->vt.kem->decaps(P->dev_ss, share, P->dev_sk);
  else
    rc = c->impl[R_KE]->vt.ka->shared(P->dev_ss, P->dev_sk, share);
  if (rc == MCORE_OK && hybrid(c))
    rc = c->impl[R_X]->vt.ka->shared(P->dev_ss + c->impl[R_KE]->vt.kem->ss_len,
                                     P->dev_xsk,
                                     share + c->impl[R_KE]->vt.kem->ct_len);
  return mwf_op(c, rc, "device shared secret");
}

static int dev_kdf(mwf_ctx *c) {
  return mwf_op(c, derive(c, P->dev_key, P->dev_ss), "device key derivation");
}

static int storage_key(const mwf_ctx *c, uint8_t *k) {
  uint8_t info[sizeof store_info - 1 + MWF_KEY_ID_LEN];
  memcpy(info, store_info, sizeof store_info - 1);
  memcpy(info + sizeof store_info - 1, key_id, MWF_KEY_ID_LEN);
  return c->impl[R_KDF]->vt.kdf->derive(k, MWF_KEY_LEN, NULL, 0, P->root,
                                        sizeof P->root, info, sizeof info);
}

/* device: the record it keeps, key id || server public key || nonce ||
 * AES-128-GCM(new key) || tag, with key id || server public key as the
 * authenticated data (public, so authenticated, not encrypted). */
static int dev_store(mwf_ctx *c) {
  uint8_t k[MWF_KEY_LEN];
  size_t pk_len = c->impl[R_SIG]->vt.sig->pk_len;
  size_t aad_len = MWF_KEY_ID_LEN + pk_len;
  uint8_t *r = P->record, *nonce = r + aad_len;
  uint8_t *ct = nonce + MWF_NONCE_LEN;
  memcpy(r, key_id, MWF_KEY_ID_LEN);
  memcpy(r + MWF_KEY_ID_LEN, P->srv_pk, pk_len);
  mcore_rng_fill(nonce, MWF_NONCE_LEN);
  int rc = storage_key(c, k);
  if (rc == MCORE_OK)
    rc = mwf_seal(c->impl[R_AEAD], k, nonce, r, aad_len, P->dev_key,
                  MWF_NEW_KEY_LEN, ct, ct + MWF_NEW_KEY_LEN);
  c->stored = aad_len + MWF_NONCE_LEN + MWF_NEW_KEY_LEN + MWF_TAG_LEN;
  return mwf_op(c, rc, "device storage");
}

/* check: same key on both sides, and the stored record opens. */
static int check(mwf_ctx *c) {
  if (memcmp(P->dev_key, P->srv_key, MWF_NEW_KEY_LEN) != 0)
    return mwf_fail(c, MWF_STEP_KEY,
                    "device and server derived different keys");
  uint8_t k[MWF_KEY_LEN], back[MWF_NEW_KEY_LEN];
  size_t aad_len = MWF_KEY_ID_LEN + c->impl[R_SIG]->vt.sig->pk_len;
  const uint8_t *nonce = P->record + aad_len, *ct = nonce + MWF_NONCE_LEN;
  if (storage_key(c, k) != MCORE_OK)
    return mwf_fail(c, "operation", "storage key");
  int rc = mwf_open(c->impl[R_AEAD], k, nonce, P->record, aad_len, ct,
                    MWF_NEW_KEY_LEN, ct + MWF_NEW_KEY_LEN, back);
  if (rc != MCORE_OK || memcmp(back, P->dev_key, MWF_NEW_KEY_LEN) != 0)
    return mwf_fail(c, MWF_STEP_TAG, "the stored record did not open");
  return MCORE_OK;
}

static const mwf_step steps[] = {
    {"keygen", MWF_DEVICE, dev_keygen}, {"server", MWF_PEER, srv_answer},
    {"verify", MWF_DEVICE, dev_verify}, {"shared", MWF_DEVICE, dev_shared},
    {"kdf", MWF_DEVICE, dev_kdf},       {"store", MWF_DEVICE, dev_store},
    {"check", MWF_PEER, check}};
static const mwf_msg msgs[] = {{"device_hello", 1}, {"server_hello", 0}};

#define N(a) (sizeof a / sizeof a[0])
#define DEF(VARIANT, ...)                                                      \
  {                                                                            \
    "provision", VARIANT, {__VA_ARGS__}, N(((mcore_alg[]){__VA_ARGS__})),      \
        steps, N(steps), msgs, N(msgs), setup                                  \
  }

const mwf_def mwf_provision_defs[] = {
    DEF("classical-p256", MCORE_ALG_ECDH_P256, MCORE_ALG_ECDSA_P256,
        MCORE_ALG_HKDF_SHA256, MCORE_ALG_AES_128_GCM),
    DEF("pqc-mlkem512-mldsa44", MCORE_ALG_ML_KEM_512, MCORE_ALG_ML_DSA_44,
        MCORE_ALG_HKDF_SHA256, MCORE_ALG_AES_128_GCM),
    DEF("pqc-mlkem768-mldsa65", MCORE_ALG_ML_KEM_768, MCORE_ALG_ML_DSA_65,
        MCORE_ALG_HKDF_SHA256, MCORE_ALG_AES_128_GCM),
    DEF("hybrid-x25519-mlkem768-mldsa44", MCORE_ALG_ML_KEM_768,
        MCORE_ALG_ML_DSA_44, MCORE_ALG_HKDF_SHA256, MCORE_ALG_AES_128_GCM,
        MCORE_ALG_X25519),
    DEF("hybrid-x25519-mlkem768-ed25519", MCORE_ALG_ML_KEM_768,
        MCORE_ALG_ED25519, MCORE_ALG_HKDF_SHA256, MCORE_ALG_AES_128_GCM,
        MCORE_ALG_X25519),
};
const size_t mwf_n_provision_defs = N(mwf_provision_defs);
