/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_cmd.c — the ipfw(8) commands as the control socket runs them: numbering and
 * auto-increment (N1, N2 of docs/design/ipfw.md#numbering-and-counter-test-vectors),
 * zero / resetlog / delete / flush and their messages and exit statuses (N4), and
 * `ipfw show` byte for byte (docs/design/ipfw.md#show-and-list-format: widths, N5; -t
 * stamps). */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "fw_impl.h"
#include "fw_util.h"

static uint32_t number_at(struct fw *fw, int idx)
{
	struct fw_rule_stats st;
	if (fw_rule_stats(fw, idx, &st))
		return 0;
	return st.number;
}

static void t_autoincrement(void)
{
	struct fw *fw = fw_mk();
	T_STREQ(fw_echo(fw, "add deny ip from any to 10.0.0.1"), "00100 deny ip from any to 10.0.0.1");
	T_STREQ(fw_echo(fw, "add deny ip from any to 10.0.0.2"), "00200 deny ip from any to 10.0.0.2");
	T_STREQ(fw_echo(fw, "add 0 deny ip from any to 10.0.0.3"), "00300 deny ip from any to 10.0.0.3");
	T_STREQ(fw_echo(fw, "add 250 deny ip from any to 10.0.0.4"), "00250 deny ip from any to 10.0.0.4");
	/* prev is the last rule before 65535, i.e. 300, not the last added */
	T_STREQ(fw_echo(fw, "add deny ip from any to 10.0.0.5"), "00400 deny ip from any to 10.0.0.5");
	fw_free(fw);

	fw = fw_mk();
	FW_OK(fw, "add 300 deny ip from any to any");
	fw_tunables(fw)->autoinc_step = 1000;
	T_STREQ(fw_echo(fw, "add count ip from any to any"), "01300 count ip from any to any");
	/* the step is clamped to 1..1000 as BSD's sysctl handler does */
	fw_tunables(fw)->autoinc_step = 5000;
	T_STREQ(fw_echo(fw, "add count ip from any to any"), "02300 count ip from any to any");
	/* and the clamped value is written back by every add (ip_fw_sockopt.c
	 * commit_rules), numbered or not */
	T_EQ_U64(fw_tunables(fw)->autoinc_step, 1000);
	fw_tunables(fw)->autoinc_step = 0;
	FW_OK(fw, "add 2400 count ip from any to any");
	T_EQ_U64(fw_tunables(fw)->autoinc_step, 1);
	T_STREQ(fw_echo(fw, "add count ip from any to any"), "02401 count ip from any to any");
	fw_free(fw);

	/* the 65450 edge: prev >= 65535 - step reuses prev */
	fw = fw_mk();
	FW_OK(fw, "add 65450 deny ip from any to any");
	T_STREQ(fw_echo(fw, "add count ip from any to any"), "65450 count ip from any to any");
	FW_OK(fw, "add 65434 deny ip from any to any");
	T_STREQ(fw_echo(fw, "add count ip from any to any"), "65450 count ip from any to any");
	fw_free(fw);
	fw = fw_mk();
	FW_OK(fw, "add 65434 deny ip from any to any");
	T_STREQ(fw_echo(fw, "add count ip from any to any"), "65534 count ip from any to any");
	T_STREQ(fw_echo(fw, "add count ip from any to any"), "65534 count ip from any to any");
	fw_free(fw);
}

static void t_same_number_keeps_insertion_order(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny ip from any to 10.0.0.1");
	FW_OK(fw, "add 50 deny ip from any to 10.0.0.9");
	FW_OK(fw, "add 100 deny ip from any to 10.0.0.2");
	FW_OK(fw, "add 100 deny ip from any to 10.0.0.3");
	FW_OK(fw, "list");
	FW_TEXT(fw_out(), "00050 deny ip from any to 10.0.0.9\n"
			  "00100 deny ip from any to 10.0.0.1\n"
			  "00100 deny ip from any to 10.0.0.2\n"
			  "00100 deny ip from any to 10.0.0.3\n"
			  "65535 deny ip from any to any\n");
	/* the first of the 100s decides */
	struct fw_pkt p = fw_pk(17, "1.1.1.1", 1, "10.0.0.2", 1);
	uint32_t r;
	fw_eval(fw, &p, &r);
	T_EQ_U64(r, 100);
	T_EQ_INT(fw_rule_count(fw), 5);
	T_EQ_U64(number_at(fw, 4), 65535);
	/* delete removes every rule with that number */
	FW_OK(fw, "delete 100");
	FW_TEXT(fw_out(), "");
	T_EQ_INT(fw_rule_count(fw), 2);
	fw_free(fw);
}

static void t_zero(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 count ip from any to any");
	FW_OK(fw, "add 200 count ip from any to any");
	struct fw_pkt p = fw_pk(17, "1.1.1.1", 1, "2.2.2.2", 1);
	uint32_t r;
	for (int k = 0; k < 3; k++)
		fw_eval(fw, &p, &r);
	FW_OK(fw, "zero 100");
	FW_TEXT(fw_out(), "Entry 100 cleared.\n");   /* ipfw_zero(), FreeBSD 14 */
	FW_OK(fw, "show");
	FW_TEXT(fw_out(), "00100 0   0 count ip from any to any\n"
			  "00200 3 300 count ip from any to any\n"
			  "65535 3 300 deny ip from any to any\n");
	/* an unknown number: said on standard output, EX_UNAVAILABLE, the others done */
	T_EQ_INT(fw_run(fw, "zero 150 200"), -EINVAL);
	T_STREQ(fw_d.msg, "");
	T_EQ_INT(fw_d.ex, 69);
	T_EQ_INT(fw_d.col, 6);
	FW_TEXT(fw_out(), "Entry 150 not found\nEntry 200 cleared.\n");
	/* zero without numbers clears every rule, 65535 included */
	FW_OK(fw, "zero");
	FW_TEXT(fw_out(), "Accounting cleared.\n");
	FW_OK(fw, "show");
	FW_TEXT(fw_out(), "00100 0 0 count ip from any to any\n"
			  "00200 0 0 count ip from any to any\n"
			  "65535 0 0 deny ip from any to any\n");
	/* -q: no message */
	FW_OK(fw, "-q zero");
	FW_TEXT(fw_out(), "");
	/* zero 65535 is allowed: it exists */
	FW_OK(fw, "zero 65535");
	FW_TEXT(fw_out(), "Entry 65535 cleared.\n");
	T_EQ_INT(fw_run(fw, "resetlog 77 78"), -EINVAL);
	FW_TEXT(fw_out(), "Entry 77 not found\nEntry 78 not found\n");
	/* -q still says what was not found (ipfw_zero prints it regardless) */
	T_EQ_INT(fw_run(fw, "-q zero 77"), -EINVAL);
	FW_TEXT(fw_out(), "Entry 77 not found\n");
	fw_free(fw);
}

static void t_delete_and_flush(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny ip from any to any");
	FW_OK(fw, "add 200 deny ip from any to any");
	T_EQ_INT(fw_run(fw, "delete 100 150"), -EINVAL);
	T_STREQ(fw_d.msg, "rule 150 not found");
	T_EQ_INT(fw_d.ex, 69);
	T_EQ_INT(fw_rule_count(fw), 2);
	/* ipfw's "delete set N" removes a rule set, which ppslab-rut does not switch */
	T_EQ_INT(fw_run(fw, "delete set 3"), -EINVAL);
	T_TRUE(strstr(fw_d.msg, "'ipfw delete set' is not supported") != NULL);
	T_EQ_INT(fw_d.ex, 64);
	T_EQ_INT(fw_rule_count(fw), 2);
	FW_OK(fw, "flush");
	FW_TEXT(fw_out(), "Flushed all rules.\n");
	T_EQ_INT(fw_rule_count(fw), 1);
	T_EQ_U64(number_at(fw, 0), 65535);
	FW_OK(fw, "ipfw -q -f flush");
	FW_TEXT(fw_out(), "");
	/* after a flush numbering starts again */
	T_STREQ(fw_echo(fw, "add deny ip from any to any"), "00100 deny ip from any to any");
	/* command prefixes, as ipfw2 accepts them */
	FW_OK(fw, "d 100");
	T_EQ_INT(fw_rule_count(fw), 1);
	FW_OK(fw, "a 300 count ip from any to any");
	FW_OK(fw, "sh 300");
	FW_TEXT(fw_out(), "00300 0 0 count ip from any to any\n");
	FW_OK(fw, "l");
	FW_TEXT(fw_out(), "00300 count ip from any to any\n65535 deny ip from any to any\n");
	FW_OK(fw, "-a list 300");
	FW_TEXT(fw_out(), "00300 0 0 count ip from any to any\n");
	fw_free(fw);
}

/* what the forwarding threads would have counted into rule idx (1 packets, 2 bytes) */
static void set_ctr(struct fw *fw, int idx, int which, uint64_t v)
{
	struct fw_cline *c = fw_cline(&fw->cs, fw_rules_get(fw)->rule[idx].slot, 1);
	atomic_store(which == 1 ? &c->pkts : &c->bytes, v);
}

static void t_show_widths(void)
{
	/* N5: rule 100 at (0,0), rule 65535 at (1234,98765) */
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny ip from any to 10.0.0.1");
	set_ctr(fw, 1, 1, 1234);
	set_ctr(fw, 1, 2, 98765);
	FW_OK(fw, "show");
	FW_TEXT(fw_out(), "00100    0     0 deny ip from any to 10.0.0.1\n"
			  "65535 1234 98765 deny ip from any to any\n");
	/* the widths come from the rules between the lowest and the highest number asked
	 * for (ipfw_list: fo.first/fo.last, the kernel returns those rules, and
	 * prepare_format_opts measures them) */
	FW_OK(fw, "show 100");
	FW_TEXT(fw_out(), "00100 0 0 deny ip from any to 10.0.0.1\n");
	FW_OK(fw, "show 100 65535");
	FW_TEXT(fw_out(), "00100    0     0 deny ip from any to 10.0.0.1\n"
			  "65535 1234 98765 deny ip from any to any\n");
	/* the 2006 DragonFly sweep's listing: widths 3 and 5 */
	fw_free(fw);
	fw = fw_mk();
	FW_OK(fw, "add 10 deny log ip from 10.0.0.1 to any");
	FW_OK(fw, "add 1000 allow ip from any to any");
	set_ctr(fw, 1, 1, 482);
	set_ctr(fw, 1, 2, 19162);
	FW_OK(fw, "show");
	FW_TEXT(fw_out(), "00010   0     0 deny log ip from 10.0.0.1 to any\n"
			  "01000 482 19162 allow ip from any to any\n"
			  "65535   0     0 deny ip from any to any\n");
	/* 64-bit counters print whole */
	set_ctr(fw, 0, 2, 12345678901234ull);
	FW_OK(fw, "show 10-1000");
	FW_TEXT(fw_out(), "00010   0 12345678901234 deny log ip from 10.0.0.1 to any\n"
			  "01000 482          19162 allow ip from any to any\n");
	fw_free(fw);
}

static void t_show_ranges_and_missing(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 count ip from any to any");
	FW_OK(fw, "add 200 count ip from any to any");
	FW_OK(fw, "add 300 count ip from any to any");
	FW_OK(fw, "list 150-300");
	FW_TEXT(fw_out(), "00200 count ip from any to any\n00300 count ip from any to any\n");
	/* in the order asked, like ipfw */
	FW_OK(fw, "list 300 100");
	FW_TEXT(fw_out(), "00300 count ip from any to any\n00100 count ip from any to any\n");
	T_EQ_INT(fw_run(fw, "list 100 5 6"), -ENOENT);
	FW_TEXT(fw_out(), "00100 count ip from any to any\n");
	T_STREQ(fw_d.msg, "rule 5 does not exist (and 1 more)");
	T_EQ_INT(fw_d.ex, 69);
	fw_free(fw);
}

static void t_show_times(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 count ip from any to any");
	FW_OK(fw, "add 200 count ip from any to 1.1.1.1");
	setenv("TZ", "UTC", 1);
	tzset();
	fw_set_now(fw, 1164582035);
	struct fw_pkt p = fw_pk(17, "1.1.1.1", 1, "2.2.2.2", 1);
	uint32_t r;
	fw_eval(fw, &p, &r);
	FW_OK(fw, "-t show");
	FW_TEXT(fw_out(), "00100 1 100 Sun Nov 26 23:00:35 2006 count ip from any to any\n"
			  "00200 0   0                          count ip from any to 1.1.1.1\n"
			  "65535 1 100 Sun Nov 26 23:00:35 2006 deny ip from any to any\n");
	fw_free(fw);
}

static void t_output_truncated(void)
{
	struct fw *fw = fw_mk();
	char small[16];
	struct fw_diag d = { 0 };
	T_EQ_INT(fw_exec(fw, "list", small, sizeof(small), &d), -ENOSPC);
	T_TRUE(strstr(d.msg, "output truncated (31 bytes needed)") != NULL);
	T_STREQ(small, "65535 deny ip f");
	/* the same with room */
	char big[64];
	T_EQ_INT(fw_exec(fw, "list", big, sizeof(big), &d), 0);
	T_STREQ(big, "65535 deny ip from any to any\n");
	fw_free(fw);
}

static void t_tunable_commands(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "enable verbose");
	T_TRUE(fw_tunables(fw)->verbose);
	FW_OK(fw, "disable one_pass");
	T_TRUE(!fw_tunables(fw)->one_pass);
	T_EQ_INT(fw_run(fw, "enable fishing"), -EINVAL);
	T_EQ_INT(fw_d.ex, 64);
	fw_free(fw);
}

