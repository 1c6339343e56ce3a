/* SPDX-License-Identifier: BSD-2-Clause */
/* t_runparts.c — the pure parts of ppslab run's plumbing: shell quoting and ssh
 * argument vectors (box.c, hooks that start with ssh too), generated rule sets checked
 * by the real firewall (rulegen.c + fw), counter deltas of the forwarder's stats
 * (dut.c), an external router's environment (rutenv.c) and the clocks (clockoff.c). */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "box.h"
#include "clockoff.h"
#include "dut.h"
#include "fw.h"
#include "jout.h"
#include "results.h"
#include "rulegen.h"
#include "rutenv.h"
#include "tap.h"

static void t_shell_quote(void)
{
	char *q = box_shell_quote("it's $(rm -rf /) `x` \"y\"");
	T_STREQ(q, "'it'\\''s $(rm -rf /) `x` \"y\"'");
	free(q);
	q = box_shell_quote("");
	T_STREQ(q, "''");
	free(q);
}

static void t_local_and_netns(void)
{
	struct box b = { .role = "gen", .netns = "lab-gen", .bin = "/opt/ppslab/bin" };
	struct box_cmd c;
	T_EQ_INT(box_cmd_init(&c, &b, "ppslab-gen"), 0);
	T_EQ_INT(box_arg(&c, "--dst"), 0);
	T_EQ_INT(box_argf(&c, "%d.%d", 198, 19), 0);
	T_EQ_INT(box_cmd_done(&c, &b), 0);
	T_EQ_INT(c.n, 3);
	T_STREQ(c.argv[0], "/opt/ppslab/bin/ppslab-gen");
	T_STREQ(c.argv[2], "198.19");
	T_TRUE(c.argv[3] == NULL);
	T_STREQ(c.netns, "lab-gen");   /* proc_spawn puts it in the namespace */
	box_cmd_free(&c);
}

/* over ssh: one remote command line in which every word is quoted, namespace first */
static void t_ssh(void)
{
	char *opts[] = { "-p", "2222", NULL };
	struct box b = { .role = "sink", .ssh = "lab@sink1", .netns = "ns x", .ssh_opts = opts };
	struct box_cmd c;
	T_EQ_INT(box_cmd_init(&c, &b, "ppslab-sink"), 0);
	T_EQ_INT(box_arg(&c, "-i"), 0);
	T_EQ_INT(box_arg(&c, "eth1; reboot"), 0);
	T_EQ_INT(box_cmd_done(&c, &b), 0);
	T_TRUE(c.netns == NULL);
	T_STREQ(c.argv[0], "ssh");
	size_t n = c.n;
	T_TRUE(n >= 5);
	T_STREQ(c.argv[n - 3], "lab@sink1");
	T_STREQ(c.argv[n - 2], "--");
	T_STREQ(c.argv[n - 1], "ip netns exec 'ns x' 'ppslab-sink' '-i' 'eth1; reboot'");
	int batch = 0, port = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		batch |= !strcmp(c.argv[i], "-o") && !strcmp(c.argv[i + 1], "BatchMode=yes");
		port |= !strcmp(c.argv[i], "-p") && !strcmp(c.argv[i + 1], "2222");
	}
	T_TRUE(batch);
	T_TRUE(port);
	box_cmd_free(&c);

	/* the user's options come before ppslab's: OpenSSH keeps the first value */
	char *ct[] = { "-o", "ConnectTimeout=5", NULL };
	b.ssh_opts = ct;
	T_EQ_INT(box_sys_init(&c, &b, "true"), 0);
	T_EQ_INT(box_cmd_done(&c, &b), 0);
	T_STREQ(c.argv[1], "-o");
	T_STREQ(c.argv[2], "ConnectTimeout=5");
	int first = 0;
	for (size_t i = 0; i < c.n && !first; i++)
		if (!strncmp(c.argv[i], "ConnectTimeout=", 15))
			first = !strcmp(c.argv[i], "ConnectTimeout=5") ? 1 : 2;
	T_EQ_INT(first, 1);
	box_cmd_free(&c);
}

/* hooks that start with ssh: options in order, every remote word quoted, so words with
 * spaces and shell characters arrive as written */
