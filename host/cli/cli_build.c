/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin build`: build the image of each target for one profile. */
#include "cli/cli.h"
#include "cli/cli_parse.h"
#include "config/hooks.h"

#include "config/targets.h"
#include "image/image_build.h"
#include "util/exec.h"
#include "util/fsutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- `merlin build`: its command line (cli_parse.h) ---- */

typedef struct {
  mh_build_opts o;
  const char *profile, *kat, *fault;
  int quiet;
} build_args;

static const mh_opt_def BUILD_OPTS[] = {
    {"--target", NULL, "T[,T...]", "targets to build (repeatable)", 0, 1, 0, 0,
     0, NULL},
    {"--profile", NULL, "P", "profile name or path (default: default)",
     offsetof(build_args, profile), 0, 0, 0, 0, NULL},
    {"--kat-corrupt", NULL, "ALG/OP",
     "test hook: make that known-answer test fail (build\ndirectory gets the "
     "suffix -katfail)",
     offsetof(build_args, kat), 0, 0, 0, 0, NULL},
    {"--inject-fault", NULL, "KIND",
     "test hook: an image that faults (busfault,\nusagefault, hang, "
     "stackoverflow, heap); suffix -fault-KIND",
     offsetof(build_args, fault), 0, 0, 0, 0, NULL},
    {"--quiet", NULL, NULL, "no progress lines", offsetof(build_args, quiet), 0,
     0, 0, 0, NULL},
};

static int cmd_build(const mh_cmd_def *cmd, int argc, char **argv) {
  build_args a = {0};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  mh_build_opts *o = &a.o;
  char *store = NULL;
  char err[1024];
  int rc =
      mh_cli_parse_cmd(&s, argc, argv, 0, &o->targets, &o->n_targets, &store);
  if (rc == 0 && a.kat && mh_kat_corrupt_check(a.kat, NULL, err, sizeof err))
    rc = mh_cli_usage_error(&s, "%s", err);
  if (rc == 0 && a.fault && mh_inject_fault_check(a.fault, err, sizeof err))
    rc = mh_cli_usage_error(&s, "%s", err);
  if (rc == 0) {
    o->inject_fault = a.fault;
    o->profile = a.profile;
    o->kat_corrupt = a.kat;
    o->quiet = a.quiet;
    rc = mh_cli_parse_only ? 0 : mh_cli_build(o);
  }
  free(o->targets);
  free(store);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_build = {
    "build",
    "usage: merlin build --target T[,T...] [options]\n"
    "\n"
    "Generate the profile files and build the image of each target into\n"
    "build/img/<target>-<profile>/; prints the image path. The build "
    "output is\n"
    "kept in build.log there and shown only when the build fails.\n",
    MH_OPTS(BUILD_OPTS),
    NULL,
    0,
    cmd_build};

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
