/* SPDX-License-Identifier: Apache-2.0 */
/* The size images' cache by content (see sizes.h, "cache"). */
#include "image/sizes.h"

#include "digest.h"
#include "util/exec.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void swallow(void *ctx, const char *line, size_t len) {
  (void)ctx;
  (void)line;
  (void)len;
}

/* argv's stdout, malloc'd in *out (stderr dropped). 0, or -1 with err. */
static int capture(char *const argv[], const char *cwd, char **out, char *err,
                   size_t errlen) {
  mh_exec_spec spec = {.argv = argv,
                       .cwd = cwd,
                       .stdout_fd = -1,
                       .stderr_fd = -1,
                       .max_capture = (size_t)1 << 24,
                       .hooks = {NULL, NULL, swallow, NULL}};
  mh_exec_result res;
  *out = NULL;
  if (mh_exec(&spec, &res, err, errlen) != 0)
    return -1;
  if (!res.exited || res.exit_code != 0 || res.overflow) {
    snprintf(err, errlen, "%s %s %s failed", argv[0], argv[1], argv[2]);
    mh_exec_result_free(&res);
    return -1;
  }
  *out = res.out;
  res.out = NULL;
  mh_exec_result_free(&res);
  return 0;
}

/* The files the link of elf reads, from `ninja -t query` (explicit and
 * implicit inputs; order-only ones are targets, not files): a
 * NULL-terminated vector into buf (modified). NULL when out of memory. */
static char **link_inputs(char *buf, size_t *n) {
  size_t cap = 16;
  char **v = malloc(cap * sizeof *v);
  int in = 0;
  *n = 0;
  for (char *save = NULL, *l = strtok_r(buf, "\n", &save); v && l;
       l = strtok_r(NULL, "\n", &save)) {
    if (strncmp(l, "  input:", 8) == 0 || strncmp(l, "  outputs:", 10) == 0) {
      in = l[2] == 'i';
      continue;
    }
    if (!in || strncmp(l, "    ", 4) != 0 || strncmp(l + 4, "||", 2) == 0)
      continue;
    char *name = l + 4 + (strncmp(l + 4, "| ", 2) == 0 ? 2 : 0);
    if (*n + 2 > cap) {
      char **nv = realloc(v, (cap *= 2) * sizeof *nv);
      if (!nv) {
        free(v);
        return NULL;
      }
      v = nv;
    }
    v[(*n)++] = name;
  }
  if (v)
    v[*n] = NULL;
  return v;
}

/* Hash the file at bdir/name (or its absence) into c. */
static void hash_file(mcore_sha256_ctx *c, const char *bdir, const char *name) {
  char *path = name[0] == '/' ? strdup(name) : mh_path_join(bdir, name);
  FILE *f = path ? fopen(path, "rb") : NULL;
  mcore_sha256_update(c, (const uint8_t *)name, strlen(name) + 1);
  if (!f) {
    mcore_sha256_update(c, (const uint8_t *)"(none)", 7);
  } else {
    uint8_t buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
      mcore_sha256_update(c, buf, got);
    fclose(f);
  }
  free(path);
}

/* The link command (the first line of cmd) with the build tree's path as
 * "@B": the same link in another tree has the same key. */
static void hash_command(mcore_sha256_ctx *c, const char *cmd,
                         const char *bdir) {
  size_t len = strcspn(cmd, "\n"), bl = strlen(bdir);
  for (size_t i = 0; i < len;) {
    if (bl && i + bl <= len && memcmp(cmd + i, bdir, bl) == 0) {
      mcore_sha256_update(c, (const uint8_t *)"@B", 2);
      i += bl;
    } else {
      mcore_sha256_update(c, (const uint8_t *)cmd + i, 1);
      i++;
    }
  }
}