static void t_ssh_wrap(void)
{
	char *user[] = { "-o", "ConnectTimeout=5", NULL };
	char *av[] = { "ssh", "-p", "2223", "-4v", "-i", "/k", "root@r2", "sh", "-c",
		       "printf '%s\\n' \"$@\"; echo $HOME", "sh", "a b", "x;y", NULL };
	struct box_cmd c;
	T_EQ_INT(box_ssh_wrap(av, user, &c), 0);
	/* ssh, its own options, the user's, ppslab's, destination, --, one command line */
	T_STREQ(c.argv[0], "ssh");
	T_STREQ(c.argv[1], "-p");
	T_STREQ(c.argv[2], "2223");
	T_STREQ(c.argv[3], "-4v");
	T_STREQ(c.argv[5], "/k");
	T_STREQ(c.argv[6], "-o");
	T_STREQ(c.argv[7], "ConnectTimeout=5");
	T_STREQ(c.argv[9], "BatchMode=yes");
	T_STREQ(c.argv[c.n - 3], "root@r2");
	T_STREQ(c.argv[c.n - 2], "--");
	T_STREQ(c.argv[c.n - 1], "'sh' '-c' 'printf '\\''%s\\n'\\'' \"$@\"; echo $HOME' 'sh' 'a b' 'x;y'");
	box_cmd_free(&c);
	size_t dest;
	char *av2[] = { "/usr/bin/ssh", "-oBatchMode=no", "--", "r2", NULL };
	T_EQ_INT(box_ssh_dest(av2, &dest), 0);
	T_EQ_INT(dest, 3);
	T_EQ_INT(box_ssh_wrap(av2, NULL, &c), 0);
	T_STREQ(c.argv[1], "-oBatchMode=no");
	T_STREQ(c.argv[c.n - 2], "r2");
	T_STREQ(c.argv[c.n - 1], "--");
	box_cmd_free(&c);
	char *noopt[] = { "ssh", "-p", NULL };
	T_EQ_INT(box_ssh_wrap(noopt, NULL, &c), -EINVAL);
	char *local[] = { "sysctl", "x=1", NULL };
	T_EQ_INT(box_ssh_wrap(local, NULL, &c), -ENOENT);
	T_TRUE(box_is_ssh("ssh") && box_is_ssh("/usr/bin/ssh") && !box_is_ssh("sshpass"));
}

/* an external router's environment from a FreeBSD box's answers, and a Linux one's
 * with some commands missing */
