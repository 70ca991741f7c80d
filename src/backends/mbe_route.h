/* SPDX-License-Identifier: Apache-2.0 */
/* Routing helpers for adapters that list their (algorithm, implementation)
 * pairs once, as an X-list, and derive the routing check, the body
 * selection and the impls[] entries from it (docs/backends.md, "One list
 * per adapter").
 *
 * merlin_profile.h defines MERLIN_ROUTE_<ALG>_<BACKEND> as 1 for each pair
 * the profile routes and leaves the others undefined, so a plain #if can
 * test one pair but a macro cannot. MBE_ROUTED(MACRO) is 1 when MACRO is
 * defined as 1 and 0 otherwise (it expands in #if and in C alike):
 * MBE_IS_ONE_##1 is a probe that shifts the 1 into second position; any
 * other spelling leaves the default 0 there. MBE_WHEN(COND)(tokens) keeps
 * the tokens when COND is 1 and drops them when it is 0.
 *
 * Bodies that are already macros, one per parameter set (mlkem-native,
 * mldsa-native), are selected with MBE_WHEN from the list. Bodies written
 * out as functions stay under #if MERLIN_ROUTE_<ALG>_<BACKEND>: inside a
 * macro argument they could hold no #if or #include and would lose their
 * line numbers in compiler messages and debuggers. */
#ifndef MERLIN_MBE_ROUTE_H
#define MERLIN_MBE_ROUTE_H

#define MBE_CAT(a, b) MBE_CAT_(a, b)
#define MBE_CAT_(a, b) a##b
#define MBE_SECOND(a, b, ...) b
#define MBE_IS_PROBE(...) MBE_SECOND(__VA_ARGS__, 0, 0)
#define MBE_IS_ONE_1 ~, 1
#define MBE_ROUTED(macro) MBE_IS_PROBE(MBE_CAT(MBE_IS_ONE_, macro))

/* A helper several algorithms of an adapter share (ECDH's and ECDSA's
 * P-256 key generation, the ML-KEM parameter sets' bodies): compiled on its
 * own and called, never inlined, cloned or specialised for its callers.
 * Which of its callers an image holds depends on the profile, and with
 * them what GCC would make of each caller; an operation must execute the
 * same instructions whatever else its image holds (docs/measurements.md,
 * "Independent cells"). clang has no noipa: noinline is what it offers. */
#if defined(__clang__)
#define MBE_SHARED __attribute__((noinline))
#else
#define MBE_SHARED __attribute__((noipa))
#endif

/* Or, for a small one written to be inlined (with constant arguments):
 * inlined into every caller, whatever else the image holds. */
#define MBE_INLINED __attribute__((always_inline))

#define MBE_WHEN(cond) MBE_CAT(MBE_WHEN_, cond)
#define MBE_WHEN_1(...) __VA_ARGS__
#define MBE_WHEN_0(...)

#endif
