/* SPDX-License-Identifier: BSD-2-Clause */
/* anacli.c — shared helpers of the analysis commands (see anacli.h). */
#include "anacli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cli.h"
#include "grid.h"
#include "log.h"
#include "num.h"

int ana_load(const char *path, struct res_file **out)
{
	char err[1024];
	int rc = res_load(path, out, err, sizeof(err));
	if (!rc)
		return 0;
	log_err("%s", err);
	return rc == -ENOENT ? EX_NOINPUT : rc == -EINVAL ? EX_DATAERR : EX_OSERR;
}

int ana_one_file(const char *cmd, const char *synopsis, int noperands)
{
	if (noperands == 1)
		return 0;
	log_err("%s needs exactly one results file (usage: %s)", cmd, synopsis);
	return EX_USAGE;
}

int ana_pct(const char *s, double min, double max, double *frac)
{
	double v;
	size_t l = strlen(s);
	char buf[64];
	if (!l || l >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", s);
	if (buf[l - 1] == '%')
		buf[l - 1] = 0;
	if (num_double(buf, min, max, &v))
		return -EINVAL;
	*frac = v / 100;
	return 0;
}

int ana_opt_pct(const struct opt_def *d, const char *arg, void *base)
{
	return ana_pct(arg, d->lo, d->hi, (double *)((char *)base + d->off)) ? opt_bad(d, arg) : 0;
}

int ana_opt_where(const struct opt_def *d, const char *arg, void *base)
{
	char err[4096];
	if (!res_sel_opt((struct res_sel *)((char *)base + d->off), arg, err, sizeof(err)))
		return 0;
	log_err("%s", err);
	return EX_USAGE;
}

int ana_opt_format(const struct opt_def *d, const char *arg, void *base)
{
	int *fmt = (int *)((char *)base + d->off);
	if ((*fmt = grid_fmt_parse(arg)) < 0 || (!d->max && *fmt == GRID_HTML))
		return cli_bad(d->name, arg, d->max ? "text, md, csv or html" : "text, md or csv");
	return 0;
}

int ana_write_json(const char *path, const json_t *j)
{
	if (!strcmp(path, "-")) {
		if (json_dumpf(j, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER) ||
		    fputc('\n', stdout) == EOF)
			return EX_CANTCREAT;
		return 0;
	}
	int e = res_save(path, j);
	if (!e)
		return 0;
	log_err("-o %s: cannot write: %s", path, strerror(-e));
	return EX_CANTCREAT;
}

int ana_plot_status(int neg_errno)
{
	return neg_errno == -EINVAL ? EX_USAGE : neg_errno == -ENOENT ? EX_UNAVAILABLE
	       : neg_errno == -EIO ? EX_SOFTWARE : EX_CANTCREAT;
}
