/* SPDX-License-Identifier: BSD-2-Clause */
/* t_strlist.c — growing arrays of copied strings: copies, NULL-terminated, comma lists;
 * an enum's words both ways. */
#include <errno.h>
#include <stdlib.h>

#include "strlist.h"
#include "tap.h"

static void t_strv(void)
{
	char **v = NULL, buf[8] = "first";
	size_t n = 0;
	T_EQ_INT(strv_add(&v, &n, buf), 0);
	buf[0] = 'F';   /* a copy was kept */
	T_EQ_INT(strv_add(&v, &n, ""), 0);
	T_EQ_U64(n, 2);
	T_STREQ(v[0], "first");
	T_STREQ(v[1], "");
	T_TRUE(v[2] == NULL);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void t_strlist(void)
{
	struct strlist l = { 0 };
	T_EQ_INT(strlist_add(&l, "a"), 0);
	T_EQ_INT(strlist_add_csv(&l, "b,,c,"), 0);
	T_EQ_INT(strlist_add_csv(&l, ","), 0);
	T_EQ_U64(l.n, 3);
	T_STREQ(l.v[0], "a");
	T_STREQ(l.v[1], "b");
	T_STREQ(l.v[2], "c");
	T_TRUE(l.v[3] == NULL);   /* an argv */
	strlist_free(&l);
	T_EQ_U64(l.n, 0);
	T_TRUE(l.v == NULL);
}

static void t_enum_words(void)
{
	static const char *const w[] = { "catchup", "skip", "shift" };
	T_STREQ(str_name(w, 3, 0), "catchup");
	T_STREQ(str_name(w, 3, 2), "shift");
	T_STREQ(str_name(w, 3, 3), "?");
	T_STREQ(str_name(w, 2, 2), "?");
	T_EQ_INT(str_index(w, 3, "skip"), 1);
	T_EQ_INT(str_index(w, 3, "shift"), 2);
	T_EQ_INT(str_index(w, 2, "shift"), -EINVAL);
	T_EQ_INT(str_index(w, 3, "Skip"), -EINVAL);
	T_EQ_INT(str_index(w, 3, ""), -EINVAL);
}

int main(void)
{
	T_RUN(t_strv);
	T_RUN(t_enum_words);
	T_RUN(t_strlist);
	return t_done();
}
