/* SPDX-License-Identifier: Apache-2.0 */
#include "config/targets.h"

#include "config/boards.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The targets: every boards/<id>.board with a kind (docs/boards.md
 * "Targets"), loaded once, ordered native, qemu, board and by id within a
 * kind. The descriptors stay loaded: the targets point into them. */
static mh_board *descs;
static size_t n_descs;
static mh_target *table;
static char load_err[1024];
static int loaded; /* 0 not yet, 1 done, -1 failed (load_err) */
const mh_target *mh_targets;
size_t mh_n_targets;

static int by_kind_then_id(const void *a, const void *b) {
  const mh_target *x = a, *y = b;
  int d = (int)x->kind - (int)y->kind;
  return d ? d : strcmp(x->id, y->id);
}

/* cycle_model = <model> | none: <why> */
static void cycle_model_of(const mh_board *d, mh_target *t) {
  const char *c = d->cycle_model;
  if (strncmp(c, "none", 4) == 0 && (c[4] == '\0' || c[4] == ':')) {
    t->cycle_model = NULL;
    t->cycle_model_why =
        c[4] == ':' ? c + 5 + (c[5] == ' ') : "no cycle model for this target";
  } else {
    t->cycle_model = c;
    t->cycle_model_why = NULL;
  }
}

static void target_of(const mh_board *d, mh_target *t) {
  memset(t, 0, sizeof *t);
  t->id = d->id;
  t->description = d->description;
  t->user_qemu = strcmp(d->kind, "qemu-user") == 0;
  t->kind = strcmp(d->kind, "native") == 0 || t->user_qemu ? MH_EXEC_NATIVE
            : strcmp(d->kind, "qemu") == 0                 ? MH_EXEC_QEMU
                                                           : MH_EXEC_BOARD;
  t->image = t->kind == MH_EXEC_NATIVE ? "merlin-image" : "merlin-image.elf";
  t->qemu_machine = d->qemu_machine;
  t->qemu_cpu = d->qemu_cpu;
  t->icount_shift = t->kind == MH_EXEC_QEMU ? (int)d->icount_shift : -1;
  t->unit = d->unit;
  /* A QEMU target derives it from the begin record; the host's clock
   * counts in ns and a board's counter in core cycles. */
  t->ticks_to_unit = t->kind == MH_EXEC_QEMU ? 0.0 : 1.0;
  t->flash_hint = d->flash_hint;
  t->toolchain = d->toolchain;
  t->cpu_flags = d->cpu_flags;
  cycle_model_of(d, t);
}

static int load(char *err, size_t errlen) {
  char *root = mh_source_root(err, errlen);
  int rc =
      root ? mh_boards_load_all(root, 1, &descs, &n_descs, err, errlen) : -1;
  free(root);
  if (rc != 0)
    return -1;
  if (!(table = calloc(n_descs ? n_descs : 1, sizeof *table))) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  size_t n = 0;
  for (size_t i = 0; i < n_descs; i++) {
    if (!descs[i].kind)
      continue;
    /* icount_shift: the reader checked QEMU's range (config/board_keys.c) */
    target_of(&descs[i], &table[n++]);
  }
  qsort(table, n, sizeof *table, by_kind_then_id);
  mh_targets = table;
  mh_n_targets = n;
  return 0;
}

int mh_targets_init(char *err, size_t errlen) {
  if (loaded == 0)
    loaded = load(load_err, sizeof load_err) == 0 ? 1 : -1;
  if (loaded < 0)
    snprintf(err, errlen, "%s", load_err);
  return loaded > 0 ? 0 : -1;
}

const mh_target *mh_target_find(const char *id) {
  char err[8];
  if (mh_targets_init(err, sizeof err) != 0)
    return NULL;
  for (size_t i = 0; i < mh_n_targets; i++)
    if (strcmp(mh_targets[i].id, id) == 0)
      return &mh_targets[i];
  return NULL;
}

void mh_target_list(char *out, size_t outlen) {
  size_t used = 0;
  out[0] = '\0';
  /* Where the descriptors cannot be read, the list says why. */
  if (mh_targets_init(out, outlen) != 0)
    return;
  for (size_t i = 0; i < mh_n_targets && used < outlen; i++) {
    int w = snprintf(out + used, outlen - used, "%s%s", i ? ", " : "",
                     mh_targets[i].id);
    if (w < 0)
      break;
    used += (size_t)w;
  }
}

void mh_argv_free(char **argv) {
  if (!argv)
    return;
  for (char **a = argv; *a; a++)
    free(*a);
  free(argv);
}

