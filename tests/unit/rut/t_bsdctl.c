/* SPDX-License-Identifier: BSD-2-Clause */
/* t_bsdctl.c — `sysctl` as FreeBSD 8 prints it, over the forwarder's kern.polling tree:
 * the 2006 DragonFly sweep's `sysctl -a kern.polling` listing, and each kernel
 * personality's (the knobs its kernel has), writes ("old -> new"), range errors
 * (EINVAL: "name: old" on stdout, "sysctl: name=value: Invalid argument" on stderr, exit
 * status = number of failures), fatal errors (unknown oid, read only, a tunable, not a
 * number, a node) and the flags. */
#include <errno.h>
#include <stdlib.h>

#include "bsdctl.h"
#include "clock.h"
#include "fw.h"
#include "rut_sysctl.h"
#include "tap.h"

static uint64_t fake_now(void *c)
{
	(void)c;
	return 0;
}

static struct devpoll P;
static struct rut_sysctl_ctx C = { .poll = &P };
static struct sbuf O, E;

/* Runs "sysctl" with the words of cmd; returns the status; output in O and E. */
static int run(const char *cmd)
{
	char buf[512], *argv[32];
	int argc = 0, n;
	snprintf(buf, sizeof(buf), "%s", cmd);
	for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " "))
		argv[argc++] = t;
	sbuf_reset(&O);
	sbuf_reset(&E);
	const struct bsdctl_oid *tab = C.fw ? rut_sysctl_table(&n) : rut_sysctl_polling(&n);
	return bsdctl_sysctl(tab, n, &C, argc, argv, &O, &E);
}

static int noop(void *a, enum devpoll_cmd c, int n)
{
	(void)a, (void)c;
	return n;
}

/* kernel personality kern with its own range policy, or policy r (>= 0) */
static void setup_k(const char *kern, int r)
{
	devpoll_init(&P, pollkern_find(kern), fake_now, NULL);
	if (r >= 0)
		devpoll_set_range(&P, (enum pk_range)r);
	devpoll_register(&P, noop, NULL);
	devpoll_register(&P, noop, NULL);
	C.boot = false;
}

static void setup(enum pk_range r)
{
	setup_k(PK_DEFAULT, (int)r);
}

#define SEED_LISTING \
		"kern.polling.burst: 119\n" \
		"kern.polling.each_burst: 30\n" \
		"kern.polling.burst_max: 150\n" \
		"kern.polling.user_frac: 50\n" \
		"kern.polling.reg_frac: 20\n" \
		"kern.polling.short_ticks: 39675403\n" \
		"kern.polling.lost_polls: 679638\n" \
		"kern.polling.pending_polls: 1\n" \
		"kern.polling.residual_burst: 0\n" \
		"kern.polling.handlers: 2\n" \
		"kern.polling.enable: 1\n" \
		"kern.polling.phase: 2\n" \
		"kern.polling.suspect: 12710\n" \
		"kern.polling.stalled: 2\n" \
		"kern.polling.pollhz: 4000\n"

/* the 2006 DragonFly sweep's listing: the same names in the same order, on the kernel
 * it ran (no idle_poll: DragonFly has none) */