static void t_rule_text_and_stats(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 deny log tcp from any to 10.90.1.1 135-139");
	char buf[64], tiny[10];
	T_EQ_INT(fw_rule_text(fw, 0, buf, sizeof(buf)), 42);
	T_STREQ(buf, "deny log tcp from any to 10.90.1.1 135-139");
	/* like snprintf: cut, NUL-terminated, the full length returned */
	T_EQ_INT(fw_rule_text(fw, 0, tiny, sizeof(tiny)), 42);
	T_STREQ(tiny, "deny log ");
	T_EQ_INT(fw_rule_text(fw, 1, buf, sizeof(buf)), 23);
	T_STREQ(buf, "deny ip from any to any");
	T_EQ_INT(fw_rule_text(fw, 2, buf, sizeof(buf)), -ENOENT);
	struct fw_rule_stats st;
	T_EQ_INT(fw_rule_stats(fw, 2, &st), -ENOENT);
	T_EQ_INT(fw_rule_stats(fw, -1, &st), -ENOENT);
	fw_free(fw);
}

static void t_new_checks_its_arguments(void)
{
	static const char *const names[65] = { "a" };
	const char *many[65];
	for (int k = 0; k < 65; k++)
		many[k] = names[0];
	errno = 0;
	T_TRUE(fw_new(many, 65, NULL, 0) == NULL);
	T_EQ_INT(errno, EINVAL);
	const char *longname[] = { "averyveryverylongname0" };
	T_TRUE(fw_new(longname, 1, NULL, 0) == NULL);
	struct fw *fw = fw_new(many, 64, NULL, 0);
	T_TRUE(fw != NULL);
	T_EQ_INT(fw_rule_count(fw), 1);
	fw_free(fw);
	fw_free(NULL);
}