static void t_rutenv(void)
{
	const char *bsd =
		"@@uname\nFreeBSD r2 14.2-RELEASE-p1 FreeBSD 14.2-RELEASE-p1 GENERIC amd64\n"
		"@@hostname\nr2\n@@freebsd-version\n14.2-RELEASE-p1\n14.2-RELEASE-p2\n"
		"@@os-release\n@@hw\nIntel(R) Atom(TM) CPU C3558 @ 2.20GHz\n4\n@@cpuinfo\n"
		"@@boot\n{ sec = 1700000000, usec = 5 } Tue Nov 14 22:13:20 2023\n"
		"@@ifconfig\n"
		"em0: flags=8843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST> metric 0 mtu 1500\n"
		"\toptions=481249b<RXCSUM,TXCSUM,VLAN_MTU,POLLING,LRO>\n"
		"\tcapabilities=4f<RXCSUM,TXCSUM,POLLING>\n"
		"\tether 00:1b:21:aa:bb:01\n"
		"\tmedia: Ethernet autoselect (1000baseT <full-duplex>)\n"
		"\tnd6 options=29<PERFORMNUD,IFDISABLED,AUTO_LINKLOCAL>\n"
		"ix0: flags=8843<UP> metric 0 mtu 9000\n"
		"\toptions=4e53fbb<RXCSUM,TXCSUM>\n\tcapabilities=4f53fbb<RXCSUM,TXCSUM>\n"
		"\tether 00:1b:21:aa:bb:02\n\tmedia: Ethernet autoselect (10Gbase-SR <full-duplex>)\n"
		"lo0: flags=8049<UP,LOOPBACK,RUNNING,MULTICAST> metric 0 mtu 16384\n"
		"@@pciconf\nem0@pci0:1:0:0:\tclass=0x020000 rev=0x06\n"
		"    vendor     = 'Intel Corporation'\n    device     = '82574L Gigabit Network Connection'\n"
		"@@sysctl\nkern.hz: 2000\nkern.polling.burst_max: 150\nkern.polling.handlers: 1\n"
		"net.inet.ip.fw.enable: 1\nnet.isr.dispatch: direct\n@@end\n";
	json_t *e = rutenv_parse(bsd, "em0,ix0,em9");
	T_STREQ(json_string_value(res_get(e, "os", "name", NULL)), "FreeBSD");
	T_STREQ(json_string_value(res_get(e, "os", "version", NULL)), "14.2-RELEASE-p2");
	T_STREQ(json_string_value(res_get(e, "os", "kernel", NULL)), "14.2-RELEASE-p1");
	T_STREQ(json_string_value(res_get(e, "hostname", NULL)), "r2");
	T_STREQ(json_string_value(res_get(e, "cpu", "model", NULL)), "Intel(R) Atom(TM) CPU C3558 @ 2.20GHz");
	T_EQ_INT(json_integer_value(res_get(e, "cpu", "threads", NULL)), 4);
	json_t *nics = json_object_get(e, "nics");
	T_EQ_U64(json_array_size(nics), 3);
	json_t *em0 = json_array_get(nics, 0), *ix0 = json_array_get(nics, 1);
	T_STREQ(json_string_value(json_object_get(em0, "driver")), "em");
	T_TRUE(json_is_true(json_object_get(em0, "polling")));
	T_TRUE(json_is_true(json_object_get(em0, "polling_capable")));
	T_EQ_INT(json_integer_value(json_object_get(em0, "speed_mbps")), 1000);
	T_STREQ(json_string_value(json_object_get(em0, "mac")), "00:1b:21:aa:bb:01");
	T_STREQ(json_string_value(json_object_get(em0, "device")), "82574L Gigabit Network Connection");
	T_TRUE(json_is_false(json_object_get(ix0, "polling")));
	T_TRUE(json_is_false(json_object_get(ix0, "polling_capable")));
	T_EQ_INT(json_integer_value(json_object_get(ix0, "speed_mbps")), 10000);
	T_EQ_INT(json_integer_value(json_object_get(ix0, "mtu")), 9000);
	T_TRUE(json_is_string(json_object_get(json_array_get(nics, 2), "error")));
	T_EQ_INT(json_integer_value(res_get(e, "tunables", "kern.hz", NULL)), 2000);
	T_EQ_INT(json_integer_value(res_get(e, "tunables", "kern.polling.handlers", NULL)), 1);
	T_STREQ(json_string_value(res_get(e, "tunables", "net.isr.dispatch", NULL)), "direct");
	T_STREQ(json_string_value(json_array_get(json_object_get(e, "missing"), 0)), "os-release");
	json_decref(e);

	const char *lin =
		"@@uname\nLinux r3 6.1.0-28-amd64 #1 SMP Debian x86_64 GNU/Linux\n@@hostname\nr3\n"
		"@@freebsd-version\n@@os-release\nNAME=\"Debian GNU/Linux\"\nVERSION=\"12 (bookworm)\"\n"
		"@@hw\n@@cpuinfo\nprocessor\t: 0\nmodel name\t: AMD EPYC\nprocessor\t: 1\n"
		"@@boot\n1b4e28ba-2fa1-11d2-883f-0016d3cca427\n"
		"@@ip-link\n[{\"ifname\":\"lo\",\"mtu\":65536},{\"ifname\":\"rut0\",\"mtu\":1500,"
		"\"address\":\"02:00:00:00:00:01\",\"linkinfo\":{\"info_kind\":\"veth\"},\"num_rx_queues\":1},"
		"{\"ifname\":\"enp1s0\",\"mtu\":1500}]\n"
		"@@drivers\nlo \nrut0 \nenp1s0 ixgbe\n"
		"@@sysctl\nnet.ipv4.ip_forward = 1\nnet.core.netdev_budget = 300\nCONFIG_HZ = 250\n@@end\n";
	e = rutenv_parse(lin, NULL);
	T_STREQ(json_string_value(res_get(e, "os", "name", NULL)), "Debian GNU/Linux");
	T_STREQ(json_string_value(res_get(e, "os", "version", NULL)), "12 (bookworm)");
	T_STREQ(json_string_value(res_get(e, "os", "kernel", NULL)), "6.1.0-28-amd64");
	T_EQ_INT(json_integer_value(res_get(e, "cpu", "threads", NULL)), 2);
	T_STREQ(json_string_value(res_get(e, "boot_id", NULL)), "1b4e28ba-2fa1-11d2-883f-0016d3cca427");
	nics = json_object_get(e, "nics");
	T_EQ_U64(json_array_size(nics), 2);   /* no loopback */
	T_STREQ(json_string_value(json_object_get(json_array_get(nics, 0), "driver")), "veth");
	T_STREQ(json_string_value(json_object_get(json_array_get(nics, 1), "driver")), "ixgbe");
	T_EQ_INT(json_integer_value(res_get(e, "tunables", "net.ipv4.ip_forward", NULL)), 1);
	T_TRUE(res_get(e, "tunables", "CONFIG_HZ", NULL) == NULL);   /* no dot: not a sysctl */
	json_decref(e);

	/* nothing answered: an error, every field null, never a crash */
	e = rutenv_parse("", "em0");
	T_TRUE(json_is_string(json_object_get(e, "error")));
	T_TRUE(json_is_null(res_get(e, "os", "name", NULL)));
	json_decref(e);
}

