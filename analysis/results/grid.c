/* SPDX-License-Identifier: BSD-2-Clause */
/* grid.c — text tables in four formats (see grid.h). Used by pivot.c (ppslab table),
 * compare.c (ppslab compare) and report.c. */
#include "grid.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

struct grid *grid_new(size_t ncols)
{
	struct grid *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->ncols = ncols ? ncols : 1;
	g->align = malloc(g->ncols);
	if (!g->align) {
		free(g);
		return NULL;
	}
	memset(g->align, 'l', g->ncols);
	return g;
}

void grid_free(struct grid *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->nrows * g->ncols; i++)
		free(g->cell[i]);
	free(g->cell);
	free(g->align);
	free(g);
}

long grid_add_row(struct grid *g)
{
	if (g->nrows == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		char **n = realloc(g->cell, cap * g->ncols * sizeof(*n));
		if (!n)
			return -ENOMEM;
		g->cell = n;
		g->cap = cap;
	}
	memset(&g->cell[g->nrows * g->ncols], 0, g->ncols * sizeof(*g->cell));
	return (long)g->nrows++;
}

int grid_set(struct grid *g, size_t row, size_t col, const char *text)
{
	if (row >= g->nrows || col >= g->ncols)
		return -EINVAL;
	/* no control character from a results file reaches any format raw: escaped */
	char *d = text ? malloc(strlen(text) * 4 + 1) : NULL;
	if (text && !d)
		return -ENOMEM;
	if (d)
		res_text_safe(text, d, strlen(text) * 4 + 1);
	free(g->cell[row * g->ncols + col]);
	g->cell[row * g->ncols + col] = d;
	return 0;
}

int grid_setf(struct grid *g, size_t row, size_t col, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return grid_set(g, row, col, buf);
}

const char *grid_get(const struct grid *g, size_t row, size_t col)
{
	const char *s = row < g->nrows && col < g->ncols ? g->cell[row * g->ncols + col] : NULL;
	return s ? s : "";
}

size_t grid_width(const char *s)
{
	size_t w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		w += (*p & 0xc0) != 0x80;
	return w;
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

/* Markdown needs these backslashed inside a table cell: the cell separator, and '*'
 * (our flagged mark), which would otherwise start emphasis. */
static int md_special(char c)
{
	return c == '|' || c == '*';
}

/* Widths per column, with md: the escaped width. */
static size_t *widths(const struct grid *g, int md)
{
	size_t *w = calloc(g->ncols, sizeof(*w));
	if (!w)
		return NULL;
	for (size_t r = 0; r < g->nrows; r++)
		for (size_t c = 0; c < g->ncols; c++) {
			const char *s = grid_get(g, r, c);
			size_t l = grid_width(s);
			if (md)
				for (const char *p = s; *p; p++)
					l += md_special(*p);
			if (l > w[c])
				w[c] = l;
		}
	if (md)
		for (size_t c = 0; c < g->ncols; c++)
			if (w[c] < 3)
				w[c] = 3;
	return w;
}

static void print_text(FILE *f, const struct grid *g)
{
	size_t *w = widths(g, 0);
	char *line = NULL;
	size_t cap = 0;
	if (!w)
		return;
	for (size_t r = 0; r < g->nrows; r++) {
		FILE *m = open_memstream(&line, &cap);
		if (!m)
			break;
		for (size_t c = 0; c < g->ncols; c++) {
			const char *s = grid_get(g, r, c);
			size_t l = grid_width(s);
			if (c)
				fputs("  ", m);
			if (g->align[c] == 'r')
				pad(m, w[c] - l);
			fputs(s, m);
			if (g->align[c] != 'r')
				pad(m, w[c] - l);
		}
		fclose(m);
		/* no trailing blanks: golden files and mail clients both prefer it */
		size_t n = strlen(line);
		while (n && line[n - 1] == ' ')
			line[--n] = 0;
		fprintf(f, "%s\n", line);
		free(line);
		line = NULL;
	}
	free(w);
}

static void md_cell(FILE *f, const char *s, size_t width, char align)
{
	size_t l = grid_width(s);
	for (const char *p = s; *p; p++)
		l += md_special(*p);
	fputc(' ', f);
	if (align == 'r')
		pad(f, width - l);
	for (const char *p = s; *p; p++) {
		if (md_special(*p))
			fputc('\\', f);
		fputc(*p == '\n' ? ' ' : *p, f);
	}
	if (align != 'r')
		pad(f, width - l);
	fputs(" |", f);
}

static void print_md(FILE *f, const struct grid *g)
{
	size_t *w = widths(g, 1);
	if (!w)
		return;
	for (size_t r = 0; r < g->nrows; r++) {
		fputc('|', f);
		for (size_t c = 0; c < g->ncols; c++)
			md_cell(f, grid_get(g, r, c), w[c], g->align[c]);
		fputc('\n', f);
		if (r == 0) {
			fputc('|', f);
			for (size_t c = 0; c < g->ncols; c++) {
				fputc(' ', f);
				for (size_t i = 0; i + 1 < w[c]; i++)
					fputc('-', f);
				fputc(g->align[c] == 'r' ? ':' : '-', f);
				fputs(" |", f);
			}
			fputc('\n', f);
		}
	}
	free(w);
}

static void csv_cell(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

void grid_html_escape(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*p, f);
		}
	}
}

