/* SPDX-License-Identifier: BSD-2-Clause */
/* plot.c — the gnuplot plumbing of `ppslab plot` (see plot.h): the NAME.gp/NAME.dat
 * files beside the image, escaping, the common script header, running gnuplot, and the
 * bar chart `ppslab compare --plot` draws. The kinds of plot are in plot_kinds.c,
 * plot_box.c and plot_heatmap.c, over plot_fig.c; a request drawn in plot_words.c.
 * The bottom of the plot files (plot_gp.h): it calls nothing above it. */
#include "plot_gp.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "grid.h"
#include "jout.h"
#include "num.h"
#include "pivot.h"
#include "proc.h"

/* what this file refuses is what it was asked: -EINVAL, with why in err */
#define fail(err, errlen, ...) fmt_err(-EINVAL, err, errlen, __VA_ARGS__)

void plot_gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\'')
			fputs("''", f);
		else if (*p < 0x20 || *p == 0x7f)
			fputc(' ', f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

size_t plot_flag_notes(const json_t *reasons, size_t ncells, const char *how,
		       char (*out)[512], size_t max)
{
	size_t n = 0;
	if (!ncells || !max)
		return 0;
	snprintf(out[n++], sizeof(out[0]), "%zu flagged cell%s (%s): a repetition failed a "
		 "consistency check or missed its offered load (see the table)", ncells,
		 ncells == 1 ? "" : "s", how);
	const char *k;
	json_t *e;
	size_t kinds = json_object_size(reasons), shown = 0;
	json_object_foreach(jmut(reasons), k, e) {
		if (n >= max)
			break;
		(void)k;
		if (shown == 4 && kinds > 5) {
			snprintf(out[n++], sizeof(out[0]), "... and %zu more kinds of flag", kinds - 4);
			break;
		}
		size_t c = json_object_size(json_object_get(e, "cells"));
		const char *t = json_string_value(json_object_get(e, "text"));
		snprintf(out[n++], sizeof(out[0]), "%zu cell%s: %.160s%s", c, c == 1 ? "" : "s",
			 t ? t : "", t && strlen(t) > 160 ? "..." : "");
		shown++;
	}
	return n;
}

/* A label inside a data file: double-quoted; quotes and control characters become
 * harmless, since gnuplot's data files have no escapes. */
void plot_dat_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		fputc(*p == '"' ? '\'' : (*p < 0x20 || *p == 0x7f) ? ' ' : *p, f);
	fputc('"', f);
}

void plot_dat_num(FILE *f, double v)
{
	char b[64];
	if (isfinite(v))
		fprintf(f, "%s", pv_raw(v, b, sizeof(b)));
	else
		fputs("NaN", f);
}

int plot_files_open(struct files *fs, const struct plot_out *o, char *err, size_t errlen)
{
	memset(fs, 0, sizeof(*fs));
	if (!o->path) {
		snprintf(fs->dir, sizeof(fs->dir), "%s/ppslab-plot.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(fs->dir)) {
			int e = errno;
			snprintf(err, errlen, "cannot make a temporary directory: %s", strerror(e));
			return -e;
		}
		fs->tmp = 1;
		fs->term = TERM_DUMB;
		snprintf(fs->base, sizeof(fs->base), "plot");
	} else {
		const char *slash = strrchr(o->path, '/');
		const char *name = slash ? slash + 1 : o->path;
		const char *dot = strrchr(name, '.');
		if (slash)
			snprintf(fs->dir, sizeof(fs->dir), "%.*s", (int)(slash - o->path + (slash == o->path)),
				 o->path);
		else
			snprintf(fs->dir, sizeof(fs->dir), ".");
		for (const unsigned char *c = (const unsigned char *)name; *c; c++)
			if (*c < 0x20 || *c == 0x7f)   /* the script could not name it */
				return fail(err, errlen, "-o: a file name with a control "
					    "character");
		if (!dot || dot == name || strlen(name) > NAME_MAX)
			return fail(err, errlen, "-o %s: expected NAME.png, NAME.svg or NAME.txt",
				    o->path);
		if (!strcmp(dot, ".png"))
			fs->term = TERM_PNG;
		else if (!strcmp(dot, ".svg"))
			fs->term = TERM_SVG;
		else if (!strcmp(dot, ".txt"))
			fs->term = TERM_DUMB;
		else
			return fail(err, errlen, "-o %s: expected NAME.png, NAME.svg or NAME.txt "
				    "(the extension picks the terminal)", o->path);
		snprintf(fs->base, sizeof(fs->base), "%.*s", (int)(dot - name), name);
		snprintf(fs->image, sizeof(fs->image), "%s", name);
	}
	char path[PATH_MAX + NAME_MAX + 8];
	int rc = 0;
	for (int k = 0; k < 3 && !rc; k++) {
		static const char *const ext[] = { ".gp", ".dat", "" };
		struct safefile *sf = k == 0 ? &fs->sgp : k == 1 ? &fs->sdat : &fs->simg;
		if (k == 2 && !*fs->image)
			break;
		if (k == 2)
			snprintf(path, sizeof(path), "%s/%s", fs->dir, fs->image);
		else
			snprintf(path, sizeof(path), "%s/%s%s", fs->dir, fs->base, ext[k]);
		rc = safe_create(sf, path, 0644);
		if (!rc && k == 2)   /* gnuplot writes it, by the temporary's name */
			rc = safe_release(sf);
	}
	fs->gp = fs->sgp.f;
	fs->dat = fs->sdat.f;
	if (rc)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	return rc;
}

