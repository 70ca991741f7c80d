/* SPDX-License-Identifier: Apache-2.0 */
/* memmem */
#define _GNU_SOURCE

#include "impl/impl_culprit.h"

#include "util/fsutil.h"
#include "wire/wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest build log read. */
#define LOG_MAX ((size_t)64 << 20)

/* The folder of s (not off) whose directory starts the path at p. */
static int folder_of_path(const char *p, size_t n, const mh_impl_set *s,
                          const unsigned char *off, size_t *k) {
  for (size_t i = 0; i < s->n; i++) {
    size_t dl = strlen(s->v[i].dir);
    if (!(off && off[i]) && n > dl && strncmp(p, s->v[i].dir, dl) == 0 &&
        p[dl] == '/') {
      *k = i;
      return 0;
    }
  }
  return -1;
}

/* The largest folder (its objects' declared sizes) not off. */
static int largest(const mh_impl_set *s, const unsigned char *off, size_t *k) {
  unsigned long long best = 0;
  int found = -1;
  for (size_t i = 0; i < s->n; i++) {
    unsigned long long sz = s->v[i].pk + s->v[i].sk + s->v[i].ct;
    if (!(off && off[i]) && sz >= best) {
      best = sz;
      *k = i;
      found = 0;
    }
  }
  return found;
}

/* The folder of s (not off) whose build directory (<build>/impl/<K>/, its
 * folder.txt naming the folder: cmake/MerlinImpl.cmake) holds the object
 * a linker line names: 0 with *k, or -1. */
static int folder_of_object(const char *l, size_t ll, const mh_impl_set *s,
                            const unsigned char *off, size_t *k) {
  const char *p = memmem(l, ll, "/impl/", 6);
  while (p) {
    const char *d = p + 6, *e = d;
    while (e < l + ll && *e >= '0' && *e <= '9')
      e++;
    if (e > d && e < l + ll && *e == '/') {
      const char *b = p;
      while (b > l && b[-1] != ' ')
        b--;
      char path[4096], *text = NULL, err[128];
      size_t len;
      snprintf(path, sizeof path, "%.*s/folder.txt", (int)(e - b), b);
      int rc = -1;
      if (mh_read_file(path, 1 << 16, &text, &len, err, sizeof err) == 0) {
        text[strcspn(text, "\n")] = '\0';
        for (size_t i = 0; rc != 0 && i < s->n; i++)
          if (!(off && off[i]) && strcmp(s->v[i].dir, text) == 0) {
            *k = i;
            rc = 0;
          }
      }
      free(text);
      return rc;
    }
    p = memmem(p + 1, (size_t)(l + ll - p - 1), "/impl/", 6);
  }
  return -1;
}

/* The folder of s (not off) whose source a compiler command line compiles
 * ("... -c /abs/path/file.c", as ninja prints a failed command): 0 with
 * *k and *src (the source's path in l, *srclen long), or -1. */
static int folder_of_command(const char *l, size_t ll, const mh_impl_set *s,
                             const unsigned char *off, size_t *k,
                             const char **src, size_t *srclen) {
  const char *c = memmem(l, ll, " -c /", 5);
  if (!c)
    return -1;
  const char *p = c + 4, *e = p;
  while (e < l + ll && *e != ' ')
    e++;
  if (folder_of_path(p, (size_t)(e - p), s, off, k) != 0)
    return -1;
  *src = p;
  *srclen = (size_t)(e - p);
  return 0;
}