/* the clocks: chronyc's and ntpq's estimates, and the pair's bound */
static void t_clocks(void)
{
	double off, bnd;
	int sync;
	const char *chrony =
		"chronyc: Reference ID    : 50505300 (PPS)\nchronyc: Stratum         : 1\n"
		"chronyc: System time     : 0.000002000 seconds slow of NTP time\n"
		"chronyc: Root delay      : 0.000100000 seconds\n"
		"chronyc: Root dispersion : 0.000010000 seconds\n"
		"chronyc: Leap status     : Normal\n";
	T_EQ_INT(clockoff_parse_chronyc(chrony, &off, &bnd, &sync), 0);
	T_NEAR(off, -2000, 1e-6);
	T_NEAR(bnd, 2000 + 50000 + 10000, 1e-6);
	T_EQ_INT(sync, 1);
	T_EQ_INT(clockoff_parse_chronyc("chronyc: 506 Cannot talk to daemon\n", &off, &bnd, &sync),
		 -EINVAL);
	const char *ntp = "ntpq: associd=0 status=0615 leap_none, sync_ntp, 1 event,\n"
			  "ntpq: leap=00, stratum=2, rootdelay=1.500, rootdisp=0.250,\n"
			  "ntpq: offset=-0.100, frequency=1.2\n";
	T_EQ_INT(clockoff_parse_ntpq(ntp, &off, &bnd, &sync), 0);
	T_NEAR(off, -100000, 1e-6);
	T_NEAR(bnd, (0.1 + 0.75 + 0.25) * 1e6, 1e-3);
	T_EQ_INT(sync, 1);

	const char *how;
	json_t *here = json_pack("{s:b}", "same_clock_as_control", 1);
	T_NEAR(clockoff_pair(here, here, NULL, NULL, &how), 0, 0);
	json_t *g = json_pack("{s:{s:f,s:f}}", "rtt", "offset_ns", 100000.0, "bound_ns", 300000.0);
	json_t *k = json_pack("{s:{s:f,s:f},s:{s:b,s:f}}", "rtt", "offset_ns", -50000.0, "bound_ns",
			      200000.0, "sync", "synchronised", 1, "bound_ns", 20000.0);
	T_NEAR(clockoff_pair(g, k, NULL, NULL, &how), 150000 + 300000 + 200000, 1e-6);
	T_TRUE(strstr(how, "round trips") != NULL);
	/* both synchronised: the daemons' bounds when smaller */
	json_object_set_new(g, "sync", json_pack("{s:b,s:f}", "synchronised", 1, "bound_ns", 30000.0));
	T_NEAR(clockoff_pair(g, k, NULL, NULL, &how), 50000, 1e-6);
	/* one boot_id: one clock */
	json_t *env = json_pack("{s:s}", "boot_id", "abc");
	T_NEAR(clockoff_pair(g, k, env, env, &how), 0, 0);
	json_t *none = json_object();
	T_TRUE(isnan(clockoff_pair(none, none, NULL, NULL, &how)));
	json_decref(here);
	json_decref(g);
	json_decref(k);
	json_decref(env);
	json_decref(none);
}

