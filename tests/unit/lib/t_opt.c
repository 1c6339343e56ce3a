/* SPDX-License-Identifier: BSD-2-Clause */
/* t_opt.c — typed option rows (opt.h) and the shared rows and helpers of cli.h: every
 * type, its bounds, enums, defaults, --help made from the rows, bad input, operands. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "cli.h"
#include "port.h"
#include "strlist.h"
#include "tap.h"

struct t {
	int flag, on, verbose_n;
	uint8_t small;
	uint32_t mid;
	uint64_t count, dur;
	double ratio;
	int color;
	const char *name, *path, *list;
	const char *many[3];
	int nmany;
	struct strlist words;
	int fn_calls;
	struct cli_common com;
};

static int t_fn(const struct opt_def *d, const char *arg, void *base)
{
	struct t *a = base;
	a->fn_calls++;
	return strcmp(arg, "ok") ? opt_bad(d, arg) : 0;
}

static const char *const colors[] = { "red", "green", "blue", NULL };

#define A(m) OPT_AT(struct t, m)
static struct opt_def defs[] = {
	{ "flag", 'f', NULL, "a flag", OPT_FLAG, A(flag) },
	{ "off", 0, NULL, "clears on", OPT_CLEAR, A(on) },
	{ "more", 'm', NULL, "counts", OPT_INC, A(verbose_n) },
	{ "small", 0, "N", "a byte {range}", OPT_UINT, A(small), .min = 1, .max = 200, .def = "7" },
	{ "mid", 0, "N", "no default", OPT_UINT, A(mid), .max = 70000, .what = "a mid {range}" },
	{ "count", 'n', "N", "frames", OPT_COUNT, A(count), .min = 1, .max = 1000000, .def = "1k" },
	{ "dur", 't', "DUR", "how long", OPT_DURATION, A(dur), .min = 1000, .max = 3600000000000ULL,
	  .def = "250ms" },
	{ "ratio", 0, "R", "a ratio {range}", OPT_DOUBLE, A(ratio), .lo = 0.5, .hi = 2, .def = "1" },
	{ "color", 'c', "C", "one of {names} ({default} unless given)", OPT_ENUM, A(color),
	  .names = colors, .def = "green" },
	{ "name", 0, "S", "any text", OPT_STR, A(name) },
	{ "path", 0, "FILE", "a file", OPT_PATH, A(path) },
	{ "list", 0, "L", "a comma list", OPT_LIST, A(list) },
	{ "many", 'M', "S", "repeatable", OPT_STRS, A(many), .n_off = offsetof(struct t, nmany),
	  .max = 3 },
	{ "old-many", 'M', "S", NULL, OPT_STRS, A(many), .n_off = offsetof(struct t, nmany),
	  .max = 3 },
	{ "word", 'w', "W,...", "words", OPT_CSV, A(words) },
	{ "fn", 0, "X", "own parser", OPT_FN, .fn = t_fn, .what = "ok" },
	CLI_OPT_INTERVAL(struct t),
	CLI_OPT_JSON(struct t),
	CLI_OPT_READY_FD(struct t, "write a byte to N"),
	CLI_OPT_USER(struct t, CLI_USER_HELP),
	CLI_OPT_QUIET(struct t),
	CLI_OPT_VERBOSE(struct t),
	OPT_VERSION_ROW,
	OPT_HELP_ROW,
	{ NULL },
};

/* opt_parse with stdout and stderr captured into out and err (TAP is on stdout). */
static int run(struct t *a, int *first, char *out, size_t olen, char *err, size_t elen,
	       int argc, char **argv)
{
	struct opt_prog p = { "ppslab-test", "ppslab-test [options]", defs };
	char fo[] = "/tmp/t_opt.out.XXXXXX", fe[] = "/tmp/t_opt.err.XXXXXX";
	int o = mkstemp(fo), e = mkstemp(fe);
	fflush(stdout);
	fflush(stderr);
	int so = dup(1), se = dup(2);
	dup2(o, 1);
	dup2(e, 2);
	memset(a, 0, sizeof(*a));
	a->on = 1;
	a->com = (struct cli_common)CLI_COMMON_INIT;
	int rc = opt_parse(&p, argc, argv, a, first);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	ssize_t n = pread(o, out, olen - 1, 0);
	out[n > 0 ? n : 0] = 0;
	n = pread(e, err, elen - 1, 0);
	err[n > 0 ? n : 0] = 0;
	close(o);
	close(e);
	unlink(fo);
	unlink(fe);
	return rc;
}

static char out[8192], err[2048];
#define RUN(a, first, ...) ({ char *v_[] = { "t", __VA_ARGS__, NULL };                  \
	run(a, first, out, sizeof(out), err, sizeof(err), (int)(sizeof(v_) / sizeof(*v_)) - 1, v_); })