/* Closes the files: the script and data renamed into place, or all dropped when discard
 * is set (the request failed before gnuplot ran: half-written scripts would only
 * mislead); an image not renamed by now is dropped; the temporary directory, if we made
 * one, removed. */
int plot_files_close(struct files *fs, int discard)
{
	int rc = 0;
	struct safefile *sfs[] = { &fs->sgp, &fs->sdat };
	for (size_t i = 0; i < 2; i++) {
		if (!sfs[i]->tmp)
			continue;
		if (discard)
			safe_abort(sfs[i]);
		else if (!rc)
			rc = safe_commit(sfs[i], 0);
		else
			safe_abort(sfs[i]);
	}
	safe_abort(&fs->simg);
	fs->gp = fs->dat = NULL;
	if (fs->tmp) {
		char path[PATH_MAX + NAME_MAX + 8];
		snprintf(path, sizeof(path), "%s/%s.gp", fs->dir, fs->base);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s.dat", fs->dir, fs->base);
		unlink(path);
		rmdir(fs->dir);
	}
	return rc;
}

int plot_run_gnuplot(struct files *fs, char *err, size_t errlen)
{
	char gp[NAME_MAX + 8], outvar[2 * PATH_MAX + 32];
	snprintf(gp, sizeof(gp), "%s.gp", fs->base);
	char *argv[] = { "gnuplot", gp, NULL, NULL, NULL };
	if (fs->simg.tmp) {   /* the image goes to our temporary (see plot_gp_begin) */
		const char *t = strrchr(fs->simg.tmp, '/');
		t = t ? t + 1 : fs->simg.tmp;
		size_t o = (size_t)snprintf(outvar, sizeof(outvar), "ppslab_output='");
		for (; *t && o + 4 < sizeof(outvar); t++) {
			if (*t == '\'')
				outvar[o++] = '\'';
			outvar[o++] = *t;
		}
		snprintf(outvar + o, sizeof(outvar) - o, "'");
		argv[1] = "-e";
		argv[2] = outvar;
		argv[3] = gp;
	}
	struct proc_opts po = { .cwd = fs->dir, .timeout_ns = 60ULL * 1000000000ULL };
	fflush(stdout);
	int st = proc_run(argv, &po);
	if (st == 127 || st == -ENOENT) {
		snprintf(err, errlen, "gnuplot did not run (is it installed? apt-get install "
			 "gnuplot-nox); the script is %s/%s", fs->dir, gp);
		return -ENOENT;
	}
	if (st) {
		snprintf(err, errlen, "gnuplot failed (status %d) on %s/%s", st, fs->dir, gp);
		return -EIO;
	}
	return 0;
}