/* a generated rule set loads into the real firewall, has N + 1 rules (+ 65535), and
 * the lab's test traffic passes all N to the allow rule */
static void check_kind(const char *kind, unsigned n, uint32_t want_rule)
{
	char path[] = "/tmp/t_runparts.XXXXXX";
	int fd = mkstemp(path);
	T_TRUE(fd >= 0);
	FILE *f = fdopen(fd, "w");
	T_EQ_INT(rulegen_write(f, kind, n), 0);
	fclose(f);
	const char *ifs[] = { "rut0", "rut1" };
	struct fw *fw = fw_new(ifs, 2, NULL, 0);
	struct fw_diag d = { 0 };
	int rc = fw_load_file(fw, path, &d);
	char msg[512];
	if (rc)
		T_FAIL("%s %u: %s", kind, n, fw_diag_str(&d, msg, sizeof(msg)));
	T_EQ_INT(fw_rule_count(fw), (int)n + 2);
	struct fw_pkt p = { .proto = 17, .has_ports = true, .sport = 9, .dport = 9, .ip_len = 46,
			    .l4_len = 26, .ttl = 64,
			    .in = true, .recv_if = 0, .xmit_if = -1 };
	inet_pton(AF_INET, "198.18.0.2", &p.src);
	inet_pton(AF_INET, "198.19.0.2", &p.dst);
	uint32_t rule = 0;
	T_EQ_INT(fw_eval(fw, &p, &rule), FW_PASS);
	T_EQ_U64(rule, want_rule);
	fw_free(fw);
	unlink(path);
}

static void t_rulegen(void)
{
	check_kind("nomatch", 0, RULEGEN_ALLOW_NUM);
	check_kind("nomatch", 25, RULEGEN_ALLOW_NUM);
	check_kind("nomatch", 20000, RULEGEN_ALLOW_NUM);
	check_kind("count", 3, RULEGEN_ALLOW_NUM);
	T_TRUE(!rulegen_kind_ok("bogus"));
	T_EQ_INT(rulegen_write(stdout, "bogus", 1), -EINVAL);
	T_EQ_INT(rulegen_write(stdout, "count", RULEGEN_MAX + 1), -EINVAL);
}

/* counters are subtracted, gauges and settings taken from the later snapshot, rules
 * matched by number */