static void t_defaults(void)
{
	struct t a;
	char *argv[] = { "t", NULL };
	T_EQ_INT(run(&a, NULL, out, sizeof(out), err, sizeof(err), 1, argv), 0);
	T_EQ_INT(a.small, 7);
	T_EQ_U64(a.count, 1000);
	T_EQ_U64(a.dur, 250000000ULL);
	T_TRUE(a.ratio == 1.0);
	T_EQ_INT(a.color, 1);
	T_EQ_U64(a.com.interval_ns, NS_PER_S);
	T_EQ_INT(a.com.verbose, 1);
	T_EQ_INT(a.com.ready_fd, -1);
	T_EQ_INT(a.on, 1);
	T_EQ_INT(a.flag, 0);
	T_EQ_INT((int)opt_seen(defs, "small"), 0);
}

static void t_every_type(void)
{
	struct t a;
	T_EQ_INT(RUN(&a, NULL, "-f", "--off", "-m", "-m", "--small", "200", "--mid", "70000",
		     "-n", "1.5k", "-t", "2s", "--ratio", "0.5", "-c", "BLUE", "--name", "x",
		     "--path", "p", "--list", "a,b", "-M", "1", "--old-many", "2", "-w", "u,v",
		     "-w", "z", "--fn", "ok", "-I", "10ms", "-j", "--user", "nobody", "-v"), 0);
	T_EQ_INT(a.flag, 1);
	T_EQ_INT(a.on, 0);
	T_EQ_INT(a.verbose_n, 2);
	T_EQ_INT(a.small, 200);
	T_EQ_INT((int)a.mid, 70000);
	T_EQ_U64(a.count, 1500);
	T_EQ_U64(a.dur, 2 * NS_PER_S);
	T_TRUE(a.ratio == 0.5);
	T_EQ_INT(a.color, 2);   /* names in any case */
	T_STREQ(a.name, "x");
	T_STREQ(a.path, "p");
	T_STREQ(a.list, "a,b");
	T_EQ_INT(a.nmany, 2);
	T_STREQ(a.many[1], "2");   /* the alias fills the same field */
	T_EQ_INT((int)a.words.n, 3);
	T_EQ_INT(a.fn_calls, 1);
	T_EQ_U64(a.com.interval_ns, 10 * NS_PER_MS);
	T_EQ_INT(a.com.json, 1);
	T_STREQ(a.com.user, "nobody");
	T_EQ_INT(a.com.verbose, 2);
	T_EQ_INT((int)opt_seen(defs, "more"), 2);
	T_EQ_INT((int)opt_seen(defs, "small"), 1);
	T_EQ_INT((int)opt_seen(defs, "no-such"), 0);
	strlist_free(&a.words);
	T_EQ_INT(RUN(&a, NULL, "-q"), 0);
	T_EQ_INT(a.com.verbose, 0);
}

/* A bad value: EX_USAGE and one message naming the option, the value and what fits. */
static void bad(const char *msg, char **argv, int argc)
{
	struct t a;
	int rc = run(&a, NULL, out, sizeof(out), err, sizeof(err), argc, argv);
	T_EQ_INT(rc, EX_USAGE);
	T_TRUE(strstr(err, msg) != NULL);
	if (!strstr(err, msg))
		printf("#   got: %s", err);
	strlist_free(&a.words);
}
#define BAD(msg, ...) do { char *v_[] = { "t", __VA_ARGS__, NULL };               \
	bad(msg, v_, (int)(sizeof(v_) / sizeof(*v_)) - 1); } while (0)

static void t_bounds_and_bad_input(void)
{
	BAD("--small 0: expected a whole number 1..200", "--small", "0");
	BAD("--small 201: expected a whole number 1..200", "--small", "201");
	BAD("--small 1x: expected", "--small", "1x");
	BAD("--mid 70001: expected a mid 0..70000", "--mid", "70001");
	BAD("--count 0: expected a whole number 1..1000000, optionally with k, M or G", "-n", "0");
	BAD("--count 2M: expected", "-n", "2M");
	BAD("--dur 999ns: expected a duration from 1us to 1h", "-t", "999ns");
	BAD("--dur 61m: expected a duration from 1us to 1h", "--dur", "61m");
	BAD("--ratio 2.5: expected a number 0.5..2", "--ratio", "2.5");
	BAD("--color pink: expected red, green or blue", "-c", "pink");
	BAD("--path : expected a file name", "--path", "");
	BAD("--list a,,b: item 2 of the comma list is empty", "--list", "a,,b");
	BAD("--many 4: expected at most 3 of them", "-M", "1", "-M", "2", "-M", "3", "-M", "4");
	BAD("--fn no: expected ok", "--fn", "no");
	BAD("--interval 5ms: expected an interval from 10ms to 1h", "--interval", "5ms");
	BAD("--ready-fd 1: expected", "--ready-fd", "1");
	BAD("unknown option '--no-such'", "--no-such");
	BAD("unknown option '-Z'", "-Z");
	BAD("option '--small' needs an argument", "--small");
	BAD("option '--flag' takes no argument", "--flag=1");
	BAD("unexpected argument 'x.json'", "-f", "x.json");
}

