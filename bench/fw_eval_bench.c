/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_eval_bench.c — micro-benchmark of the firewall's evaluation (rut/
 * fw_eval.c): the time fw_eval takes over N rules that do not match, per evaluation and
 * per rule, for rule shapes that exercise each part of the matcher. Not part of
 * `make check`; built by `make bench` (or `make bench-progs`) and run by bench/b_fw.sh.
 *
 * The yardstick: a forwarded packet is evaluated twice (inbound and outbound
 * pass), and with 1,000 non-matching rules the forwarder must keep up with the Linux
 * kernel running 1,000 equivalent nftables rules (~0.13 Mpps here, i.e. ~7.7 us per
 * packet for everything). This program says what the rules themselves cost; the
 * forwarding rate is measured by the forwarder's bench section.
 *
 *   fw_eval_bench [--rules N] [--evals N] [--reps N] [--json] [--case K] [--ip6]
 *   fw_eval_bench --counters [--threads N] [--cpus LIST] [--evals N] [--reps N] [--json]
 *
 * --counters measures the seed's counter cost where the CPUs share the counters: N
 * threads (default 2, pinned to CPUs 0..N-1 or LIST) evaluate both passes of a packet
 * over 0..3 `count ip from any to any` rules and an allow, with
 * net.inet.ip.fw.counters=shared (every thread increments the same counters: the line
 * moves between the CPUs on every match) and percpu (each thread its own); reported
 * as ns per packet and, against no count rule, ns per packet per count rule.
 *
 * --case K runs only the K-th rule shape (1 = the first listed), without the empty
 * ruleset's baseline, for counting its instructions under callgrind (bench/fw_insns.sh);
 * --ip6 evaluates an IPv6 UDP packet (2001:2::2 → 2001:2:1::2) instead, over the same
 * rules plus two IPv6 shapes.
 *
 * Times are CLOCK_MONOTONIC over a loop of evaluations of one UDP packet
 * (198.18.0.2:1024 → 198.19.0.2:9, alternating inbound and outbound passes); the best
 * of --reps repetitions is reported, as the least disturbed by other load. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "fw.h"
#include "num.h"
#include "opt.h"

struct args {
	uint64_t rules, evals, reps, threads, only;
	int json, counters, ip6;
	int cpus[16], ncpus;
};

/* --cpus LIST: up to 16 CPU numbers. */
static int opt_cpus(const struct opt_def *d, const char *arg, void *base)
{
	struct args *a = base;
	char buf[128], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", arg);
	a->ncpus = 0;
	for (char *t = strtok_r(buf, ",", &save); t && a->ncpus < 16; t = strtok_r(NULL, ",", &save)) {
		uint64_t c;
		if (num_count(t, 0, 1023, &c))
			return opt_bad(d, arg);
		a->cpus[a->ncpus++] = (int)c;
	}
	return 0;
}

#define A(m) OPT_AT(struct args, m)
static struct opt_def opts[] = {
	{ "rules", 'r', "N", "non-matching rules per case", OPT_COUNT, A(rules), .max = 60000,
	  .def = "1000" },
	{ "evals", 'e', "N", "evaluations per repetition", OPT_COUNT, A(evals), .min = 1000,
	  .max = 10000000000ull, .def = "2M" },
	{ "reps", 'n', "N", "repetitions; the best is reported", OPT_COUNT, A(reps), .min = 1,
	  .max = 1000, .def = "5" },
	{ "json", 'j', NULL, "one JSON object per case", OPT_FLAG, A(json) },
	{ "case", 'k', "K", "only the K-th rule shape, no empty baseline (0: all) {range}",
	  OPT_UINT, A(only), .max = 9, .def = "0" },
	{ "ip6", '6', NULL, "evaluate an IPv6 packet", OPT_FLAG, A(ip6) },
	{ "counters", 'c', NULL, "the counter cost with several threads (shared vs percpu)",
	  OPT_FLAG, A(counters) },
	{ "threads", 't', "N", "--counters: evaluating threads {range}", OPT_COUNT, A(threads),
	  .min = 1, .max = 16, .def = "2" },
	{ "cpus", 'p', "LIST", "--counters: pin thread i to the i-th CPU listed (default 0,1,...)",
	  OPT_FN, .fn = opt_cpus, .what = "CPU numbers such as 0,1" },
	OPT_HELP_ROW,
	{ NULL },
};

/* Rule i of a case; none matches the benchmark packet. */
typedef void (*rule_fn)(char *buf, size_t len, unsigned i);