int mh_impl_build_culprit(const char *log, const mh_impl_set *s,
                          const unsigned char *off, size_t *k, char *why,
                          size_t wlen) {
  char *buf, err[256];
  size_t len;
  if (!s || !s->n || mh_read_file(log, LOG_MAX, &buf, &len, err, sizeof err))
    return -1;
  int rc = -1;
  long linked = -1;    /* the folder whose object a linker line names */
  long compiling = -1; /* the folder whose source the failed command compiles */
  const char *src = NULL;
  size_t srclen = 0;
  for (char *l = buf; rc != 0 && l && *l;) {
    char *nl = strchr(l, '\n');
    size_t ll = nl ? (size_t)(nl - l) : strlen(l);
    size_t ok;
    if (memmem(l, ll, ": in function", 13))
      linked = folder_of_object(l, ll, s, off, &ok) == 0 ? (long)ok : -1;
    if (ll >= 8 && strncmp(l, "FAILED: ", 8) == 0) /* ninja: a new failure */
      compiling = -1;
    if (memmem(l, ll, " -c ", 4))
      compiling = folder_of_command(l, ll, s, off, &ok, &src, &srclen) == 0
                      ? (long)ok
                      : -1;
    /* "<path>:<line>:<col>: error: ..." (compilers), "<path>:<line>: Error:
     * ..." (the assembler), "<path>:<line>: undefined reference ..." */
    int is_err = (memmem(l, ll, "error", 5) || memmem(l, ll, "Error", 5) ||
                  memmem(l, ll, "undefined reference", 19)) &&
                 l[0] == '/';
    const char *colon = memchr(l, ':', ll);
    if (is_err && colon &&
        folder_of_path(l, (size_t)(colon - l), s, off, k) == 0) {
      const char *rel = l + strlen(s->v[*k].dir) + 1;
      snprintf(why, wlen, "not built: %.*s", (int)(ll - (size_t)(rel - l)),
               rel);
      rc = 0;
    } else if (is_err && colon && compiling >= 0) {
      /* an error in a file the compiler made of the folder's source (the
       * assembler's "/tmp/ccXXXX.s:94: Error: ...", GCC's output for
       * wots.c): the source the failed command compiles is to blame */
      *k = (size_t)compiling;
      const char *rel = src + strlen(s->v[*k].dir) + 1;
      const char *msg = colon + 1;
      while (msg < l + ll && *msg >= '0' && *msg <= '9')
        msg++;
      while (msg < l + ll && (*msg == ':' || *msg == ' '))
        msg++;
      snprintf(why, wlen,
               "not built: %.*s (the code the compiler made of it): %.*s",
               (int)(srclen - (size_t)(rel - src)), rel,
               (int)(ll - (size_t)(msg - l)), msg);
      rc = 0;
    } else if (linked >= 0 && (memmem(l, ll, "undefined reference", 19) ||
                               memmem(l, ll, "multiple definition", 19))) {
      /* a link error in the folder's own objects */
      const char *what = memmem(l, ll, "undefined reference", 19);
      what = what ? what : memmem(l, ll, "multiple definition", 19);
      *k = (size_t)linked;
      snprintf(why, wlen, "not built: its objects do not link: %.*s",
               (int)(ll - (size_t)(what - l)), what);
      rc = 0;
    } else if (memmem(l, ll, "overflowed by", 13) ||
               memmem(l, ll, "will not fit in region", 22)) {
      if (largest(s, off, k) == 0) {
        const mh_impl *m = &s->v[*k];
        const char *ld = memmem(l, ll, "region", 6);
        snprintf(why, wlen,
                 "does not fit: the image's memory overflows with its "
                 "objects (public key %llu B, secret key %llu B, %s %llu B): "
                 "%.*s",
                 m->pk, m->sk, m->kem ? "ciphertext" : "signature", m->ct,
                 ld ? (int)(ll - (size_t)(ld - l)) : 0, ld ? ld : "");
        rc = 0;
      }
    }
    l = nl ? nl + 1 : NULL;
  }
  free(buf);
  return rc;
}

/* The value of key in a wire line ("key=value ..."), decoded, or NULL. */
static char *field(const char *line, size_t ll, const char *key) {
  size_t kl = strlen(key);
  for (const char *p = line; p && p < line + ll;) {
    if ((p == line || p[-1] == ' ') && (size_t)(line + ll - p) > kl &&
        strncmp(p, key, kl) == 0 && p[kl] == '=') {
      const char *v = p + kl + 1;
      size_t vl = strcspn(v, " \n");
      return mh_wire_decode(v, vl);
    }
    p = memchr(p, ' ', (size_t)(line + ll - p));
    if (p)
      p++;
  }
  return NULL;
}

/* The record type of a wire line ("@M1 <seq> <type> ..."), into type. */
static void record_type(const char *line, size_t ll, char *type, size_t tl) {
  const char *p = memchr(line, ' ', ll);
  p = p ? memchr(p + 1, ' ', (size_t)(line + ll - p - 1)) : NULL;
  size_t n = p ? strcspn(p + 1, " \n") : 0;
  snprintf(type, tl, "%.*s", (int)n, p ? p + 1 : "");
}

/* What the console stream of a failed image says, for the culprit: the
 * announced operations in order, which of them finished (an opend, a
 * failed kat, an error), the fault and the first heap message. */
