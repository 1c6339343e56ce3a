/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_table.c — lookup tables (ipfw table N ..., table(N[,VALUE]) in rules): the
 * longest prefix wins (FreeBSD 14's addr:radix algorithm, ip_fw_table_algo.c
 * ta_lookup_radix), entries added and deleted live change the next packet's verdict,
 * tables.c's messages, and 1,000,000 entries loaded (the time is printed, not judged).
 * docs/design/ipfw-fidelity.md#lookup-tables says where each behaviour comes from. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "fw_impl.h"
#include "fw_lpm.h"
#include "fw_util.h"

/* a diagnostic's text (through strcmp: T_STREQ warns about the 512-byte buffers) */
#define MSG_IS(got, want)                                                              \
	do {                                                                           \
		if (strcmp((got), (want)))                                             \
			T_FAIL("message '%.200s', expected '%.200s'", (got), (want));  \
	} while (0)

/* the whole diagnostic as the control socket prints it after "ipfw: " */
#define DIAG_IS(want)                                                                  \
	do {                                                                           \
		char _b[512];                                                          \
		MSG_IS(fw_diag_str(&fw_d, _b, sizeof(_b)), (want));                    \
	} while (0)

static const char *verdict(struct fw *fw, const char *src, const char *dst)
{
	static char buf[64];
	struct fw_match m;
	struct fw_pkt p = fw_pk(17, src, 1000, dst, 53);
	enum fw_verdict v = fw_eval_ex(fw, &p, &m);
	snprintf(buf, sizeof(buf), "%s %u", v == FW_PASS ? "pass" : "deny", m.rule_no);
	return buf;
}

/* the longest prefix's value decides table(N,VALUE) */
static void t_longest_prefix(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "table 1 create");
	FW_OK(fw, "table 1 add 10.0.0.0/8 1");
	FW_OK(fw, "table 1 add 10.1.0.0/16 2");
	FW_OK(fw, "table 1 add 10.1.2.0/24 3");
	FW_OK(fw, "table 1 add 10.1.2.3 4");
	FW_OK(fw, "add 100 allow ip from table(1,1) to any");
	FW_OK(fw, "add 110 deny ip from table(1,2) to any");
	FW_OK(fw, "add 120 allow ip from table(1,3) to any");
	FW_OK(fw, "add 130 count ip from table(1,4) to any");
	FW_OK(fw, "add 140 allow ip from any to table(1)");
	T_STREQ(verdict(fw, "10.9.9.9", "1.1.1.1"), "pass 100");
	T_STREQ(verdict(fw, "10.1.9.9", "1.1.1.1"), "deny 110");
	T_STREQ(verdict(fw, "10.1.2.9", "1.1.1.1"), "pass 120");
	T_STREQ(verdict(fw, "10.1.2.3", "1.1.1.1"), "deny 65535");   /* counted at 130 */
	T_STREQ(verdict(fw, "11.0.0.1", "10.200.0.1"), "pass 140");
	T_STREQ(verdict(fw, "11.0.0.1", "11.0.0.2"), "deny 65535");
	FW_OK(fw, "table 1 lookup 10.1.2.200");
	T_STREQ(fw_out(), "10.1.2.0/24 3\n");
	FW_OK(fw, "table 1 list");
	T_STREQ(fw_out(), "10.0.0.0/8 1\n10.1.0.0/16 2\n10.1.2.0/24 3\n10.1.2.3/32 4\n");
	/* the address is masked (tentry_fill_key) */
	FW_OK(fw, "table 1 add 192.168.7.9/16 5");
	T_STREQ(fw_out(), "added: 192.168.0.0/16 5\n");
	/* 0.0.0.0/0 matches everything that nothing longer does */
	FW_OK(fw, "table 1 add 0.0.0.0/0 9");
	FW_OK(fw, "table 1 lookup 8.8.8.8");
	T_STREQ(fw_out(), "0.0.0.0/0 9\n");
	fw_free(fw);
}

