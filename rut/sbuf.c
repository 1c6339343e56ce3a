/* SPDX-License-Identifier: BSD-2-Clause */
/* sbuf.c — growable text buffer (see sbuf.h). Used by the control-socket commands. */
#include "sbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sbuf_init(struct sbuf *b, size_t limit)
{
	memset(b, 0, sizeof(*b));
	b->limit = limit;
}

void sbuf_free(struct sbuf *b)
{
	free(b->s);
	sbuf_init(b, b->limit);
}

void sbuf_reset(struct sbuf *b)
{
	b->len = 0;
	b->overflow = 0;
	if (b->s)
		b->s[0] = 0;
}

static int reserve(struct sbuf *b, size_t more)
{
	if (b->limit && b->len + more > b->limit) {
		b->overflow = 1;
		return -1;
	}
	if (b->len + more + 1 <= b->cap)
		return 0;
	size_t ncap = b->cap ? b->cap : 256;
	while (ncap < b->len + more + 1)
		ncap *= 2;
	char *n = realloc(b->s, ncap);
	if (!n) {
		b->overflow = 1;
		return -1;
	}
	b->s = n;
	b->cap = ncap;
	return 0;
}

void sbuf_bcat(struct sbuf *b, const void *p, size_t n)
{
	if (reserve(b, n))
		return;
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sbuf_cat(struct sbuf *b, const char *s)
{
	sbuf_bcat(b, s, strlen(s));
}

void sbuf_vprintf(struct sbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || reserve(b, (size_t)n))
		return;
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sbuf_vprintf(b, fmt, ap);
	va_end(ap);
}

const char *sbuf_data(const struct sbuf *b)
{
	return b->s ? b->s : "";
}