int plot_files_finish(struct files *fs, int rc, char *err, size_t errlen)
{
	if (!rc && (ferror(fs->gp) || ferror(fs->dat) || fflush(fs->gp) || fflush(fs->dat))) {
		snprintf(err, errlen, "cannot write %s/%s.gp or .dat", fs->dir, fs->base);
		rc = -EIO;
	}
	if (rc) {
		plot_files_close(fs, 1);
		return rc;
	}
	/* the script and data in place first: gnuplot reads them by name */
	struct safefile *sfs[] = { &fs->sgp, &fs->sdat };
	for (size_t i = 0; i < 2 && !rc; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s", sfs[i]->path);
		if ((rc = safe_commit(sfs[i], 0)))
			snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	}
	fs->gp = fs->dat = NULL;
	if (!rc)
		rc = plot_run_gnuplot(fs, err, errlen);
	if (!rc && fs->simg.tmp) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s", fs->simg.path);
		if ((rc = safe_commit(&fs->simg, 0)))
			snprintf(err, errlen, "cannot write %s: %s", path, strerror(-rc));
	}
	int rc2 = plot_files_close(fs, 0);
	return rc ? rc : rc2;
}

/* ---- the frame: terminal, title block, panels ------------------------------------ */

double plot_text_w(const struct frame *fr, size_t chars, int pt)
{
	return fr->dumb ? (double)chars : (double)chars * pt * PLOT_CHAR_EM;
}

double plot_line_h(const struct frame *fr, int pt)
{
	return fr->dumb ? 1 : pt * PLOT_LINE_EM;
}

/* Bytes of the UTF-8 character at s. */
static size_t u8len(const char *s)
{
	unsigned char c = (unsigned char)*s;
	size_t n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	for (size_t i = 1; i < n; i++)
		if (!s[i])
			return i;
	return n;
}

size_t plot_wrap(const char *s, size_t cols, char (*out)[512], size_t max)
{
	size_t nl = 0;
	if (cols < 8)
		cols = 8;
	while (*s && nl < max) {
		while (*s == ' ')
			s++;
		/* the longest prefix of at most cols characters, and the best break in it */
		size_t i = 0, chars = 0, brk = 0, brk_good = 0;
		while (s[i] && chars < cols) {
			if (s[i] == ' ') {
				brk = i;
				if (i > 0 && (s[i - 1] == ',' || s[i - 1] == ';'))
					brk_good = i;
			}
			i += u8len(s + i);
			chars++;
		}
		size_t take = i;
		if (s[i]) {   /* more follows: break at a comma, else a space, else cut */
			if (brk_good > cols / 2)
				take = brk_good;
			else if (brk > 0)
				take = brk;
		}
		if (take >= sizeof(out[0]))
			take = sizeof(out[0]) - 1;
		memcpy(out[nl], s, take);
		out[nl][take] = 0;
		while (take && out[nl][take - 1] == ' ')
			out[nl][--take] = 0;
		nl++;
		s += take;
	}
	return nl;
}

/* A dumb (text) plot's width in characters: to fit $COLUMNS when set, else the
 * terminal's width when the plot goes to one, else 100. gnuplot's dumb terminal writes
 * a line one character wider than its size, hence the - 1. */
static int dumb_width(const struct plot_out *o)
{
	const char *c = getenv("COLUMNS");
	uint64_t v;
	if (c && *c && !num_u64(c, 40, 500, &v))
		return (int)v - 1;
	struct winsize ws;
	if (!o->path && isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_col >= 40)
		return (ws.ws_col > 500 ? 500 : ws.ws_col) - 1;
	return 100;
}

void plot_gp_begin(struct files *fs, const struct plot_out *o, size_t np,
		   struct frame *fr, const char *source)
{
	FILE *f = fs->gp;
	memset(fr, 0, sizeof(*fr));
	fr->dumb = fs->term == TERM_DUMB;
	fr->np = np ? (int)np : 1;
	/* panels: as square a grid as the width allows, panels at least ~380 px wide */
	int cols = 1;
	while (cols * cols < fr->np)
		cols++;
	int w = o->width, h = o->height;
	if (!w) {
		w = fr->dumb ? dumb_width(o) : fr->np == 1 ? 900 : cols <= 2 ? 1000 : 1200;
		if (!fr->dumb && fr->np == 2)
			cols = 2;
	}
	fr->cols = cols;
	fr->rows = (fr->np + cols - 1) / cols;
	if (!h)
		h = fr->dumb ? (fr->np == 1 ? 32 : 8 + 20 * fr->rows)
		     : fr->np == 1 ? 540 : 130 + 330 * fr->rows;
	fr->w = w;
	fr->h = h;
	fprintf(f, "# Written by `ppslab plot`%s%s. Restyle freely and re-run from this "
		"directory:\n#   gnuplot %s.gp\n", source ? " from " : "", source ? source : "",
		fs->base);
	switch (fs->term) {
	case TERM_PNG:
		fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'DejaVu Sans,%d'\n", w,
			h, PLOT_FONT);
		break;
	case TERM_SVG:
		fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'DejaVu Sans,%d'\n",
			w, h, PLOT_FONT);
		break;
	case TERM_DUMB:
		fprintf(f, "set terminal dumb size %d,%d noenhanced\n", w, h);
		break;
	}
	if (*fs->image) {   /* ppslab has gnuplot write a temporary, renamed when done */
		fputs("if (!exists('ppslab_output')) ppslab_output = ", f);
		plot_gp_str(f, fs->image);
		fputs("\nset output ppslab_output\n", f);
	}
	fputs("set encoding utf8\n", f);
}

