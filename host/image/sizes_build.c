/* SPDX-License-Identifier: Apache-2.0 */
/* The size driver: configure and build the size images of a target and
 * profile, then measure each (mh_sizes_image). */
#include "image/sizes.h"

#include "image/image_build.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char *mh_sizes_build_dir(const mh_build_spec *spec) {
  mh_sb b = {0};
  mh_sb_printf(&b, "%s/build/img/%s-%s-sizes", spec->root, spec->target->id,
               spec->profile_name);
  if (spec->impls && spec->impls->n) {
    char tag[16];
    mh_impl_set_tag(spec->impls, tag, sizeof tag);
    mh_sb_printf(&b, "-impl-%s", tag);
  }
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}

/* One line of sizes/manifest.txt (cmake/MerlinImage.cmake). */
typedef struct {
  char *kind, *alg, *backend, *target, *image, *map;
} manifest_entry;

static void manifest_free(manifest_entry *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].kind);
    free(v[i].alg);
    free(v[i].backend);
    free(v[i].target);
    free(v[i].image);
    free(v[i].map);
  }
  free(v);
}

static int manifest_read(const char *path, manifest_entry **out, size_t *n,
                         char *err, size_t errlen) {
  char *buf;
  size_t len;
  *out = NULL;
  *n = 0;
  if (mh_read_file(path, (size_t)1 << 20, &buf, &len, err, errlen) != 0)
    return -1;
  manifest_entry *v = NULL;
  size_t cnt = 0;
  char *save = NULL;
  for (char *line = strtok_r(buf, "\n", &save); line;
       line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#' || !line[0])
      continue;
    char *f[6];
    size_t k = 0;
    for (char *c = line; k < 6; k++) {
      f[k] = c;
      char *tab = strchr(c, '\t');
      if (!tab)
        break;
      *tab = '\0';
      c = tab + 1;
    }
    if (k != 5) {
      snprintf(err, errlen, "%s: malformed line '%s'", path, line);
      goto fail;
    }
    manifest_entry *nv = realloc(v, (cnt + 1) * sizeof *nv);
    if (!nv)
      goto oom;
    v = nv;
    manifest_entry *e = &v[cnt++];
    e->kind = strdup(f[0]);
    e->alg = strdup(f[1]);
    e->backend = strdup(f[2]);
    e->target = strdup(f[3]);
    e->image = strdup(f[4]);
    e->map = strdup(f[5]);
    if (!e->kind || !e->alg || !e->backend || !e->target || !e->image ||
        !e->map)
      goto oom;
  }
  free(buf);
  *out = v;
  *n = cnt;
  return 0;
oom:
  snprintf(err, errlen, "out of memory");
fail:
  manifest_free(v, cnt);
  free(buf);
  return -1;
}

/* The manifest must list the baseline, then exactly the profile's routes in
 * its order (mh_profile_cmake writes MERLIN_PROFILE_ROUTES that way), then
 * the run's implementation folders in theirs. */
static int manifest_check(const manifest_entry *v, size_t n,
                          const mh_build_spec *spec, char *err, size_t errlen) {
  const mh_profile *p = spec->profile;
  size_t i = 0;
  if (n == 0 || strcmp(v[0].kind, "baseline") != 0) {
    snprintf(err, errlen, "size manifest has no baseline image first");
    return -1;
  }
  i = 1;
  for (size_t a = 0; a < MH_N_ALGS; a++)
    for (size_t k = 0; k < p->n_routes[a]; k++, i++) {
      const char *b = mh_backends[p->routes[a][k]].name;
      if (i >= n || strcmp(v[i].kind, "pair") != 0 ||
          strcmp(v[i].alg, mh_algs[a].id) != 0 || strcmp(v[i].backend, b)) {
        snprintf(err, errlen,
                 "size manifest does not match the profile at %s (%s): "
                 "reconfigure by deleting the build directory",
                 mh_algs[a].id, b);
        return -1;
      }
    }
  for (size_t k = 0; spec->impls && k < spec->impls->n; k++, i++) {
    const mh_impl *m = &spec->impls->v[k];
    if (spec->impl_off && spec->impl_off[k]) {
      i--; /* left out of this target's images */
      continue;
    }
    if (i >= n || strcmp(v[i].kind, "pair") != 0 ||
        strcmp(v[i].alg, m->alg) != 0 || strcmp(v[i].backend, m->backend)) {
      snprintf(err, errlen,
               "size manifest does not match the implementation folders at "
               "%s (%s): reconfigure by deleting the build directory",
               m->alg, m->backend);
      return -1;
    }
  }
  if (i != n) {
    snprintf(err, errlen, "size manifest lists more images than routes");
    return -1;
  }
  return 0;
}

static const char STAMP[] = ".merlin-configured";