/* against a brute force over random prefixes */
static void t_random_lpm(void)
{
	struct fw *fw = fw_mk();
	int ti = fw_table_create(fw, "7");
	T_TRUE(ti >= 0);
	struct fw_table *t = fw_table_at(fw, ti);
	enum { N = 3000 };
	static uint32_t key[N], len[N];
	uint32_t seed = 12345;
#define RND() (seed = seed * 1103515245u + 12345u, seed >> 1 ^ seed << 15)
	int n = 0;
	for (int i = 0; i < N; i++) {
		uint32_t l = RND() % 33, a = RND() & (l ? 0xffffffffu << (32 - l) : 0);
		a &= 0x0fffffff;   /* crowd them into 0/4 so they nest */
		if (fw_table_add(fw, t, htonl(a), (int)l, (uint32_t)n) == 0) {
			key[n] = a;
			len[n] = l;
			n++;
		}
	}
	int bad = 0;
	for (int q = 0; q < 20000; q++) {
		uint32_t a = RND() & 0x0fffffff, want = UINT32_MAX, wl = 0, got;
		for (int i = 0; i < n; i++) {
			uint32_t m = len[i] ? 0xffffffffu << (32 - len[i]) : 0;
			if ((a & m) == key[i] && (want == UINT32_MAX || len[i] > wl)) {
				want = (uint32_t)i;
				wl = len[i];
			}
		}
		bool f = fw_table_lookup(t, htonl(a), &got);
		bad += f != (want != UINT32_MAX) || (f && got != want);
	}
	T_EQ_INT(bad, 0);
	/* delete half, check again */
	for (int i = 0; i < n; i += 2)
		T_EQ_INT(fw_table_del(fw, t, htonl(key[i]), (int)len[i]), 0);
	T_EQ_INT(fw_table_del(fw, t, htonl(key[0]), (int)len[0]), -ENOENT);
	bad = 0;
	for (int q = 0; q < 5000; q++) {
		uint32_t a = RND() & 0x0fffffff, want = UINT32_MAX, wl = 0, got;
		for (int i = 1; i < n; i += 2) {
			uint32_t m = len[i] ? 0xffffffffu << (32 - len[i]) : 0;
			if ((a & m) == key[i] && (want == UINT32_MAX || len[i] > wl)) {
				want = (uint32_t)i;
				wl = len[i];
			}
		}
		bool f = fw_table_lookup(t, htonl(a), &got);
		bad += f != (want != UINT32_MAX) || (f && got != want);
	}
	T_EQ_INT(bad, 0);
	fw_free(fw);
}

/* add and delete while rules use the table: the next packet sees the change */
static void t_live(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny ip from table(blocked) to any");
	FW_OK(fw, "add 200 allow ip from any to any");
	T_STREQ(verdict(fw, "203.0.113.5", "1.1.1.1"), "pass 200");
	FW_OK(fw, "table blocked add 203.0.113.0/24");
	MSG_IS(fw_d.warn, "");   /* a rule made it: it exists */
	T_STREQ(fw_out(), "added: 203.0.113.0/24 0\n");
	T_STREQ(verdict(fw, "203.0.113.5", "1.1.1.1"), "deny 100");
	FW_OK(fw, "table blocked delete 203.0.113.0/24");
	T_STREQ(fw_out(), "deleted: 203.0.113.0/24 0\n");
	T_STREQ(verdict(fw, "203.0.113.5", "1.1.1.1"), "pass 200");
	FW_OK(fw, "table blocked add 203.0.113.0/24 0 203.0.114.0/24 7");
	T_STREQ(fw_out(), "added: 203.0.113.0/24 0\nadded: 203.0.114.0/24 7\n");
	T_STREQ(verdict(fw, "203.0.114.5", "1.1.1.1"), "deny 100");
	FW_OK(fw, "table blocked flush");
	T_STREQ(verdict(fw, "203.0.114.5", "1.1.1.1"), "pass 200");
	FW_OK(fw, "table blocked list");
	T_STREQ(fw_out(), "");
	fw_free(fw);
}

/* `ipfw -q table N add K V` on an existing key updates its value: tables.c passes
 * do_quiet as the update flag (table_modify_record(oh, ac, av, 1, do_quiet, do_quiet,
 * atomic)), and the radix algorithm's add updates the value when asked; without -q the
 * add fails with "exists" and the old value stays */
