/* SPDX-License-Identifier: Apache-2.0 */
/* `merlin sizes`: flash and static RAM per (algorithm, backend) of each
 * target, as a table on stdout and optionally JSON (docs/sizes.md). */
#include "cli/cli.h"
#include "cli/cli_parse.h"

#include "config/targets.h"
#include "image/image_build.h"
#include "image/sizes.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- `merlin sizes`: its command line (cli_parse.h) ---- */

typedef struct {
  mh_sizes_opts o;
  const char *profile, *json;
  int quiet;
} sizes_args;

static const mh_opt_def SIZES_OPTS[] = {
    {"--target", NULL, "T[,T...]",
     "targets to measure (repeatable; see merlin list targets)", 0, 1, 0, 0, 0,
     NULL},
    {"--profile", NULL, "P",
     "profile name or path to a .profile file (default: default)",
     offsetof(sizes_args, profile), 0, 0, 0, 0, NULL},
    {"--json", NULL, "FILE", "also write the records, per library too, as JSON",
     offsetof(sizes_args, json), 0, 0, 0, 0, NULL},
    {"--quiet", NULL, NULL, "no progress lines", offsetof(sizes_args, quiet), 0,
     0, 0, 0, NULL},
};

static int cmd_sizes(const mh_cmd_def *cmd, int argc, char **argv) {
  sizes_args a = {0};
  mh_parse_state s = {.cmd = cmd, .args = &a};
  mh_sizes_opts *o = &a.o;
  char *store = NULL;
  int rc =
      mh_cli_parse_cmd(&s, argc, argv, 0, &o->targets, &o->n_targets, &store);
  if (rc == 0) {
    o->profile = a.profile;
    o->json = a.json;
    o->quiet = a.quiet;
    rc = mh_cli_parse_only ? 0 : mh_cli_sizes(o);
  }
  free(o->targets);
  free(store);
  mh_cli_state_free(&s);
  return rc < 0 ? 0 : rc;
}

const mh_cmd_def mh_cmd_sizes = {
    "sizes",
    "usage: merlin sizes --target T[,T...] [options]\n"
    "\n"
    "For each target, link one image per (algorithm, backend) the profile "
    "routes,\n"
    "holding only that pair, and one empty baseline image, all with\n"
    "--gc-sections, in build/img/<target>-<profile>-sizes/ (configured "
    "once,\n"
    "then only relinked). Print each pair's flash (.text + .rodata + .data) "
    "and\n"
    "static RAM (.data + .bss) minus the baseline's, and what each library "
    "adds,\n"
    "from the link map. Stack and heap reservations are not counted. See\n"
    "docs/sizes.md.\n",
    MH_OPTS(SIZES_OPTS),
    NULL,
    0,
    cmd_sizes};

#ifndef MERLIN_VERSION
#define MERLIN_VERSION "0.0.0"
#endif

/* What one library adds to the pair's image over the baseline. */
typedef struct {
  const char *library;
  int64_t flash, ram;
} lib_delta;

static int delta_cmp(const void *a, const void *b) {
  const lib_delta *x = a, *y = b;
  if (x->flash != y->flash)
    return x->flash < y->flash ? 1 : -1;
  return strcmp(x->library, y->library);
}

static int64_t lib_flash(const mh_alg_size *s, const char *name, int ram) {
  for (size_t i = 0; i < s->n_libs; i++)
    if (strcmp(s->libs[i].library, name) == 0)
      return (int64_t)(ram ? s->libs[i].ram_bytes : s->libs[i].flash_bytes);
  return 0;
}

/* "wolfcrypt 1980 (RAM 4), adapter 260": the libraries whose flash or RAM
 * differs from the baseline's, by what they add to flash. */
static void by_library(mh_sb *b, const mh_alg_size *a,
                       const mh_alg_size *base) {
  lib_delta *d = calloc(a->n_libs + base->n_libs + 1, sizeof *d);
  size_t n = 0;
  if (!d) {
    b->failed = 1;
    return;
  }
  for (size_t i = 0; i < a->n_libs; i++) {
    const char *l = a->libs[i].library;
    lib_delta x = {l, (int64_t)a->libs[i].flash_bytes - lib_flash(base, l, 0),
                   (int64_t)a->libs[i].ram_bytes - lib_flash(base, l, 1)};
    if (x.flash || x.ram)
      d[n++] = x;
  }
  /* Libraries of the baseline the pair's image no longer has. */
  for (size_t i = 0; i < base->n_libs; i++) {
    const char *l = base->libs[i].library;
    int found = 0;
    for (size_t k = 0; k < a->n_libs && !found; k++)
      found = strcmp(a->libs[k].library, l) == 0;
    if (!found)
      d[n++] = (lib_delta){l, -(int64_t)base->libs[i].flash_bytes,
                           -(int64_t)base->libs[i].ram_bytes};
  }
  qsort(d, n, sizeof *d, delta_cmp);
  for (size_t i = 0; i < n; i++) {
    mh_sb_printf(b, "%s%s %" PRId64, i ? ", " : "", d[i].library, d[i].flash);
    if (d[i].ram)
      mh_sb_printf(b, " (RAM %" PRId64 ")", d[i].ram);
  }
  if (!n)
    mh_sb_puts(b, "-");
  free(d);
}

static size_t width(size_t w, const char *s) {
  size_t n = strlen(s);
  return n > w ? n : w;
}

