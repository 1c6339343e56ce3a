/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_file.c — rule files: `ipfw add` lines, bare bodies and pasted `ipfw show` output
 * all load; a load is all-or-nothing; --check-rules reports every bad line as
 * FILE:LINE:COLUMN; the filtertest table (crafted packets → expected verdicts); and the
 * time 20,000 rules take to load (printed, never asserted). */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "fw_impl.h"
#include "fw_tab.h"
#include "fw_util.h"

static char *tmpfile_with(const char *text)
{
	static char path[64];
	strcpy(path, "/tmp/t_fw_file.XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static void t_seed_show_output_loads(void)
{
	struct fw *fw = fw_mk();
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_load_file(fw, fw_path("tests/unit/data/fw/seed-000-show.txt"), &d), 0);
	if (d.msg[0])
		T_FAIL("%.100s:%d:%d: %.200s", d.file, d.line, d.col, d.msg);
	T_EQ_INT(fw_rule_count(fw), 17);
	FW_OK(fw, "show");
	/* counters from the paste are not loaded */
	FW_TEXT(fw_out(), "00004 0 0 deny ip from any to 192.168.44.1\n"
			  "00005 0 0 deny ip from any to 192.168.44.1\n"
			  "00010 0 0 deny log ip from 10.0.0.1 to any\n"
			  "00020 0 0 deny log ip from 172.0.0.1 to any\n"
			  "00030 0 0 deny log tcp from 172.0.1.1 to any\n"
			  "00040 0 0 deny log udp from 172.2.1.1 to any\n"
			  "00050 0 0 deny log tcp from any to 10.90.1.1 135-139\n"
			  "00060 0 0 unreach port tcp from 192.168.43.98 to me 25\n"
			  "00070 0 0 deny log tcp from any to 10.66.2.2 445\n"
			  "00080 0 0 deny log tcp from any to 10.61.2.2 138\n"
			  "00090 0 0 deny log ip from any to 219.0.0.0/16\n"
			  "00100 0 0 deny log esp from 218.0.0.0/8 to any\n"
			  "00200 0 0 count ip from any to 192.168.44.1\n"
			  "00210 0 0 deny ip from any to 192.168.44.1\n"
			  "01000 0 0 allow ip from any to any\n"
			  "01010 0 0 count ip from any to 192.168.44.1\n"
			  "65535 0 0 deny ip from any to any\n");
	/* the 2006 DragonFly puzzle: rule 4 takes the traffic to 192.168.44.1, ip or all alike */
	uint32_t r;
	struct fw_pkt p = fw_pk(17, "192.168.43.10", 1, "192.168.44.1", 1);
	fw_eval(fw, &p, &r);
	T_EQ_U64(r, 4);
	fw_free(fw);
}

static void t_profile_rule_sets_load(void)
{
	struct fw *fw = fw_mk();
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_load_file(fw, fw_path("profiles/rules/seed-dragonfly-2006.rules"), &d), 0);
	T_EQ_INT(fw_rule_count(fw), 12);
	/* lab traffic passes the ten rules and is allowed by 1000, on both passes */
	struct fw_pkt p = fw_pk(17, "198.18.0.2", 1024, "198.19.0.2", 9);
	uint32_t r;
	T_EQ_INT(fw_eval(fw, &p, &r), FW_PASS);
	T_EQ_U64(r, 1000);
	FW_OK(fw, "list 50 60");
	FW_TEXT(fw_out(), "00050 deny log tcp from any to 10.90.1.1 135-139\n"
			  "00060 unreach port tcp from 192.168.43.98 to me 25\n");
	fw_free(fw);

	fw = fw_mk();
	T_EQ_INT(fw_load_file(fw, fw_path("profiles/rules/count-any-3.rules"), &d), 0);
	T_EQ_INT(fw_rule_count(fw), 4);
	fw_tunables(fw)->default_to_accept = true;
	fw_eval(fw, &p, &r);
	T_EQ_U64(r, 65535);
	FW_OK(fw, "show");
	FW_TEXT(fw_out(), "00100 1 100 count ip from any to any\n"
			  "00200 1 100 count ip from any to any\n"
			  "00300 1 100 count ip from any to any\n"
			  "65535 1 100 allow ip from any to any\n");
	fw_free(fw);
}