static void t_quiet_add_updates(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "table 1 create");
	FW_OK(fw, "table 1 add 10.1.0.0/16 1");
	FW_OK(fw, "add 100 deny ip from table(1,1) to any");
	FW_OK(fw, "add 110 allow ip from table(1,2) to any");
	T_STREQ(verdict(fw, "10.1.2.3", "1.1.1.1"), "deny 100");
	T_EQ_INT(fw_run(fw, "table 1 add 10.1.0.0/16 2"), -EINVAL);
	T_STREQ(verdict(fw, "10.1.2.3", "1.1.1.1"), "deny 100");
	FW_OK(fw, "-q table 1 add 10.1.0.0/16 2 10.2.0.0/16 2");
	T_STREQ(fw_out(), "");
	T_STREQ(verdict(fw, "10.1.2.3", "1.1.1.1"), "pass 110");
	T_STREQ(verdict(fw, "10.2.2.3", "1.1.1.1"), "pass 110");
	FW_OK(fw, "table 1 list");
	T_STREQ(fw_out(), "10.1.0.0/16 2\n10.2.0.0/16 2\n");
	/* a value left out is 0, and -q writes it too */
	FW_OK(fw, "-q table 1 add 10.1.0.0/16");
	FW_OK(fw, "table 1 lookup 10.1.9.9");
	T_STREQ(fw_out(), "10.1.0.0/16 0\n");
	fw_free(fw);
}

/* the verdict of one pass: in on rif, or out from rif to xif */
static const char *verdict_if(struct fw *fw, bool in, int rif, int xif)
{
	static char buf[64];
	struct fw_match m;
	struct fw_pkt p = fw_pass(fw_pk(17, "1.1.1.1", 1000, "2.2.2.2", 53), in, rif, xif);
	enum fw_verdict v = fw_eval_ex(fw, &p, &m);
	snprintf(buf, sizeof(buf), "%s %u", v == FW_PASS ? "pass" : "deny", m.rule_no);
	return buf;
}

/* recv|xmit|via table(N): ipfw2.c fill_iface makes the test a lookup of the interface
 * in table N (name[0] = '\1', the value after a comma ignored); ip_fw2.c iface_match
 * looks the interface up there; the table is of type iface (names as keys), created so
 * when a rule names it first; print_instruction lists it as "recv table(N)" */
static void t_iface_table(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny ip from any to any recv table(ifs)");
	T_STREQ(fw_out(), "00100 deny ip from any to any recv table(ifs)\n");
	FW_OK(fw, "add 200 count ip from any to any xmit table(ifs,7)");
	T_STREQ(fw_out(), "00200 count ip from any to any xmit table(ifs)\n");
	FW_OK(fw, "add 300 allow ip from any to any not via table(ifs)");
	FW_OK(fw, "add 400 deny ip from any to any");
	/* empty table: nothing matches, `not via` does */
	T_STREQ(verdict_if(fw, true, EM0, -1), "pass 300");
	FW_OK(fw, "table ifs add em1 5");
	T_STREQ(fw_out(), "added: em1 5\n");
	MSG_IS(fw_d.warn, "");
	T_STREQ(verdict_if(fw, true, EM0, -1), "pass 300");
	T_STREQ(verdict_if(fw, true, EM1, -1), "deny 100");
	/* outbound from em0 to em1: recv em0 no, xmit em1 counts, via em1 (the xmit one) */
	T_STREQ(verdict_if(fw, false, EM0, EM1), "deny 400");
	T_STREQ(verdict_if(fw, false, EM1, EM0), "deny 100");
	/* a name no port has is kept and listed, and matches nothing */
	FW_OK(fw, "table ifs add em9");
	FW_OK(fw, "table ifs list");
	T_STREQ(fw_out(), "em1 5\nem9 0\n");
	FW_OK(fw, "table ifs lookup em1");
	T_STREQ(fw_out(), "em1 5\n");
	T_EQ_INT(fw_run(fw, "table ifs lookup em0"), -EINVAL);
	DIAG_IS("Entry em0 not found");
	T_EQ_INT(fw_run(fw, "table ifs add em1 6"), -EINVAL);
	T_STREQ(fw_out(), "exists: em1 6\n");
	FW_OK(fw, "table ifs delete em1");
	T_STREQ(verdict_if(fw, true, EM1, -1), "pass 300");
	/* an address table cannot stand for interfaces, nor the other way round */
	FW_OK(fw, "table addrs add 10.0.0.0/8");
	T_EQ_INT(fw_run(fw, "add 500 deny ip from any to any via table(addrs)"), -EINVAL);
	T_TRUE(strstr(fw_d.msg, "type iface") != NULL);
	T_EQ_INT(fw_run(fw, "add 500 deny ip from table(ifs) to any"), -EINVAL);
	T_TRUE(strstr(fw_d.msg, "interface names") != NULL);
	/* made by `create type iface`, or by adding a name to a table that does not exist */
	FW_OK(fw, "table up create type iface");
	FW_OK(fw, "add 600 deny ip from any to any via table(up)");
	FW_OK(fw, "table auto add rut0");
	MSG_IS(fw_d.warn, "ipfw: DEPRECATED: inserting data into non-existent table auto. "
			  "(auto-created)\n");
	FW_OK(fw, "add 700 deny ip from any to any via table(auto)");
	T_EQ_INT(fw_run(fw, "table ifs destroy"), -EINVAL);
	DIAG_IS("failed to destroy table ifs: Device busy");
	fw_free(fw);
}

