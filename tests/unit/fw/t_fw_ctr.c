/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fw_ctr.c — the firewall with several forwarding threads (fw.h, qsbr.h): rule
 * counters per thread (net.inet.ip.fw.counters=percpu, summed when read) or shared
 * (one per rule, written by every thread), switching between them loses nothing, a
 * deleted rule's counters are not inherited by the next; then real threads: percpu
 * counts are exact, a rule set replaced under them never gives a pass two sets (both
 * passes of a packet on one snapshot, as the forwarder does per burst), and dynamic
 * states installed by two threads at once while the hash grows are one per flow. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fw_impl.h"
#include "fw_util.h"
#include "qsbr.h"

static uint64_t pkts_of(struct fw *fw, uint32_t number)
{
	for (int i = 0; i < fw_rule_count(fw); i++) {
		struct fw_rule_stats st;
		fw_rule_stats(fw, i, &st);
		if (st.number == number)
			return st.pkts;
	}
	return UINT64_MAX;
}

/* the counters of rule `number` in one view */
static uint64_t view_pkts(struct fw *fw, uint32_t number, int view)
{
	const struct fw_rules *rs = fw_rules_get(fw);
	for (int i = 0; i < rs->n; i++)
		if (rs->hot[i].number == number)
			return atomic_load(&fw_cline(&fw->cs, rs->rule[i].slot, view)->pkts);
	return UINT64_MAX;
}

static void pass_both(struct fw *fw, const struct fw_rules *rs, struct fw_pkt p)
{
	struct fw_match m;
	struct fw_pkt in = fw_pass(p, true, EM0, -1), out = fw_pass(p, false, EM0, EM1);
	fw_eval_rs(fw, rs, &in, &m);
	fw_eval_rs(fw, rs, &out, &m);
}

static void t_views(void)
{
	struct fw *fw = fw_mk();
	T_EQ_INT(fw_set_threads(fw, 2), 0);
	T_EQ_INT(fw_set_threads(fw, 0), -EINVAL);
	FW_OK(fw, "add 100 count ip from any to any");
	FW_OK(fw, "add 200 allow ip from any to any");
	struct fw_pkt p = fw_pk(17, "198.18.0.2", 9, "198.19.0.2", 9);
	/* percpu (the default): each thread its own view */
	T_EQ_U64(fw_tunables(fw)->counters, FW_CTR_PERCPU);
	p.tid = 0;
	for (int k = 0; k < 3; k++)
		pass_both(fw, fw_rules_get(fw), p);
	p.tid = 1;
	for (int k = 0; k < 5; k++)
		pass_both(fw, fw_rules_get(fw), p);
	T_EQ_U64(view_pkts(fw, 100, 0), 0);
	T_EQ_U64(view_pkts(fw, 100, 1), 6);
	T_EQ_U64(view_pkts(fw, 100, 2), 10);
	T_EQ_U64(pkts_of(fw, 100), 16);   /* two passes each */
	/* shared: every thread the one view; the sum goes on from where it was */
	fw_tunables(fw)->counters = FW_CTR_SHARED;
	p.tid = 0;
	pass_both(fw, fw_rules_get(fw), p);
	p.tid = 1;
	pass_both(fw, fw_rules_get(fw), p);
	T_EQ_U64(view_pkts(fw, 100, 0), 4);
	T_EQ_U64(view_pkts(fw, 100, 2), 10);
	T_EQ_U64(pkts_of(fw, 100), 20);
	/* the listing sums them too */
	FW_OK(fw, "show 100");
	FW_TEXT(fw_out(), "00100 20 2000 count ip from any to any\n");
	/* zero clears every view */
	FW_OK(fw, "zero 100");
	T_EQ_U64(pkts_of(fw, 100), 0);
	T_EQ_U64(pkts_of(fw, 200), 20);
	/* a rule added after a deletion starts from 0 (its slot is reused only once no
	 * thread can write the old one: here at once, there is no reclamation) */
	FW_OK(fw, "delete 200");
	FW_OK(fw, "add 300 allow ip from any to any");
	T_EQ_U64(pkts_of(fw, 300), 0);
	/* a thread id beyond the views counts into the shared one */
	fw_tunables(fw)->counters = FW_CTR_PERCPU;
	p.tid = 7;
	pass_both(fw, fw_rules_get(fw), p);
	T_EQ_U64(view_pkts(fw, 300, 0), 2);
	fw_free(fw);
}

/* counters survive the replacement of the set around their rule, and a file's zero
 * waits for its commit */
