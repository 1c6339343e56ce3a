/* SPDX-License-Identifier: BSD-2-Clause */
/* t_cmd.c — the control commands as the forwarding thread runs them (cmd_exec) against
 * a forwarder built without ports: bad request lines (empty, too many words, unknown
 * command, a bad `load` header, a bad rule, a bad rule file, a bad sysctl) each get
 * the exit status the BSD tool would have and a message on the error stream; good ones
 * still work afterwards. */
#include <stdlib.h>
#include <time.h>

#include "cmd.h"
#include "devpoll.h"
#include "fw.h"
#include "fwd.h"
#include "tap.h"

static struct fwd F;
static struct fwdloop *S;
static struct ctl_req R;
static uint64_t clk;

static uint64_t fake_now(void *ctx)
{
	uint64_t *t = ctx;
	return *t += 1000000;
}

/* Runs line (with data for `load`); returns the status, leaves R.out/R.err. */
static int run(const char *line, const char *data)
{
	sbuf_free(&R.out);
	sbuf_free(&R.err);
	memset(&R, 0, sizeof(R));
	snprintf(R.line, sizeof(R.line), "%s", line);
	static char buf[1 << 16];   /* the request owns its data, as ctl.c's does */
	if (data) {
		snprintf(buf, sizeof(buf), "%s", data);
		R.data = buf;
		R.datalen = strlen(buf);
	}
	return cmd_exec(S, &R);
}

static const char *err(void)
{
	return R.err.s ? R.err.s : "";
}

static void t_bad_requests(void)
{
	T_EQ_INT(run("", NULL), 64);
	T_STREQ(err(), "ppslab-rut: empty command (sysctl, ipfw, stats or pause)\n");
	T_EQ_INT(run("   \t ", NULL), 64);
	T_EQ_INT(run("frobnicate now", NULL), 64);
	T_STREQ(err(), "ppslab-rut: unknown command 'frobnicate' (sysctl, ipfw, stats or pause)\n");
	T_EQ_INT(run("stats extra", NULL), 64);   /* stats takes no argument */
	char many[4096] = "sysctl";
	for (int i = 0; i < 300; i++)
		strcat(many, " a");
	T_EQ_INT(run(many, NULL), 64);
	T_STREQ(err(), "ppslab-rut: more than 256 words\n");
	T_EQ_INT(run("load 10 sysctl x", "0123456789"), 64);
	T_STREQ(err(), "ppslab-rut: load: expected 'load LENGTH ipfw [-q] NAME'\n");
	T_EQ_INT(run("load 10", "0123456789"), 64);
	T_EQ_INT(run("load 5 ipfw x", NULL), 64);  /* a load header without its bytes */
}

static void t_bad_ipfw_and_sysctl(void)
{
	T_EQ_INT(run("ipfw add 100 dney ip from any to any", NULL), 65);
	T_TRUE(strstr(err(), "ipfw: ") && strstr(err(), "got 'dney'"));
	T_EQ_INT(run("ipfw add 100 deny ip from \x01 to any", NULL), 65);
	T_TRUE(strstr(err(), "unexpected byte 0x01") != NULL);
	T_EQ_INT(run("ipfw delete 4242", NULL), 69);   /* the "kernel" refuses */
	T_EQ_INT(run("load 40 ipfw -q bad.rules", "add 100 deny ip from any to any\n300 dney\n"), 65);
	T_TRUE(strstr(err(), "bad.rules:2:") && strstr(err(), "got 'dney'"));
	T_EQ_INT(fw_rule_count(F.fw), 1);              /* all or nothing: nothing added */
	T_EQ_INT(run("sysctl kern.polling.nope", NULL), 1);
	T_STREQ(err(), "sysctl: unknown oid 'kern.polling.nope'\n");
	T_EQ_INT(run("sysctl kern.polling.pollhz=fast", NULL), 1);
	/* and good requests still work */
	T_EQ_INT(run("ipfw -q add 100 count ip from any to any", NULL), 0);
	T_EQ_INT(fw_rule_count(F.fw), 2);
	T_EQ_INT(run("sysctl -n kern.polling.pollhz", NULL), 0);
	T_STREQ(R.out.s, "2000\n");
}

/* pause MS: its bad values refused with the message and status 64, nothing paused;
 * a good one counted and in the stats. */
static void t_pause(void)
{
	static const char *const bad[] = { "pause", "pause 0", "pause 60001", "pause abc",
		"pause 250ms", "pause -5", "pause 5 6", "pause 99999999999999999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		T_EQ_INT(run(bad[i], NULL), 64);
		T_TRUE(strstr(err(), "expected 'pause MS', MS a whole number of milliseconds "
				     "from 1 to 60000") != NULL);
	}
	T_STREQ((run("pause 250ms", NULL), err()),
		"ppslab-rut: pause 250ms: expected 'pause MS', MS a whole number of "
		"milliseconds from 1 to 60000\n");
	struct fwdloop_pause pz;
	fwdloop_pause_stats(S, &pz);
	T_EQ_U64(pz.count, 0);
	T_EQ_INT(run("pause 250", NULL), 0);
	T_STREQ(R.out.s, "forwarding paused for 250 ms\n");
	fwdloop_pause_stats(S, &pz);
	T_EQ_U64(pz.count, 1);
	T_EQ_U64(pz.req_ns, 250000000);
	T_EQ_INT(run("stats", NULL), 0);
	T_TRUE(strstr(R.out.s, "\"pause\":{\"count\":1,\"requested_ns\":250000000,") != NULL);
}

