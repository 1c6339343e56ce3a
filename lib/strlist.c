/* SPDX-License-Identifier: BSD-2-Clause */
/* strlist.c — growing arrays of copied strings (see strlist.h). */
#include "strlist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *str_name(const char *const *names, size_t n, unsigned v)
{
	return v < n ? names[v] : "?";
}

int str_index(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -EINVAL;
}

int strv_add(char ***v, size_t *n, const char *s)
{
	char *dup = strdup(s);
	char **g = dup ? realloc(*v, (*n + 2) * sizeof(*g)) : NULL;
	if (!g) {
		free(dup);
		return -ENOMEM;
	}
	*v = g;
	g[(*n)++] = dup;
	g[*n] = NULL;
	return 0;
}

int strlist_add(struct strlist *l, const char *s)
{
	return strv_add(&l->v, &l->n, s);
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
