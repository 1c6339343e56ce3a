/* SPDX-License-Identifier: BSD-2-Clause */
/* t_cliopts.c — the shared command-line layer: which options it keeps, which it hands
 * to the program, --help and --version, operands, and the ready announcement's setup. */
#include <fcntl.h>
#include <sysexits.h>
#include <unistd.h>

#include "cliopts.h"
#include "port.h"
#include "tap.h"

static const struct opt_def defs[] = {
	{ "count", 'n', "N", "a program's own option" },
	{ "flag", 0, NULL, "a long-only one" },
	CLI_OPT_INTERVAL,
	CLI_OPT_JSON,
	CLI_OPT_READY_FD("write a byte to N"),
	CLI_OPT_USER(CLI_USER_HELP),
	CLI_OPT_QUIET,
	CLI_OPT_VERBOSE,
	CLI_OPT_VERSION,
	CLI_OPT_HELP,
	{ NULL, 0, NULL, NULL },
};

struct own {
	int count_key, flag_idx, calls;
	const char *count;
};

static int own_handle(int key, const char *arg, int idx, void *ctx)
{
	struct own *o = ctx;
	o->calls++;
	if (key == 'n') {
		o->count = arg;
		o->count_key = key;
	} else {
		o->flag_idx = idx;
	}
	return 0;
}

static int parse(struct own *o, struct cli_common *c, int *first, int argc, char **argv)
{
	struct cli_prog p = { "ppslab-test", "ppslab-test [options]", defs, own_handle, o };
	/* --help and --version print on stdout, which carries TAP */
	fflush(stdout);
	int saved = dup(1), null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	close(null);
	int rc = cli_parse(&p, argc, argv, c, first);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return rc;
}

static void t_common(void)
{
	struct own o = { 0 };
	struct cli_common c = CLI_COMMON_INIT;
	char *argv[] = { "t", "-n", "5", "-I", "250ms", "--json", "-v", "-v", "--user", "nobody",
			 "--flag", NULL };
	T_EQ_INT(parse(&o, &c, NULL, 11, argv), 0);
	T_EQ_U64(c.interval_ns, 250 * NS_PER_MS);
	T_EQ_INT(c.json, 1);
	T_EQ_INT(c.verbose, 3);
	T_STREQ(c.user, "nobody");
	T_EQ_INT(c.ready_fd, -1);
	T_EQ_INT(o.calls, 2);   /* only -n and --flag reach the program */
	T_STREQ(o.count, "5");
	T_EQ_INT(o.flag_idx, 1);
}

static void t_defaults_quiet(void)
{
	struct own o = { 0 };
	struct cli_common c = CLI_COMMON_INIT;
	T_EQ_U64(c.interval_ns, NS_PER_S);
	T_EQ_INT(c.verbose, 1);
	char *argv[] = { "t", "-q", NULL };
	T_EQ_INT(parse(&o, &c, NULL, 2, argv), 0);
	T_EQ_INT(c.verbose, 0);
	T_TRUE(c.user == NULL);
	T_EQ_INT(cli_user_lookup(&c), 0);   /* no --user: nothing to look up */
}

static void t_bad_values(void)
{
	struct own o = { 0 };
	struct cli_common c = CLI_COMMON_INIT;
	char *a1[] = { "t", "--interval", "5ms", NULL };
	T_EQ_INT(parse(&o, &c, NULL, 3, a1), EX_USAGE);
	char *a2[] = { "t", "--ready-fd", "1", NULL };
	T_EQ_INT(parse(&o, &c, NULL, 3, a2), EX_USAGE);
	char *a3[] = { "t", "--no-such", NULL };
	T_EQ_INT(parse(&o, &c, NULL, 2, a3), EX_USAGE);
	T_EQ_INT(o.calls, 0);
}

static void t_help_version(void)
{
	struct own o = { 0 };
	struct cli_common c = CLI_COMMON_INIT;
	char *a1[] = { "t", "--help", "-n", "1", NULL };
	T_EQ_INT(parse(&o, &c, NULL, 4, a1), CLI_DONE);
	char *a2[] = { "t", "-V", NULL };
	T_EQ_INT(parse(&o, &c, NULL, 2, a2), CLI_DONE);
	char *a3[] = { "t", "-h", NULL };
	T_EQ_INT(parse(&o, NULL, NULL, 2, a3), CLI_DONE);   /* without the shared options too */
	T_EQ_INT(o.calls, 0);
}

static void t_operands(void)
{
	struct own o = { 0 };
	struct cli_common c = CLI_COMMON_INIT;
	char *argv[] = { "t", "-n", "2", "file.json", NULL };
	T_EQ_INT(parse(&o, &c, NULL, 4, argv), EX_USAGE);   /* none allowed */
	int first = 0;
	T_EQ_INT(parse(&o, &c, &first, 4, argv), 0);
	T_EQ_INT(first, 3);
}

static void t_without_common(void)
{
	/* an analysis command: the shared options are the program's own */
	struct own o = { 0 };
	int first = 0;
	char *argv[] = { "t", "--json", "x.json", NULL };
	T_EQ_INT(parse(&o, NULL, &first, 3, argv), 0);
	T_EQ_INT(o.calls, 1);
	T_EQ_INT(o.flag_idx, 3);
	T_EQ_INT(first, 2);
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
}

static void t_port_help(void)
{
	struct opt_def d[] = { { "iface", 'i', "PORTSPEC", "placeholder" },
			       { NULL, 0, NULL, NULL } };
	cli_port_help(d, "iface", "send on this port", PORT_TX, 0);
	T_TRUE(!strncmp(d[0].help, "send on this port: ", 19));
	T_TRUE(strstr(d[0].help, "udp:") != NULL);   /* every build has the udp: backend */
}

int main(void)
{
	T_RUN(t_common);
	T_RUN(t_defaults_quiet);
	T_RUN(t_bad_values);
	T_RUN(t_help_version);
	T_RUN(t_operands);
	T_RUN(t_without_common);
	T_RUN(t_ready);
	T_RUN(t_port_help);
	return t_done();
}
