/* SPDX-License-Identifier: BSD-2-Clause */
/* jpos.c — positions of the values of a JSON text (see jpos.h). A recursive scanner
 * over the raw bytes, independent of jansson's tree; called by profile_check.c to place its
 * validation errors. It only locates values: numbers and literals are skipped as
 * runs of non-delimiter bytes, and any malformation ends the scan quietly. */
#include "jpos.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper nesting is not indexed (jansson's own limit is 2048; profiles nest 3 deep). */
#define JPOS_MAX_DEPTH 256

struct jpos_ent {
	char *path;
	int line, col;        /* the value's first character */
	int kline, kcol;      /* the key's opening quote, 0 when none */
};

struct jpos {
	size_t n, cap;
	struct jpos_ent *e;
};

struct scan {
	const char *s;
	size_t len, i;
	int line, col;        /* of s[i] */
	struct jpos *jp;
	int oom;
};

/* Growable string for decoded keys. */
struct sbuf {
	char *p;
	size_t n, cap;
};

static int sb_put(struct sbuf *b, char c)
{
	if (b->n + 2 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 32;
		char *p = realloc(b->p, cap);
		if (!p)
			return -ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	b->p[b->n++] = c;
	b->p[b->n] = 0;
	return 0;
}

static int plain_key(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++) {
		char c = *k;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

/* Writes the member path into buf (if len > 0) and returns its full length. */
static size_t key_path(char *buf, size_t len, const char *parent, const char *key)
{
	size_t n = 0;
#define PUT(ch)                                                                        \
	do {                                                                           \
		if (n + 1 < len)                                                       \
			buf[n] = (ch);                                                 \
		n++;                                                                   \
	} while (0)
	for (const char *p = parent; *p; p++)
		PUT(*p);
	if (plain_key(key)) {
		if (*parent)
			PUT('.');
		for (const char *p = key; *p; p++)
			PUT(*p);
	} else {
		PUT('[');
		PUT('"');
		for (const char *p = key; *p; p++) {
			if (*p == '"' || *p == '\\')
				PUT('\\');
			PUT(*p);
		}
		PUT('"');
		PUT(']');
	}
#undef PUT
	if (len)
		buf[n < len ? n : len - 1] = 0;
	return n;
}

char *jpos_path_key(char *buf, size_t len, const char *parent, const char *key)
{
	key_path(buf, len, parent ? parent : "", key ? key : "");
	return buf;
}

char *jpos_path_idx(char *buf, size_t len, const char *parent, size_t i)
{
	snprintf(buf, len, "%s[%zu]", parent ? parent : "", i);
	return buf;
}

static int add(struct scan *sc, const char *path, int line, int col, int kline, int kcol)
{
	struct jpos *jp = sc->jp;
	if (jp->n == jp->cap) {
		size_t cap = jp->cap ? jp->cap * 2 : 64;
		struct jpos_ent *e = realloc(jp->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		jp->e = e;
		jp->cap = cap;
	}
	char *p = strdup(path);
	if (!p)
		return -ENOMEM;
	jp->e[jp->n++] = (struct jpos_ent){ p, line, col, kline, kcol };
	return 0;
}

static int peek(const struct scan *sc)
{
	return sc->i < sc->len ? (unsigned char)sc->s[sc->i] : -1;
}

static void adv(struct scan *sc)
{
	if (sc->i >= sc->len)
		return;
	unsigned char c = (unsigned char)sc->s[sc->i++];
	if (c == '\n') {
		sc->line++;
		sc->col = 1;
	} else if ((c & 0xC0) != 0x80) {
		sc->col++;
	}
}

static void skip_ws(struct scan *sc)
{
	int c;
	while ((c = peek(sc)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		adv(sc);
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int hex4(struct scan *sc, unsigned *u)
{
	*u = 0;
	for (int k = 0; k < 4; k++) {
		int h = hexval(peek(sc));
		if (h < 0)
			return -1;
		*u = *u * 16 + (unsigned)h;
		adv(sc);
	}
	return 0;
}

static int put_utf8(struct sbuf *b, unsigned u)
{
	int rc = 0;
	if (u < 0x80) {
		rc |= sb_put(b, (char)u);
	} else if (u < 0x800) {
		rc |= sb_put(b, (char)(0xC0 | (u >> 6)));
		rc |= sb_put(b, (char)(0x80 | (u & 0x3F)));
	} else if (u < 0x10000) {
		rc |= sb_put(b, (char)(0xE0 | (u >> 12)));
		rc |= sb_put(b, (char)(0x80 | ((u >> 6) & 0x3F)));
		rc |= sb_put(b, (char)(0x80 | (u & 0x3F)));
	} else {
		rc |= sb_put(b, (char)(0xF0 | (u >> 18)));
		rc |= sb_put(b, (char)(0x80 | ((u >> 12) & 0x3F)));
		rc |= sb_put(b, (char)(0x80 | ((u >> 6) & 0x3F)));
		rc |= sb_put(b, (char)(0x80 | (u & 0x3F)));
	}
	return rc ? -ENOMEM : 0;
}

/* At the opening quote: consumes the string, decoding it into b when b is not NULL. */
static int scan_string(struct scan *sc, struct sbuf *b)
{
	adv(sc);
	for (;;) {
		int c = peek(sc);
		if (c < 0 || c == '\n')
			return -1;
		adv(sc);
		if (c == '"')
			return 0;
		if (c != '\\') {
			if (b && sb_put(b, (char)c))
				return sc->oom = 1, -1;
			continue;
		}
		c = peek(sc);
		if (c < 0)
			return -1;
		adv(sc);
		unsigned u;
		switch (c) {
		case 'b': u = '\b'; break;
		case 'f': u = '\f'; break;
		case 'n': u = '\n'; break;
		case 'r': u = '\r'; break;
		case 't': u = '\t'; break;
		case 'u':
			if (hex4(sc, &u))
				return -1;
			if (u >= 0xD800 && u <= 0xDBFF && peek(sc) == '\\') {
				unsigned lo;
				adv(sc);
				if (peek(sc) != 'u')
					return -1;
				adv(sc);
				if (hex4(sc, &lo) || lo < 0xDC00 || lo > 0xDFFF)
					return -1;
				u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
			}
			break;
		default: u = (unsigned)c; break;
		}
		if (b && put_utf8(b, u))
			return sc->oom = 1, -1;
	}
}

static int scan_value(struct scan *sc, const char *path, int kline, int kcol, int depth);

static int scan_object(struct scan *sc, const char *path, int depth)
{
	struct sbuf key = { 0 };
	char *child = NULL;
	int rc = -1;

	adv(sc);
	skip_ws(sc);
	if (peek(sc) == '}') {
		adv(sc);
		return 0;
	}
	for (;;) {
		skip_ws(sc);
		if (peek(sc) != '"')
			goto out;
		int kl = sc->line, kc = sc->col;
		key.n = 0;
		if (sb_put(&key, 0)) {
			sc->oom = 1;
			goto out;
		}
		key.n = 0;
		if (scan_string(sc, &key))
			goto out;
		skip_ws(sc);
		if (peek(sc) != ':')
			goto out;
		adv(sc);
		skip_ws(sc);
		size_t need = key_path(NULL, 0, path, key.p) + 1;
		char *np = realloc(child, need);
		if (!np) {
			sc->oom = 1;
			goto out;
		}
		child = np;
		key_path(child, need, path, key.p);
		if (scan_value(sc, child, kl, kc, depth + 1))
			goto out;
		skip_ws(sc);
		int c = peek(sc);
		adv(sc);
		if (c == '}')
			break;
		if (c != ',')
			goto out;
	}
	rc = 0;
out:
	free(key.p);
	free(child);
	return rc;
}

static int scan_array(struct scan *sc, const char *path, int depth)
{
	size_t plen = strlen(path);
	char *child = malloc(plen + 24);
	if (!child) {
		sc->oom = 1;
		return -1;
	}
	int rc = -1;
	adv(sc);
	skip_ws(sc);
	if (peek(sc) == ']') {
		adv(sc);
		rc = 0;
		goto out;
	}
	for (size_t i = 0;; i++) {
		skip_ws(sc);
		jpos_path_idx(child, plen + 24, path, i);
		if (scan_value(sc, child, 0, 0, depth + 1))
			goto out;
		skip_ws(sc);
		int c = peek(sc);
		adv(sc);
		if (c == ']')
			break;
		if (c != ',')
			goto out;
	}
	rc = 0;
out:
	free(child);
	return rc;
}

static int scan_value(struct scan *sc, const char *path, int kline, int kcol, int depth)
{
	if (depth > JPOS_MAX_DEPTH)
		return -1;
	skip_ws(sc);
	int c = peek(sc);
	if (c < 0)
		return -1;
	if (add(sc, path, sc->line, sc->col, kline, kcol)) {
		sc->oom = 1;
		return -1;
	}
	if (c == '{')
		return scan_object(sc, path, depth);
	if (c == '[')
		return scan_array(sc, path, depth);
	if (c == '"')
		return scan_string(sc, NULL);
	size_t start = sc->i;
	while ((c = peek(sc)) >= 0 && !strchr(",]}: \t\r\n\"{[", c))
		adv(sc);
	return sc->i > start ? 0 : -1;
}

struct jpos *jpos_index(const char *text, size_t len)
{
	struct jpos *jp = calloc(1, sizeof(*jp));
	if (!jp)
		return NULL;
	struct scan sc = { .s = text ? text : "", .len = text ? len : 0, .line = 1, .col = 1,
			   .jp = jp };
	/* A UTF-8 byte order mark is not a character of the document. */
	if (sc.len >= 3 && !memcmp(sc.s, "\xEF\xBB\xBF", 3))
		sc.i = 3;
	scan_value(&sc, "", 0, 0, 0);
	if (sc.oom) {
		jpos_free(jp);
		return NULL;
	}
	return jp;
}

void jpos_free(struct jpos *jp)
{
	if (!jp)
		return;
	for (size_t i = 0; i < jp->n; i++)
		free(jp->e[i].path);
	free(jp->e);
	free(jp);
}

static const struct jpos_ent *lookup(const struct jpos *jp, const char *path)
{
	if (!jp || !path)
		return NULL;
	for (size_t i = 0; i < jp->n; i++)
		if (!strcmp(jp->e[i].path, path))
			return &jp->e[i];
	return NULL;
}

int jpos_find(const struct jpos *jp, const char *path, int *line, int *col)
{
	const struct jpos_ent *e = lookup(jp, path);
	if (!e)
		return -ENOENT;
	*line = e->line;
	*col = e->col;
	return 0;
}

int jpos_find_key(const struct jpos *jp, const char *path, int *line, int *col)
{
	const struct jpos_ent *e = lookup(jp, path);
	if (!e || !e->kline)
		return -ENOENT;
	*line = e->kline;
	*col = e->kcol;
	return 0;
}

size_t jpos_count(const struct jpos *jp)
{
	return jp ? jp->n : 0;
}
