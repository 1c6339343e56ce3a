/* SPDX-License-Identifier: BSD-2-Clause */
/* t_jpos.c — positions of JSON values: paths of members and elements, 1-based line and
 * column counted in UTF-8 characters, keys' places, quoted odd keys, and malformed or
 * truncated text that must never crash. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jpos.h"
#include "tap.h"

static struct jpos *idx(const char *s)
{
	return jpos_index(s, strlen(s));
}

static void t_paths(void)
{
	const char *s = "{\n"
			"  \"matrix\": { \"pollhz\": [1000, 2000,\n"
			"                         3000] },\n"
			"  \"trial\": {\"duration\": \"2s\"}\n"
			"}\n";
	struct jpos *jp = idx(s);
	int l = 0, c = 0;
	T_TRUE(jp != NULL);
	T_EQ_INT(jpos_find(jp, "", &l, &c), 0);
	T_EQ_INT(l, 1);
	T_EQ_INT(c, 1);
	T_EQ_INT(jpos_find(jp, "matrix.pollhz", &l, &c), 0);
	T_EQ_INT(l, 2);
	T_EQ_INT(c, 25);
	T_EQ_INT(jpos_find(jp, "matrix.pollhz[1]", &l, &c), 0);
	T_EQ_INT(l, 2);
	T_EQ_INT(c, 32);
	T_EQ_INT(jpos_find(jp, "matrix.pollhz[2]", &l, &c), 0);
	T_EQ_INT(l, 3);
	T_EQ_INT(c, 26);
	T_EQ_INT(jpos_find(jp, "trial.duration", &l, &c), 0);
	T_EQ_INT(l, 4);
	T_EQ_INT(c, 25);
	T_EQ_INT(jpos_find_key(jp, "trial.duration", &l, &c), 0);
	T_EQ_INT(l, 4);
	T_EQ_INT(c, 13);
	T_EQ_INT(jpos_find_key(jp, "matrix.pollhz[1]", &l, &c), -ENOENT);
	T_EQ_INT(jpos_find(jp, "matrix.pollhz[3]", &l, &c), -ENOENT);
	T_EQ_INT(jpos_find(jp, "trial", &l, &c), 0);
	T_EQ_INT(jpos_count(jp), 8);
	jpos_free(jp);
}

static void t_utf8_columns(void)
{
	/* "é" is two bytes, one character; the escaped key decodes to "ü" */
	const char *s = "{\"d\": \"\xC3\xA9t\xC3\xA9\", \"x\": 1, \"\\u00fc\": [true]}";
	struct jpos *jp = idx(s);
	int l, c;
	T_EQ_INT(jpos_find(jp, "x", &l, &c), 0);
	T_EQ_INT(l, 1);
	T_EQ_INT(c, 19);
	T_EQ_INT(jpos_find(jp, "[\"\xC3\xBC\"][0]", &l, &c), 0);
	T_EQ_INT(c, 33);
	jpos_free(jp);
}

static void t_odd_keys(void)
{
	char b[64];
	T_STREQ(jpos_path_key(b, sizeof(b), "", "a"), "a");
	T_STREQ(jpos_path_key(b, sizeof(b), "a", "b_c-1"), "a.b_c-1");
	T_STREQ(jpos_path_key(b, sizeof(b), "a", "b.c"), "a[\"b.c\"]");
	T_STREQ(jpos_path_key(b, sizeof(b), "", "q\"x"), "[\"q\\\"x\"]");
	T_STREQ(jpos_path_idx(b, sizeof(b), "m.p", 7), "m.p[7]");
	T_STREQ(jpos_path_key(b, 5, "abcdef", "g"), "abcd");
	struct jpos *jp = idx("{\"a.b\": {\"\": 5}}");
	int l, c;
	T_EQ_INT(jpos_find(jp, "[\"a.b\"]", &l, &c), 0);
	T_EQ_INT(c, 9);
	T_EQ_INT(jpos_find(jp, "[\"a.b\"][\"\"]", &l, &c), 0);
	T_EQ_INT(c, 14);
	jpos_free(jp);
}

static void t_malformed(void)
{
	static const char *const bad[] = {
		"", "{", "[", "{\"a\"", "{\"a\":", "{\"a\": [1, 2", "\"unterminated",
		"{\"a\" 1}", "[1 2]", "{\"\\u12\": 1}", "{\"\\ud800\\u0041\": 1}", "}}}}",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
		"{\"a\": tru", "\xEF\xBB\xBF{\"a\": 1}", "{\"a\":,}", "[,]",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct jpos *jp = idx(bad[i]);
		T_TRUE(jp != NULL);
		jpos_free(jp);
	}
	/* what was scanned before the error is still found */
	struct jpos *jp = idx("{\"a\": 1, \"b\": [2, ");
	int l, c;
	T_EQ_INT(jpos_find(jp, "b[0]", &l, &c), 0);
	T_EQ_INT(c, 16);
	jpos_free(jp);
	/* the BOM is not a column */
	jp = idx("\xEF\xBB\xBF{\"a\": 1}");
	T_EQ_INT(jpos_find(jp, "a", &l, &c), 0);
	T_EQ_INT(c, 7);
	jpos_free(jp);
	/* deep nesting is cut off, not recursed into forever */
	size_t n = 100000;
	char *deep = malloc(n + 1);
	memset(deep, '[', n);
	deep[n] = 0;
	jp = jpos_index(deep, n);
	T_TRUE(jp != NULL && jpos_count(jp) < 1000);
	jpos_free(jp);
	free(deep);
	/* len bounds the scan even without a terminating NUL */
	jp = jpos_index("[1, 2]XXXX", 3);
	T_EQ_INT(jpos_find(jp, "[0]", &l, &c), 0);
	T_EQ_INT(jpos_find(jp, "[1]", &l, &c), -ENOENT);
	jpos_free(jp);
	T_EQ_INT(jpos_find(NULL, "", &l, &c), -ENOENT);
	jp = jpos_index(NULL, 5);
	T_EQ_INT(jpos_count(jp), 0);
	jpos_free(jp);
}

int main(void)
{
	T_RUN(t_paths);
	T_RUN(t_utf8_columns);
	T_RUN(t_odd_keys);
	T_RUN(t_malformed);
	return t_done();
}