static void print_html(FILE *f, const struct grid *g)
{
	fputs("<table>\n", f);
	for (size_t r = 0; r < g->nrows; r++) {
		fputs("<tr>", f);
		for (size_t c = 0; c < g->ncols; c++) {
			const char *tag = r == 0 ? "th" : "td";
			const char *st = r && g->html_style ? g->html_style(grid_get(g, r, c)) : NULL;
			fprintf(f, "<%s%s%s%s%s>", tag, g->align[c] == 'r' ? " class=\"r\"" : "",
				st ? " style=\"" : "", st ? st : "", st ? "\"" : "");
			grid_html_escape(f, grid_get(g, r, c));
			fprintf(f, "</%s>", tag);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

void grid_print(FILE *f, const struct grid *g, enum grid_fmt fmt)
{
	switch (fmt) {
	case GRID_TEXT:
		print_text(f, g);
		break;
	case GRID_MD:
		print_md(f, g);
		break;
	case GRID_CSV:
		for (size_t r = 0; r < g->nrows; r++) {
			for (size_t c = 0; c < g->ncols; c++) {
				if (c)
					fputc(',', f);
				csv_cell(f, grid_get(g, r, c));
			}
			fputs("\r\n", f);
		}
		break;
	case GRID_HTML:
		print_html(f, g);
		break;
	}
}

int grid_fmt_parse(const char *s)
{
	if (!strcmp(s, "text"))
		return GRID_TEXT;
	if (!strcmp(s, "md") || !strcmp(s, "markdown"))
		return GRID_MD;
	if (!strcmp(s, "csv"))
		return GRID_CSV;
	if (!strcmp(s, "html"))
		return GRID_HTML;
	return -1;
}

char *grid_num(double v, int decimals, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	char tmp[64];
	snprintf(tmp, sizeof(tmp), "%.*f", decimals, fabs(v));
	/* "-0" after rounding is just 0 */
	int neg = v < 0 && strspn(tmp, "0.") != strlen(tmp);
	const char *dot = strchr(tmp, '.');
	size_t ilen = dot ? (size_t)(dot - tmp) : strlen(tmp);
	size_t o = 0;
	if (neg && o + 1 < len)
		buf[o++] = '-';
	for (size_t i = 0; i < ilen && o + 1 < len; i++) {
		if (i && (ilen - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	for (const char *p = dot; p && *p && o + 1 < len; p++)
		buf[o++] = *p;
	buf[o] = 0;
	return buf;
}

int grid_decimals(double maxabs, int all_integral)
{
	if (all_integral || !(maxabs > 0) || maxabs >= 1000)
		return 0;
	int d = 2 - (int)floor(log10(maxabs));
	return d < 0 ? 0 : d > 6 ? 6 : d;
}
