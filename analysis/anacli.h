/* anacli.h — small helpers shared by the table, plot, compare and report commands:
 * loading a results file with the right exit code, and list-valued options. */
#ifndef PPSLAB_ANALYSIS_ANACLI_H
#define PPSLAB_ANALYSIS_ANACLI_H

#include <stddef.h>

#include "results.h"

/* Loads path; on failure prints the error and returns EX_NOINPUT (cannot open),
 * EX_DATAERR (not JSON / not a results file) or EX_OSERR. 0 on success. */
int ana_load(const char *path, struct res_file **out);

/* A growing list of strings from repeatable, comma-separated options. */
struct strlist {
	size_t n;
	char **v;
};
/* Splits text at commas and appends the non-empty parts. 0 or -ENOMEM. */
int strlist_add_csv(struct strlist *l, const char *text);
int strlist_add(struct strlist *l, const char *s);
void strlist_free(struct strlist *l);

#endif