static void title_line(FILE *f, struct frame *fr, const char *text, int pt, double *y)
{
	double lh = plot_line_h(fr, pt);
	*y += lh;
	/* the label's reference point is the middle of the line */
	fprintf(f, "set label %d ", 1000 + fr->ntitle++);
	plot_gp_str(f, text);
	fprintf(f, " at screen 0.5, screen %.5f center", 1 - (*y - lh / 2) / fr->h);
	if (!fr->dumb)
		fprintf(f, " font ',%d'", pt);
	fputc('\n', f);
}

/* Up to max lines of s at font pt, no more than fit above budget (pixels from the top),
 * the last ending in "..." when more of s did not fit: shortened, never cut at the
 * figure's edge. Returns the lines written. */
static size_t text_lines(FILE *f, struct frame *fr, const char *s, int pt, size_t max,
			 double budget, double *y)
{
	char lines[16][512];
	double lh = plot_line_h(fr, pt);
	size_t cols = (size_t)((fr->w - 2 * plot_text_w(fr, 1, pt)) / plot_text_w(fr, 1, pt));
	size_t room = *y + lh <= budget ? (size_t)((budget - *y) / lh) : 0;
	if (max > room)
		max = room;
	if (max > 15)
		max = 15;
	if (!max)
		return 0;
	size_t n = plot_wrap(s, cols, lines, max + 1);
	if (n > max) {
		n = max;
		char *last = lines[n - 1];
		size_t len = strlen(last);
		while (len && grid_width(last) + 3 > cols) {   /* room for "..." */
			do
				len--;
			while (len && ((unsigned char)last[len] & 0xc0) == 0x80);
			last[len] = 0;
		}
		while (len && (last[len - 1] == ' ' || last[len - 1] == ','))
			last[--len] = 0;
		strcat(last, "...");
	}
	for (size_t i = 0; i < n; i++)
		title_line(f, fr, lines[i], pt, y);
	return n;
}

void plot_gp_titles(struct files *fs, struct frame *fr, const char *title,
		    const char *subtitle, const char *const *notes, size_t nnotes,
		    const char *footer)
{
	FILE *f = fs->gp;
	double y = fr->dumb ? 0 : 4;
	/* the title block takes at most this much of the height: the rest is the plot's */
	double budget = fr->h * (fr->title_frac > 0 ? fr->title_frac : fr->dumb ? 0.3 : 0.4);
	if (budget < plot_line_h(fr, PLOT_FONT_TITLE) + y)
		budget = plot_line_h(fr, PLOT_FONT_TITLE) + y;
	text_lines(f, fr, title ? title : "", PLOT_FONT_TITLE, 3, budget, &y);
	if (subtitle && *subtitle)
		text_lines(f, fr, subtitle, PLOT_FONT_SUB, fr->dumb ? 1 : 3, budget, &y);
	for (size_t k = 0; k < nnotes; k++)
		text_lines(f, fr, notes[k], PLOT_FONT_SUB, 3, budget, &y);
	fr->top = y + (fr->dumb ? 1 : 6);
	fr->bottom = fr->dumb ? 0 : 4;
	if (footer && *footer && !fr->dumb) {
		char lines[1][512];
		plot_wrap(footer, (size_t)(fr->w * 0.9 / plot_text_w(fr, 1, 8)), lines, 1);
		double lh = plot_line_h(fr, 8);
		fputs("set label 999 ", f);
		plot_gp_str(f, lines[0]);
		fprintf(f, " at screen %.5f, screen %.5f right font ',8' tc 'gray40'\n",
			1 - 6.0 / fr->w, (lh * 0.5 + 5) / fr->h);
		fr->footer = 1;
		fr->bottom = lh + 8;
	}
}

