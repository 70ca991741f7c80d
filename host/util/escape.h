/* SPDX-License-Identifier: Apache-2.0 */
/* Escaping at the edge, once per output format. Every string a renderer
 * or a command prints that came from outside merlin's own code (a console
 * stream, a results file, a board or profile file, an implementation
 * folder, a compiler's banner) goes through the escaper of the format it
 * is written in, and through nothing else.
 *
 * Common to every format: bytes that would act rather than show are
 * written visibly, never raw: C0 controls (other than tab and line breaks,
 * which become one space), DEL, the C1 controls U+0080..U+009F, the
 * Unicode bidirectional overrides and isolates (U+202A..U+202E,
 * U+2066..U+2069, the "Trojan Source" characters, CVE-2021-42574), and
 * bytes that are not well-formed UTF-8 (RFC 3629). They appear as \xNN
 * (one per byte) or \uNNNN. Well-formed UTF-8 text otherwise passes. */
#ifndef MERLIN_HOST_ESCAPE_H
#define MERLIN_HOST_ESCAPE_H

#include "util/strbuf.h"

#include <stddef.h>

/* One of the escapers below, for renderers that write two formats. */
typedef void (*mh_esc_fn)(mh_sb *b, const char *s);

/* HTML text and attribute values (quoted with ' or "): & < > " ' as
 * character references. NULL: nothing. */
void mh_esc_html(mh_sb *b, const char *s);

/* Markdown text, also inside a table cell: the characters that make a
 * table cell, an HTML tag, an entity, a link or code span (\ | < > & [ ]
 * `) backslash-escaped (CommonMark 0.30 section 2.4), so a renderer shows
 * them as typed. NULL: nothing. */
void mh_esc_md(mh_sb *b, const char *s);

/* XML 1.0 text and attribute values: & < > " ' as entity references;
 * characters XML cannot hold (section 2.2, Char) shown visibly. */
void mh_esc_xml(mh_sb *b, const char *s);

/* A terminal line: only the visible forms above (no markup). */
void mh_esc_term(mh_sb *b, const char *s);

/* The terminal form of s in a static-free, caller-owned buffer: for one
 * fprintf argument. Cut (with "...") when buf is too small. */
const char *mh_esc_term_buf(const char *s, char *buf, size_t len);

/* A terminal stream, in pieces: as mh_esc_term, but tab and line feed
 * are kept, and a UTF-8 sequence cut short at the end of the n bytes is
 * left for the next piece unless final. Returns the bytes taken. */
size_t mh_esc_term_stream(mh_sb *b, const char *s, size_t n, int final);

#endif
