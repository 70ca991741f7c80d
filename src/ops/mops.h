/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The operation catalogue: for each algorithm class, the operations that are
 * timed, how their inputs are prepared (untimed), and the known-answer test
 * that gates them. Every operation works through the backend-neutral
 * vtables of mcore.h, so one catalogue serves every backend.
 */
#ifndef MERLIN_MOPS_H
#define MERLIN_MOPS_H

#include "mcore.h"

#include <stddef.h>
#include <stdint.h>

/* Payload sizes of payload-dependent operations (64 bytes: one CAN FD
 * frame). */
#define MOPS_N_PAYLOADS 3
extern const uint32_t mops_payloads[MOPS_N_PAYLOADS];

/* Largest objects any operation handles (raised as algorithms are added). */
#define MOPS_PK_MAX 2592
#define MOPS_SK_MAX 4896
#define MOPS_CT_MAX 17088 /* ciphertext or signature (SLH-DSA-128f) */
#define MOPS_SS_MAX 256   /* shared secret (FFDHE-2048: 256 bytes) */
#define MOPS_MSG_MAX 256
#define MOPS_OUT_MAX 256
#define MOPS_XOF_OUT 32 /* output of the XOF operation (SHAKE), bytes */

/* Scratch state of one operation instance. Buffers are static (see
 * ops_common.c): no operation allocates on behalf of the harness. */
typedef struct {
  const mcore_impl *impl;
  uint32_t bytes; /* payload size, 0 when the operation has none */
  uint8_t *pk, *sk, *ct, *ss, *msg, *out, *key, *coins;
  size_t ct_len; /* signature or ciphertext length */
  /* The first output of an operation whose inputs stay fixed (a hash of
   * the same message): every later sample must give it again. */
  uint8_t *ref;
  int ref_set;
} mops_ctx;

/* The scratch buffers an operation writes (mops_opdef.outputs): each has
 * guard bytes before it and right after the length the backend declares
 * for that output, armed after prepare and checked after every run. */
#define MOPS_OUT_PK 0x01u
#define MOPS_OUT_SK 0x02u
#define MOPS_OUT_CT 0x04u /* ciphertext or signature */
#define MOPS_OUT_SS 0x08u /* shared secret, AEAD tag */
#define MOPS_OUT_OUT 0x10u
#define MOPS_GUARD 16 /* guard bytes on each side */

typedef struct {
  const char *name; /* the verb on the wire: "hash", "keygen", "sign" ... */
  int payload;      /* 1: instantiated at each of mops_payloads */
  /* Known-answer test of this operation on impl: MCORE_OK or a failure
   * with a one-line reason in detail (which vector, what differed). */
  int (*kat)(const mcore_impl *impl, const char *op, char *detail,
             size_t detail_len);
  int (*prepare)(mops_ctx *c); /* untimed, once before warm-up */
  void (*vary)(mops_ctx *c);   /* untimed, before every sample; may be NULL */
  int (*run)(mops_ctx *c);     /* the timed operation */
  /* Whether impl offers this operation at all (NULL: always). RSA-2048 has
   * no timed key generation, for one. */
  int (*applies)(const mcore_impl *impl);
  /* Constant-time check of an operation with a secret input (NULL: none):
   * draw a fresh secret for the next run, leaving the public inputs as they
   * are, and mark its secret bytes with poison (under valgrind: undefined)
   * before anything derives from them. Returns MOPS_SECRET_FRESH,
   * MOPS_SECRET_FIXED (one key only: RSA-2048 has no key generation here),
   * or MCORE_ERR. */
  int (*secret)(mops_ctx *c, void (*poison)(const void *p, size_t n));
  /* Check of every timed sample, run after it outside the counter reads
   * (and after the untimed first call): the output is right for its
   * inputs (a decapsulation returns the secret the encapsulation produced,
   * a signature made in the sample verifies, a generated key pair
   * round-trips, a hash gives the same digest of the same message). It may
   * use the scratch buffers the timed operation does not read; the runner
   * restores the harness generator around it, so the samples draw exactly
   * what they would without it. sample: the timed sample's index
   * (MOPS_FIRST_CALL for the untimed first call). MCORE_OK, or MCORE_ERR
   * with the reason in detail. NULL: nothing to check (AEAD setup). */
  int (*check)(mops_ctx *c, uint32_t sample, char *detail, size_t detail_len);
  unsigned outputs; /* MOPS_OUT_* */
} mops_opdef;

#define MOPS_FIRST_CALL UINT32_MAX

#define MOPS_SECRET_FRESH 0
#define MOPS_SECRET_FIXED 1

/* The operations of a class. */
const mops_opdef *mops_class_ops(mcore_class cls, size_t *n);

/* Point c's buffers at the static scratch areas and clear them. */
void mops_ctx_init(mops_ctx *c, const mcore_impl *impl, uint32_t bytes);
/* Arm the guard bytes of the outputs of def (after prepare), and check
 * them (after every run): MCORE_OK, or MCORE_ERR with which buffer was
 * written outside its declared length in detail. */
void mops_guard_arm(const mops_ctx *c, const mops_opdef *def);
/* Overwrite the outputs of def with filler and arm their guards: after
 * prepare and after every check, so that a run which returns without
 * writing its output cannot pass the next check on a stale one. */
void mops_outputs_reset(const mops_ctx *c, const mops_opdef *def);
int mops_guard_check(const mops_ctx *c, const mops_opdef *def, char *detail,
                     size_t detail_len);
/* The consistency check of an operation with fixed inputs: the first call
 * sets c->ref from got, every later one must match it. */
int mops_same_output(mops_ctx *c, const uint8_t *got, size_t n, char *detail,
                     size_t detail_len);
/* Mark every scratch area (and the AEAD context) public again after a
 * constant-time check, so the harness never trips over poisoned bytes. */
void mops_ctx_unpoison(void (*unpoison)(const void *p, size_t n));
void mops_aead_unpoison(void (*unpoison)(const void *p, size_t n));

/* KAT helpers. mops_kat_eq compares an output with its expected value and,
 * in a build configured with MERLIN_KAT_CORRUPT="alg/op" (a test hook),
 * compares against a copy with one bit flipped for that operation, so the
 * KAT fails exactly there. On mismatch it writes "<vector>: <what>
 * mismatch" into detail. */
int mops_kat_eq(const mcore_impl *impl, const char *op, const char *vector,
                const char *what, const uint8_t *got, const uint8_t *expected,
                size_t n, char *detail, size_t detail_len);
/* The object sizes impl declares (its library's constants) against the
 * standard's (src/ops/sizes.def): MCORE_OK, or MCORE_ERR with the first
 * difference in detail. Run before every known-answer test. */
int mops_check_sizes(const mcore_impl *impl, char *detail, size_t detail_len);
/* "pk:800,sk:1632,ct:768,ss:32": the sizes the standard fixes, as declared
 * (empty for XOF and KDF). */
void mops_object_sizes(const mcore_impl *impl, char *buf, size_t len);
/* Write "<vector>: <reason>" into detail and return MCORE_ERR. */
int mops_kat_fail(const char *vector, const char *reason, char *detail,
                  size_t detail_len);

#endif