static void t_replaced_sets(void)
{
	struct fw *fw = fw_mk();
	FW_OK(fw, "add 100 count ip from any to any");
	FW_OK(fw, "add 200 allow ip from any to any");
	struct fw_pkt p = fw_pk(17, "198.18.0.2", 9, "198.19.0.2", 9);
	pass_both(fw, fw_rules_get(fw), p);
	const struct fw_rules *before = fw_rules_get(fw);
	FW_OK(fw, "add 150 count ip from any to any");
	T_TRUE(fw_rules_get(fw) != before);   /* a new set */
	T_EQ_U64(pkts_of(fw, 100), 2);
	T_EQ_U64(pkts_of(fw, 150), 0);
	/* a failing file changes nothing, its zero included */
	char path[64];
	int fd = memfd_create("rules", 0);
	const char *bad = "zero 100\nadd 400 allow ip from any to nowhere\n";
	T_TRUE(write(fd, bad, strlen(bad)) == (ssize_t)strlen(bad));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct fw_diag d = { 0 };
	T_TRUE(fw_load_file(fw, path, &d) < 0);
	T_EQ_U64(pkts_of(fw, 100), 2);
	close(fd);
	fd = memfd_create("rules", 0);
	const char *good = "zero 100\nadd 400 allow ip from any to any\n";
	T_TRUE(write(fd, good, strlen(good)) == (ssize_t)strlen(good));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	T_EQ_INT(fw_load_file(fw, path, &d), 0);
	T_EQ_U64(pkts_of(fw, 100), 0);
	T_EQ_U64(pkts_of(fw, 400), 0);
	close(fd);
	fw_free(fw);
}

/* ---- real threads ---- */

#define NTHR 2
#define PKTS 200000

struct thr {
	struct fw *fw;
	struct qsbr *q;
	int id, nflows;
};

static _Atomic int finished;   /* evaluating threads that are done */

static void *eval_thread(void *arg)
{
	struct thr *t = arg;
	struct fw_pkt p = fw_pk(17, "198.18.0.2", 1000, "198.19.0.2", 9);
	p.tid = (uint8_t)t->id;
	for (int k = 0; k < PKTS; k++) {
		/* a burst of 32 packets on one set, then a quiescent point */
		if (k % 32 == 0 && t->q)
			qsbr_quiescent(t->q, t->id);
		static _Thread_local const struct fw_rules *rs;
		if (k % 32 == 0)
			rs = fw_rules_get(t->fw);
		p.sport = (uint16_t)(1000 + k % (t->nflows ? t->nflows : 1));
		pass_both(t->fw, rs, p);
	}
	if (t->q)
		qsbr_offline(t->q, t->id);
	atomic_fetch_add(&finished, 1);
	return NULL;
}

static void run_threads(struct fw *fw, struct qsbr *q, int nflows, void (*meanwhile)(struct fw *))
{
	pthread_t th[NTHR];
	struct thr t[NTHR];
	atomic_store(&finished, 0);
	for (int i = 0; i < NTHR; i++) {
		t[i] = (struct thr){ .fw = fw, .q = q, .id = i, .nflows = nflows };
		pthread_create(&th[i], NULL, eval_thread, &t[i]);
	}
	if (meanwhile)
		meanwhile(fw);
	for (int i = 0; i < NTHR; i++)
		pthread_join(th[i], NULL);
}

static void t_percpu_exact(void)
{
	struct fw *fw = fw_mk();
	fw_set_threads(fw, NTHR);
	FW_OK(fw, "add 100 count ip from any to any");
	FW_OK(fw, "add 200 allow ip from any to any");
	run_threads(fw, NULL, 0, NULL);
	T_EQ_U64(pkts_of(fw, 100), 2ull * NTHR * PKTS);
	T_EQ_U64(pkts_of(fw, 200), 2ull * NTHR * PKTS);
	/* shared: racy increments, as FreeBSD 9's; at most what was counted */
	FW_OK(fw, "zero");
	fw_tunables(fw)->counters = FW_CTR_SHARED;
	run_threads(fw, NULL, 0, NULL);
	uint64_t got = pkts_of(fw, 100), want = 2ull * NTHR * PKTS;
	T_TRUE(got <= want && got > 0);
	printf("# shared counters: %llu of %llu increments kept (%.3f %% lost to races)\n",
	       (unsigned long long)got, (unsigned long long)want, 100.0 * (double)(want - got) / (double)want);
	fw_free(fw);
}

static const char *swap_path[2];

