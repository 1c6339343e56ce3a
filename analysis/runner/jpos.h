/* SPDX-License-Identifier: BSD-2-Clause */
/* jpos.h — where each value of a JSON text is: its JSON path and its line:column.
 *
 * jansson reports a position only for syntax errors; a profile's "unknown key" or
 * "wrong type" errors need the place of a value that parsed fine. jpos_index() scans
 * the raw text once and records, for every value (and the key naming it), the path and
 * position, so a validator can say "demo.json:12:15: matrix.pollhz[2]: ...".
 *
 * Paths: the top-level value is "" ; an object member is PARENT.KEY (KEY alone at the
 * top); an array element is PARENT[I], 0-based. A key that is not a plain name
 * ([A-Za-z0-9_-]+) is written quoted in brackets: PARENT["a.b"]. jpos_path_key() and
 * jpos_path_idx() build paths the same way for callers walking a jansson tree.
 *
 * Positions are 1-based; the column counts UTF-8 characters (bytes that do not start a
 * UTF-8 sequence are not counted), as jansson's json_error_t.column does.
 *
 * The scanner never reads past len and never crashes on malformed text: it records
 * what it could scan before the first error. Duplicate keys keep the first position. */
#ifndef PPSLAB_ANALYSIS_RUNNER_JPOS_H
#define PPSLAB_ANALYSIS_RUNNER_JPOS_H

#include <stddef.h>

struct jpos;

/* NULL only when out of memory. */
struct jpos *jpos_index(const char *text, size_t len);
void jpos_free(struct jpos *jp);
/* 0 and the value's position, or -ENOENT (no such path, or jp NULL). */
int jpos_find(const struct jpos *jp, const char *path, int *line, int *col);
/* 0 and the position of the key naming an object member (its opening quote);
 * -ENOENT for array elements, the top level and unknown paths. */
int jpos_find_key(const struct jpos *jp, const char *path, int *line, int *col);
/* Number of values recorded. */
size_t jpos_count(const struct jpos *jp);

/* Path of member key of parent / element i of parent, into buf (truncated to len);
 * returns buf. */
char *jpos_path_key(char *buf, size_t len, const char *parent, const char *key);
char *jpos_path_idx(char *buf, size_t len, const char *parent, size_t i);

#endif
