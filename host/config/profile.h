/* SPDX-License-Identifier: Apache-2.0 */
/* Profiles: which backend(s) serve each algorithm in one image.
 *
 * A profile is profiles/NAME.profile, plain text:
 *   # comment
 *   description = free text
 *   <algorithm-id> = <backend>[, <backend>...]
 *   <backend>.<option> = <value>
 * Algorithm ids come from src/ops/algs.def, backend names from
 * src/backends/backends.def, and a backend may only serve the algorithms it
 * lists there. Options are library build options that move numbers (the
 * table mh_profile_options); an option of a backend the profile does not
 * use is an error. Duplicate keys are errors.
 *
 * Implementation folders (docs/bring-your-own.md): a backend item
 * "impl:PATH" in a route line (PATH relative to the profile file's folder),
 * whose key may then be an algorithm the catalogue does not have, and
 *   impl.hash = c | thumb2-asm
 * the Keccak behind the folders' fips202.h. */
#ifndef MERLIN_HOST_PROFILE_H
#define MERLIN_HOST_PROFILE_H

#include "config/catalog.h"

#include <stddef.h>

/* A library option a profile may set: "<backend>.<key> = <value>". The
 * first value is the default. */
#define MH_OPTION_MAX_VALUES 4
typedef struct {
  const char *backend;
  const char *key;
  const char *values[MH_OPTION_MAX_VALUES];
  const char *help;
} mh_option_def;
/* One per MH_BACKEND_OPTION line of src/backends/host_tables.def. */
enum {
  MH_N_OPTIONS = 0
#define MH_BACKEND_OPTION(...) +1
#include "host_tables.def"
};
extern const mh_option_def mh_profile_options[MH_N_OPTIONS];

/* One "impl:PATH" item of a route line: the folder is read later
 * (impl/impl.h), when the image is set up. */
typedef struct {
  char *alg;  /* the line's key */
  char *path; /* as written */
  size_t line;
} mh_profile_impl;

/* The Keccak-f[1600] behind the folders' fips202.h (cmake/MerlinImpl.cmake
 * MERLIN_IMPL_HASH). */
#define MH_IMPL_HASHES "c, thumb2-asm"
typedef enum { MH_IMPL_HASH_C = 0, MH_IMPL_HASH_THUMB2 = 1 } mh_impl_hash;

typedef struct {
  char *description; /* NULL when the file has none */
  mh_profile_impl *impls;
  size_t n_impls;
  mh_impl_hash impl_hash;
  size_t impl_hash_line; /* 0: not set by the file */
  /* Chosen value (index into values) of each option; 0 = default. */
  unsigned char options[MH_N_OPTIONS];
  /* routes[a][0..n_routes[a]-1]: backend indices serving algorithm a, in
   * the order the profile lists them. */
  unsigned char n_routes[MH_N_ALGS];
  unsigned char routes[MH_N_ALGS][MH_N_BACKENDS];
} mh_profile;

/* Parse a profile held in buf (need not be NUL-terminated). file names the
 * source in error messages ("profiles/x.profile:7: ..."). Pure: no I/O.
 * Returns 0, or -1 with the first error in err and *p left empty. */
int mh_profile_parse(const char *file, const char *buf, size_t len,
                     mh_profile *p, char *err, size_t errlen);
/* "c" / "thumb2-asm" to mh_impl_hash: 0, or -1 when s is neither. */
int mh_profile_impl_hash(const char *s, size_t n, mh_impl_hash *out);
/* Add an implementation folder (merlin run --impl): 0 or -1 (memory). */
int mh_profile_add_impl(mh_profile *p, const char *alg, const char *path);
void mh_profile_free(mh_profile *p);

/* 1 when backend b is used by any route of p. */
int mh_profile_uses(const mh_profile *p, size_t b);

/* A profile name is [A-Za-z0-9_.-]+ not starting with '.', at most
 * MH_PROFILE_NAME_MAX bytes: it becomes part of file names (image
 * directories, console-<target>-<profile>.log). The wire reader holds the
 * target and profile of a begin record to the same rule. */
#define MH_PROFILE_NAME_MAX 64
int mh_profile_name_ok(const char *name);

/* Resolve --profile ARG (a name under ROOT/profiles, or a path to a
 * .profile file): malloc'd path and name. Returns 0 or -1 with err (an
 * unknown name lists the profiles there). */
int mh_profile_locate(const char *root, const char *arg, char **path,
                      char **name, char *err, size_t errlen);

/* Sorted names of ROOT/profiles/\*.profile (malloc'd array of malloc'd
 * strings; free with mh_profile_names_free). Returns 0, or -1 with err. */
int mh_profile_names(const char *root, char ***names, size_t *n, char *err,
                     size_t errlen);
void mh_profile_names_free(char **names, size_t n);

/* Read and parse a profile file. */
int mh_profile_load(const char *path, const char *display, mh_profile *p,
                    char *err, size_t errlen);

#endif
