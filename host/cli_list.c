/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin list`: targets, profiles, algorithms, backends. */
#include "cli.h"

#include "catalog.h"
#include "fsutil.h"
#include "image_build.h"
#include "targets.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void list_targets(void) {
  for (size_t i = 0; i < mh_n_targets; i++)
    printf("  %-12s %s\n", mh_targets[i].id, mh_targets[i].description);
}

static int list_profiles(void) {
  char err[2048];
  char *root = mh_source_root(err, sizeof err);
  char **names = NULL;
  size_t n = 0;
  if (!root || mh_profile_names(root, &names, &n, err, sizeof err) != 0) {
    fprintf(stderr, "merlin: %s\n", err);
    free(root);
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    char *path = NULL, *name = NULL;
    mh_profile p;
    if (mh_profile_locate(root, names[i], &path, &name, err, sizeof err) == 0 &&
        mh_profile_load(path, mh_path_display(root, path), &p, err,
                        sizeof err) == 0) {
      printf("  %-20s %s\n", names[i],
             p.description ? p.description : "(no description)");
      mh_profile_free(&p);
    } else {
      printf("  %-20s (invalid: %s)\n", names[i], err);
    }
    free(path);
    free(name);
  }
  if (n == 0)
    printf("  (none in %s/profiles)\n", root);
  mh_profile_names_free(names, n);
  free(root);
  return 0;
}

static void list_algorithms(void) {
  for (size_t a = 0; a < MH_N_ALGS; a++) {
    char cls[16];
    size_t k = 0;
    for (; mh_algs[a].cls[k] && k + 1 < sizeof cls; k++)
      cls[k] = (char)tolower((unsigned char)mh_algs[a].cls[k]);
    cls[k] = '\0';
    printf("  %-16s %-6s backends:", mh_algs[a].id, cls);
    int any = 0;
    for (size_t b = 0; b < MH_N_BACKENDS; b++)
      if (mh_backend_offers(b, a)) {
        printf("%s %s", any ? "," : "", mh_backends[b].name);
        any = 1;
      }
    printf("%s\n", any ? "" : " none");
  }
}

static void list_backends(void) {
  for (size_t b = 0; b < MH_N_BACKENDS; b++)
    printf("  %-12s %s\n", mh_backends[b].name, mh_backends[b].algs);
}

int mh_cli_list(const char *what) {
  int all = what == NULL;
  int rc = 0;
  if (all || strcmp(what, "targets") == 0) {
    if (all)
      printf("targets:\n");
    list_targets();
  }
  if (all || strcmp(what, "profiles") == 0) {
    if (all)
      printf("profiles:\n");
    rc |= list_profiles();
  }
  if (all || strcmp(what, "algorithms") == 0) {
    if (all)
      printf("algorithms:\n");
    list_algorithms();
  }
  if (all || strcmp(what, "backends") == 0) {
    if (all)
      printf("backends:\n");
    list_backends();
  }
  return rc;
}