/* sbin/ipfw/tables.c's words */
static void t_messages(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "table 1 add 10.0.0.0/8");
	MSG_IS(fw_d.warn, "ipfw: DEPRECATED: inserting data into non-existent table 1. (auto-created)\n");
	T_EQ_INT(fw_run(fw, "table 1 add 10.0.0.0/8"), -EINVAL);
	T_STREQ(fw_out(), "exists: 10.0.0.0/8 0\n");
	MSG_IS(fw_d.msg, "Adding record failed: record already exists");
	T_EQ_INT(fw_d.ex, 71);
	DIAG_IS("Adding record failed: record already exists");
	FW_OK(fw, "-q table 1 add 10.0.0.0/8");   /* -q: no yell on duplicates */
	T_STREQ(fw_out(), "");
	T_EQ_INT(fw_run(fw, "table 1 delete 11.0.0.0/8"), -EINVAL);
	T_STREQ(fw_out(), "notfound: 11.0.0.0/8 0\n");
	MSG_IS(fw_d.msg, "Deleting record failed: record not found");
	DIAG_IS("Deleting record failed: record not found");
	T_EQ_INT(fw_run(fw, "table 9 list"), -EINVAL);
	MSG_IS(fw_d.msg, "failed to request table info: No such process");
	T_EQ_INT(fw_d.ex, 71);
	/* what the kernel refused has no column, as ipfw(8) says it */
	DIAG_IS("failed to request table info: No such process");
	T_EQ_INT(fw_run(fw, "table 9 delete 10.0.0.0/8"), -EINVAL);
	DIAG_IS("Table 9 does not exist");
	T_EQ_INT(fw_run(fw, "table 9 lookup 10.0.0.1"), -EINVAL);
	DIAG_IS("Table 9 not found");
	T_EQ_INT(fw_run(fw, "table 1 lookup 12.0.0.1"), -EINVAL);
	MSG_IS(fw_d.msg, "Entry 12.0.0.1 not found");
	T_EQ_INT(fw_d.ex, 69);
	DIAG_IS("Entry 12.0.0.1 not found");
	/* a mistake in the text keeps its column */
	T_EQ_INT(fw_run(fw, "table 1 lookup 12.0.0.1/40"), -EINVAL);
	DIAG_IS("bad IPv4 mask width: 40 (column 16)");
	FW_OK(fw, "table 2 create");
	T_EQ_INT(fw_run(fw, "table 2 create"), -EINVAL);
	DIAG_IS("Table creation failed: File exists");
	FW_OK(fw, "table 2 add 1.2.3.4 5");
	FW_OK(fw, "table all list");
	T_STREQ(fw_out(), "--- table(1), set(0) ---\n10.0.0.0/8 0\n"
			  "--- table(2), set(0) ---\n1.2.3.4/32 5\n");
	FW_OK(fw, "add 100 count ip from table(2) to any");
	T_EQ_INT(fw_run(fw, "table 2 destroy"), -EINVAL);
	MSG_IS(fw_d.msg, "failed to destroy table 2: Device busy");
	DIAG_IS("failed to destroy table 2: Device busy");
	FW_OK(fw, "delete 100");
	FW_OK(fw, "table 2 destroy");
	T_EQ_INT(fw_run(fw, "table 2 info"), -EINVAL);
	T_TRUE(strstr(fw_d.msg, "not supported") != NULL);
	fw_free(fw);
}

