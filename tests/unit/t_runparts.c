/* t_runparts.c — the pure parts of ppslab run's plumbing: shell quoting and ssh
 * argument vectors (box.c), generated rule sets checked by the real firewall
 * (rulegen.c + fw), and counter deltas of the forwarder's stats (dut.c). */
#include <arpa/inet.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <unistd.h>

#include "box.h"
#include "dut.h"
#include "fw.h"
#include "jout.h"
#include "rulegen.h"
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
			       "\"polling\":{\"burst\":20,\"lost_polls\":3,\"pollhz\":1000},"
			       "\"rules\":[{\"number\":100,\"pkts\":50},{\"number\":65535,\"pkts\":4}]}",
			       0, NULL);
	json_t *b = json_loads("{\"rx_pkts\":1100,\"fwd_pkts\":1080,\"drop_pkts\":20,\"fwd_cpu_s\":2.0,"
			       "\"drops\":{\"fw_deny\":9,\"ttl_expired\":11},"
			       "\"polling\":{\"burst\":35,\"lost_polls\":5,\"pollhz\":2000},"
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
	T_RUN(t_rulegen);
	T_RUN(t_delta);
	T_RUN(t_last_summary);
	return t_done();
}