static void t_all_or_nothing(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny ip from any to 10.0.0.1");
	FW_OK(fw, "add 200 count ip from any to any");
	char before[4096];
	FW_OK(fw, "list");
	snprintf(before, sizeof(before), "%.4000s", fw_out());
	const char *path = tmpfile_with("ipfw -q flush\n"
					"add 10 allow ip from any to any\n"
					"20 allow ip from any to any\n"
					"delete 20\n"
					"30 allow tcp from any to any 80,http,nosuch\n"
					"40 allow ip from any to any\n");
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_load_file(fw, path, &d), -EINVAL);
	T_STREQ(d.file, path);
	T_EQ_INT(d.line, 5);
	T_EQ_INT(d.col, 38);
	T_TRUE(strstr(d.msg, "invalid port 'nosuch'") != NULL);
	T_EQ_INT(d.ex, 65);
	FW_OK(fw, "list");
	FW_TEXT(fw_out(), before);
	unlink(path);
	/* deleting a rule the file does not have is an error too (ipfw would exit 69) */
	path = tmpfile_with("add 10 allow ip from any to any\ndelete 77\n");
	T_EQ_INT(fw_load_file(fw, path, &d), -EINVAL);
	T_EQ_INT(d.line, 2);
	T_EQ_INT(d.ex, 69);
	T_STREQ(d.msg, "rule 77 not found");
	FW_OK(fw, "list");
	FW_TEXT(fw_out(), before);
	unlink(path);
	/* counters of kept rules survive a load; the file adds after the existing rules */
	struct fw_pkt p = fw_pk(17, "1.1.1.1", 1, "2.2.2.2", 1);
	uint32_t r;
	fw_eval(fw, &p, &r);
	path = tmpfile_with("count ip from any to any\n");
	T_EQ_INT(fw_load_file(fw, path, &d), 0);
	FW_OK(fw, "show");
	FW_TEXT(fw_out(), "00100 0   0 deny ip from any to 10.0.0.1\n"
			  "00200 1 100 count ip from any to any\n"
			  "00300 0   0 count ip from any to any\n"
			  "65535 1 100 deny ip from any to any\n");
	unlink(path);
	/* a file can replace the ruleset and delete what it added */
	path = tmpfile_with("ipfw -q flush\n"
			    "ipfw add 500 deny ip from any to any\n"
			    "ipfw -q add count ip from any to any\n"
			    "ipfw -q delete 500\n"
			    "ipfw -q zero\n");
	T_EQ_INT(fw_load_file(fw, path, &d), 0);
	FW_OK(fw, "show");
	FW_TEXT(fw_out(), "00600 0 0 count ip from any to any\n"
			  "65535 0 0 deny ip from any to any\n");
	unlink(path);
	fw_free(fw);
}

static void t_out_of_order_file(void)
{
	struct fw *fw = fw_mk();
	const char *path = tmpfile_with("300 deny ip from any to 10.0.0.3\n"
					"100 deny ip from any to 10.0.0.1\n"
					"300 deny ip from any to 10.0.0.33\n"
					"200 deny ip from any to 10.0.0.2\n"
					"deny ip from any to 10.0.0.4\n"
					"100 deny ip from any to 10.0.0.11\n");
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_load_file(fw, path, &d), 0);
	FW_OK(fw, "list");
	FW_TEXT(fw_out(), "00100 deny ip from any to 10.0.0.1\n"
			  "00100 deny ip from any to 10.0.0.11\n"
			  "00200 deny ip from any to 10.0.0.2\n"
			  "00300 deny ip from any to 10.0.0.3\n"
			  "00300 deny ip from any to 10.0.0.33\n"
			  "00400 deny ip from any to 10.0.0.4\n"
			  "65535 deny ip from any to any\n");
	unlink(path);
	/* skipto targets are resolved after the sort */
	path = tmpfile_with("200 allow ip from any to any\n"
			    "100 skipto 200 ip from any to any\n"
			    "150 deny ip from any to any\n");
	fw_free(fw);
	fw = fw_mk();
	T_EQ_INT(fw_load_file(fw, path, &d), 0);
	struct fw_pkt p = fw_pk(17, "1.1.1.1", 1, "2.2.2.2", 1);
	uint32_t r;
	fw_eval(fw, &p, &r);
	T_EQ_U64(r, 200);
	unlink(path);
	fw_free(fw);
}

