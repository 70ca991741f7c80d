/* SPDX-License-Identifier: Apache-2.0 */
/* memmem */
#define _GNU_SOURCE

#include "run/impl_culprit.h"

#include "image/elffile.h"
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

int mh_impl_build_culprit(const char *log, const mh_impl_set *s,
                          const unsigned char *off, size_t *k, char *why,
                          size_t wlen) {
  char *buf, err[256];
  size_t len;
  if (!s || !s->n || mh_read_file(log, LOG_MAX, &buf, &len, err, sizeof err))
    return -1;
  int rc = -1;
  for (char *l = buf; rc != 0 && l && *l;) {
    char *nl = strchr(l, '\n');
    size_t ll = nl ? (size_t)(nl - l) : strlen(l);
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

int mh_impl_run_culprit(const char *console, size_t len, const mh_impl_set *s,
                        const unsigned char *off, size_t *k, char *why,
                        size_t wlen) {
  char *last_id = NULL, *kind = NULL, *stack = NULL, *heap = NULL;
  const char *end = console + len;
  if (!s || !s->n)
    return -1;
  for (const char *l = console; l < end;) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    size_t ll = nl ? (size_t)(nl - l) : (size_t)(end - l);
    char type[32];
    record_type(l, ll, type, sizeof type);
    char *id = strcmp(type, "op") && strcmp(type, "begin") && !kind
                   ? field(l, ll, "id")
                   : NULL;
    if (id && strcmp(id, "-") != 0) {
      free(last_id);
      last_id = id;
    } else {
      free(id);
    }
    if (strcmp(type, "begin") == 0 && !stack)
      stack = field(l, ll, "stack_capacity");
    if (strcmp(type, "fault") == 0 && !kind)
      kind = field(l, ll, "kind");
    char *msg = strcmp(type, "error") == 0 ? field(l, ll, "msg") : NULL;
    if (msg && strstr(msg, "heap exhausted") && !heap)
      heap = msg;
    else
      free(msg);
    l = nl ? nl + 1 : end;
  }
  int rc = -1;
  int stack_fault = kind && strcmp(kind, "stackoverflow") == 0;
  if (last_id && (stack_fault || heap)) {
    for (const char *l = console; rc != 0 && l < end;) {
      const char *nl = memchr(l, '\n', (size_t)(end - l));
      size_t ll = nl ? (size_t)(nl - l) : (size_t)(end - l);
      char type[32], *id = NULL, *be = NULL, *alg = NULL, *op = NULL;
      record_type(l, ll, type, sizeof type);
      if (strcmp(type, "op") == 0 && (id = field(l, ll, "id")) &&
          strcmp(id, last_id) == 0 && (be = field(l, ll, "backend"))) {
        alg = field(l, ll, "alg");
        op = field(l, ll, "op");
        for (size_t i = 0; rc != 0 && i < s->n; i++)
          if (!(off && off[i]) && strcmp(s->v[i].backend, be) == 0) {
            *k = i;
            rc = 0;
          }
        if (rc == 0 && stack_fault)
          snprintf(why, wlen,
                   "does not fit: its %s %s overflowed the stack (%s bytes "
                   "free in this image)",
                   alg ? alg : "?", op ? op : "?", stack ? stack : "?");
        else if (rc == 0)
          snprintf(why, wlen, "does not fit: its %s %s exhausted the heap",
                   alg ? alg : "?", op ? op : "?");
      }
      free(id);
      free(be);
      free(alg);
      free(op);
      l = nl ? nl + 1 : end;
    }
  }
  free(last_id);
  free(kind);
  free(stack);
  free(heap);
  return rc;
}

int mh_impl_stack_culprit(const char *image, const mh_impl_set *s,
                          const unsigned char *off, size_t *k, char *why,
                          size_t wlen) {
  mh_elf e;
  char err[256];
  uint64_t top, limit, sz;
  if (!s || !s->n || mh_elf_open(image, &e, err, sizeof err) != 0)
    return -1;
  int have = mh_elf_symbol(&e, "__stack_top", &top, &sz) == 0 &&
             mh_elf_symbol(&e, "__stack_limit", &limit, &sz) == 0 &&
             top > limit;
  mh_elf_free(&e);
  if (!have)
    return -1;
  unsigned long long cap = top - limit, worst = 0;
  int rc = -1;
  for (size_t i = 0; i < s->n; i++)
    if (!(off && off[i]) && s->v[i].ref_stack > cap &&
        s->v[i].ref_stack > worst) {
      worst = s->v[i].ref_stack;
      *k = i;
      rc = 0;
    }
  if (rc == 0)
    snprintf(why, wlen,
             "does not fit: its known-answer run used %llu bytes of stack in "
             "the host reference build (x86-64), the image has %llu",
             worst, cap);
  return rc;
}