char **mh_target_argv(const mh_target *t, const char *image, unsigned runs,
                      unsigned warmup) {
  char r[16], w[16], semi[128], icount[64];
  snprintf(r, sizeof r, "%u", runs);
  snprintf(w, sizeof w, "%u", warmup);
  const char *args[24];
  size_t n = 0;
  /* runs = 0: every known-answer test, nothing timed (--kat-only). */
  char *plugin = NULL;
  if (t->kind == MH_EXEC_NATIVE && t->user_qemu) {
    /* merlin_insn.so sits beside merlin_cycles.so (tools/hostcount). */
    char err[64];
    char *cyc = mh_cycles_plugin_path(err, sizeof err);
    char *slash = cyc ? strrchr(cyc, '/') : NULL;
    if (slash) {
      slash[1] = '\0';
      mh_sb sb = {0};
      mh_sb_qemu_opt(&sb, cyc); /* -plugin's syntax: commas doubled */
      mh_sb_puts(&sb, "merlin_insn.so");
      plugin = sb.failed ? NULL : sb.s;
      if (sb.failed)
        mh_sb_free(&sb);
    }
    free(cyc);
    if (!plugin)
      return NULL;
    args[n++] = "qemu-x86_64";
    args[n++] = "-plugin";
    args[n++] = plugin;
  }
  if (t->kind == MH_EXEC_NATIVE) {
    args[n++] = image;
    if (runs == 0) {
      args[n++] = "--kat-only";
    } else {
      args[n++] = "--runs";
      args[n++] = r;
      args[n++] = "--warmup";
      args[n++] = w;
    }
  } else {
    /* The image's console is UART0 on stdio; semihosting passes the
     * arguments and carries the exit status (SYS_EXIT_EXTENDED). */
    if (runs == 0)
      snprintf(semi, sizeof semi,
               "enable=on,target=native,arg=merlin-image,arg=--kat-only");
    else
      snprintf(semi, sizeof semi,
               "enable=on,target=native,arg=merlin-image,arg=--runs,arg=%u,"
               "arg=--warmup,arg=%u",
               runs, warmup);
    snprintf(icount, sizeof icount, "shift=%d,align=off,sleep=off",
             t->icount_shift);
    const char *fixed[] = {"qemu-system-arm",
                           "-M",
                           t->qemu_machine,
                           "-cpu",
                           t->qemu_cpu,
                           "-display",
                           "none",
                           "-monitor",
                           "none",
                           "-serial",
                           "stdio",
                           "-semihosting-config",
                           semi,
                           "-icount",
                           icount,
                           "-kernel",
                           image};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
      args[n++] = fixed[i];
  }
  char **argv = calloc(n + 1, sizeof *argv);
  for (size_t i = 0; argv && i < n; i++) {
    argv[i] = strdup(args[i]);
    if (!argv[i]) {
      mh_argv_free(argv);
      argv = NULL;
    }
  }
  free(plugin);
  return argv;
}

int mh_target_ticks_to_unit(const mh_target *t, const char *counter_unit,
                            const char *counter_hz, double *out, char *err,
                            size_t errlen) {
  double hz = 0;
  if (counter_hz) {
    char *end;
    errno = 0;
    hz = strtod(counter_hz, &end);
    if (errno || end == counter_hz || *end || !(hz > 0) || !isfinite(hz))
      hz = 0;
  }
  if (t->kind == MH_EXEC_BOARD) {
    /* A board's counter counts core cycles (DWT CYCCNT, or SysTick on the
     * processor clock): its ticks are the unit. */
    if (!counter_unit || strcmp(counter_unit, "ticks") != 0) {
      snprintf(err, errlen,
               "the image's counter counts in '%s', but a board's counts "
               "core cycles as 'ticks'",
               counter_unit ? counter_unit : "nothing");
      return -1;
    }
    *out = t->ticks_to_unit;
    return 0;
  }
  if (t->ticks_to_unit > 0) {
    /* A fixed conversion: the counter already counts in the unit (ns), or
     * (qemu-user) its ticks are the plugin's instructions. */
    if (counter_unit && strcmp(counter_unit, t->unit) != 0 &&
        !(t->user_qemu && strcmp(counter_unit, "ticks") == 0)) {
      snprintf(err, errlen,
               "the image's counter counts in '%s' but target %s reports "
               "'%s'",
               counter_unit, t->id, t->unit);
      return -1;
    }
    *out = t->ticks_to_unit;
    return 0;
  }
  if (hz == 0) {
    snprintf(err, errlen, "begin record has no valid counter_hz (got '%s')",
             counter_hz ? counter_hz : "nothing");
    return -1;
  }
  /* Under -icount shift=N every instruction advances virtual time by 2^N ns,
   * and the counter ticks at counter_hz of that virtual time. */
  *out = (1e9 / hz) / ldexp(1.0, t->icount_shift);
  /* Exact counts need an instruction to span more than two ticks, so a
   * reading off by under one tick still rounds to the right count (see
   * docs/wire-format.md). */
  if (*out >= 0.5) {
    snprintf(err, errlen,
             "counter at %.0f Hz is too coarse for exact instruction "
             "counts at -icount shift=%d",
             hz, t->icount_shift);
    return -1;
  }
  return 0;
}

char *mh_cycles_plugin_path(char *err, size_t errlen) {
  const char *env = getenv("MERLIN_QEMU_PLUGIN");
  char *p = NULL;
  if (env && *env) {
    p = strdup(env);
  } else {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
      exe[n] = '\0';
      char *slash = strrchr(exe, '/');
      if (slash) {
        slash[1] = '\0';
        mh_sb b = {0};
        mh_sb_printf(&b, "%smerlin_cycles.so", exe);
        p = b.failed ? NULL : b.s;
        if (b.failed)
          mh_sb_free(&b);
      }
    }
  }
  if (!p) {
    snprintf(err, errlen, "cannot locate the QEMU plugin merlin_cycles.so");
    return NULL;
  }
  if (access(p, R_OK) != 0) {
    snprintf(err, errlen,
             "QEMU plugin %s not found (%s): build it (cmake --build --preset "
             "host), set MERLIN_QEMU_PLUGIN, or run with --cycle-model off",
             p, strerror(errno));
    free(p);
    return NULL;
  }
  return p;
}

int mh_target_has_thumb2(const mh_target *t) {
  const char *f = t->cpu_flags;
  return t->kind != MH_EXEC_NATIVE && f && !strstr(f, "cortex-m0") &&
         !strstr(f, "cortex-m23");
}