static void t_listing(void)
{
	setup_k("dragonfly-1.8", -1);
	P.st.burst = 119;
	P.k.each_burst = 30;
	P.st.short_ticks = 39675403;
	P.st.lost_polls = 679638;
	P.st.pending_polls = 1;
	P.st.phase = 2;
	P.st.suspect = 12710;
	P.st.stalled = 2;
	P.k.pollhz = 4000;
	const char *want = SEED_LISTING;
	T_EQ_INT(run("-a kern.polling"), 0);
	T_STREQ(sbuf_data(&O), want);
	T_STREQ(sbuf_data(&E), "");
	T_EQ_INT(run("kern.polling"), 0);
	T_STREQ(sbuf_data(&O), want);
	const char *all = "kern.hz: 100\nkern.ppslab.kernel: dragonfly-1.8\n" SEED_LISTING;
	T_EQ_INT(run("-a"), 0);
	T_TRUE(!strcmp(sbuf_data(&O), all));
	T_EQ_INT(run("kern"), 0);
	T_TRUE(!strcmp(sbuf_data(&O), all));
	T_EQ_INT(run("kern.polling.idle_poll"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: unknown oid 'kern.polling.idle_poll'\n");
}

/* FreeBSD: no pollhz (the clock is kern.hz), idle_poll and idlepoll_sleeping; FreeBSD 7
 * keeps enable as a legacy switch (0 while the ports poll by ifconfig), 14 has none
 * (kern_poll.c of RELENG_8_3 and main) */
static void t_listing_freebsd(void)
{
	const char *want7 =
		"kern.polling.burst: 5\n"
		"kern.polling.each_burst: 5\n"
		"kern.polling.burst_max: 150\n"
		"kern.polling.user_frac: 50\n"
		"kern.polling.reg_frac: 20\n"
		"kern.polling.short_ticks: 0\n"
		"kern.polling.lost_polls: 0\n"
		"kern.polling.pending_polls: 0\n"
		"kern.polling.residual_burst: 0\n"
		"kern.polling.handlers: 2\n"
		"kern.polling.enable: 0\n"
		"kern.polling.phase: 0\n"
		"kern.polling.suspect: 0\n"
		"kern.polling.stalled: 0\n"
		"kern.polling.idle_poll: 0\n"
		"kern.polling.idlepoll_sleeping: 1\n";
	setup_k("freebsd-7", -1);
	T_EQ_INT(run("kern.polling"), 0);
	T_STREQ(sbuf_data(&O), want7);
	T_EQ_INT(run("kern.hz kern.ppslab.kernel"), 0);
	T_STREQ(sbuf_data(&O), "kern.hz: 1000\nkern.ppslab.kernel: freebsd-7\n");
	T_EQ_INT(run("kern.polling.pollhz"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: unknown oid 'kern.polling.pollhz'\n");
	T_EQ_INT(run("kern.polling.idle_poll=1 kern.polling.idlepoll_sleeping"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.idle_poll: 0 -> 1\n"
			       "kern.polling.idlepoll_sleeping: 0\n");
	setup_k("freebsd-14", -1);
	T_EQ_INT(run("kern.polling"), 0);
	T_TRUE(strstr(sbuf_data(&O), "enable") == NULL);
	T_TRUE(strstr(sbuf_data(&O), "kern.polling.handlers: 2\nkern.polling.phase: 0\n") != NULL);
	T_EQ_INT(run("kern.polling.enable=1"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: unknown oid 'kern.polling.enable'\n");
	T_EQ_INT(run("kern.polling.burst_max=20000"), 0);
	T_EQ_INT(run("kern.polling.burst_max=20001"), 1);
}

/* kern.hz is set when the kernel boots: --sysctl at start may, ctl at run time may not
 * (sysctl(8)'s words for a CTLFLAG_RDTUN OID) */
static void t_hz_tunable(void)
{
	setup_k("freebsd-7", -1);
	T_EQ_INT(run("kern.hz=2000"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: oid 'kern.hz' is a read only tunable\n"
			       "sysctl: Tunable values are set in /boot/loader.conf\n");
	T_EQ_U64(P.k.hz, 1000);
	C.boot = true;
	T_EQ_INT(run("kern.hz=2000"), 0);
	T_STREQ(sbuf_data(&O), "kern.hz: 1000 -> 2000\n");
	T_EQ_U64(devpoll_clock_hz(&P), 2000);
	T_EQ_INT(run("kern.hz=0 kern.hz=30001"), 2);
	C.boot = false;
	T_EQ_INT(run("kern.ppslab.kernel=x"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: oid 'kern.ppslab.kernel' is read only\n");
}

static void t_read(void)
{
	setup(PK_RANGE_EINVAL);
	T_EQ_INT(run("kern.polling.burst_max"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.burst_max: 150\n");
	T_EQ_INT(run("-n kern.polling.burst_max kern.polling.pollhz"), 0);
	T_STREQ(sbuf_data(&O), "150\n2000\n");
	T_EQ_INT(run("-e kern.polling.user_frac"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.user_frac=50\n");
	T_EQ_INT(run("-N kern.polling.user_frac"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.user_frac\n");
	T_EQ_INT(run("-d kern.polling.pollhz"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.pollhz: Device polling frequency\n");
}

static void t_write(void)
{
	setup(PK_RANGE_EINVAL);
	T_EQ_INT(run("kern.polling.pollhz=4000"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.pollhz: 2000 -> 4000\n");
	T_STREQ(sbuf_data(&E), "");
	T_EQ_U64(P.k.pollhz, 4000);
	T_EQ_INT(run("kern.polling.burst_max=0x64 kern.polling.each_burst=010"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.burst_max: 150 -> 100\n"
			       "kern.polling.each_burst: 5 -> 8\n");
	T_EQ_INT(run("-n kern.polling.user_frac=40"), 0);
	T_STREQ(sbuf_data(&O), "50 -> 40\n");
	T_EQ_INT(run("kern.polling.enable=0"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.enable: 1 -> 0\n");
	T_EQ_U64(P.st.handlers, 0);
}

/* P14 of docs/design/polling.md#polling-test-vectors: burst_max 5 is EINVAL in the
 * FreeBSD policy (clamped to 10 in DragonFly 2.0's) */
static void t_range_errors(void)
{
	setup(PK_RANGE_EINVAL);
	T_EQ_INT(run("kern.polling.burst_max=5"), 1);
	T_STREQ(sbuf_data(&O), "kern.polling.burst_max: 150\n");
	T_STREQ(sbuf_data(&E), "sysctl: kern.polling.burst_max=5: Invalid argument\n");
	T_EQ_U64(P.k.burst_max, 150);
	/* a failure does not stop the others; the status counts them */
	T_EQ_INT(run("kern.polling.pollhz=0 kern.polling.user_frac=25 kern.polling.pollhz=40000"), 2);
	T_STREQ(sbuf_data(&O), "kern.polling.pollhz: 2000\n"
			       "kern.polling.user_frac: 50 -> 25\n"
			       "kern.polling.pollhz: 2000\n");
	T_STREQ(sbuf_data(&E), "sysctl: kern.polling.pollhz=0: Invalid argument\n"
			       "sysctl: kern.polling.pollhz=40000: Invalid argument\n");
	/* "-1" as an unsigned is 4294967295: out of range */
	T_EQ_INT(run("kern.polling.each_burst=-1"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: kern.polling.each_burst=-1: Invalid argument\n");
	T_EQ_INT(run("kern.polling.user_frac=100"), 1);

	setup_k("dragonfly-2.0", -1);
	T_EQ_INT(run("kern.polling.burst_max=5"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.burst_max: 150 -> 10\n");
	T_EQ_INT(run("kern.polling.pollhz=40000"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.pollhz: 2000 -> 30000\n");
	T_EQ_INT(run("kern.polling.pollhz=0"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: kern.polling.pollhz=0: Invalid argument\n");
}

static void t_fatal(void)
{
	setup(PK_RANGE_EINVAL);
	T_EQ_INT(run("kern.polling.nope"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: unknown oid 'kern.polling.nope'\n");
	T_STREQ(sbuf_data(&O), "");
	/* errx stops at once: the later argument is not processed */
	T_EQ_INT(run("kern.polling.nope kern.polling.pollhz=100"), 1);
	T_EQ_U64(P.k.pollhz, 2000);
	T_EQ_INT(run("-q kern.polling.nope"), 1);
	T_STREQ(sbuf_data(&E), "");
	T_EQ_INT(run("-i kern.polling.nope kern.polling.pollhz"), 0);
	T_STREQ(sbuf_data(&O), "kern.polling.pollhz: 2000\n");
	T_EQ_INT(run("kern.polling.burst=3"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: oid 'kern.polling.burst' is read only\n");
	T_EQ_INT(run("kern.polling.burst_max=abc"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: invalid unsigned integer 'abc'\n");
	T_EQ_INT(run("kern.polling.pollhz=12x"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: invalid integer '12x'\n");
	T_EQ_INT(run("kern.polling.pollhz="), 1);
	T_STREQ(sbuf_data(&E), "sysctl: empty numeric value\n");
	T_EQ_INT(run("kern.polling=1"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: oid 'kern.polling' isn't a leaf node\n");
	T_EQ_INT(run("kern.poll"), 1);                    /* not a node: names are whole */
	T_STREQ(sbuf_data(&E), "sysctl: unknown oid 'kern.poll'\n");
	T_EQ_INT(run(""), 1);
	T_STREQ(sbuf_data(&E), "usage: sysctl [-bdehiNnoqx] name[=value] ...\n"
			       "       sysctl [-bdehNnoqx] -a\n");
	T_EQ_INT(run("-z kern"), 1);
	T_TRUE(!strncmp(sbuf_data(&E), "sysctl: illegal option -- z\nusage:", 34));
}

/* net.inet.ip.fw.*: FreeBSD 8's names and types over the firewall's tunables; -a lists
 * kern.polling first, then net (the OID order of the top-level nodes) */
static void t_fw_tree(void)
{
	setup_k("freebsd-7", -1);
	const char *ifs[] = { "rut0", "rut1" };
	struct fw *fw = fw_new(ifs, 2, NULL, 0);
	T_TRUE(fw != NULL);
	if (!fw)
		return;
	C.fw = fw;
	T_EQ_INT(run("net.inet.ip.fw"), 0);
	/* (strcmp: the listing is too long for T_STREQ's message) */
	static const char want[] = "net.inet.ip.fw.enable: 1\n"
			       "net.inet.ip.fw.one_pass: 1\n"
			       "net.inet.ip.fw.autoinc_step: 100\n"
			       "net.inet.ip.fw.verbose: 0\n"
			       "net.inet.ip.fw.verbose_limit: 0\n"
			       "net.inet.ip.fw.default_to_accept: 0\n"
			       "net.inet.ip.fw.static_count: 1\n"
			       "net.inet.ip.fw.default_rule: 65535\n"
			       "net.inet.ip.fw.update_counters: 1\n"
			       "net.inet.ip.fw.dyn_buckets: 8192\n"
			       "net.inet.ip.fw.curr_dyn_buckets: 256\n"
			       "net.inet.ip.fw.dyn_count: 0\n"
			       "net.inet.ip.fw.dyn_parent_count: 0\n"
			       "net.inet.ip.fw.curr_max_length: 0\n"
			       "net.inet.ip.fw.dyn_max: 16384\n"
			       "net.inet.ip.fw.dyn_parent_max: 4096\n"
			       "net.inet.ip.fw.dyn_ack_lifetime: 300\n"
			       "net.inet.ip.fw.dyn_syn_lifetime: 20\n"
			       "net.inet.ip.fw.dyn_fin_lifetime: 1\n"
			       "net.inet.ip.fw.dyn_rst_lifetime: 1\n"
			       "net.inet.ip.fw.dyn_udp_lifetime: 10\n"
			       "net.inet.ip.fw.dyn_short_lifetime: 5\n"
			       "net.inet.ip.fw.dyn_keepalive: 1\n"
			       "net.inet.ip.fw.dyn_keep_states: 0\n"
			       "net.inet.ip.fw.reply_limit: 0\n"
			       "net.inet.ip.fw.skipto_dragonfly: 0\n"
			       "net.inet.ip.fw.counters: percpu\n";
	if (strcmp(sbuf_data(&O), want))
		T_FAIL("the net.inet.ip.fw listing differs; it begins '%.200s'", sbuf_data(&O));
	T_EQ_INT(run("net.inet.ip.fw.skipto_dragonfly=1"), 0);
	T_TRUE(fw_tunables(fw)->skipto_dragonfly);
	/* ip_fw_dynamic.c sysctl_dyn_buckets: > 256, rounded up to a power of 2 */
	T_EQ_INT(run("net.inet.ip.fw.dyn_buckets=1000"), 0);
	T_EQ_U64(fw_tunables(fw)->dyn_buckets, 1024);
	T_EQ_INT(run("net.inet.ip.fw.dyn_buckets=256"), 1);
	T_EQ_U64(fw_tunables(fw)->dyn_buckets, 1024);
	T_EQ_INT(run("net.inet.ip.fw.dyn_count=3"), 1);
	T_EQ_INT(run("net.inet.ip.fw.dyn_udp_lifetime=3"), 0);
	T_EQ_U64(fw_tunables(fw)->dyn_udp_lifetime, 3);
	T_EQ_INT(run("-a"), 0);
	T_TRUE(!strncmp(sbuf_data(&O), "kern.hz: 1000\nkern.ppslab.kernel: freebsd-7\n"
				       "kern.polling.burst: 5\n", 66));
	T_TRUE(strstr(sbuf_data(&O), "kern.polling.idlepoll_sleeping: 1\nnet.inet.ip.fw.enable: 1\n") != NULL);
	T_EQ_INT(run("net.inet.ip.fw.update_counters=0 net.inet.ip.fw.default_to_accept=1"), 0);
	T_STREQ(sbuf_data(&O), "net.inet.ip.fw.update_counters: 1 -> 0\n"
			       "net.inet.ip.fw.default_to_accept: 0 -> 1\n");
	T_TRUE(!fw_tunables(fw)->update_counters && fw_tunables(fw)->default_to_accept);
	T_EQ_INT(run("net.inet.ip.fw.enable=0"), 0);
	T_TRUE(!fw_tunables(fw)->enable);
	T_EQ_INT(run("net.inet.ip.fw.autoinc_step=1000"), 0);
	T_EQ_U64(fw_tunables(fw)->autoinc_step, 1000);
	T_EQ_INT(run("net.inet.ip.fw.static_count=3"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: oid 'net.inet.ip.fw.static_count' is read only\n");
	T_EQ_INT(run("net.inet.ip.fw.enable=yes"), 1);
	T_STREQ(sbuf_data(&E), "sysctl: invalid integer 'yes'\n");
	/* a string knob: the value as written, one of its words */
	T_EQ_INT(run("net.inet.ip.fw.counters=shared"), 0);
	T_STREQ(sbuf_data(&O), "net.inet.ip.fw.counters: percpu -> shared\n");
	T_EQ_U64(fw_tunables(fw)->counters, FW_CTR_SHARED);
	T_EQ_INT(run("net.inet.ip.fw.counters=atomic"), 1);
	T_STREQ(sbuf_data(&O), "net.inet.ip.fw.counters: shared\n");
	T_STREQ(sbuf_data(&E), "sysctl: net.inet.ip.fw.counters=atomic: Invalid argument\n");
	T_EQ_U64(fw_tunables(fw)->counters, FW_CTR_SHARED);
	char out[256];
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_exec(fw, "add 100 deny ip from any to any", out, sizeof(out), &d), 0);
	T_EQ_INT(run("-n net.inet.ip.fw.static_count"), 0);
	T_STREQ(sbuf_data(&O), "2\n");
	fw_free(fw);
	C.fw = NULL;
}

int main(void)
{
	sbuf_init(&O, 0);
	sbuf_init(&E, 0);
	T_RUN(t_listing);
	T_RUN(t_listing_freebsd);
	T_RUN(t_hz_tunable);
	T_RUN(t_read);
	T_RUN(t_write);
	T_RUN(t_range_errors);
	T_RUN(t_fatal);
	T_RUN(t_fw_tree);
	sbuf_free(&O);
	sbuf_free(&E);
	return t_done();
}