void plot_fit_height(struct files *fs, const struct plot_out *o, size_t np, const char *title,
		     const char *sub, const char *const *notes, size_t nnotes, const char *foot,
		     double per_row, double fixed, struct plot_out *o2)
{
	*o2 = *o;
	if (o->height || fs->term == TERM_DUMB)
		return;
	FILE *real = fs->gp;
	char *dry = NULL;
	size_t n = 0;
	if (!(fs->gp = open_memstream(&dry, &n))) {
		fs->gp = real;
		return;
	}
	/* twice: a taller figure lets more note lines into its 40 % */
	for (int pass = 0; pass < 2; pass++) {
		struct frame fr;
		plot_gp_begin(fs, o2, np, &fr, NULL);
		plot_gp_titles(fs, &fr, title, sub, notes, nnotes, foot);
		double other = fr.top + fr.bottom + fixed + fr.rows * per_row;
		if (fr.h - other >= 0.6 * fr.h)
			break;
		o2->height = (int)ceil(other / 0.39);
	}
	fclose(fs->gp);
	free(dry);
	fs->gp = real;
}

void plot_gp_header(struct files *fs, const struct plot_out *o, const char *title,
		    const char *subtitle, const char *footer, const char *source)
{
	struct frame fr;
	plot_gp_begin(fs, o, 1, &fr, source);
	plot_gp_titles(fs, &fr, title, subtitle, NULL, 0, footer);
	fprintf(fs->gp, "set tmargin at screen %.5f\n", 1 - fr.top / fr.h);
	if (fr.footer)
		fputs("set bmargin 4.5\n", fs->gp);
	fputs(fr.dumb ? "set key top left\n" : "set grid\nset key top left\n", fs->gp);
}

void plot_frame_panels(struct frame *fr)
{
	/* the grid whose panels come closest to a 1.6:1 shape (2.5:1 in characters) */
	double shape = fr->dumb ? 2.5 : 1.6, best = -1;
	int bc = fr->cols;
	for (int c = 1; c <= fr->np; c++) {
		int r = (fr->np + c - 1) / c;
		if (c > 1 && (r - 1) * c >= fr->np)
			continue;   /* a whole empty row */
		double pw = (fr->w - fr->left - fr->right - (c - 1) * fr->gapx) / c;
		double ph = (fr->h - fr->top - fr->bottom - fr->xlab) / r - fr->ptitle - fr->xtics;
		double score = fmin(pw / shape, ph);
		if (score > best + 1e-9) {
			best = score;
			bc = c;
		}
	}
	fr->cols = bc;
	fr->rows = (fr->np + bc - 1) / bc;
	double avail_w = fr->w - fr->left - fr->right - (fr->cols - 1) * fr->gapx;
	fr->pw = avail_w / fr->cols;
	double avail_h = fr->h - fr->top - fr->bottom - fr->xlab;
	fr->ph = avail_h / fr->rows - fr->ptitle - fr->xtics;
	if (fr->pw < 10)
		fr->pw = 10;
	if (fr->ph < 5)
		fr->ph = 5;
}

void plot_gp_panel(struct files *fs, const struct frame *fr, size_t i, const char *label)
{
	FILE *f = fs->gp;
	size_t r = i / (size_t)fr->cols, c = i % (size_t)fr->cols;
	double x0 = fr->left + (double)c * (fr->pw + fr->gapx);
	double y0 = fr->top + (double)r * (fr->ptitle + fr->ph + fr->xtics) + fr->ptitle;
	fprintf(f, "set lmargin at screen %.5f\nset rmargin at screen %.5f\n"
		"set tmargin at screen %.5f\nset bmargin at screen %.5f\n", x0 / fr->w,
		(x0 + fr->pw) / fr->w, 1 - y0 / fr->h, 1 - (y0 + fr->ph) / fr->h);
	if (fr->np > 1) {
		/* lines of the label become lines of the title */
		fputs("set title ", f);
		const char *s = label ? label : "";
		do {
			size_t l = strcspn(s, "\n");
			char piece[512];
			snprintf(piece, sizeof(piece), "%.*s", (int)(l < sizeof(piece) ? l : sizeof(piece) - 1), s);
			plot_gp_str(f, piece);
			s += l;
			if (*s) {
				fputs(".\"\\n\".", f);
				s++;
			}
		} while (*s);
		fprintf(f, " offset 0,%s\n", fr->dumb ? "0" : "-0.3");
	} else {
		fputs("unset title\n", f);
	}
}