/* `table` lines in a rules file (ipfw /FILE runs any command); a table change is not
 * part of the file's all-or-nothing rule transaction (FreeBSD's is not either) */
static void t_in_rules_file(void)
{
	char path[] = "/tmp/t_fw_table.XXXXXX";
	int fd = mkstemp(path);
	T_TRUE(fd >= 0);
	if (fd < 0)
		return;
	FILE *f = fdopen(fd, "w");
	fputs("table 5 create\ntable 5 add 10.0.0.0/8 3\nipfw table 5 add 10.1.0.0/16 4\n"
	      "add 100 deny ip from table(5,4) to any\nadd 200 allow ip from any to any\n", f);
	fclose(f);
	struct fw *fw = fw_mk();
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_load_file(fw, path, &d), 0);
	T_STREQ(verdict(fw, "10.1.2.3", "1.1.1.1"), "deny 100");
	T_STREQ(verdict(fw, "10.2.2.3", "1.1.1.1"), "pass 200");
	f = fopen(path, "w");
	fputs("table 5 add 10.2.0.0/16 4\nadd 300 dney ip from any to any\n", f);
	fclose(f);
	T_TRUE(fw_load_file(fw, path, &d) < 0);
	T_STREQ(verdict(fw, "10.2.2.3", "1.1.1.1"), "deny 100");
	unlink(path);
	fw_free(fw);
}

/* 1,000,000 /32 entries through the command path, then looked up */
static void t_million(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "table big create");
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	char cmd[96];
	int fails = 0;
	for (uint32_t i = 0; i < 1000000; i++) {
		uint32_t x = 0x0a000000u + i * 7u;
		snprintf(cmd, sizeof(cmd), "-q table big add %u.%u.%u.%u %u", x >> 24, (x >> 16) & 255,
			 (x >> 8) & 255, x & 255, i & 0xffff);
		fails += fw_run(fw, cmd) != 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("# 1,000,000 entries loaded in %.2f s (one `ipfw table big add` each)\n", s);
	T_EQ_INT(fails, 0);
	FW_OK(fw, "add 100 deny ip from table(big) to any");
	FW_OK(fw, "add 200 allow ip from any to any");
	T_STREQ(verdict(fw, "10.0.0.7", "1.1.1.1"), "deny 100");
	T_STREQ(verdict(fw, "10.0.0.8", "1.1.1.1"), "pass 200");
	uint32_t hits = 0, v;
	int ti = fw_table_find(fw, "big");
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (uint32_t i = 0; i < 1000000; i++)
		hits += fw_table_lookup(fw_table_at(fw, ti), htonl(0x0a000000u + i * 7u), &v) &&
			v == (i & 0xffff);
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("# 1,000,000 lookups in %.3f s\n", s);
	T_EQ_U64(hits, 1000000);
	fw_free(fw);
}

int main(void)
{
	T_RUN(t_longest_prefix);
	T_RUN(t_random_lpm);
	T_RUN(t_live);
	T_RUN(t_messages);
	T_RUN(t_quiet_add_updates);
	T_RUN(t_iface_table);
	T_RUN(t_in_rules_file);
	T_RUN(t_million);
	return t_done();
}