/* The rest of a load that goes on, as thread 0 looks at it when it has nothing due;
 * its status. */
static int run_steps(void)
{
	int st;
	uint64_t n = 0;
	while ((st = cmd_exec(S, &R)) == FWDLOOP_CMD_LATER) {
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
		if (++n > 100000)   /* 10 s */
			abort();
	}
	return st;
}

/* load ... -per-rule: a loader thread makes one call a command line (comments and
 * blank lines skipped), stops at the first failing line with the lines before it
 * loaded, as ipfw(8) reads a file, and the request stays open until it is done; a line
 * other than `add` is refused before anything is loaded. The default load is one
 * call, all or nothing, its reply after the rings drained. Both in the load's books. */
static void t_load_per_rule(void)
{
	int n0 = fw_rule_count(F.fw);
	struct fwdloop_load l;
	fwdloop_load_stats(S, &l);
	uint64_t c0 = l.count;   /* the bad file above was a load too */
	T_EQ_INT(run("load 0 ipfw -q -per-rule a.rules",
		     "# three rules, one a call\nadd 1000 deny ip from 198.18.200.1 to any\n\n"
		     " -q add 1001 deny ip from 198.18.200.2 to any # two\n"
		     "ipfw add 1002 count ip from any to any\n"), FWDLOOP_CMD_LATER);
	fwdloop_load_stats(S, &l);
	T_TRUE(l.running && l.per_rule);
	T_EQ_U64(l.lines, 5);
	T_EQ_INT(run_steps(), 0);
	T_EQ_INT(fw_rule_count(F.fw), n0 + 3);
	fwdloop_load_stats(S, &l);
	T_TRUE(!l.running && l.status == 0 && l.end_ns >= l.start_ns && l.drained_ns >= l.end_ns);
	T_EQ_U64(l.count, c0 + 1);
	T_EQ_U64(l.calls, 3);
	T_EQ_U64(l.stall_ns, 0);   /* thread 0 was not held */
	T_TRUE(l.call_max_ns <= l.busy_ns && l.busy_ns > 0 && l.cpu_ns > 0);
	T_EQ_INT(run("load 0 ipfw -per-rule b.rules", "add 1100 deny ip from any to 198.18.200.3\n"
		     "add 1101 dney ip\nadd 1102 deny ip from any to any\n"), FWDLOOP_CMD_LATER);
	T_EQ_INT(run_steps(), 65);
	T_TRUE(strstr(err(), "b.rules:2:") && strstr(err(), "got 'dney'"));
	T_EQ_INT(fw_rule_count(F.fw), n0 + 4);   /* line 1 stays */
	T_EQ_INT(run("stats", NULL), 0);
	char want[160];
	snprintf(want, sizeof(want), "\"load\":{\"count\":%llu,\"mode\"", (unsigned long long)c0 + 2);
	T_TRUE(strstr(R.out.s, want) != NULL);
	T_TRUE(strstr(R.out.s, "\"mode\":\"per-rule\",\"running\":false,"
			       "\"status\":65,\"lines\":3,\"calls\":2,") != NULL);
	T_EQ_INT(run("load 0 ipfw -per-rule c.rules", "add 1150 deny ip from any to 198.18.200.3\n"
		     "  # a comment\n-q flush\n"), 64);
	T_STREQ(err(), "ipfw: c.rules:3: -per-rule loads 'add' lines only, got '-q flush'\n");
	T_EQ_INT(fw_rule_count(F.fw), n0 + 4);   /* nothing of it */
	T_EQ_INT(run("load 0 ipfw -q d.rules", "add 1200 deny ip from any to 198.18.200.4\n"
		     "add 1201 deny ip from any to 198.18.200.5\n"), FWDLOOP_CMD_LATER);
	T_EQ_INT(fw_rule_count(F.fw), n0 + 6);   /* all in one call; the reply waits for */
	fwdloop_load_stats(S, &l);               /* the rings to drain */
	T_TRUE(l.running && l.calls == 1);
	/* rings found empty: the drops read; found empty again: done (then every drop
	 * read follows a frame read by rx_pkts_drained) */
	T_EQ_INT(cmd_exec(S, &R), FWDLOOP_CMD_LATER);
	fwdloop_load_stats(S, &l);
	T_TRUE(l.running);
	T_EQ_INT(cmd_exec(S, &R), 0);
	fwdloop_load_stats(S, &l);
	T_TRUE(l.kernel_drops_drained >= l.kernel_drops);
	T_TRUE(!l.per_rule && !l.running && l.count == c0 + 4 && l.calls == 1 && l.lines == 2);
	T_TRUE(l.stall_ns == l.busy_ns && l.busy_ns > 0);
}

int main(void)
{
	static const char *const ifs[] = { "em0", "em1" };
	struct fw *fw = fw_new(ifs, 2, NULL, 0);
	S = fwdloop_new();
	if (!fw || !S || fwd_init_detached(&F, fw) ||
	    fwdloop_init_detached(S, &F, NULL, fake_now, &clk))
		abort();
	fwdloop_set_range(S, PK_RANGE_EINVAL);
	T_RUN(t_bad_requests);
	T_RUN(t_bad_ipfw_and_sysctl);
	T_RUN(t_pause);
	T_RUN(t_load_per_rule);
	sbuf_free(&R.out);
	sbuf_free(&R.err);
	fwdloop_free(S);
	fwd_fini(&F);
	return t_done();
}