static int print_table(const mh_sizes *s) {
  size_t wa = strlen("algorithm"), wb = strlen("backend"),
         wv = strlen("variant");
  for (size_t i = 0; i < s->n_algs; i++) {
    wa = width(wa, s->algs[i].alg);
    wb = width(wb, s->algs[i].backend);
    wv = width(wv, s->algs[i].variant[0] ? s->algs[i].variant : "?");
  }
  printf("%s, profile %s: flash (.text + .rodata + .data) and static RAM "
         "(.data + .bss)\nper algorithm, minus the empty baseline image "
         "(%" PRIu64 " B flash, %" PRIu64 " B RAM)\n",
         s->target, s->profile, s->baseline.image_flash, s->baseline.image_ram);
  printf("%-*s  %-*s  %-*s  %9s  %7s  %s\n", (int)wa, "algorithm", (int)wb,
         "backend", (int)wv, "variant", "flash B", "RAM B",
         "added, by library: flash B (RAM B)");
  for (size_t i = 0; i < s->n_algs; i++) {
    const mh_alg_size *a = &s->algs[i];
    mh_sb libs = {0};
    by_library(&libs, a, &s->baseline);
    if (libs.failed) {
      mh_sb_free(&libs);
      return -1;
    }
    printf("%-*s  %-*s  %-*s  %9" PRId64 "  %7" PRId64 "  %s\n", (int)wa,
           a->alg, (int)wb, a->backend, (int)wv,
           a->variant[0] ? a->variant : "?", a->flash_bytes, a->ram_bytes,
           libs.s ? libs.s : "");
    mh_sb_free(&libs);
  }
  if (s->n_algs == 0)
    printf("(the profile routes no algorithm)\n");
  return 0;
}

static int write_json(const char *path, mh_sizes *all, size_t n, char *err,
                      size_t errlen) {
  json_t *root = json_object(), *targets = json_array();
  int bad = !root || !targets;
  for (size_t i = 0; !bad && i < n; i++) {
    json_t *t = mh_sizes_json(&all[i]);
    bad = !t || json_array_append_new(targets, t) != 0;
  }
  if (!bad)
    bad = json_object_set_new(root, "schema", json_integer(1)) != 0 ||
          json_object_set_new(root, "merlin_version",
                              json_string(MERLIN_VERSION)) != 0 ||
          json_object_set_new(root, "targets", targets) != 0;
  else
    json_decref(targets);
  char *text = bad ? NULL : json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
  json_decref(root);
  if (!text) {
    snprintf(err, errlen, "cannot encode the size records as JSON");
    return -1;
  }
  mh_sb b = {0};
  mh_sb_printf(&b, "%s\n", text);
  free(text);
  int rc = b.failed ? (snprintf(err, errlen, "out of memory"), -1)
                    : mh_write_atomic(path, b.s, b.len, err, errlen);
  mh_sb_free(&b);
  return rc;
}

int mh_cli_sizes(const mh_sizes_opts *o) {
  char err[4096];
  char *root = NULL, *ppath = NULL, *pname = NULL;
  mh_profile prof;
  memset(&prof, 0, sizeof prof);
  mh_sizes *all = calloc(o->n_targets + 1, sizeof *all);
  size_t n_done = 0;
  int rc = mh_cli_profile_setup(o->profile, &root, &ppath, &pname, &prof, err,
                                sizeof err);
  if (rc != 0)
    goto out;
  rc = 1;
  if (!all) {
    snprintf(err, sizeof err, "out of memory");
    goto out;
  }
  if (o->json) {
    /* A bad --json is a usage error, found before anything is built. */
    char *dir = strdup(o->json);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    struct stat st;
    if (slash)
      *slash = '\0';
    int ok = dir && (!slash || !dir[0] ||
                     (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)));
    free(dir);
    if (!ok) {
      snprintf(err, sizeof err,
               "--json %s: the directory it would go in does not exist",
               o->json);
      rc = 2;
      goto out;
    }
  }
  for (size_t i = 0; i < o->n_targets; i++) {
    const mh_target *t = mh_target_find(o->targets[i]);
    mh_build_spec bs = {
        .root = root, .target = t, .profile_name = pname, .profile = &prof};
    if (mh_sizes_measure(&bs, o->quiet, &all[n_done], err, sizeof err) != 0) {
      fprintf(stderr, "merlin: %s: sizes failed: %s\n", o->targets[i], err);
      if (mh_exec_signal_received())
        rc = 130;
      goto out_quiet;
    }
    if (!o->quiet)
      fprintf(stderr, "sizes: %s: %zu images measured in %.1f s (%s)\n", t->id,
              all[n_done].n_algs + 1, all[n_done].total_seconds,
              mh_path_display(root, all[n_done].build_dir));
    n_done++;
  }
  for (size_t i = 0; i < n_done; i++) {
    if (i)
      printf("\n");
    if (print_table(&all[i]) != 0) {
      snprintf(err, sizeof err, "out of memory");
      goto out;
    }
  }
  if (o->json && write_json(o->json, all, n_done, err, sizeof err) != 0)
    goto out;
  rc = 0;
  goto out_quiet;
out:
  fprintf(stderr, "merlin: %s\n", err);
out_quiet:
  for (size_t i = 0; all && i < n_done; i++)
    mh_sizes_free(&all[i]);
  free(all);
  mh_profile_free(&prof);
  free(ppath);
  free(pname);
  free(root);
  return rc;
}
