/* SPDX-License-Identifier: BSD-2-Clause */
/* anacli.c — shared helpers of the analysis commands (see anacli.h). */
#include "anacli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "log.h"

int ana_load(const char *path, struct res_file **out)
{
	char err[1024];
	int rc = res_load(path, out, err, sizeof(err));
	if (!rc)
		return 0;
	log_err("%s", err);
	return rc == -ENOENT ? EX_NOINPUT : rc == -EINVAL ? EX_DATAERR : EX_OSERR;
}

int strlist_add(struct strlist *l, const char *s)
{
	char **n = realloc(l->v, (l->n + 2) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	l->v = n;
	if (!(n[l->n] = strdup(s)))
		return -ENOMEM;
	n[++l->n] = NULL;
	return 0;
}

int strlist_add_csv(struct strlist *l, const char *text)
{
	char *dup = strdup(text), *save = NULL;
	int rc = dup ? 0 : -ENOMEM;
	for (char *t = dup ? strtok_r(dup, ",", &save) : NULL; t && !rc;
	     t = strtok_r(NULL, ",", &save))
		rc = strlist_add(l, t);
	free(dup);
	return rc;
}

void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