void plot_gp_axis_labels(struct files *fs, struct frame *fr, const char *xlabel,
			 const char *ylabel)
{
	if (fr->np < 2)
		return;
	FILE *f = fs->gp;
	double lh = plot_line_h(fr, PLOT_FONT);
	double y_mid = (fr->top + (fr->h - fr->bottom - fr->xlab)) / 2;
	fprintf(f, "set label %d ", 1000 + fr->ntitle++);
	plot_gp_str(f, xlabel);
	fprintf(f, " at screen %.5f, screen %.5f center\n",
		(fr->left + (fr->w - fr->right)) / 2 / fr->w,
		(fr->bottom + fr->xlab * (fr->dumb ? 0.0 : 0.45)) / fr->h);
	fprintf(f, "set label %d ", 1000 + fr->ntitle++);
	plot_gp_str(f, ylabel);
	fprintf(f, " at screen %.5f, screen %.5f center rotate by 90\n",
		((fr->dumb ? 1 : 4) + lh / 2) / fr->w, 1 - y_mid / fr->h);
}

void plot_gp_multiplot(struct files *fs, const struct frame *fr)
{
	if (fr->np > 1)
		fputs("set multiplot\n", fs->gp);
}

void plot_gp_untitle(struct files *fs, const struct frame *fr)
{
	for (int k = 0; k < fr->ntitle; k++)
		fprintf(fs->gp, "unset label %d\n", 1000 + k);
	if (fr->footer)
		fputs("unset label 999\n", fs->gp);
}

void plot_gp_end(struct files *fs, const struct frame *fr)
{
	if (fr->np > 1)
		fputs("unset multiplot\n", fs->gp);
}

void plot_gp_title(FILE *gp, int keyed, const char *t)
{
	fputs(keyed ? "title " : "notitle", gp);
	if (keyed)
		plot_gp_str(gp, t);
}

void plot_gp_set_str(FILE *f, const char *what, const char *s)
{
	fprintf(f, "set %s ", what);
	plot_gp_str(f, s);
	fputc('\n', f);
}

/* The data file in a plot command: its name the first time, then '' (the same). */
void plot_gp_dat_ref(FILE *gp, const struct files *fs, int first)
{
	if (first) {
		char dat[NAME_MAX + 8];
		snprintf(dat, sizeof(dat), "%s.dat", fs->base);
		plot_gp_str(gp, dat);
	} else {
		fputs(", \\\n     ''", gp);
	}
}

/* Subtitle: the DUT; footer: where the numbers come from. */
void plot_subtitle_of(const struct res_file *rf, char *buf, size_t len)
{
	char env[512];
	res_env_line(rf, "dut", env, sizeof(env));
	snprintf(buf, len, "%s%s", *env ? "DUT: " : "", env);
}

void plot_footer_of(const struct res_file *rf, char *buf, size_t len)
{
	const char *created = json_string_value(json_object_get(rf->root, "created_utc"));
	const char *slash = strrchr(rf->path, '/');
	snprintf(buf, len, "%s%s%s%s%.10s", slash ? slash + 1 : rf->path,
		 rf->run_id ? ", run " : "", rf->run_id ? rf->run_id : "", created ? ", " : "",
		 created ? created : "");
}

