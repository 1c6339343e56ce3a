/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_lex.c — the diagnostics of the ipfw rule language (errors with their column,
 * warnings) and its lexer, which splits one line into tokens (see fw_impl.h). The
 * compiler from tokens to a rule is fw_parse.c. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

#include "fw_impl.h"
#include "fw_lang.h"

static void diag_set(struct fw_diag *d, int col, int ex, bool kernel, const char *fmt,
		     va_list ap) __attribute__((format(printf, 5, 0)));
static void diag_set(struct fw_diag *d, int col, int ex, bool kernel, const char *fmt,
		     va_list ap)
{
	d->col = col;
	d->ex = ex;
	d->kernel = kernel;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
}

int fw_err(struct fw_diag *d, int col, int ex, const char *fmt, ...)
{
	if (d) {
		va_list ap;
		va_start(ap, fmt);
		diag_set(d, col, ex, false, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int fw_kernel_err(struct fw_diag *d, int col, int ex, const char *fmt, ...)
{
	if (d) {
		va_list ap;
		va_start(ap, fmt);
		diag_set(d, col, ex, true, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int fw_oom(struct fw_diag *d)
{
	fw_err(d, 0, EX_OSERR, "out of memory");
	return -ENOMEM;
}

void fw_warn(struct fw_diag *d, const char *fmt, ...)
{
	if (!d)
		return;
	size_t l = strlen(d->warn);
	if (l >= sizeof(d->warn) - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(d->warn + l, sizeof(d->warn) - l, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n >= sizeof(d->warn) - l)
		memcpy(d->warn + sizeof(d->warn) - 5, "...\n", 5);
}

bool fw_prefix(const char *tok, const char *word, int min_len)
{
	size_t n = strlen(tok);
	return n >= (size_t)min_len && n <= strlen(word) && !strncmp(tok, word, n);
}

/* ---- lexer ---- */

int fw_lex(const char *line, struct fw_lex *lx, struct fw_diag *d)
{
	char *o = lx->buf;
	const char *p = line;
	lx->n = 0;
	lx->eol_col = 1;
	if (strlen(line) >= FW_MAX_LINE)
		return fw_err(d, FW_MAX_LINE, EX_DATAERR, "line too long (more than %d characters)",
			      FW_MAX_LINE - 1);
	/* rules are ASCII text: a control byte or a non-ASCII byte before a comment is
	 * named by its value (never echoed raw to a terminal) */
	for (const char *q = line; *q && *q != '#'; q++) {
		unsigned char ch = (unsigned char)*q;
		if ((ch < 0x20 && !isspace(ch)) || ch >= 0x7f)
			return fw_err(d, (int)(q - line) + 1, EX_DATAERR,
				      "unexpected byte 0x%02x (rules are ASCII text)", ch);
	}
	while (*p) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '#')
			break;
		if (lx->n + 1 >= FW_MAX_TOKS)
			return fw_err(d, (int)(p - line) + 1, EX_DATAERR,
				      "too many words on one line (at most %d)", FW_MAX_TOKS - 1);
		struct fw_tok *t = &lx->t[lx->n++];
		t->s = o;
		t->col = (int)(p - line) + 1;
		if (p[0] == '/' && p[1] == '/' && (!p[2] || isspace((unsigned char)p[2]))) {
			/* `// text`: the rest of the line is the comment, its words joined by
			 * single blanks as ipfw2's fill_comment() joins its arguments */
			*o++ = '/';
			*o++ = '/';
			*o++ = '\0';
			p += 2;
			while (isspace((unsigned char)*p))
				p++;
			if (!*p || *p == '#')
				break;
			struct fw_tok *c = &lx->t[lx->n++];
			c->s = o;
			c->col = (int)(p - line) + 1;
			while (*p && *p != '#') {
				if (isspace((unsigned char)*p)) {
					while (isspace((unsigned char)*p))
						p++;
					if (*p && *p != '#')
						*o++ = ' ';
					continue;
				}
				*o++ = *p++;
			}
			*o++ = '\0';
			lx->eol_col = (int)(p - line) + 1;
			while (lx->eol_col > 1 && isspace((unsigned char)line[lx->eol_col - 2]))
				lx->eol_col--;
			break;
		}
		if (!strncmp(p, "table(", 6)) {
			/* table(NAME[,VALUE]) is one word, parentheses included */
			while (*p && !isspace((unsigned char)*p) && *p != '#' && *p != ')')
				*o++ = *p++;
			if (*p == ')')
				*o++ = *p++;
		} else if (strchr("{}()!", *p)) {
			/* a brace, or '!' (ipfw's alternative spelling of "not"), stands alone
			 * at the start of a word: "{tcp" is "{" "tcp", "!80" is "!" "80" */
			*o++ = *p++;
		} else {
			bool inset = false;
			while (*p && !isspace((unsigned char)*p) && *p != '#') {
				if (inset) {
					inset = *p != '}';
				} else if (*p == '{') {
					inset = true;   /* an address set: 10.0.0.0/24{1,5,7} */
				} else if (strchr("}()", *p)) {
					break;          /* "udp}" is "udp" "}" */
				}
				*o++ = *p++;
			}
		}
		*o++ = '\0';
		lx->eol_col = (int)(p - line) + 1;
	}
	/* ipfw(8)'s main joins an argument ending in ',' with the next one, so that
	 * "1.2.3.4, 5.6.7.8" and "80, 443" are lists; the words are adjacent in buf */
	for (int i = 0; i + 1 < lx->n; i++) {
		size_t l = strlen(lx->t[i].s);
		if (!l || lx->t[i].s[l - 1] != ',' || !strcmp(lx->t[i + 1].s, "//") ||
		    (i > 0 && !strcmp(lx->t[i - 1].s, "//")))
			continue;
		char *end = lx->buf + (lx->t[i].s - lx->buf) + l;   /* the words are in buf */
		size_t l2 = strlen(lx->t[i + 1].s);
		memmove(end, lx->t[i + 1].s, l2 + 1);
		memmove(&lx->t[i + 1], &lx->t[i + 2], (size_t)(lx->n - i - 2) * sizeof(lx->t[0]));
		lx->n--;
		i--;
	}
	return 0;
}
