/* SPDX-License-Identifier: Apache-2.0 */
/* See cli_parse.h. */
#include "cli/cli_parse.h"

#include "config/targets.h"
#include "util/suggest.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int mh_cli_parse_only;

int mh_cli_usage_error(const mh_parse_state *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "merlin %s: ", s->cmd->name);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(see merlin %s --help)\n", s->cmd->name);
  va_end(ap);
  return MH_USAGE_EXIT;
}

/* "-j, --jobs N" */
static void opt_left(const mh_opt_def *d, char *buf, size_t len) {
  snprintf(buf, len, "%s%s%s%s%s", d->alias ? d->alias : "",
           d->alias ? ", " : "", d->name, d->arg ? " " : "",
           d->arg ? d->arg : "");
}

static int hidden_group(const char *title) {
  return strncmp(title, "test hooks", 10) == 0;
}

/* `merlin CMD --help`: the head, then one entry per option of the table:
 * the option in a column of 18, its help lines indented past it; a
 * group's title above its options. */
void mh_cli_print_help(const mh_cmd_def *c, FILE *f, int all) {
  fputs(c->head, f);
  fputs(c->n_opts && c->opts[0].name ? "\noptions:\n" : "", f);
  int hide = 0;
  for (size_t i = 0; i < c->n_opts; i++) {
    const mh_opt_def *d = &c->opts[i];
    if (!d->name) {
      hide = !all && hidden_group(d->help);
      if (!hide)
        fprintf(f, "\n%s:\n", d->help);
      continue;
    }
    if (hide)
      continue;
    char left[64];
    opt_left(d, left, sizeof left);
    fprintf(f, strlen(left) > 18 ? "  %s  " : "  %-18s ", left);
    for (const char *h = d->help; *h; h++) {
      if (h[0] == '%' && h[1] == 'R') {
        fprintf(f, "%u..%u", d->lo, d->hi);
        h++;
      } else if (*h == '\n') {
        fprintf(f, "\n%21s", "");
      } else {
        fputc(*h, f);
      }
    }
    fputc('\n', f);
  }
  fputs("\n  -h, --help         this help", f);
  fputs(all ? "\n" : " (merlin help --all: every option)\n", f);
}

static void valid_options(const mh_parse_state *s, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < s->cmd->n_opts && used < len; i++) {
    const mh_opt_def *d = &s->cmd->opts[i];
    if (!d->name)
      continue;
    used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s",
                             used ? ", " : "", d->alias ? d->alias : "",
                             d->alias ? ", " : "", d->name);
  }
  if (used < len)
    snprintf(buf + used, len - used, "%s--help", used ? ", " : "");
}

/* The table entry of argument a, or NULL; *attached: a one-letter option
 * with its value attached (-j2). */
static const mh_opt_def *find_opt(const mh_cmd_def *c, const char *a,
                                  const char **attached) {
  const char *eq = strchr(a, '=');
  size_t nl = eq ? (size_t)(eq - a) : strlen(a);
  *attached = NULL;
  for (size_t k = 0; k < c->n_opts; k++) {
    const mh_opt_def *d = &c->opts[k];
    if (!d->name)
      continue;
    if ((strlen(d->name) == nl && strncmp(d->name, a, nl) == 0) ||
        (d->alias && strlen(d->alias) == nl && strncmp(d->alias, a, nl) == 0))
      return d;
  }
  for (size_t k = 0; a[1] != '-' && k < c->n_opts; k++) {
    const mh_opt_def *d = &c->opts[k];
    if (d->name && d->arg && d->alias && strncmp(d->alias, a, 2) == 0) {
      *attached = a + 2;
      return d;
    }
  }
  return NULL;
}

const char *mh_cli_opt_at(const mh_cmd_def *c, int argc, char **argv, int i,
                          int *slots) {
  const char *attached, *a = argv[i];
  *slots = 1;
  if (a[0] != '-' || a[1] == '\0' || strcmp(a, "--") == 0)
    return NULL;
  const mh_opt_def *d = find_opt(c, a, &attached);
  if (!d)
    return NULL;
  if (d->arg && !attached && !strchr(a, '=') && i + 1 < argc)
    *slots = 2;
  return d->name;
}