typedef struct {
  char **id, **backend, **alg, **op; /* per announced operation */
  unsigned char *done;
  size_t n;
  char *kind, *heap_failures, *code, *stack, *heap_id, *heap_msg, *detail;
  /* per announced operation: why it failed (a failed kat's detail, or
   * another error's message), and which (1 the kat, 2 an error), or 0 */
  char **fail_why;
  unsigned char *fail_kind;
} stream_facts;

static void facts_free(stream_facts *f) {
  for (size_t i = 0; i < f->n; i++) {
    free(f->id[i]);
    free(f->backend[i]);
    free(f->alg[i]);
    free(f->op[i]);
  }
  for (size_t i = 0; f->fail_why && i < f->n; i++)
    free(f->fail_why[i]);
  free(f->fail_why);
  free(f->fail_kind);
  free(f->id);
  free(f->backend);
  free(f->alg);
  free(f->op);
  free(f->done);
  char *one[] = {f->kind,    f->heap_failures, f->code,  f->stack,
                 f->heap_id, f->heap_msg,      f->detail};
  for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
    free(one[i]);
}

static long op_index(const stream_facts *f, const char *id) {
  for (size_t i = 0; id && i < f->n; i++)
    if (f->id[i] && strcmp(f->id[i], id) == 0)
      return (long)i;
  return -1;
}

static int announce(stream_facts *f, const char *l, size_t ll) {
  size_t n = f->n + 1;
  char **v[4] = {f->id, f->backend, f->alg, f->op};
  static const char *const keys[4] = {"id", "backend", "alg", "op"};
  for (int k = 0; k < 4; k++) {
    char **nv = realloc(v[k], n * sizeof *nv);
    if (!nv)
      return -1;
    v[k] = nv;
    nv[n - 1] = field(l, ll, keys[k]);
  }
  f->id = v[0], f->backend = v[1], f->alg = v[2], f->op = v[3];
  unsigned char *d = realloc(f->done, n);
  if (!d)
    return -1;
  f->done = d;
  d[n - 1] = 0;
  char **fw = realloc(f->fail_why, n * sizeof *fw);
  if (!fw)
    return -1;
  f->fail_why = fw;
  fw[n - 1] = NULL;
  unsigned char *fk = realloc(f->fail_kind, n);
  if (!fk)
    return -1;
  f->fail_kind = fk;
  fk[n - 1] = 0;
  f->n = n;
  return 0;
}

/* The first value only: a record repeats no fact the culprit needs. */
static void keep(char **slot, char *v) {
  if (*slot)
    free(v);
  else
    *slot = v;
}

static int read_facts(const char *console, size_t len, stream_facts *f) {
  const char *end = console + len;
  for (const char *l = console; l < end;) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    size_t ll = nl ? (size_t)(nl - l) : (size_t)(end - l);
    char type[32];
    record_type(l, ll, type, sizeof type);
    char *id = NULL;
    if (strcmp(type, "op") == 0) {
      if (announce(f, l, ll) != 0)
        return -1;
    } else if (strcmp(type, "begin") == 0) {
      keep(&f->stack, field(l, ll, "stack_capacity"));
    } else if (strcmp(type, "fault") == 0) {
      keep(&f->kind, field(l, ll, "kind"));
      keep(&f->heap_failures, field(l, ll, "heap_failures"));
      keep(&f->code, field(l, ll, "code"));
      keep(&f->detail, field(l, ll, "detail"));
    } else if (strcmp(type, "opend") == 0 || strcmp(type, "kat") == 0 ||
               strcmp(type, "error") == 0) {
      id = field(l, ll, "id");
      char *res = strcmp(type, "kat") == 0 ? field(l, ll, "result") : NULL;
      char *msg = strcmp(type, "error") == 0 ? field(l, ll, "msg") : NULL;
      long k = op_index(f, id);
      if (k >= 0 && (strcmp(type, "kat") != 0 || (res && !strcmp(res, "fail"))))
        f->done[k] = 1;
      if (res && strcmp(res, "fail") == 0 && k >= 0 && !f->fail_kind[k]) {
        f->fail_kind[k] = 1;
        f->fail_why[k] = field(l, ll, "detail");
      }
      if (msg && strstr(msg, "heap exhausted") && !f->heap_msg) {
        f->heap_msg = msg;
        f->heap_id = id;
        msg = id = NULL;
      } else if (msg && k >= 0 && !f->fail_kind[k]) {
        f->fail_kind[k] = 2;
        f->fail_why[k] = msg;
        msg = NULL;
      }
      free(res);
      free(msg);
    }
    free(id);
    l = nl ? nl + 1 : end;
  }
  return 0;
}

