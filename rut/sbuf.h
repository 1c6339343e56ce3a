/* SPDX-License-Identifier: BSD-2-Clause */
/* sbuf.h — a growable text buffer for the control path (replies of sysctl, ipfw and
 * stats), named after FreeBSD's sbuf(9). Never used per packet. */
#ifndef PPSLAB_RUT_SBUF_H
#define PPSLAB_RUT_SBUF_H

#include <stdarg.h>
#include <stddef.h>

struct sbuf {
	char *s;          /* NUL-terminated; NULL until the first write */
	size_t len, cap;
	size_t limit;     /* 0: unlimited; beyond it writes are dropped and `overflow` set */
	int overflow;     /* a write was dropped (out of memory or beyond the limit) */
};

void sbuf_init(struct sbuf *b, size_t limit);
void sbuf_free(struct sbuf *b);
void sbuf_reset(struct sbuf *b);
void sbuf_cat(struct sbuf *b, const char *s);
void sbuf_bcat(struct sbuf *b, const void *p, size_t n);
void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_vprintf(struct sbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The text ("" when empty). */
const char *sbuf_data(const struct sbuf *b);

#endif