static void t_delta(void)
{
	json_t *a = json_loads("{\"rx_pkts\":100,\"fwd_pkts\":90,\"drop_pkts\":10,\"fwd_cpu_s\":1.5,"
			       "\"drops\":{\"fw_deny\":4,\"ttl_expired\":6},"
			       "\"polling\":{\"burst\":20,\"lost_polls\":3,\"pollhz\":1000,"
			       "\"host_delays\":4,\"host_ns\":900000,\"suspect\":1,"
			       "\"unsure_polls\":2,"
			       "\"ticks_after_round\":6,\"stolen_ns\":100},"
			       "\"rules\":[{\"number\":100,\"pkts\":50},{\"number\":65535,\"pkts\":4}]}",
			       0, NULL);
	json_t *b = json_loads("{\"rx_pkts\":1100,\"fwd_pkts\":1080,\"drop_pkts\":20,\"fwd_cpu_s\":2.0,"
			       "\"drops\":{\"fw_deny\":9,\"ttl_expired\":11},"
			       "\"polling\":{\"burst\":35,\"lost_polls\":5,\"pollhz\":2000,"
			       "\"host_delays\":7,\"host_ns\":1250000,\"suspect\":4,"
			       "\"unsure_polls\":3,"
			       "\"ticks_after_round\":9,\"stolen_ns\":600},"
			       "\"rules\":[{\"number\":100,\"pkts\":250},{\"number\":200,\"pkts\":7},"
			       "{\"number\":65535,\"pkts\":9}]}",
			       0, NULL);
	json_t *d = dut_delta(a, b);
	T_EQ_INT(json_integer_value(json_object_get(d, "rx_pkts")), 1000);
	T_EQ_INT(json_integer_value(json_object_get(d, "drop_pkts")), 10);
	T_NEAR(json_number_value(json_object_get(d, "fwd_cpu_s")), 0.5, 1e-9);
	json_t *drops = json_object_get(d, "drops"), *pol = json_object_get(d, "polling");
	T_EQ_INT(json_integer_value(json_object_get(drops, "fw_deny")), 5);
	T_EQ_INT(json_integer_value(json_object_get(pol, "burst")), 35);       /* gauge */
	T_EQ_INT(json_integer_value(json_object_get(pol, "pollhz")), 2000);    /* setting */
	T_EQ_INT(json_integer_value(json_object_get(pol, "lost_polls")), 2);
	/* the host's delays of the trial, apart from the kernel's counters */
	T_EQ_INT(json_integer_value(json_object_get(pol, "host_delays")), 3);
	T_EQ_INT(json_integer_value(json_object_get(pol, "host_ns")), 350000);
	T_EQ_INT(json_integer_value(json_object_get(pol, "stolen_ns")), 500);
	T_EQ_INT(json_integer_value(json_object_get(pol, "unsure_polls")), 1);
	T_EQ_INT(json_integer_value(json_object_get(pol, "suspect")), 3);
	T_EQ_INT(json_integer_value(json_object_get(pol, "ticks_after_round")), 3);
	json_t *rules = json_object_get(d, "rules");
	T_EQ_INT(json_array_size(rules), 3);
	T_EQ_INT(json_integer_value(json_object_get(json_array_get(rules, 0), "pkts")), 200);
	/* rule 200 is new: all its counts fall in the interval */
	T_EQ_INT(json_integer_value(json_object_get(json_array_get(rules, 1), "pkts")), 7);
	T_EQ_INT(json_integer_value(json_object_get(json_array_get(rules, 1), "number")), 200);
	T_EQ_INT(json_integer_value(json_object_get(json_array_get(rules, 2), "pkts")), 5);
	T_TRUE(dut_delta(a, NULL) == NULL);
	json_decref(a);
	json_decref(b);
	json_decref(d);
}

/* 100,000 rules (the documented maximum), the later snapshot with a rule inserted in
 * front so no rule sits at its old index, and rules sharing a number (ipfw allows it:
 * the K-th of a number matches the K-th). Every rule's delta is exact. */
static void t_delta_100k(void)
{
	enum { N = 100000 };
	json_t *a = json_object(), *b = json_object();
	json_t *ra = json_array(), *rb = json_array();
	json_t *r = json_object();
	json_object_set_new(r, "number", json_integer(1));
	json_object_set_new(r, "pkts", json_integer(5));
	json_array_append_new(rb, r);
	for (int i = 0; i < N; i++) {
		/* numbers 2, 2, 3, 3, ...: each shared by two rules */
		json_int_t num = 2 + i / 2;
		r = json_object();
		json_object_set_new(r, "number", json_integer(num));
		json_object_set_new(r, "pkts", json_integer(i));
		json_array_append_new(ra, r);
		r = json_object();
		json_object_set_new(r, "number", json_integer(num));
		json_object_set_new(r, "pkts", json_integer(i + 1 + i % 7));
		json_array_append_new(rb, r);
	}
	json_object_set_new(a, "rules", ra);
	json_object_set_new(b, "rules", rb);
	json_t *d = dut_delta(a, b);
	json_t *rules = json_object_get(d, "rules");
	T_EQ_INT(json_array_size(rules), N + 1);
	T_EQ_INT(json_integer_value(json_object_get(json_array_get(rules, 0), "pkts")), 5);
	int bad = 0;
	for (int i = 0; i < N; i++) {
		json_t *x = json_array_get(rules, (size_t)i + 1);
		if (json_integer_value(json_object_get(x, "pkts")) != 1 + i % 7 ||
		    json_integer_value(json_object_get(x, "number")) != 2 + i / 2)
			bad++;
	}
	T_EQ_INT(bad, 0);
	json_decref(a);
	json_decref(b);
	json_decref(d);
}

