/* SPDX-License-Identifier: BSD-2-Clause */
/* strlist.h — a growing array of copied strings, kept NULL-terminated (an argv); and
 * the words of an enum, both ways. */
#ifndef PPSLAB_LIB_STRLIST_H
#define PPSLAB_LIB_STRLIST_H

#include <stddef.h>

/* Appends a copy of s to the n strings at *v, growing *v, which stays NULL-terminated.
 * 0, or -ENOMEM with *v and *n still valid (and freeable) as they were. */
int strv_add(char ***v, size_t *n, const char *s);

/* The same as a struct, for repeatable options: { 0 } is empty. */
struct strlist {
	size_t n;
	char **v;
};
int strlist_add(struct strlist *l, const char *s);
/* Splits text at commas and appends the non-empty parts. 0 or -ENOMEM. */
int strlist_add_csv(struct strlist *l, const char *text);
void strlist_free(struct strlist *l);

/* An enum's words: names[v] for the value v (of n), "?" beyond; and the value of the
 * word s, or -EINVAL when it is none of them. */
const char *str_name(const char *const *names, size_t n, unsigned v);
int str_index(const char *const *names, size_t n, const char *s);

#endif
