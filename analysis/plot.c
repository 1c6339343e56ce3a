/* plot.c — the gnuplot plumbing of `ppslab plot` (see plot.h): the NAME.gp/NAME.dat
 * files beside the image, escaping, the common script header, running gnuplot, and the
 * bar chart `ppslab compare --plot` draws. The kinds of plot are in plot_kinds.c. */
#include "plot.h"
#include "plot_impl.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grid.h"
#include "pivot.h"
#include "proc.h"

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int plot_kind_parse(const char *s)
{
	static const char *names[] = { "line", "heatmap", "load", "framesize", "box" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

int plot_errors_parse(const char *s)
{
	return !strcmp(s, "minmax") ? PLOT_ERR_MINMAX : !strcmp(s, "stdev") ? PLOT_ERR_STDEV
	       : !strcmp(s, "none") ? PLOT_ERR_NONE : -1;
}

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
	snprintf(path, sizeof(path), "%s/%s.gp", fs->dir, fs->base);
	fs->gp = fopen(path, "w");
	int e = errno;
	snprintf(path, sizeof(path), "%s/%s.dat", fs->dir, fs->base);
	fs->dat = fs->gp ? fopen(path, "w") : NULL;
	if (!fs->gp || !fs->dat) {
		e = fs->gp ? errno : e;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}

/* Closes the files; removes them when discard is set (the request failed before
 * gnuplot ran: half-written scripts would only mislead) and always removes the
 * temporary directory if we made one. */
int plot_files_close(struct files *fs, int discard)
{
	int rc = 0;
	if (fs->gp && fclose(fs->gp))
		rc = -EIO;
	if (fs->dat && fclose(fs->dat))
		rc = -EIO;
	fs->gp = fs->dat = NULL;
	if (fs->tmp || (discard && *fs->base)) {
		char path[PATH_MAX + NAME_MAX + 8];
		snprintf(path, sizeof(path), "%s/%s.gp", fs->dir, fs->base);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s.dat", fs->dir, fs->base);
		unlink(path);
		if (fs->tmp)
			rmdir(fs->dir);
	}
	return rc;
}

int plot_run_gnuplot(struct files *fs, char *err, size_t errlen)
{
	char gp[NAME_MAX + 8];
	snprintf(gp, sizeof(gp), "%s.gp", fs->base);
	char *argv[] = { "gnuplot", gp, NULL };
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

/* s cut to at most cols characters (UTF-8 aware), ending in "..." when cut. */
static char *fit(const char *s, size_t cols, char *buf, size_t len)
{
	snprintf(buf, len, "%s", s);
	if (grid_width(buf) <= cols || cols < 4)
		return buf;
	size_t chars = 0, i = 0;
	for (; buf[i] && chars < cols - 3; i++)
		chars += ((unsigned char)buf[i] & 0xc0) != 0x80;
	while (buf[i] && ((unsigned char)buf[i] & 0xc0) == 0x80)
		i++;
	if (i + 4 <= len)
		memcpy(buf + i, "...", 4);
	return buf;
}

/* Terminal, output, titles and the footer (run id and date, small, bottom right). */
void plot_gp_header(struct files *fs, const struct plot_out *o, const char *title,
		      const char *subtitle, const char *footer, const char *source)
{
	FILE *f = fs->gp;
	fprintf(f, "# Written by `ppslab plot`%s%s. Restyle freely and re-run from this "
		"directory:\n#   gnuplot %s.gp\n", source ? " from " : "", source ? source : "",
		fs->base);
	int w = o->width, h = o->height;
	switch (fs->term) {
	case TERM_PNG:
		fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'DejaVu Sans,10'\n",
			w ? w : 900, h ? h : 540);
		break;
	case TERM_SVG:
		fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'DejaVu Sans,10'\n",
			w ? w : 900, h ? h : 540);
		break;
	case TERM_DUMB:
		fprintf(f, "set terminal dumb size %d,%d noenhanced\n", w ? w : 100, h ? h : 32);
		break;
	}
	if (*fs->image) {
		fputs("set output ", f);
		plot_gp_str(f, fs->image);
		fputc('\n', f);
	}
	fputs("set title ", f);
	if (fs->term == TERM_DUMB) {
		/* the dumb terminal drops a title line wider than the screen: shorten it */
		size_t cols = (size_t)(w ? w : 100) - 4;
		char t[1024], st[1024];
		fit(title, cols, t, sizeof(t));
		plot_gp_str(f, t);
		if (subtitle && *subtitle) {
			fputs(".\"\\n\".", f);
			plot_gp_str(f, fit(subtitle, cols, st, sizeof(st)));
		}
	} else {
		plot_gp_str(f, title);
		if (subtitle && *subtitle) {
			fputs(".\"\\n\".", f);
			plot_gp_str(f, subtitle);
		}
	}
	fputc('\n', f);
	if (footer && *footer && fs->term != TERM_DUMB) {
		fputs("set label 99 ", f);
		plot_gp_str(f, footer);
		fputs(" at screen 0.995, screen 0.012 right font ',8' tc 'gray40'\nset bmargin 4.5\n", f);
	}
	fputs(fs->term == TERM_DUMB ? "set key top left\n" : "set grid\nset key top left\n", f);
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
	fputs("# label", fs.dat);
	for (size_t s = 0; s < b->nsets; s++)
		fprintf(fs.dat, " value_%zu err_%zu", s, s);
	fputc('\n', fs.dat);
	for (size_t l = 0; l < b->nlabels; l++) {
		plot_dat_str(fs.dat, b->labels[l]);
		for (size_t s = 0; s < b->nsets; s++) {
			fputc(' ', fs.dat);
			plot_dat_num(fs.dat, b->value[l * b->nsets + s]);
			fputc(' ', fs.dat);
			plot_dat_num(fs.dat, b->err[l * b->nsets + s]);
		}
		fputc('\n', fs.dat);
	}
	plot_gp_header(&fs, o, b->title, b->subtitle, b->footer, NULL);
	FILE *gp = fs.gp;
	plot_gp_set_str(gp, "ylabel", b->ylabel);
	if (b->xlabel)
		plot_gp_set_str(gp, "xlabel", b->xlabel);
	fputs("set style data histograms\nset style histogram errorbars gap 2 lw 1\n"
	      "set style fill solid 0.6 border -1\nset yrange [0:*]\nset format y '%.1s%c'\n"
	      "set grid noxtics\n", gp);
	/* long or many tic labels are turned, with room below for them */
	size_t maxw = 0;
	for (size_t l = 0; l < b->nlabels; l++)
		if (grid_width(b->labels[l]) > maxw)
			maxw = grid_width(b->labels[l]);
	if (maxw * b->nlabels > 90)
		fprintf(gp, "set xtics rotate by -45 left\nset bmargin %zu\n", maxw / 2 + 5);
	fputs("plot ", gp);
	for (size_t s = 0; s < b->nsets; s++) {
		if (s)
			fputs(", \\\n     ''", gp);
		else
			plot_gp_dat_ref(gp, &fs, 1);
		fprintf(gp, " u %zu:%zu%s title ", 2 + 2 * s, 3 + 2 * s, s ? "" : ":xtic(1)");
		plot_gp_str(gp, b->set_names[s]);
	}
	fputc('\n', gp);
	if (ferror(fs.gp) || ferror(fs.dat)) {
		snprintf(err, errlen, "cannot write %s/%s.gp or .dat", fs.dir, fs.base);
		rc = -EIO;
	}
	int ran = 0;
	if (!rc && !fflush(fs.gp) && !fflush(fs.dat)) {
		ran = 1;
		rc = plot_run_gnuplot(&fs, err, errlen);
	}
	int rc2 = plot_files_close(&fs, !ran);
	return rc ? rc : rc2;
}