static void swapper(struct fw *fw)
{
	struct fw_diag d;
	for (int k = 0; k < 400; k++) {
		memset(&d, 0, sizeof(d));
		if (fw_load_file(fw, swap_path[k & 1], &d))
			T_FAIL("load: %s", d.msg);
		qsbr_reclaim(fw->qsbr);
		sched_yield();
	}
}

static void t_swap_under_load(void)
{
	struct fw *fw = fw_mk();
	struct qsbr q;
	qsbr_init(&q, NTHR + 1);
	qsbr_offline(&q, NTHR);   /* the commands' thread reads between commands only */
	fw_set_threads(fw, NTHR);
	fw_set_qsbr(fw, &q, NTHR);
	FW_OK(fw, "add 100 skipto 1000 ip from any to any");
	FW_OK(fw, "add 1000 count ip from any to any in");
	FW_OK(fw, "add 1010 count ip from any to any out");
	FW_OK(fw, "add 1020 allow ip from any to any");
	FW_OK(fw, "add 2000 count ip from any to any in");
	FW_OK(fw, "add 2010 count ip from any to any out");
	FW_OK(fw, "add 2020 allow ip from any to any");
	char pa[2][64];
	int fds[2];
	for (int k = 0; k < 2; k++) {
		char text[128];
		snprintf(text, sizeof(text), "delete 100\nadd 100 skipto %d ip from any to any\n",
			 k ? 2000 : 1000);
		fds[k] = memfd_create("rules", 0);
		T_TRUE(write(fds[k], text, strlen(text)) == (ssize_t)strlen(text));
		snprintf(pa[k], sizeof(pa[k]), "/proc/self/fd/%d", fds[k]);
		swap_path[k] = pa[k];
	}
	run_threads(fw, &q, 0, swapper);
	uint64_t a_in = pkts_of(fw, 1000), a_out = pkts_of(fw, 1010);
	uint64_t b_in = pkts_of(fw, 2000), b_out = pkts_of(fw, 2010);
	T_EQ_U64(a_in, a_out);
	T_EQ_U64(b_in, b_out);
	T_EQ_U64(a_in + b_in, (uint64_t)NTHR * PKTS);
	T_TRUE(a_in > 0 && b_in > 0);
	printf("# 400 rule sets under %d threads: %llu packets on skipto 1000, %llu on 2000, "
	       "none split\n", NTHR, (unsigned long long)a_in, (unsigned long long)b_in);
	qsbr_fini(&q);
	close(fds[0]);
	close(fds[1]);
	fw_free(fw);
}

/* the once-a-second work, a "second" every 0.2 ms, until the threads are done */
static void maintainer(struct fw *fw)
{
	for (uint32_t t = 1; t < 200 || atomic_load(&finished) < NTHR; t++) {
		fw_set_uptime(fw, t);
		fw_dyn_maintain(fw, 1u << 20);
		qsbr_reclaim(fw->qsbr);
		struct timespec ts = { 0, 200000 };
		nanosleep(&ts, NULL);
	}
}

static void t_states_threads(void)
{
	struct fw *fw = fw_mk();
	struct qsbr q;
	qsbr_init(&q, NTHR + 1);
	qsbr_offline(&q, NTHR);
	fw_set_threads(fw, NTHR);
	fw_set_qsbr(fw, &q, NTHR);
	fw_tunables(fw)->dyn_udp_lifetime = 100000;
	fw_tunables(fw)->dyn_max = 100000;
	FW_OK(fw, "add 100 check-state");
	FW_OK(fw, "add 200 allow udp from any to any keep-state");
	enum { FLOWS = 5000 };
	run_threads(fw, &q, FLOWS, maintainer);
	struct fw_dyn_stats st;
	fw_dyn_stats(fw, &st);
	T_EQ_U64(st.count, FLOWS);   /* both threads installed each flow: one state */
	T_TRUE(st.curr_buckets > 256); /* the hash grew under them */
	/* every pass matched rule 200 (its own or the state's) */
	T_EQ_U64(pkts_of(fw, 200), 2ull * NTHR * PKTS);
	T_EQ_U64(st.denied_nomem, 0);
	printf("# %u states in %u buckets, installed by %d threads\n", st.count, st.curr_buckets, NTHR);
	qsbr_fini(&q);
	fw_free(fw);
}

int main(void)
{
	T_RUN(t_views);
	T_RUN(t_replaced_sets);
	T_RUN(t_percpu_exact);
	T_RUN(t_swap_under_load);
	T_RUN(t_states_threads);
	return t_done();
}