/* The folder of s (not off) that op k of the stream is of: its index. */
static int folder_of_op(const stream_facts *f, long k, const mh_impl_set *s,
                        const unsigned char *off, size_t *out) {
  for (size_t i = 0; k >= 0 && f->backend[k] && i < s->n; i++)
    if (!(off && off[i]) && strcmp(s->v[i].backend, f->backend[k]) == 0) {
      *out = i;
      return 0;
    }
  return -1;
}

int mh_impl_run_culprit(const char *console, size_t len, const mh_impl_set *s,
                        const unsigned char *off, size_t *k, char *why,
                        size_t wlen) {
  stream_facts f = {0};
  if (!s || !s->n || read_facts(console, len, &f) != 0) {
    facts_free(&f);
    return -1;
  }
  /* The operation running when the image stopped: the first announced
   * one that did not finish (operations run in their announced order;
   * a folder's own known-answer test runs inside its first). */
  long running = -1;
  for (size_t i = 0; running < 0 && i < f.n; i++)
    if (!f.done[i])
      running = (long)i;
  int stack_fault = f.kind && strcmp(f.kind, "stackoverflow") == 0;
  int heap_exit = f.kind && strcmp(f.kind, "library-exit") == 0 &&
                  f.heap_failures && strcmp(f.heap_failures, "0") != 0;
  long op = f.heap_msg ? op_index(&f, f.heap_id) : running;
  int rc = -1;
  if ((stack_fault || heap_exit || f.heap_msg) &&
      folder_of_op(&f, op, s, off, k) == 0) {
    const char *alg = f.alg[op] ? f.alg[op] : "?";
    const char *o = f.op[op] ? f.op[op] : "?";
    if (stack_fault)
      snprintf(why, wlen,
               "does not fit: its %s %s overflowed the stack (%s bytes "
               "free in this image; target fault: kind=stackoverflow)",
               alg, o, f.stack ? f.stack : "?");
    else if (heap_exit)
      snprintf(why, wlen,
               "does not fit: its %s %s exhausted the heap (an allocation "
               "failed, then exit(%s), as PQClean's common code does; target "
               "fault: kind=library-exit)",
               alg, o, f.code ? f.code : "?");
    else
      snprintf(why, wlen, "does not fit: its %s %s exhausted the heap (%s)",
               alg, o, f.heap_msg);
    rc = 0;
  } else if (f.kind && folder_of_op(&f, op, s, off, k) == 0 &&
             s->v[*k].from_tree) {
    /* Any other fault (an assert, a hard fault, ...) while a folder of a
     * tree run ran: that folder is left out, the rest goes on. */
    snprintf(why, wlen,
             "failed on this target: its %s %s faulted (target fault: "
             "kind=%s%s%s)",
             f.alg[op] ? f.alg[op] : "?", f.op[op] ? f.op[op] : "?", f.kind,
             f.detail ? ": " : "", f.detail ? f.detail : "");
    rc = 0;
  } else if (!f.kind) {
    /* No fault: a folder found by --impl-tree whose known-answer test, or
     * the check of a timed sample, failed on this target is left out, not
     * fatal (the first such folder not off yet). */
    for (size_t i = 0; rc != 0 && i < f.n; i++) {
      if (!f.fail_kind[i] || folder_of_op(&f, (long)i, s, off, k) != 0 ||
          !s->v[*k].from_tree)
        continue;
      snprintf(why, wlen, "failed its %s: %s %s: %s",
               f.fail_kind[i] == 1 ? "known-answer test"
                                   : "checks on this "
                                     "target",
               f.alg[i] ? f.alg[i] : "?", f.op[i] ? f.op[i] : "?",
               f.fail_why[i] ? f.fail_why[i] : "failed");
      rc = 0;
    }
  }
  facts_free(&f);
  return rc;
}

int mh_impl_running(const char *console, size_t len, const mh_impl_set *s,
                    const unsigned char *off, size_t *k, char *op,
                    size_t oplen) {
  stream_facts f = {0};
  int rc = -1;
  if (s && s->n && read_facts(console, len, &f) == 0)
    for (size_t i = 0; rc != 0 && i < f.n; i++)
      if (!f.done[i]) {
        rc = folder_of_op(&f, (long)i, s, off, k);
        snprintf(op, oplen, "%s %s", f.alg[i] ? f.alg[i] : "?",
                 f.op[i] ? f.op[i] : "?");
        break;
      }
  facts_free(&f);
  return rc;
}