int mh_cli_parse_uint(const mh_parse_state *s, const char *name, const char *v,
                      unsigned lo, unsigned hi, unsigned *out) {
  char *end;
  errno = 0;
  unsigned long x = v[0] >= '0' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
  if (v[0] < '0' || v[0] > '9' || errno || *end || x < lo || x > hi) {
    return mh_cli_usage_error(s, "%s must be an integer in %u..%u, got '%s'",
                              name, lo, hi, v);
  }
  *out = (unsigned)x;
  return 0;
}

/* Is v one of the comma-separated choices? */
static int is_choice(const char *choices, const char *v) {
  size_t n = strlen(v);
  for (const char *c = choices; *c;) {
    size_t len = strcspn(c, ",");
    if (len == n && strncmp(c, v, n) == 0)
      return 1;
    c += len;
    c += strspn(c, ", ");
  }
  return 0;
}

/* Store value v (NULL: a flag) of option d. */
static int store_opt(mh_parse_state *s, const mh_opt_def *d, const char *v) {
  char *base = s->args;
  s->given[d - s->cmd->opts] = 1;
  if (!d->arg) {
    *(int *)(void *)(base + d->at) = 1;
    return 0;
  }
  if (!*v)
    return mh_cli_usage_error(s, "option %s needs a non-empty value", d->name);
  size_t k = (size_t)(d - s->cmd->opts);
  if (d->repeat == MH_OPT_LIST)
    s->multi[k][s->n_multi[k]++] = v;
  else if (d->repeat)
    s->targets[s->n_targets++] = v;
  else
    *(const char **)(void *)(base + d->at) = v;
  return 0;
}

/* Parse argv into s->args by the command's table, then check the integer
 * options against their ranges. Returns -1 on --help (printed), 0 on
 * success, or MH_USAGE_EXIT. */
static int parse(mh_parse_state *s, int argc, char **argv) {
  s->targets = calloc((size_t)argc + 1, sizeof *s->targets);
  s->pos = calloc((size_t)argc + 1, sizeof *s->pos);
  int lists_ok = 1;
  for (size_t k = 0; k < s->cmd->n_opts; k++)
    if (s->cmd->opts[k].repeat == MH_OPT_LIST &&
        !(s->multi[k] = calloc((size_t)argc + 1, sizeof *s->multi[k])))
      lists_ok = 0;
  if (!s->targets || !s->pos || !lists_ok) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  int only_pos = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (only_pos || a[0] != '-' || a[1] == '\0') {
      s->pos[s->n_pos++] = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      only_pos = 1;
      continue;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      mh_cli_print_help(s->cmd, stdout, 0);
      return -1;
    }
    const char *attached, *eq = strchr(a, '=');
    const mh_opt_def *d = find_opt(s->cmd, a, &attached);
    if (!d) {
      char valid[512];
      valid_options(s, valid, sizeof valid);
      return mh_cli_usage_error(s, "unknown option '%s'; valid: %s", a, valid);
    }
    if (!d->arg && eq)
      return mh_cli_usage_error(s, "option %s takes no value", d->name);
    const char *v = !d->arg ? NULL : attached ? attached : eq ? eq + 1 : NULL;
    if (d->arg && !v) {
      if (i + 1 >= argc)
        return mh_cli_usage_error(s, "option %s needs a value", a);
      v = argv[++i];
    }
    int rc = store_opt(s, d, v);
    if (rc != 0)
      return rc;
  }
  char *base = s->args;
  for (size_t k = 0; k < s->cmd->n_opts; k++) {
    const mh_opt_def *d = &s->cmd->opts[k];
    if (d->repeat == MH_OPT_LIST) {
      mh_strlist *l = (mh_strlist *)(void *)(base + d->at);
      l->v = s->multi[k];
      l->n = s->n_multi[k];
      continue;
    }
    const char *v = d->hi ? *(const char **)(void *)(base + d->at) : NULL;
    int rc = v ? mh_cli_parse_uint(s, d->name, v, d->lo, d->hi,
                                   (unsigned *)(void *)(base + d->num))
               : 0;
    if (rc == 0 && d->choices && d->arg && !d->repeat) {
      v = *(const char **)(void *)(base + d->at);
      if (v && !is_choice(d->choices, v))
        rc = mh_cli_usage_error(s, "unknown %s '%s'; valid: %s", d->name, v,
                                d->choices);
    }
    if (rc != 0)
      return rc;
  }
  return 0;
}
/* An unknown target: the valid ones, and the nearest as a suggestion. */
static int unknown_target(const mh_parse_state *s, const char *t,
                          const char *valid) {
  char near[64];
  if (mh_suggest_list(t, valid, near, sizeof near))
    return mh_cli_usage_error(s,
                              "unknown target '%s' (did you mean %s?); "
                              "valid: %s",
                              t, near, valid);
  return mh_cli_usage_error(s, "unknown target '%s'; valid: %s", t, valid);
}