struct errs {
	int n;
	struct fw_diag d[16];
};

static void collect(void *arg, const struct fw_diag *d)
{
	struct errs *e = arg;
	if (e->n < 16)
		e->d[e->n] = *d;
	e->n++;
}

static void t_check_reports_every_error(void)
{
	static const struct {
		int line, col;
		const char *msg;
	} want[] = {
		{ 3, 21, "expected 'to' after the source address or ports, got end of line" },
		{ 4, 5, "expected an action" },
		{ 5, 41, "port '70000' out of range 0..65535" },
		{ 7, 35, "invalid prefix length in '10.0.0.0/33'" },
		{ 8, 6, "'show' cannot appear in a rules file" },
		{ 9, 5, "expected an action" },
		{ 10, 1, "rule 65535 is the default rule and cannot be added" },
		{ 11, 1, "expected an ipfw command, a rule" },
		{ 12, 45, "expected 'or' or '}'" },
	};
	const char *path = fw_path("tests/unit/data/fw/errors.rules");
	struct errs e = { 0 };
	int n = fw_check_file_all(path, NULL, 0, collect, &e);
	T_EQ_INT(n, 9);
	for (int k = 0; k < 9 && k < e.n; k++) {
		const struct fw_diag *d = &e.d[k];
		if (d->line != want[k].line || d->col != want[k].col || !strstr(d->msg, want[k].msg) ||
		    strcmp(d->file, path))
			T_FAIL("error %d: %.60s:%d:%d: %.150s; expected line %d column %d '%.100s'", k,
			       d->file, d->line, d->col, d->msg, want[k].line, want[k].col, want[k].msg);
	}
	char buf[512];
	snprintf(buf, sizeof(buf), "%s:3:21: expected 'to'", path);
	char got[512];
	T_TRUE(!strncmp(fw_diag_str(&e.d[0], got, sizeof(got)), buf, strlen(buf)));
	/* fw_check_file: the first one */
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_check_file(path, NULL, 0, &d), -EINVAL);
	T_EQ_INT(d.line, 3);
	/* loading stops at the first and adds nothing */
	struct fw *fw = fw_mk();
	T_EQ_INT(fw_load_file(fw, path, &d), -EINVAL);
	T_EQ_INT(d.line, 3);
	T_EQ_INT(fw_rule_count(fw), 1);
	fw_free(fw);
	/* good files check clean */
	T_EQ_INT(fw_check_file(fw_path("profiles/rules/seed-dragonfly-2006.rules"), NULL, 0, &d), 0);
	T_EQ_INT(fw_check_file_all(fw_path("tests/unit/data/fw/filtertest.rules"), NULL, 0, collect, &e), 0);
	/* a missing file */
	T_EQ_INT(fw_check_file("/nonexistent/x.rules", NULL, 0, &d), -ENOENT);
	T_TRUE(strstr(d.msg, "cannot open") != NULL);
	fw = fw_mk();
	T_EQ_INT(fw_load_file(fw, "/nonexistent/x.rules", &d), -ENOENT);
	fw_free(fw);
}