static void r_src_host(char *b, size_t l, unsigned i)
{
	/* prefilter only: one masked compare fails */
	snprintf(b, l, "add %u deny ip from 10.%u.%u.%u to any", i + 1, i >> 16 & 255, i >> 8 & 255,
		 i & 255);
}

static void r_udp_ports(char *b, size_t l, unsigned i)
{
	/* the prefilter passes (udp, any, any): the port test in the program fails */
	snprintf(b, l, "add %u deny udp from any to any %u-%u", i + 1, 10000 + i % 50000,
		 10000 + i % 50000 + 10);
}

static void r_dst_net_ports(char *b, size_t l, unsigned i)
{
	/* a rule shaped like the 2006 DragonFly sweep's: tcp to a host and ports; the protocol
	 * fails first */
	snprintf(b, l, "add %u deny log tcp from any to 10.%u.%u.1 135-139", i + 1, i >> 8 & 255,
		 i & 255);
}

static void r_or_block(char *b, size_t l, unsigned i)
{
	/* program only: an OR block of two sources, both fail */
	snprintf(b, l, "add %u deny ip from { 10.%u.%u.1 or 10.%u.%u.2 } to any", i + 1, i >> 8 & 255,
		 i & 255, i >> 8 & 255, i & 255);
}

static void r_via(char *b, size_t l, unsigned i)
{
	/* interface bitmask test in the program */
	snprintf(b, l, "add %u deny udp from any to any in recv nosuch%u", i + 1, i % 10);
}

static void r_src6(char *b, size_t l, unsigned i)
{
	/* IPv6 source address in the program (a list of one); the IPv4 packet fails it
	 * on the family */
	snprintf(b, l, "add %u deny ip6 from 2001:2:%x::1 to any", i + 1, (i + 1) & 0xffff);
}

static void r_or_block6(char *b, size_t l, unsigned i)
{
	snprintf(b, l, "add %u deny ip from { 2001:2:%x::1 or 2001:2:%x::2 } to any", i + 1,
		 (i + 1) & 0xffff, (i + 1) & 0xffff);
}

static void r_count_any(char *b, size_t l, unsigned i)
{
	/* as in the 2012 FreeBSD counter cost thread: every rule matches and counts
	 * (update_counters=1) */
	snprintf(b, l, "add %u count ip from any to any", i + 1);
}

struct bcase {
	const char *name;
	rule_fn fn;
	bool counters_off;
};

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile uint32_t sink;

static double run_case(const struct bcase *c, unsigned nrules, uint64_t evals, uint64_t reps,
		       bool ip6)
{
	static const uint8_t a6[2][16] = { { 0x20, 0x01, 0, 2, [15] = 2 },
					   { 0x20, 0x01, 0, 2, 0, 1, [15] = 2 } };
	static const char *const ifs[] = { "rut0", "rut1" };
	uint32_t local[] = { htonl(0xc6120001), htonl(0xc6130001) };
	struct fw *fw = fw_new(ifs, 2, local, 2);
	if (!fw) {
		perror("fw_new");
		exit(1);
	}
	char cmd[256];
	struct fw_diag d = { 0 };
	for (unsigned i = 0; i < nrules; i++) {
		c->fn(cmd, sizeof(cmd), i);
		if (fw_exec(fw, cmd, NULL, 0, &d)) {
			fprintf(stderr, "%s: %s\n", cmd, d.msg);
			exit(1);
		}
	}
	fw_tunables(fw)->default_to_accept = true;
	fw_tunables(fw)->update_counters = !c->counters_off;
	fw_set_now(fw, (uint64_t)time(NULL));
	struct fw_pkt p[2] = { { 0 } };
	p[0].src = htonl(0xc6120002);   /* 198.18.0.2 */
	p[0].dst = htonl(0xc6130002);   /* 198.19.0.2 */
	p[0].sport = 1024;
	p[0].dport = 9;
	p[0].ip_len = 46;
	p[0].l4_len = 26;   /* a whole UDP header: no pullup drop */
	p[0].ttl = 64;
	p[0].proto = 17;
	p[0].has_ports = true;
	if (ip6) {
		p[0].ip6 = true;
		p[0].src = p[0].dst = 0;
		p[0].src6 = a6[0];
		p[0].dst6 = a6[1];
		p[0].ip_len = 66;
	}
	p[0].in = true;
	p[0].recv_if = 0;
	p[0].xmit_if = -1;
	p[1] = p[0];
	p[1].in = false;
	p[1].xmit_if = 1;
	double best = 1e300;
	for (uint64_t r = 0; r < reps; r++) {
		uint32_t acc = 0, rule;
		double t0 = now_ns();
		for (uint64_t k = 0; k < evals; k++) {
			fw_eval(fw, &p[k & 1], &rule);
			acc += rule;
		}
		double t = (now_ns() - t0) / (double)evals;
		sink = acc;
		if (t < best)
			best = t;
	}
	/* every pass must end in rule 65535, or the case measured something else */
	if (sink != (uint32_t)(65535u * evals))
		fprintf(stderr, "warning: a rule decided before 65535 in case '%s'\n", c->name);
	fw_free(fw);
	return best;
}

