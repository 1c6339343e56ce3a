/* SPDX-License-Identifier: BSD-2-Clause */
/* grid.h — a table of text cells and its four renderings: aligned text (for terminals
 * and mail), Markdown, CSV (RFC 4180) and HTML. Pivot tables, comparison tables and
 * environment headers are built as grids so every output format shares one layout.
 *
 * Row 0 is the header. Columns are left- or right-aligned (numbers right, like the
 * seeds' HZ table); widths count UTF-8 characters, so "±" and "–" line up. */
#ifndef PPSLAB_ANALYSIS_RESULTS_GRID_H
#define PPSLAB_ANALYSIS_RESULTS_GRID_H

#include <stddef.h>
#include <stdio.h>

enum grid_fmt { GRID_TEXT, GRID_MD, GRID_CSV, GRID_HTML };

struct grid {
	size_t ncols, nrows, cap;
	char **cell;          /* nrows × ncols; NULL prints as empty */
	char *align;          /* per column: 'l' or 'r' */
	/* HTML only: an inline style for a body cell by its text (compare colours its
	 * verdicts), or NULL for none; NULL by default */
	const char *(*html_style)(const char *text);
};

/* A grid with ncols columns, all left-aligned, and no rows. NULL on ENOMEM. */
struct grid *grid_new(size_t ncols);
void grid_free(struct grid *g);
/* Appends an empty row; returns its index or -ENOMEM. */
long grid_add_row(struct grid *g);
/* Sets a cell (copying the text); 0 or -ENOMEM. */
int grid_set(struct grid *g, size_t row, size_t col, const char *text);
int grid_setf(struct grid *g, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *grid_get(const struct grid *g, size_t row, size_t col);

/* Renders the grid. Text: columns two spaces apart, no trailing blanks. Markdown: a
 * pipe table with alignment markers, padded so it also reads aligned as plain text.
 * CSV: quoted where needed. HTML: a <table> with escaped text. */
void grid_print(FILE *f, const struct grid *g, enum grid_fmt fmt);

/* Parses "text", "md"/"markdown", "csv", "html"; -1 if unknown. */
int grid_fmt_parse(const char *s);

/* Number display for people: thousands separators ("450,072", "-1,234.5"), decimals
 * fixed; NaN prints "-". Returns buf. */
char *grid_num(double v, int decimals, char *buf, size_t len);
/* Decimals for a column of values of magnitude up to maxabs: 0 if all are integral or
 * maxabs ≥ 1000, else enough for three significant digits (at most 6). */
int grid_decimals(double maxabs, int all_integral);

/* Characters (UTF-8 code points) in s. */
size_t grid_width(const char *s);
/* Writes s HTML-escaped. */
void grid_html_escape(FILE *f, const char *s);

#endif