int mh_sizes_key(const char *bdir, const char *elf, int logfd, char key[65],
                 char *err, size_t errlen) {
  char *query = NULL, *cmd = NULL, **in = NULL;
  size_t n = 0;
  int rc = -1;
  char *qargv[] = {"ninja", "-C",        (char *)bdir, "-t",
                   "query", (char *)elf, NULL};
  char *cargv[] = {"ninja",    "-C", (char *)bdir, "-t",
                   "commands", "-s", (char *)elf,  NULL};
  if (capture(qargv, NULL, &query, err, errlen) != 0 ||
      capture(cargv, NULL, &cmd, err, errlen) != 0)
    goto out;
  if (!(in = link_inputs(query, &n))) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  /* The inputs up to date, the link not made. */
  char **bargv = calloc(n + 4, sizeof *bargv);
  if (!bargv) {
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  bargv[0] = "ninja";
  bargv[1] = "-C";
  bargv[2] = (char *)bdir;
  memcpy(bargv + 3, in, n * sizeof *in);
  int built = n == 0 || mh_run_logged(bargv, NULL, logfd, err, errlen) == 0;
  free(bargv);
  if (!built)
    goto out;
  mcore_sha256_ctx c;
  mcore_sha256_init(&c);
  mcore_sha256_update(&c, (const uint8_t *)"merlin size image 1\n", 20);
  hash_command(&c, cmd, bdir);
  for (size_t i = 0; i < n; i++)
    hash_file(&c, bdir, in[i]);
  uint8_t d[32];
  mcore_sha256_final(&c, d);
  for (int i = 0; i < 32; i++)
    snprintf(key + 2 * i, 3, "%02x", d[i]);
  rc = 0;
out:
  free(in);
  free(query);
  free(cmd);
  return rc;
}

/* ---- the records -------------------------------------------------------- */

static char *record_path(const char *dir, const char *key) {
  mh_sb b = {0};
  mh_sb_printf(&b, "%s/%s.json", dir, key);
  if (b.failed) {
    mh_sb_free(&b);
    return NULL;
  }
  return b.s;
}

static json_int_t num(const json_t *o, const char *k) {
  return json_integer_value(json_object_get(o, k));
}

int mh_sizes_cache_get(const char *dir, const char *key, mh_alg_size *out) {
  char *path = record_path(dir, key);
  json_error_t je;
  json_t *j = path ? json_load_file(path, 0, &je) : NULL;
  free(path);
  const json_t *img = json_object_get(j, "image");
  const json_t *libs = json_object_get(j, "libs");
  const char *variant = json_string_value(json_object_get(j, "variant"));
  if (!json_is_object(img) || !json_is_array(libs) || !variant ||
      num(j, "version") != 1) {
    json_decref(j);
    return 0; /* none, or not one of ours: measured again */
  }
  mh_alg_size s = {0};
  s.variant = strdup(variant);
  s.image =
      (mh_sections){(uint64_t)num(img, "text"), (uint64_t)num(img, "rodata"),
                    (uint64_t)num(img, "data"), (uint64_t)num(img, "bss")};
  s.image_flash = (uint64_t)num(j, "image_flash");
  s.image_ram = (uint64_t)num(j, "image_ram");
  s.unattributed_flash = (int64_t)num(j, "unattributed_flash");
  s.libs = calloc(json_array_size(libs) + 1, sizeof *s.libs);
  int ok = s.variant && s.libs;
  size_t i;
  const json_t *l;
  json_array_foreach(libs, i, l) {
    const char *name = json_string_value(json_object_get(l, "library"));
    if (!ok || !name || !(s.libs[i].library = strdup(name))) {
      ok = 0;
      break;
    }
    s.libs[i].flash_bytes = (uint64_t)num(l, "flash");
    s.libs[i].ram_bytes = (uint64_t)num(l, "ram");
    s.libs[i].data_bytes = (uint64_t)num(l, "data");
    s.n_libs++;
  }
  json_decref(j);
  if (!ok) {
    mh_alg_size_free(&s);
    return -1;
  }
  *out = s;
  return 1;
}

int mh_sizes_cache_put(const char *dir, const char *key, const mh_alg_size *s,
                       char *err, size_t errlen) {
  json_t *libs = json_array();
  for (size_t i = 0; libs && i < s->n_libs; i++)
    json_array_append_new(
        libs, json_pack("{s:s, s:I, s:I, s:I}", "library", s->libs[i].library,
                        "flash", (json_int_t)s->libs[i].flash_bytes, "ram",
                        (json_int_t)s->libs[i].ram_bytes, "data",
                        (json_int_t)s->libs[i].data_bytes));
  json_t *j = json_pack(
      "{s:i, s:s, s:{s:I, s:I, s:I, s:I}, s:I, s:I, s:I, s:o}", "version", 1,
      "variant", s->variant ? s->variant : "", "image", "text",
      (json_int_t)s->image.text, "rodata", (json_int_t)s->image.rodata, "data",
      (json_int_t)s->image.data, "bss", (json_int_t)s->image.bss, "image_flash",
      (json_int_t)s->image_flash, "image_ram", (json_int_t)s->image_ram,
      "unattributed_flash", (json_int_t)s->unattributed_flash, "libs", libs);
  char *text = j ? json_dumps(j, JSON_INDENT(1)) : NULL;
  char *path = record_path(dir, key);
  int rc = -1;
  if (!text || !path)
    snprintf(err, errlen, "out of memory");
  else if (mh_mkdir_p(dir, err, errlen) == 0 &&
           mh_write_atomic(path, text, strlen(text), err, errlen) == 0)
    rc = 0;
  json_decref(j);
  free(text);
  free(path);
  return rc;
}