static void t_show_t_paste_and_default_line(void)
{
	struct fw *fw = fw_mk();
	const char *path = tmpfile_with(
		"00100 5 300 Sun Nov 26 15:00:35 2006 count ip from any to any\n"
		"00200 0   0                          deny ip from any to 10.0.0.1\n"
		"65535 5 300 Sun Nov 26 15:00:35 2006 allow ip from any to any\n");
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_load_file(fw, path, &d), 0);
	FW_OK(fw, "list");
	FW_TEXT(fw_out(), "00100 count ip from any to any\n00200 deny ip from any to 10.0.0.1\n"
			  "65535 deny ip from any to any\n");
	unlink(path);
	path = tmpfile_with("65535 deny tcp from any to any\n");
	T_EQ_INT(fw_load_file(fw, path, &d), -EINVAL);
	T_EQ_INT(d.ex, 69);
	unlink(path);
	fw_free(fw);
}

/* ---- the filtertest pattern ---- */

static int proto_num(const char *s)
{
	return fw_proto_by_name(s);
}

static int if_num(const char *s)
{
	static const char *const n[] = { "em0", "em1", "rut0", "rut1" };
	for (int k = 0; k < 4; k++)
		if (!strcmp(s, n[k]))
			return k;
	return -1;
}

static void split_hp(const char *s, char *host, int *port)
{
	const char *c = strchr(s, ':');
	size_t n = c ? (size_t)(c - s) : strlen(s);
	memcpy(host, s, n);
	host[n] = '\0';
	*port = c ? atoi(c + 1) : 0;
}

static void t_filtertest(void)
{
	struct fw *fw = fw_mk();
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_load_file(fw, fw_path("tests/unit/data/fw/filtertest.rules"), &d), 0);
	if (d.msg[0])
		T_FAIL("%d:%d: %.200s", d.line, d.col, d.msg);
	FILE *f = fopen(fw_path("tests/unit/data/fw/filtertest.expect"), "r");
	T_TRUE(f != NULL);
	if (!f)
		return;
	char line[512];
	int lineno = 0, checked = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		char w[10][64];
		int n = sscanf(line, "%63s %63s %63s %63s %63s %63s %63s %63s %63s", w[0], w[1], w[2],
			       w[3], w[4], w[5], w[6], w[7], w[8]);
		if (n <= 0 || w[0][0] == '#')
			continue;
		if (!strcmp(w[0], "count")) {
			struct fw_rule_stats st;
			uint64_t pk = UINT64_MAX;
			for (int i = 0; i < fw_rule_count(fw); i++)
				if (!fw_rule_stats(fw, i, &st) && st.number == (uint32_t)atoi(w[1]))
					pk = st.pkts;
			if (pk != (uint64_t)atoll(w[2]))
				T_FAIL("expect:%d: rule %s counted %llu, expected %s", lineno, w[1],
				       (unsigned long long)pk, w[2]);
			checked++;
			continue;
		}
		bool frag = n == 9;
		const char *verdict = w[frag ? 7 : 6], *rule = w[frag ? 8 : 7];
		char sh[64], dh[64];
		int sp, dp;
		split_hp(w[1], sh, &sp);
		split_hp(w[2], dh, &dp);
		struct fw_pkt p = fw_pk(proto_num(w[0]), sh, sp, dh, dp);
		p = fw_pass(p, !strcmp(w[3], "in"), if_num(w[4]), if_num(w[5]));
		if (frag) {
			p.frag = true;
			p.has_ports = false;
		}
		struct fw_match m;
		enum fw_verdict v = fw_eval_ex(fw, &p, &m);
		char got[32];
		static const char *const names[] = { "pass", "deny", "unreach", "reset" };
		if (v == FW_UNREACH)
			snprintf(got, sizeof(got), "unreach:%u", m.icmp_code);
		else
			snprintf(got, sizeof(got), "%s", names[v]);
		if (strcmp(got, verdict) || m.rule_no != (uint32_t)atoi(rule))
			T_FAIL("expect:%d: %.40s %.40s → %s %u, expected %s %s", lineno, w[1], w[2], got,
			       m.rule_no, verdict, rule);
		checked++;
	}
	fclose(f);
	T_EQ_INT(checked, 25);
	fw_free(fw);
}