/* Size image e of the manifest into dst: from the cache when its link
 * inputs are those of a measured image (*cached 1), else linked (the
 * libraries are compiled by the first image that needs them) and measured,
 * and kept in the cache. 0, -1 with err, or -2 (a failed build: show the
 * log). */
static int one_image(const mh_build_spec *spec, const char *bdir,
                     const manifest_entry *e, int logfd, const char *jobs,
                     mh_alg_size *dst, int *cached, char *err, size_t errlen) {
  int base = strcmp(e->kind, "baseline") == 0;
  char *elf = mh_path_join("sizes", e->image);
  char *ip = mh_path_join(bdir, elf ? elf : "");
  char *mp = ip ? mh_path_join(bdir, "sizes") : NULL;
  char *map = mp ? mh_path_join(mp, e->map) : NULL;
  char *cache = mh_path_join(spec->root, "build/size-cache");
  char key[65] = "", kerr[512];
  int rc = -1;
  *cached = 0;
  if (!elf || !ip || !map || !cache) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  /* No key (a tree ninja cannot query): linked and measured as ever. */
  if (mh_sizes_key(bdir, elf, logfd, key, kerr, sizeof kerr) != 0)
    key[0] = '\0';
  int got = key[0] ? mh_sizes_cache_get(cache, key, dst) : 0;
  if (got < 0) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  if (got) {
    dst->alg = base ? NULL : strdup(e->alg);
    dst->backend = base ? NULL : strdup(e->backend);
    *cached = 1;
    rc = (!base && (!dst->alg || !dst->backend))
             ? (snprintf(err, errlen, "out of memory"), -1)
             : 0;
    goto out;
  }
  char *bargv[] = {"cmake",   "--build",    (char *)bdir, "--target",
                   e->target, "--parallel", (char *)jobs, NULL};
  if (mh_run_logged(bargv, spec->root, logfd, err, errlen) != 0) {
    size_t l = strlen(err);
    snprintf(err + l, errlen - l, " (building the %s image)",
             base ? "baseline" : e->alg);
    rc = -2;
    goto out;
  }
  if (mh_sizes_image(ip, map, base ? NULL : e->alg, base ? NULL : e->backend,
                     dst, err, errlen) != 0)
    goto out;
  if (key[0]) /* best effort: a record not kept is measured next time */
    mh_sizes_cache_put(cache, key, dst, kerr, sizeof kerr);
  rc = 0;
out:
  free(elf);
  free(ip);
  free(mp);
  free(map);
  free(cache);
  return rc;
}

/* The images of the manifest one at a time, for the progress lines. */
static int build_and_measure(const mh_build_spec *spec, const char *bdir,
                             int quiet, int logfd, double t0, mh_sizes *out,
                             char *err, size_t errlen) {
  const mh_target *t = spec->target;
  char *manifest = mh_path_join(bdir, "sizes/manifest.txt");
  manifest_entry *mf = NULL;
  size_t n_mf = 0, n_cached = 0;
  int rc = -1;
  if (!manifest) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  if (manifest_read(manifest, &mf, &n_mf, err, errlen) != 0) {
    size_t l = strlen(err);
    snprintf(err + l, errlen - l, " (is %s configured with -DMERLIN_SIZES=ON?)",
             bdir);
    goto out;
  }
  if (manifest_check(mf, n_mf, spec, err, errlen) != 0)
    goto out;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  char jobs[24];
  snprintf(jobs, sizeof jobs, "%ld", ncpu > 0 ? ncpu : 1);
  out->algs = calloc(n_mf, sizeof *out->algs);
  if (!out->algs) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < n_mf; i++) {
    int base = strcmp(mf[i].kind, "baseline") == 0, cached;
    mh_alg_size *dst = base ? &out->baseline : &out->algs[out->n_algs];
    rc = one_image(spec, bdir, &mf[i], logfd, jobs, dst, &cached, err, errlen);
    if (rc != 0)
      goto out;
    rc = -1;
    n_cached += (size_t)cached;
    out->n_algs += !base;
    if (!quiet)
      fprintf(stderr, "sizes: %s: %zu/%zu %s (%s)%s\n", t->id, i + 1, n_mf,
              base ? "baseline" : mf[i].alg,
              base ? "no algorithm" : mf[i].backend,
              cached ? ": cached, its link inputs unchanged" : "");
  }
  out->build_seconds = mh_now_s() - t0;
  out->n_cached = n_cached;
  for (size_t i = 0; i < out->n_algs; i++) {
    mh_alg_size *a = &out->algs[i];
    a->flash_bytes =
        (int64_t)a->image_flash - (int64_t)out->baseline.image_flash;
    a->ram_bytes = (int64_t)a->image_ram - (int64_t)out->baseline.image_ram;
  }
  out->total_seconds = mh_now_s() - t0;
  rc = 0;