/* a trial whose forwarder lost its link fails, naming the port and the counts; one
 * without any of these does not */
static void t_link_fault(void)
{
	char why[400] = "";
	json_t *ok = json_loads("{\"drops\":{\"link_down\":0,\"port_gone\":0,\"txfull\":9},"
				"\"tx_errors\":0,\"link_downs\":0}", 0, NULL);
	T_EQ_INT(dut_link_fault(ok, why, sizeof(why)), 0);
	T_EQ_INT(dut_link_fault(NULL, why, sizeof(why)), 0);   /* no record: nothing said */
	static const char *const bad[] = {
		"{\"drops\":{\"link_down\":11270},\"ports\":[{\"ifname\":\"rut0\",\"drops\":"
		"{\"link_down\":11270}},{\"ifname\":\"rut1\",\"link_downs\":1}],\"link_downs\":1}",
		"{\"drops\":{\"port_gone\":5}}", "{\"tx_errors\":3}", "{\"link_downs\":1}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *r = json_loads(bad[i], 0, NULL);
		if (dut_link_fault(r, why, sizeof(why)) != 1)
			T_FAIL("%s: not a fault", bad[i]);
		json_decref(r);
	}
	json_t *r = json_loads(bad[0], 0, NULL);
	dut_link_fault(r, why, sizeof(why));
	T_STREQ(why, "the forwarder's link failed during the trial on rut0, rut1: 11270 frames "
		"dropped with the link down, 0 with the port deleted, 0 transmit errors, the link "
		"went down 1 times");
	/* and they are counters, subtracted over the trial */
	json_t *a = json_loads("{\"tx_errors\":4,\"link_downs\":2,\"ports\":[{\"drop_link_down\":7}]}",
			       0, NULL);
	json_t *b = json_loads("{\"tx_errors\":4,\"link_downs\":2,\"ports\":[{\"drop_link_down\":7}]}",
			       0, NULL);
	json_t *d = dut_delta(a, b);
	T_EQ_INT(dut_link_fault(d, why, sizeof(why)), 0);
	T_EQ_INT(json_integer_value(json_object_get(json_array_get(json_object_get(d, "ports"), 0),
						    "drop_link_down")), 0);
	json_decref(a);
	json_decref(b);
	json_decref(d);
	json_decref(r);
	json_decref(ok);
}

/* the last summary line of a tool's JSON Lines output is what it printed last */
static void t_last_summary(void)
{
	char path[] = "/tmp/t_runparts_jl.XXXXXX";
	int fd = mkstemp(path);
	T_TRUE(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("{\"type\":\"interval\",\"n\":1}\n{\"type\":\"summary\",\"n\":2}\n"
	      "not json at all\n{\"type\":\"summary\",\"n\":3}\n{\"type\":\"interval\",\"n\":4}\n", f);
	fclose(f);
	json_t *s = jout_last_summary(path);
	T_EQ_INT(json_integer_value(json_object_get(s, "n")), 3);
	json_decref(s);
	f = fopen(path, "w");
	fputs("{\"type\":\"interval\"}\n", f);
	fclose(f);
	T_TRUE(jout_last_summary(path) == NULL);
	unlink(path);
	T_TRUE(jout_last_summary(path) == NULL);
}

int main(void)
{
	T_RUN(t_shell_quote);
	T_RUN(t_local_and_netns);
	T_RUN(t_ssh);
	T_RUN(t_ssh_wrap);
	T_RUN(t_rutenv);
	T_RUN(t_clocks);
	T_RUN(t_rulegen);
	T_RUN(t_delta);
	T_RUN(t_delta_100k);
	T_RUN(t_link_fault);
	T_RUN(t_last_summary);
	return t_done();
}