/* Split the --target values on commas and check each. The returned list
 * points into a malloc'd copy kept in *store. */
static int split_targets(const mh_parse_state *s, const char ***out, size_t *n,
                         char **store) {
  /* A descriptor that does not parse is the tree's fault, not the command
   * line's: say which file and line (boards/<id>.board, docs/boards.md). */
  char derr[1024];
  *store = NULL;
  *out = NULL;
  *n = 0;
  if (mh_targets_init(derr, sizeof derr) != 0) {
    fprintf(stderr, "merlin: cannot read the target descriptors: %s\n", derr);
    return 1;
  }
  size_t total = 1;
  for (size_t i = 0; i < s->n_targets; i++)
    total += strlen(s->targets[i]) + 1;
  char *buf = malloc(total);
  const char **list = calloc(total, sizeof *list);
  *store = buf;
  *out = list;
  *n = 0;
  if (!buf || !list) {
    fprintf(stderr, "merlin: out of memory\n");
    return 1;
  }
  char valid[256];
  mh_target_list(valid, sizeof valid);
  if (s->n_targets == 0)
    return mh_cli_usage_error(s, "--target is required; valid: %s", valid);
  char *p = buf;
  for (size_t i = 0; i < s->n_targets; i++) {
    const char *v = s->targets[i];
    size_t vl = strlen(v);
    if (!vl || v[0] == ',' || v[vl - 1] == ',' || strstr(v, ",,"))
      return mh_cli_usage_error(s,
                                "--target '%s': an empty target name (a "
                                "comma at either end, or two together); "
                                "valid: %s",
                                v, valid);
    strcpy(p, s->targets[i]);
    char *save = NULL;
    for (char *t = strtok_r(p, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
      if (!mh_target_find(t))
        return unknown_target(s, t, valid);
      for (size_t k = 0; k < *n; k++)
        if (strcmp(list[k], t) == 0)
          return mh_cli_usage_error(s, "target '%s' given twice", t);
      list[(*n)++] = t;
    }
    /* Past this value's copy: strtok_r cut it at its first comma. */
    p += strlen(s->targets[i]) + 1;
  }
  if (*n == 0)
    return mh_cli_usage_error(s, "--target is empty; valid: %s", valid);
  return 0;
}

void mh_cli_state_free(mh_parse_state *s) {
  free(s->targets);
  free(s->pos);
  for (size_t k = 0; k < MH_MAX_OPTS; k++)
    free(s->multi[k]);
}

/* Parse a command's line into args: the table, no positional argument
 * unless allow_pos, and the --target list when the table has one. */
int mh_cli_given(const mh_parse_state *s, const char *name) {
  for (size_t k = 0; k < s->cmd->n_opts; k++)
    if (s->cmd->opts[k].name && strcmp(s->cmd->opts[k].name, name) == 0)
      return s->given[k];
  return 0;
}

static int check_conflicts(const mh_parse_state *s) {
  for (size_t i = 0; i < s->cmd->n_conflicts; i++) {
    const mh_conflict *c = &s->cmd->conflicts[i];
    for (size_t k = 0; mh_cli_given(s, c->opt) && c->with[k]; k++)
      if (mh_cli_given(s, c->with[k]))
        return mh_cli_usage_error(s, "%s", c->msg);
  }
  return 0;
}

int mh_cli_parse_cmd(mh_parse_state *s, int argc, char **argv, int allow_pos,
                     const char ***targets, size_t *n_targets, char **store) {
  int rc = parse(s, argc, argv);
  if (rc == 0 && !allow_pos && s->n_pos)
    rc = mh_cli_usage_error(s, "unexpected argument '%s'", s->pos[0]);
  if (rc == 0 && targets)
    rc = split_targets(s, targets, n_targets, store);
  if (rc == 0)
    rc = check_conflicts(s);
  return rc;
}