out:
  manifest_free(mf, n_mf);
  free(manifest);
  return rc;
}

static int sizes_run(const mh_build_spec *spec, const char *bdir, int configure,
                     int quiet, mh_sizes *out, char *err, size_t errlen) {
  const char *root = spec->root, *profile_name = spec->profile_name;
  const mh_target *t = spec->target;
  memset(out, 0, sizeof *out);
  double t0 = mh_now_s();
  char *pdir = mh_path_join(bdir, "profile");
  char *log = mh_path_join(bdir, "sizes-build.log");
  char *stamp = mh_path_join(bdir, STAMP);
  char *hdr = mh_profile_header(profile_name, spec->profile);
  char *cml = mh_image_profile_cmake(spec, err, errlen);
  char *hp = pdir ? mh_path_join(pdir, "merlin_profile.h") : NULL;
  char *cp = pdir ? mh_path_join(pdir, "merlin_profile.cmake") : NULL;
  mh_sb def_dir = {0};
  int rc = -1, logfd = -1, ch1 = 0, ch2 = 0, lockfd = -1;
  if (!pdir || !log || !stamp || !hdr || !cml || !hp || !cp) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  if ((lockfd = mh_dir_lock(bdir, err, errlen)) < 0)
    goto out;
  out->target = strdup(t->id);
  out->profile = strdup(profile_name);
  out->build_dir = strdup(bdir);
  if (!out->target || !out->profile || !out->build_dir) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  if (configure &&
      (mh_mkdir_p(pdir, err, errlen) != 0 ||
       mh_write_if_changed(hp, hdr, strlen(hdr), &ch1, err, errlen) != 0 ||
       mh_write_if_changed(cp, cml, strlen(cml), &ch2, err, errlen) != 0))
    goto out;
  logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (logfd < 0) {
    snprintf(err, errlen, "cannot create %s: %s", log, strerror(errno));
    goto out;
  }
  /* Configured once; later runs let the build tool compile what changed
   * and relink. */
  if (configure && (ch1 || ch2 || !mh_file_in(bdir, "CMakeCache.txt") ||
                    !mh_file_in(bdir, STAMP))) {
    unlink(stamp);
    if (!quiet)
      fprintf(stderr, "sizes: %s: configuring %s\n", t->id,
              mh_path_display(root, bdir));
    mh_sb_printf(&def_dir, "-DMERLIN_PROFILE_DIR=%s", pdir);
    if (def_dir.failed) {
      snprintf(err, errlen, "out of memory");
      goto out;
    }
    char *extra[] = {"-DMERLIN_IMAGE=ON",
                     "-DMERLIN_TOOLS=OFF",
                     "-DMERLIN_SIZES=ON",
                     "-DMERLIN_KAT_CORRUPT=",
                     "-DMERLIN_TEST_FAULT=",
                     def_dir.s,
                     NULL};
    if (mh_cmake_configure(root, t, bdir, extra, logfd, err, errlen) != 0)
      goto fail;
    int sfd = open(stamp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (sfd >= 0)
      close(sfd);
  }
  rc = build_and_measure(spec, bdir, quiet, logfd, t0, out, err, errlen);
  if (rc == -2)
    goto fail;
  goto out;
fail:
  rc = -1;
  if (!mh_exec_signal_received())
    mh_build_log_tail(log);
  {
    size_t l = strlen(err);
    snprintf(err + l, errlen - l, "; full log: %s", log);
  }
out:
  if (logfd >= 0)
    close(logfd);
  mh_dir_unlock(lockfd);
  if (rc != 0)
    mh_sizes_free(out);
  mh_sb_free(&def_dir);
  free(pdir);
  free(log);
  free(stamp);
  free(hdr);
  free(cml);
  free(hp);
  free(cp);
  return rc;
}

int mh_sizes_measure(const mh_build_spec *spec, int quiet, mh_sizes *out,
                     char *err, size_t errlen) {
  char *bdir = mh_sizes_build_dir(spec);
  if (!bdir) {
    memset(out, 0, sizeof *out);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int rc = sizes_run(spec, bdir, 1, quiet, out, err, errlen);
  free(bdir);
  return rc;
}

int mh_sizes_measure_tree(const mh_build_spec *spec, const char *build_dir,
                          int quiet, mh_sizes *out, char *err, size_t errlen) {
  return sizes_run(spec, build_dir, 0, quiet, out, err, errlen);
}

void mh_sizes_free(mh_sizes *s) {
  if (!s)
    return;
  free(s->target);
  free(s->profile);
  free(s->build_dir);
  mh_alg_size_free(&s->baseline);
  for (size_t i = 0; i < s->n_algs; i++)
    mh_alg_size_free(&s->algs[i]);
  free(s->algs);
  memset(s, 0, sizeof *s);
}