/* ---- load time ---- */

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* 20,000 rules of mixed shapes; shuffled with a fixed xorshift when asked */
static char *big_ruleset(bool shuffled)
{
	enum { N = 20000 };
	static char lines[N][128];
	for (int i = 0; i < N; i++) {
		unsigned a = (unsigned)i;
		switch (i % 4) {
		case 0:
			snprintf(lines[i], sizeof(lines[i]), "%d deny udp from 10.%u.%u.1 to any 1000-2000\n",
				 i + 1, a >> 8 & 255, a & 255);
			break;
		case 1:
			snprintf(lines[i], sizeof(lines[i]),
				 "ipfw -q add %d deny log tcp from any to 10.%u.%u.0/24 135-139,445\n", i + 1,
				 a >> 8 & 255, a & 255);
			break;
		case 2:
			snprintf(lines[i], sizeof(lines[i]),
				 "%05d 0 0 count ip from { 172.16.%u.%u or 172.17.%u.%u } to any in via em0\n",
				 i + 1, a >> 8 & 255, a & 255, a >> 8 & 255, a & 255);
			break;
		default:
			snprintf(lines[i], sizeof(lines[i]),
				 "%d unreach port udp from 192.168.%u.%u to me 53\n", i + 1, a >> 8 & 255,
				 a & 255);
		}
	}
	if (shuffled) {
		uint64_t x = 88172645463325252ull;
		for (int i = N - 1; i > 0; i--) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			int j = (int)(x % (uint64_t)(i + 1));
			char t[128];
			memcpy(t, lines[i], 128);
			memcpy(lines[i], lines[j], 128);
			memcpy(lines[j], t, 128);
		}
	}
	size_t len = 0;
	char *text = malloc((size_t)N * 128 + 1);
	for (int i = 0; i < N; i++) {
		size_t l = strlen(lines[i]);
		memcpy(text + len, lines[i], l);
		len += l;
	}
	text[len] = '\0';
	return text;
}

static void t_load_20000_rules(void)
{
	for (int shuffled = 0; shuffled < 2; shuffled++) {
		char *text = big_ruleset(shuffled);
		const char *path = tmpfile_with(text);
		free(text);
		struct fw *fw = fw_mk();
		struct fw_diag d = { 0 };
		double t0 = now_ms();
		int rc = fw_load_file(fw, path, &d);
		double t1 = now_ms();
		T_EQ_INT(rc, 0);
		if (rc)
			T_FAIL("%d:%d: %.200s", d.line, d.col, d.msg);
		T_EQ_INT(fw_rule_count(fw), 20001);
		/* informational, not asserted (the CPU is shared): the seeds' ipfw took 4-5 s */
		printf("# loaded 20,000 rules (%s) in %.1f ms\n", shuffled ? "shuffled" : "in order", t1 - t0);
		struct fw_rule_stats st;
		for (int i = 0; i < 20001; i++) {
			fw_rule_stats(fw, i, &st);
			if (st.number != (i < 20000 ? (uint32_t)i + 1 : 65535u)) {
				T_FAIL("rule %d numbered %u", i, st.number);
				break;
			}
		}
		/* the last rules are reached and decide */
		uint32_t r;
		struct fw_pkt p = fw_pk(17, "192.168.78.31", 1, "10.0.0.254", 53);   /* 19999 = 78*256+31 */
		T_EQ_INT(fw_eval(fw, &p, &r), FW_UNREACH);
		T_EQ_U64(r, 20000);
		double t2 = now_ms();
		fw_free(fw);
		printf("# freed in %.1f ms\n", now_ms() - t2);
		unlink(path);
	}
}

int main(void)
{
	T_RUN(t_seed_show_output_loads);
	T_RUN(t_profile_rule_sets_load);
	T_RUN(t_all_or_nothing);
	T_RUN(t_out_of_order_file);
	T_RUN(t_check_reports_every_error);
	T_RUN(t_show_t_paste_and_default_line);
	T_RUN(t_filtertest);
	T_RUN(t_load_20000_rules);
	return t_done();
}