/* The message after "ipfw: " on the control socket: what the kernel refused as ipfw(8)
 * prints it, with no column; a mistake in the text with its column; in a rules file
 * FILE:LINE:COL either way (the column points at the number that was not found). */
static void t_message_columns(void)
{
	char b[512];
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 count ip from any to any");
	T_EQ_INT(fw_run(fw, "delete 150"), -EINVAL);
	T_STREQ(fw_diag_str(&fw_d, b, sizeof(b)), "rule 150 not found");
	T_EQ_INT(fw_run(fw, "delete 150-160"), -EINVAL);
	T_STREQ(fw_diag_str(&fw_d, b, sizeof(b)), "no rules rules in 150-160 range");
	T_EQ_INT(fw_run(fw, "delete 160-150"), -EINVAL);
	T_STREQ(fw_diag_str(&fw_d, b, sizeof(b)), "rule 160: setsockopt(IP_FW_XDEL): Invalid argument");
	T_EQ_INT(fw_run(fw, "show 150"), -ENOENT);
	T_STREQ(fw_diag_str(&fw_d, b, sizeof(b)), "rule 150 does not exist");
	T_EQ_INT(fw_run(fw, "add 65535 deny ip from any to any"), -EINVAL);
	T_TRUE(!strstr(fw_diag_str(&fw_d, b, sizeof(b)), "(column"));
	/* the words of a rule: the column says where */
	T_EQ_INT(fw_run(fw, "add 200 deny ip frm any to any"), -EINVAL);
	T_TRUE(strstr(fw_diag_str(&fw_d, b, sizeof(b)), "(column 17)") != NULL);
	T_EQ_INT(fw_run(fw, "delete x"), -EINVAL);
	T_STREQ(fw_diag_str(&fw_d, b, sizeof(b)), "invalid rule number 'x' (1..65535 or N-M) (column 8)");
	/* a state error after a text error: no column left over from the first */
	T_EQ_INT(fw_run(fw, "delete 150"), -EINVAL);
	T_STREQ(fw_diag_str(&fw_d, b, sizeof(b)), "rule 150 not found");

	char path[] = "/tmp/t_fw_cmd.XXXXXX";
	int fd = mkstemp(path);
	T_TRUE(fd >= 0);
	if (fd >= 0) {
		FILE *f = fdopen(fd, "w");
		fputs("add 300 count ip from any to any\ndelete 150\n", f);
		fclose(f);
		struct fw_diag d = { 0 };
		T_TRUE(fw_load_file(fw, path, &d) < 0);
		char want[128];
		snprintf(want, sizeof(want), "%s:2:8: rule 150 not found", path);
		T_STREQ(fw_diag_str(&d, b, sizeof(b)), want);
		unlink(path);
	}
	fw_free(fw);
}

int main(void)
{
	T_RUN(t_autoincrement);
	T_RUN(t_same_number_keeps_insertion_order);
	T_RUN(t_zero);
	T_RUN(t_delete_and_flush);
	T_RUN(t_show_widths);
	T_RUN(t_show_ranges_and_missing);
	T_RUN(t_show_times);
	T_RUN(t_output_truncated);
	T_RUN(t_tunable_commands);
	T_RUN(t_rule_text_and_stats);
	T_RUN(t_new_checks_its_arguments);
	T_RUN(t_message_columns);
	return t_done();
}
