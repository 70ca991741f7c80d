/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin build`: build the image of each target for one profile. */
#include "cli/cli.h"

#include "config/targets.h"
#include "image/image_build.h"
#include "run/target_exec.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mh_inject_fault_check(const char *kind, char *err, size_t errlen) {
  static const char *const kinds[] = {"busfault", "usagefault", "hang",
                                      "stackoverflow", "heap"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(kind, kinds[i]) == 0)
      return 0;
  snprintf(err, errlen, "--inject-fault: unknown kind '%s'; valid: %s", kind,
           MH_FAULT_KINDS);
  return -1;
}

int mh_kat_corrupt_check(const char *v, const mh_profile *p, char *err,
                         size_t errlen) {
  const char *slash = strchr(v, '/');
  if (!slash || slash == v || !slash[1] || strchr(slash + 1, '/')) {
    snprintf(err, errlen,
             "--kat-corrupt expects ALG/OP (for example sha256/hash), got "
             "'%s'",
             v);
    return -1;
  }
  if (strspn(slash + 1, "abcdefghijklmnopqrstuvwxyz0123456789-_") !=
      strlen(slash + 1)) {
    snprintf(err, errlen, "--kat-corrupt: invalid operation name '%s'",
             slash + 1);
    return -1;
  }
  char alg[64];
  snprintf(alg, sizeof alg, "%.*s", (int)(slash - v), v);
  int a = (size_t)(slash - v) < sizeof alg ? mh_alg_find(alg) : -1;
  if (a < 0) {
    size_t used = (size_t)snprintf(
        err, errlen,
        "--kat-corrupt: unknown algorithm '%.*s'; valid:", (int)(slash - v), v);
    for (size_t i = 0; i < MH_N_ALGS && used < errlen; i++)
      used += (size_t)snprintf(err + used, errlen - used, "%s %s", i ? "," : "",
                               mh_algs[i].id);
    return -1;
  }
  if (p && p->n_routes[a] == 0) {
    snprintf(err, errlen,
             "--kat-corrupt: %s is not routed by this profile, so its KAT "
             "never runs",
             mh_algs[a].id);
    return -1;
  }
  return 0;
}

int mh_cli_profile_setup(const char *name, char **root, char **path,
                         char **pname, mh_profile *p, char *err,
                         size_t errlen) {
  mh_exec_install_signal_handlers(); /* builds run in their own group */
  *root = mh_source_root(err, errlen);
  if (!*root)
    return 1;
  if (mh_profile_locate(*root, name ? name : MH_PROFILE_DEFAULT, path, pname,
                        err, errlen) != 0 ||
      mh_profile_load(*path, mh_path_display(*root, *path), p, err, errlen) !=
          0)
    return 2;
  return 0;
}

int mh_cli_build(const mh_build_opts *o) {
  char err[2048];
  char *root = NULL, *ppath = NULL, *pname = NULL;
  mh_profile prof;
  memset(&prof, 0, sizeof prof);
  int rc = mh_cli_profile_setup(o->profile, &root, &ppath, &pname, &prof, err,
                                sizeof err);
  if (rc != 0)
    goto out;
  rc = 1;
  if (o->kat_corrupt &&
      mh_kat_corrupt_check(o->kat_corrupt, &prof, err, sizeof err) != 0) {
    rc = 2;
    goto out;
  }
  for (size_t i = 0; i < o->n_targets; i++) {
    mh_build_spec spec = {.root = root,
                          .target = mh_target_find(o->targets[i]),
                          .profile_name = pname,
                          .profile = &prof,
                          .kat_corrupt = o->kat_corrupt,
                          .quiet = o->quiet,
                          .inject_fault = o->inject_fault};
    char *image = NULL;
    if (mh_image_build(&spec, &image, err, sizeof err) != 0) {
      fprintf(stderr, "merlin: %s: build failed: %s\n", o->targets[i], err);
      if (mh_exec_signal_received())
        rc = 130;
      goto out_quiet;
    }
    printf("%s\n", image);
    free(image);
  }
  rc = 0;
  goto out_quiet;
out:
  fprintf(stderr, "merlin: %s\n", err);
out_quiet:
  mh_profile_free(&prof);
  free(ppath);
  free(pname);
  free(root);
  return rc;
}