/* ---- --counters: threads sharing the rules' counters ---- */

struct cthr {
	struct fw *fw;
	int id, cpu;
	uint64_t evals;
	pthread_barrier_t *start;
	double ns_per_pkt;
};

static void udp_passes(struct fw_pkt p[2])
{
	memset(p, 0, 2 * sizeof(*p));
	p[0].src = htonl(0xc6120002);
	p[0].dst = htonl(0xc6130002);
	p[0].sport = 1024;
	p[0].dport = 9;
	p[0].ip_len = 46;
	p[0].l4_len = 26;
	p[0].ttl = 64;
	p[0].proto = 17;
	p[0].has_ports = true;
	p[0].in = true;
	p[0].recv_if = 0;
	p[0].xmit_if = -1;
	p[1] = p[0];
	p[1].in = false;
	p[1].xmit_if = 1;
}

static void *cthread(void *arg)
{
	struct cthr *t = arg;
	if (t->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(t->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	struct fw_pkt p[2];
	struct fw_match m;
	udp_passes(p);
	p[0].tid = p[1].tid = (uint8_t)t->id;
	const struct fw_rules *rs = fw_rules_get(t->fw);
	uint32_t acc = 0;
	pthread_barrier_wait(t->start);
	double t0 = now_ns();
	for (uint64_t k = 0; k < t->evals; k++) {
		fw_eval_rs(t->fw, rs, &p[0], &m);   /* a forwarded packet: in, then out */
		acc += m.rule_no;
		fw_eval_rs(t->fw, rs, &p[1], &m);
		acc += m.rule_no;
	}
	t->ns_per_pkt = (now_ns() - t0) / (double)t->evals;
	sink = acc;
	return NULL;
}

/* ns per packet (both passes) of each of n threads evaluating at once; the mean */
static double counters_case(int nrules, bool shared, const struct args *a)
{
	static const char *const ifs[] = { "rut0", "rut1" };
	struct fw *fw = fw_new(ifs, 2, NULL, 0);
	int n = (int)a->threads;
	if (!fw || fw_set_threads(fw, n)) {
		perror("fw_new");
		exit(1);
	}
	char cmd[128];
	struct fw_diag d = { 0 };
	for (int i = 0; i < nrules; i++) {
		snprintf(cmd, sizeof(cmd), "add %d count ip from any to any", (i + 1) * 100);
		fw_exec(fw, cmd, NULL, 0, &d);
	}
	fw_exec(fw, "add 1000 allow ip from any to any", NULL, 0, &d);
	fw_tunables(fw)->counters = shared ? FW_CTR_SHARED : FW_CTR_PERCPU;
	fw_set_now(fw, (uint64_t)time(NULL));
	double best = 1e300;
	for (uint64_t r = 0; r < a->reps; r++) {
		pthread_t th[16];
		struct cthr t[16];
		pthread_barrier_t b;
		pthread_barrier_init(&b, NULL, (unsigned)n);
		for (int i = 0; i < n; i++) {
			t[i] = (struct cthr){ .fw = fw, .id = i, .evals = a->evals / 2, .start = &b,
					      .cpu = a->ncpus ? a->cpus[i % a->ncpus] : i };
			pthread_create(&th[i], NULL, cthread, &t[i]);
		}
		double sum = 0;
		for (int i = 0; i < n; i++) {
			pthread_join(th[i], NULL);
			sum += t[i].ns_per_pkt;
		}
		pthread_barrier_destroy(&b);
		if (sum / n < best)
			best = sum / n;
	}
	fw_free(fw);
	return best;
}

static int counters_main(const struct args *a)
{
	double ns[2][4];
	for (int k = 0; k <= 3; k++)
		for (int sh = 0; sh < 2; sh++)
			ns[sh][k] = counters_case(k, sh, a);
	if (!a->json)
		printf("%llu threads evaluating both passes of a packet over N `count ip from any "
		       "to any` rules and an allow; best of %llu\n%-8s %6s %12s %16s\n",
		       (unsigned long long)a->threads, (unsigned long long)a->reps, "counters",
		       "rules", "ns/packet", "ns/packet/rule");
	for (int sh = 0; sh < 2; sh++)
		for (int k = 0; k <= 3; k++) {
			double per = k ? (ns[sh][k] - ns[sh][0]) / k : 0;
			if (a->json)
				printf("{\"case\":\"counters\",\"counters\":\"%s\",\"threads\":%llu,"
				       "\"count_rules\":%d,\"ns_per_pkt\":%.2f,\"ns_per_pkt_rule\":%.2f}\n",
				       sh ? "shared" : "percpu", (unsigned long long)a->threads, k,
				       ns[sh][k], per);
			else
				printf("%-8s %6d %12.1f %16.1f\n", sh ? "shared" : "percpu", k, ns[sh][k], per);
		}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct opt_prog prog = { "fw_eval_bench", "fw_eval_bench [--rules N] [--evals N] "
		"[--reps N] [--json] [--case K] [--ip6]\n       fw_eval_bench --counters "
		"[--threads N] [--cpus LIST] [--evals N] [--reps N] [--json]", opts };
	int rc;
	if ((rc = opt_parse(&prog, argc, argv, &a, NULL)))
		return rc == OPT_DONE ? 0 : rc;
	if (a.counters)
		return counters_main(&a);
	static const struct bcase cases[] = {
		{ "deny ip from 10.a.b.c to any", r_src_host, false },
		{ "deny log tcp from any to 10.a.b.1 135-139", r_dst_net_ports, false },
		{ "deny udp from any to any P-Q", r_udp_ports, false },
		{ "deny ip from { 10.a.b.1 or 10.a.b.2 } to any", r_or_block, false },
		{ "deny udp from any to any in recv IF", r_via, false },
		{ "count ip from any to any", r_count_any, false },
		{ "count ip from any to any, update_counters=0", r_count_any, true },
		{ "deny ip6 from 2001:2:a::1 to any", r_src6, false },
		{ "deny ip from { 2001:2:a::1 or 2001:2:a::2 } to any", r_or_block6, false },
	};
	unsigned n = (unsigned)a.rules;
	size_t ncases = sizeof(cases) / sizeof(cases[0]);
	if (a.only > ncases) {
		fprintf(stderr, "fw_eval_bench: --case %llu: there are %zu cases\n",
			(unsigned long long)a.only, ncases);
		return 64;
	}
	if (a.only) {
		/* the loop alone, for callgrind: no output but the check */
		const struct bcase *c = &cases[a.only - 1];
		double t = run_case(c, n, a.evals, a.reps, a.ip6);
		if (a.json)
			printf("{\"case\":\"%s\",\"rules\":%u,\"ip6\":%s,\"evals\":%llu,"
			       "\"ns_per_eval\":%.2f}\n", c->name, n, a.ip6 ? "true" : "false",
			       (unsigned long long)(a.evals * a.reps), t);
		else
			printf("%s: %.1f ns per evaluation\n", c->name, t);
		return 0;
	}
	double base = run_case(&cases[0], 0, a.evals, a.reps, a.ip6);
	if (!a.json) {
		printf("fw_eval over %u rules that do not match (rule 65535 accepts); best of %llu x %llu "
		       "evaluations\n", n, (unsigned long long)a.reps, (unsigned long long)a.evals);
		printf("empty ruleset: %.1f ns per evaluation\n", base);
		printf("%-46s %10s %9s %12s\n", "rule shape", "ns/eval", "ns/rule", "Mpps@2 passes");
	} else {
		printf("{\"case\":\"empty\",\"rules\":0,\"ns_per_eval\":%.2f}\n", base);
	}
	for (size_t k = 0; k < ncases; k++) {
		double t = run_case(&cases[k], n, a.evals, a.reps, a.ip6);
		double per_rule = n ? (t - base) / n : 0;
		double mpps = 1e3 / (2 * t);
		if (a.json)
			printf("{\"case\":\"%s\",\"rules\":%u,\"ns_per_eval\":%.2f,\"ns_per_rule\":%.3f,"
			       "\"mpps_two_passes\":%.4f}\n", cases[k].name, n, t, per_rule, mpps);
		else
			printf("%-46s %10.1f %9.3f %12.3f\n", cases[k].name, t, per_rule, mpps);
	}
	return 0;
}