static void t_help_and_version(void)
{
	struct t a;
	T_EQ_INT(RUN(&a, NULL, "--small", "9", "--help", "--small", "0"), OPT_DONE);
	T_TRUE(!strncmp(out, "usage: ppslab-test [options]\n\noptions:\n", 38));
	/* ranges and defaults from the rows */
	T_TRUE(strstr(out, "  -f, --flag ") != NULL);
	T_TRUE(strstr(out, "      --small N ") != NULL);
	T_TRUE(strstr(out, "a byte 1..200 (default 7)\n") != NULL);
	T_TRUE(strstr(out, "frames (default 1k)\n") != NULL);
	T_TRUE(strstr(out, "how long (default 250ms)\n") != NULL);
	T_TRUE(strstr(out, "a ratio 0.5..2 (default 1)\n") != NULL);
	T_TRUE(strstr(out, "one of red, green or blue (green unless given)\n") != NULL);
	T_TRUE(strstr(out, "report interval (default 1s)\n") != NULL);
	T_TRUE(strstr(out, "no default\n") != NULL);
	T_TRUE(strstr(out, "old-many") == NULL);   /* an older spelling is not listed */
	T_EQ_INT(RUN(&a, NULL, "-V"), OPT_DONE);
	T_TRUE(!strncmp(out, "ppslab-test ", 12));
}

static void t_operands(void)
{
	struct t a;
	int first = 0;
	T_EQ_INT(RUN(&a, &first, "-f", "x.json", "y.json"), 0);
	T_EQ_INT(first, 2);
}

static void t_bad_default(void)
{
	struct opt_def d[] = {
		{ "n", 0, "N", "n", OPT_UINT, OPT_AT(struct t, small), .max = 9, .def = "10" },
		{ NULL },
	};
	struct opt_prog p = { "t", "t", d };
	struct t a = { 0 };
	char *argv[] = { "t", NULL };
	fflush(stderr);
	int se = dup(2), nul = open("/dev/null", O_WRONLY);
	dup2(nul, 2);
	close(nul);
	T_EQ_INT(opt_parse(&p, 1, argv, &a, NULL), EX_SOFTWARE);
	dup2(se, 2);
	close(se);
}

static void t_texts(void)
{
	char b[64];
	T_STREQ(opt_duration_text(0, b, sizeof(b)), "0");
	T_STREQ(opt_duration_text(50000, b, sizeof(b)), "50us");
	T_STREQ(opt_duration_text(1500000000ULL, b, sizeof(b)), "1500ms");
	T_STREQ(opt_duration_text(120 * NS_PER_S, b, sizeof(b)), "2m");
	T_STREQ(opt_duration_text(3600 * NS_PER_S, b, sizeof(b)), "1h");
	T_STREQ(opt_text(&defs[4], "{range}, {min} to {max}; {nothing}", b, sizeof(b)),
		"0..70000, 0 to 70000; {nothing}");
}

static void t_ready(void)
{
	struct cli_common c = CLI_COMMON_INIT;
	struct ready r;
	c.json = 1;
	c.verbose = 0;
	c.ready_fd = 9;
	cli_ready_init(&r, "gen", &c);
	T_TRUE(r.json);
	T_TRUE(r.quiet);
	T_EQ_INT(r.fd, 9);
	T_EQ_INT(c.ready_fd, -1);   /* r owns it now */
	T_EQ_INT(cli_user_lookup(&c), 0);   /* no --user: nothing to look up */
}

static void t_port_help(void)
{
	struct opt_def d[] = { { "iface", 'i', "PORTSPEC", "placeholder", OPT_STR },
			       { NULL } };
	cli_port_help(d, "iface", "send on this port", PORT_TX, 0);
	T_TRUE(!strncmp(d[0].help, "send on this port: ", 19));
	T_TRUE(strstr(d[0].help, "udp:") != NULL);   /* every build has the udp: backend */
}

int main(void)
{
	T_RUN(t_defaults);
	T_RUN(t_every_type);
	T_RUN(t_bounds_and_bad_input);
	T_RUN(t_help_and_version);
	T_RUN(t_operands);
	T_RUN(t_bad_default);
	T_RUN(t_texts);
	T_RUN(t_ready);
	T_RUN(t_port_help);
	return t_done();
}