int plot_bars(const struct plot_bars *b, const struct plot_out *o, char *err, size_t errlen)
{
	struct files fs;
	int rc = plot_files_open(&fs, o, err, errlen);
	if (rc) {
		plot_files_close(&fs, 1);
		return rc;
	}
	/* per set: its value and error, then 1 where the bar's cell has a flagged repetition */
	fputs("# label", fs.dat);
	for (size_t s = 0; s < b->nsets; s++)
		fprintf(fs.dat, " value_%zu err_%zu", s, s);
	for (size_t s = 0; s < b->nsets; s++)
		fprintf(fs.dat, " flagged_%zu", s);
	fputc('\n', fs.dat);
	int any_flag[64] = { 0 };
	for (size_t l = 0; l < b->nlabels; l++) {
		plot_dat_str(fs.dat, b->labels[l]);
		for (size_t s = 0; s < b->nsets; s++) {
			fputc(' ', fs.dat);
			plot_dat_num(fs.dat, b->value[l * b->nsets + s]);
			fputc(' ', fs.dat);
			plot_dat_num(fs.dat, b->err[l * b->nsets + s]);
		}
		for (size_t s = 0; s < b->nsets; s++) {
			int fl = b->flagged && b->flagged[l * b->nsets + s] &&
				 isfinite(b->value[l * b->nsets + s]);
			fprintf(fs.dat, " %d", fl);
			if (fl && s < 64)
				any_flag[s] = 1;
		}
		fputc('\n', fs.dat);
	}
	struct frame fr;
	plot_gp_begin(&fs, o, 1, &fr, NULL);
	plot_gp_titles(&fs, &fr, b->title, b->subtitle, b->notes, b->nnotes, b->footer);
	FILE *gp = fs.gp;
	plot_gp_set_str(gp, "ylabel", b->ylabel);
	if (b->xlabel)
		plot_gp_set_str(gp, "xlabel", b->xlabel);
	fputs("set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
	      "set style fill solid 0.6 border -1\nset yrange [0:*]\nset format y '%.1s%c'\n"
	      "set grid ytics\nset key top left opaque\n", gp);
	/* long or many tic labels are turned, with room below for them */
	size_t maxw = 0;
	for (size_t l = 0; l < b->nlabels; l++)
		if (grid_width(b->labels[l]) > maxw)
			maxw = grid_width(b->labels[l]);
	fr.left = plot_text_w(&fr, 8, PLOT_FONT) + 2 * plot_line_h(&fr, PLOT_FONT);
	fr.right = plot_text_w(&fr, 2, PLOT_FONT);
	fr.xtics = plot_line_h(&fr, PLOT_FONT) + 4;
	fr.xlab = b->xlabel ? plot_line_h(&fr, PLOT_FONT) + 2 : 0;
	if (maxw * b->nlabels > 90) {
		fputs("set xtics rotate by -45 left\n", gp);
		fr.xtics = plot_text_w(&fr, maxw, PLOT_FONT) * 0.71 + plot_line_h(&fr, PLOT_FONT);
		/* the last labels run right and down: room for them on the right */
		fr.right = plot_text_w(&fr, maxw, PLOT_FONT) * 0.71;
	}
	plot_frame_panels(&fr);
	plot_gp_panel(&fs, &fr, 0, NULL);
	fputs("plot ", gp);
	for (size_t s = 0; s < b->nsets; s++) {
		if (s)
			fputs(", \\\n     ''", gp);
		else
			plot_gp_dat_ref(gp, &fs, 1);
		fprintf(gp, " u %zu:%zu%s title ", 2 + 2 * s, 3 + 2 * s, s ? "" : ":xtic(1)");
		plot_gp_str(gp, b->set_names[s]);
	}
	/* flagged bars hatched over: a clustered histogram puts bar s of group l at
	 * l + (s - (nsets - 1) / 2) / (nsets + gap) */
	int keyed = 0;
	for (size_t s = 0; s < b->nsets && s < 64; s++) {
		if (!any_flag[s])
			continue;
		double off = ((double)s - (double)(b->nsets - 1) / 2) / ((double)b->nsets + 2);
		fprintf(gp, ", \\\n     '' u ($0 %+.6g):($%zu > 0 ? $%zu : NaN):(%.6g) w boxes "
			"fs pattern 4 transparent border lc rgb '%s' lc rgb '%s' ", off,
			2 + 2 * b->nsets + s, 2 + 2 * s, 1.0 / ((double)b->nsets + 2),
			PLOT_FLAGGED_RGB, PLOT_FLAGGED_RGB);
		plot_gp_title(gp, !keyed++, PLOT_FLAGGED_KEY);
	}
	fputc('\n', gp);
	return plot_files_finish(&fs, rc, err, errlen);
}
