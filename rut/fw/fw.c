/* SPDX-License-Identifier: BSD-2-Clause */
/* fw.c — the firewall's ruleset (struct fw_rules, fw_impl.h) and its handle: storage in
 * (number, insertion) order ending with rule 65535, insertion, removal, sorting after
 * out-of-order loads, the scan index and skipto targets (fw_rules_finish), tunables,
 * per-rule statistics. Called by fw_cmd.c (the ipfw commands and rule files), by the
 * forwarder (fw_new, fw_tunables, fw_rule_stats...) and by the tests.
 *
 * The arrays are parallel (hot prefilters, cold rules, counters) so that each is dense
 * for whoever walks it. A file load works on a copy of the arrays (the rules' compiled
 * tests are shared, not copied), appending out of order if it must and sorting once at
 * the end; rules removed from such a copy go to a "grave" and are freed only when the
 * load commits, since the live set may still own them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "fw_impl.h"
#include "fw_dyn.h"
#include "fw_lang.h"
#include "fw_lpm.h"
#include "fw_out.h"
#include "qsbr.h"

/* ---- sets ---- */

static int set_reserve(struct fw_rules *s, int need)
{
	if (need <= s->cap)
		return 0;
	int cap = s->cap ? s->cap : 64;
	while (cap < need)
		cap *= 2;
	struct fw_hot *h = realloc(s->hot, (size_t)cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	s->hot = h;
	struct fw_rule *r = realloc(s->rule, (size_t)cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	s->rule = r;
	struct fw_blk *b = realloc(s->blk, (size_t)(cap + FW_BLK - 1) / FW_BLK * sizeof(*b));
	if (!b)
		return -ENOMEM;
	s->blk = b;
	struct fw_cand *k = realloc(s->cand, (size_t)cap * sizeof(*k));
	if (!k)
		return -ENOMEM;
	s->cand = k;
	s->cap = cap;
	return 0;
}

void fw_rules_free(struct fw_rules *s)
{
	free(s->blk);
	free(s->cand);
	free(s->arena);
	free(s->hot);
	free(s->rule);
	memset(s, 0, sizeof(*s));
}

/* A set holding only rule 65535 */
int fw_rules_init(struct fw *fw, struct fw_rules *s)
{
	memset(s, 0, sizeof(*s));
	int64_t slot = fw_slot_new(fw, 0);
	if (slot < 0 || set_reserve(s, 64)) {
		if (slot >= 0)
			fw_slot_free(fw, (uint32_t)slot);
		return -ENOMEM;
	}
	memset(&s->hot[0], 0, sizeof(s->hot[0]));
	memset(&s->rule[0], 0, sizeof(s->rule[0]));
	s->rule[0].slot = (uint32_t)slot;
	s->hot[0].number = FW_DEFAULT_RULE;
	s->hot[0].action = FW_A_DEFAULT;
	s->hot[0].spspan = s->hot[0].dpspan = FW_NO_PORT;
	s->n = 1;
	s->sorted = true;
	fw_rules_finish(s);
	return 0;
}

int fw_rules_clone(struct fw_rules *dst, const struct fw_rules *src)
{
	memset(dst, 0, sizeof(*dst));
	if (set_reserve(dst, src->n + 64)) {
		fw_rules_free(dst);
		return -ENOMEM;
	}
	memcpy(dst->hot, src->hot, (size_t)src->n * sizeof(*dst->hot));
	memcpy(dst->rule, src->rule, (size_t)src->n * sizeof(*dst->rule));
	dst->arena = NULL;   /* built by fw_rules_finish() when the copy is committed */
	dst->arena_cap = 0;
	dst->n = src->n;
	dst->sorted = src->sorted;
	dst->seq_next = src->seq_next;
	return 0;
}

/* The number of the last rule before 65535 (0 if none): `prev` of automatic numbering
 * (docs/design/ipfw.md#rule-numbers) */
uint32_t fw_rules_last_number(const struct fw_rules *s)
{
	if (s->sorted)
		return s->n > 1 ? s->hot[s->n - 2].number : 0;
	uint32_t m = 0;
	for (int i = 0; i < s->n - 1; i++)
		if (s->hot[i].number > m)
			m = s->hot[i].number;
	return m;
}

struct order {
	uint32_t number, seq;
	int idx;
};

static int cmp_order(const void *a, const void *b)
{
	const struct order *x = a, *y = b;
	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Stable order by (number, insertion) after out-of-order appends. */
int fw_rules_sort(struct fw_rules *s)
{
	if (s->sorted)
		return 0;
	int n = s->n - 1;   /* rule 65535 stays last */
	struct order *o = malloc((size_t)n * sizeof(*o));
	struct fw_hot *h = malloc((size_t)s->cap * sizeof(*h));
	struct fw_rule *r = malloc((size_t)s->cap * sizeof(*r));
	if (!o || !h || !r) {
		free(o);
		free(h);
		free(r);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		o[i] = (struct order){ s->hot[i].number, s->rule[i].seq, i };
	qsort(o, (size_t)n, sizeof(*o), cmp_order);
	for (int i = 0; i <= n; i++) {
		int from = i < n ? o[i].idx : n;
		h[i] = s->hot[from];
		r[i] = s->rule[from];
	}
	free(o);
	free(s->hot);
	free(s->rule);
	s->hot = h;
	s->rule = r;
	s->sorted = true;
	return 0;
}

/* first index whose number is >= num (the default rule bounds every search) */
int fw_rules_lower_bound(const struct fw_rules *s, uint32_t num)
{
	int lo = 0, hi = s->n - 1;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (s->hot[mid].number < num)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void fw_rules_finish(struct fw_rules *s)
{
	static _Atomic uint32_t gens;
	s->gen = ++gens;   /* indexes cached by dynamic states are stale from here */
	int total = 0;
	for (int i = 0; i < s->n; i++)
		total += s->hot[i].nprog;
	if (total > s->arena_cap) {
		struct fw_insn *a = realloc(s->arena, (size_t)total * sizeof(*a));
		if (a) {
			s->arena = a;
			s->arena_cap = total;
		}
	}
	bool in_arena = total <= s->arena_cap;
	for (int i = 0, at = 0; i < s->n; i++) {
		const struct fw_hot *h = &s->hot[i];
		const struct fw_rule *r = &s->rule[i];
		struct fw_cand *c = &s->cand[i];
		c->nprog = h->nprog;
		c->action = h->action;
		c->log = h->log;
		c->number = h->number;
		c->prog = h->nprog ? r->insn + r->nlist : NULL;
		if (h->nprog && in_arena) {
			memcpy(&s->arena[at], c->prog, h->nprog * sizeof(*s->arena));
			c->prog = &s->arena[at];
			at += h->nprog;
		}
	}
	for (int b = 0; b < (s->n + FW_BLK - 1) / FW_BLK; b++) {
		struct fw_blk *k = &s->blk[b];
		k->ports = 0;
		for (int l = 0; l < FW_BLK; l++) {
			int i = b * FW_BLK + l, v = l / 4, e = l % 4;
			struct fw_hot never = { .saddr = 1, .spspan = FW_NO_PORT, .dpspan = FW_NO_PORT };
			/* past the end: (src & 0) ^ 1 is never 0 */
			const struct fw_hot *h = i < s->n ? &s->hot[i] : &never;
			k->saddr[v][e] = h->saddr;
			k->smask[v][e] = h->smask;
			k->daddr[v][e] = h->daddr;
			k->dmask[v][e] = h->dmask;
			k->kval[v][e] = h->kval;
			k->kmask[v][e] = h->kmask;
			k->splo[v][e] = h->splo;
			k->spspan[v][e] = h->spspan ^ 0x80000000u;
			k->dplo[v][e] = h->dplo;
			k->dpspan[v][e] = h->dpspan ^ 0x80000000u;
			k->ports |= (h->spspan != FW_NO_PORT) | (h->dpspan != FW_NO_PORT);
		}
	}
	/* skipto never goes backwards. FreeBSD (2013): a target <= the rule's own number
	 * becomes number+1, then the first rule numbered >= target. Older ipfw2 and
	 * DragonFly: search forward from the next rule for the first numbered >= target,
	 * so a backward target lands on the very next rule (vector T14 of
	 * docs/design/ipfw.md#rule-matching-test-vectors). */
	for (int i = 0; i < s->n; i++) {
		if (s->hot[i].action != FW_A_SKIPTO)
			continue;
		uint32_t num = s->hot[i].number, t = s->rule[i].skipto;
		s->rule[i].skip_fb = (uint32_t)fw_rules_lower_bound(s, t <= num ? num + 1 : t);
		int df = fw_rules_lower_bound(s, t);
		s->rule[i].skip_df = (uint32_t)(df > i ? df : i + 1);
	}
}

/* Appends before rule 65535; the set stays sorted only if the number keeps order. */
int fw_rules_push(struct fw_rules *s, const struct fw_compiled *c, uint32_t number)
{
	if (set_reserve(s, s->n + 1))
		return -ENOMEM;
	int at = s->n - 1;
	if (at > 0 && s->hot[at - 1].number > number)
		s->sorted = false;
	s->hot[at + 1] = s->hot[at];
	s->rule[at + 1] = s->rule[at];
	s->hot[at] = c->hot;
	s->hot[at].number = number;
	s->rule[at] = c->rule;
	s->rule[at].seq = s->seq_next++;
	s->n++;
	return 0;
}

/* Inserts after the existing rules with the same number (docs/design/ipfw.md#rule-numbers)
 * in a sorted set.
 * Returns the new rule's index or -ENOMEM. */
int fw_rules_insert(struct fw_rules *s, const struct fw_compiled *c, uint32_t number)
{
	if (set_reserve(s, s->n + 1))
		return -ENOMEM;
	int at = fw_rules_lower_bound(s, number + 1);
	int tail = s->n - at;
	memmove(&s->hot[at + 1], &s->hot[at], (size_t)tail * sizeof(*s->hot));
	memmove(&s->rule[at + 1], &s->rule[at], (size_t)tail * sizeof(*s->rule));
	s->hot[at] = c->hot;
	s->hot[at].number = number;
	s->rule[at] = c->rule;
	s->rule[at].seq = s->seq_next++;
	s->n++;
	return at;
}

void fw_rule_release(struct fw *fw, const struct fw_rule *r)
{
	free(r->insn);
	fw_slot_free(fw, r->slot);
}

/* Rules removed from a staged set are freed only when the set commits and no thread
 * reads the one they were in. */
void fw_grave_bury(struct fw_grave *g, const struct fw_rule *r)
{
	if (g->n == g->cap) {
		int cap = g->cap ? 2 * g->cap : 64;
		struct fw_rule *nr = realloc(g->r, (size_t)cap * sizeof(*nr));
		if (!nr) {
			/* cannot defer: leak rather than free what the live set may use */
			return;
		}
		g->r = nr;
		g->cap = cap;
	}
	g->r[g->n++] = *r;
}

/* Removes the user rules numbered num (all user rules when num is 0). Returns how many. */
int fw_rules_remove(struct fw_rules *s, uint32_t num, struct fw_grave *g)
{
	return num ? fw_rules_remove_range(s, num, num, g) : fw_rules_remove_range(s, 0, 0, g);
}

/* ... numbered lo..hi; 0..0 is every user rule (ipfw's IPFW_RCFLAG_ALL) */
int fw_rules_remove_range(struct fw_rules *s, uint32_t lo, uint32_t hi, struct fw_grave *g)
{
	int j = 0, removed = 0;
	bool all = !lo && !hi;
	for (int i = 0; i < s->n; i++) {
		bool kill = s->hot[i].action != FW_A_DEFAULT &&
			    (all || (s->hot[i].number >= lo && s->hot[i].number <= hi));
		if (kill) {
			fw_grave_bury(g, &s->rule[i]);
			removed++;
			continue;
		}
		if (j != i) {
			s->hot[j] = s->hot[i];
			s->rule[j] = s->rule[i];
		}
		j++;
	}
	s->n = j;
	return removed;
}

int fw_rules_zero(struct fw *fw, struct fw_rules *s, int i, bool counters, struct fw_grave *g)
{
	const struct fw_rule *r = &s->rule[i];
	if (!g) {
		fw_slot_zero(fw, r->slot, counters, r->log_max);
		return 0;
	}
	if (g->nz == g->capz) {
		int cap = g->capz ? 2 * g->capz : 64;
		void *nz = realloc(g->z, (size_t)cap * sizeof(*g->z));
		if (!nz)
			return -ENOMEM;
		g->z = nz;
		g->capz = cap;
	}
	g->z[g->nz].slot = r->slot;
	g->z[g->nz].log_max = r->log_max;
	g->z[g->nz++].counters = counters;
	return 0;
}

/* ---- counters ---- */

static struct fw_cline *chunk_new(int nviews)
{
	struct fw_cline *c = aligned_alloc(64, (size_t)nviews * FW_CCHUNK * sizeof(*c));
	if (c)
		memset(c, 0, (size_t)nviews * FW_CCHUNK * sizeof(*c));
	return c;
}

static int64_t slot_take(struct fw *fw);

int64_t fw_slot_new(struct fw *fw, uint32_t log_max)
{
	struct fw_cstore *cs = &fw->cs;
	pthread_mutex_lock(&cs->lock);
	int64_t slot = slot_take(fw);
	pthread_mutex_unlock(&cs->lock);
	/* a freed slot is reused only after every thread stopped writing it (its rule was
	 * released after the grace period) */
	if (slot >= 0)
		fw_slot_zero(fw, (uint32_t)slot, true, log_max);
	return slot;
}

static int64_t slot_take(struct fw *fw)
{
	struct fw_cstore *cs = &fw->cs;
	uint32_t slot;
	if (cs->nfree) {
		slot = cs->freel[--cs->nfree];
	} else {
		if (cs->next >= (uint32_t)FW_CCHUNKS * FW_CCHUNK)
			return -ENOSPC;
		slot = cs->next;
		if (!atomic_load_explicit(&cs->chunk[slot / FW_CCHUNK], memory_order_relaxed)) {
			struct fw_cline *c = chunk_new(cs->nviews);
			if (!c)
				return -ENOMEM;
			atomic_store_explicit(&cs->chunk[slot / FW_CCHUNK], c, memory_order_release);
		}
		cs->next++;
	}
	return slot;
}

void fw_slot_free(struct fw *fw, uint32_t slot)
{
	struct fw_cstore *cs = &fw->cs;
	pthread_mutex_lock(&cs->lock);
	if (cs->nfree == cs->capfree) {
		uint32_t cap = cs->capfree ? 2 * cs->capfree : 256;
		uint32_t *f = realloc(cs->freel, cap * sizeof(*f));
		if (!f) {
			pthread_mutex_unlock(&cs->lock);
			return;   /* the slot is lost, not reused too early */
		}
		cs->freel = f;
		cs->capfree = cap;
	}
	cs->freel[cs->nfree++] = slot;
	pthread_mutex_unlock(&cs->lock);
}

void fw_slot_zero(struct fw *fw, uint32_t slot, bool counters, uint32_t log_max)
{
	for (int v = 0; v < fw->cs.nviews; v++) {
		struct fw_cline *c = fw_cline(&fw->cs, slot, v);
		if (counters) {
			atomic_store_explicit(&c->pkts, 0, memory_order_relaxed);
			atomic_store_explicit(&c->bytes, 0, memory_order_relaxed);
			atomic_store_explicit(&c->last_s, 0, memory_order_relaxed);
		}
		if (!v)
			atomic_store_explicit(&c->log_left, log_max, memory_order_relaxed);
	}
}

void fw_slot_read(const struct fw *fw, uint32_t slot, struct fw_ctr *out)
{
	memset(out, 0, sizeof(*out));
	for (int v = 0; v < fw->cs.nviews; v++) {
		const struct fw_cline *c = fw_cline(&fw->cs, slot, v);
		out->pkts += atomic_load_explicit(&c->pkts, memory_order_relaxed);
		out->bytes += atomic_load_explicit(&c->bytes, memory_order_relaxed);
		uint64_t t = atomic_load_explicit(&c->last_s, memory_order_relaxed);
		if (t > out->last_s)
			out->last_s = t;
	}
}

int fw_set_threads(struct fw *fw, int n)
{
	struct fw_cstore *cs = &fw->cs;
	if (n < 1 || n > FW_MAX_THREADS)
		return -EINVAL;
	int nv = 1 + n;
	if (nv == cs->nviews)
		return 0;
	/* before any traffic: the chunks are copied into ones with the new views */
	int keep = cs->nviews < nv ? cs->nviews : nv;
	for (int k = 0; k < FW_CCHUNKS; k++) {
		struct fw_cline *old = atomic_load_explicit(&cs->chunk[k], memory_order_relaxed);
		if (!old)
			continue;
		struct fw_cline *c = chunk_new(nv);
		if (!c)
			return -ENOMEM;
		memcpy(c, old, (size_t)keep * FW_CCHUNK * sizeof(*c));
		atomic_store_explicit(&cs->chunk[k], c, memory_order_release);
		free(old);
	}
	cs->nviews = nv;
	fw->nthreads = n;
	return 0;
}

void fw_set_qsbr(struct fw *fw, struct qsbr *q, int self)
{
	fw->qsbr = q;
	fw->qsbr_self = self;
}

void fw_retire(struct fw *fw, void (*fn)(void *), void *arg)
{
	if (fw->qsbr)
		qsbr_retire(fw->qsbr, fw->qsbr_self, fn, arg);
	else
		fn(arg);
}

const struct fw_rules *fw_rules_get(const struct fw *fw)
{
	return atomic_load_explicit(&fw->rules, memory_order_acquire);
}

/* ---- the handle ---- */

int fw_set_local6(struct fw *fw, const uint8_t *addrs, int n)
{
	uint8_t *a = n ? malloc((size_t)n * 16) : NULL;
	if (n && !a)
		return -ENOMEM;
	if (n)
		memcpy(a, addrs, (size_t)n * 16);
	free(fw->local6);
	fw->local6 = a;
	fw->nlocal6 = n;
	return 0;
}

struct fw *fw_new(const char *const *if_names, int n_ifs, const uint32_t *local_addrs,
		  int n_local)
{
	if (n_ifs < 0 || n_ifs > FW_MAX_IFS || n_local < 0 || (n_ifs && !if_names) ||
	    (n_local && !local_addrs)) {
		errno = EINVAL;
		return NULL;
	}
	struct fw *fw = calloc(1, sizeof(*fw));
	if (!fw)
		return NULL;
	fw->cs.nviews = 2;   /* one forwarding thread until fw_set_threads */
	pthread_mutex_init(&fw->cs.lock, NULL);
	fw->nthreads = 1;
	for (int i = 0; i < n_ifs; i++) {
		if (!if_names[i] || strlen(if_names[i]) >= FW_IFNAMSIZ) {
			free(fw);
			errno = EINVAL;
			return NULL;
		}
		strcpy(fw->ifname[i], if_names[i]);
	}
	fw->nifs = n_ifs;
	if (n_local) {
		fw->local = malloc((size_t)n_local * sizeof(*fw->local));
		if (!fw->local) {
			free(fw);
			return NULL;
		}
		memcpy(fw->local, local_addrs, (size_t)n_local * sizeof(*fw->local));
		fw->nlocal = n_local;
	}
	/* FreeBSD/DragonFly defaults; update_counters and counters are this project's
	 * extensions; the dynamic states' are FreeBSD 14's ipfw_dyn_init() */
	struct fw_tunables *t = &fw->tun;
	atomic_init(&t->enable, true);
	atomic_init(&t->update_counters, true);
	atomic_init(&t->default_to_accept, false);
	atomic_init(&t->autoinc_step, 100);
	atomic_init(&t->verbose, false);
	atomic_init(&t->verbose_limit, 0);
	atomic_init(&t->one_pass, true);
	atomic_init(&t->skipto_dragonfly, false);
	atomic_init(&t->counters, FW_CTR_PERCPU);
	atomic_init(&t->dyn_buckets, 8192);
	atomic_init(&t->dyn_max, 16384);
	atomic_init(&t->dyn_parent_max, 4096);
	atomic_init(&t->dyn_ack_lifetime, 300);
	atomic_init(&t->dyn_syn_lifetime, 20);
	atomic_init(&t->dyn_fin_lifetime, 1);
	atomic_init(&t->dyn_rst_lifetime, 1);
	atomic_init(&t->dyn_udp_lifetime, 10);
	atomic_init(&t->dyn_short_lifetime, 5);
	atomic_init(&t->dyn_keepalive, 1);
	atomic_init(&t->dyn_keepalive_period, 5);
	atomic_init(&t->reply_limit, 0);
	fw->dyn = fw_dyn_new();
	struct fw_rules *rs = calloc(1, sizeof(*rs));
	if (rs && fw_rules_init(fw, rs)) {
		free(rs);
		rs = NULL;
	}
	atomic_init(&fw->rules, rs);
	if (!fw->dyn || !rs || fw_state_name(fw, "any", true) != 0 ||
	    fw_state_name(fw, "default", true) != 1) {
		fw_free(fw);
		errno = ENOMEM;
		return NULL;
	}
	return fw;
}

int fw_state_name(struct fw *fw, const char *name, bool create)
{
	for (int i = 0; i < fw->nsnames; i++)
		if (!strcmp(fw->sname[i], name))
			return i;
	if (!create)
		return -ENOENT;
	if (fw->nsnames == FW_MAX_SNAMES)
		return -ENOSPC;
	char *s = strdup(name);
	if (!s)
		return -ENOMEM;
	fw->sname[fw->nsnames] = s;
	return fw->nsnames++;
}

const char *fw_state_name_str(const struct fw *fw, int idx)
{
	return idx >= 0 && idx < fw->nsnames ? fw->sname[idx] : "?";
}

void fw_set_uptime(struct fw *fw, uint32_t uptime_s)
{
	/* written by every forwarding thread: a store only when the second changed, so
	 * the line stays shared between the CPUs */
	if (atomic_load_explicit(&fw->uptime, memory_order_relaxed) != uptime_s)
		atomic_store_explicit(&fw->uptime, uptime_s, memory_order_relaxed);
}

void fw_free(struct fw *fw)
{
	if (!fw)
		return;
	struct fw_rules *rs = atomic_load_explicit(&fw->rules, memory_order_relaxed);
	if (rs) {
		for (int i = 0; i < rs->n; i++)
			free(rs->rule[i].insn);
		fw_rules_free(rs);
		free(rs);
	}
	for (int i = 0; i < FW_MAX_TABLES; i++)
		fw_table_destroy(fw, i);
	fw_dyn_free(fw->dyn);
	for (int i = 0; i < fw->nsnames; i++)
		free(fw->sname[i]);
	for (int k = 0; k < FW_CCHUNKS; k++)
		free(atomic_load_explicit(&fw->cs.chunk[k], memory_order_relaxed));
	free(fw->cs.freel);
	pthread_mutex_destroy(&fw->cs.lock);
	free(fw->local);
	free(fw->local6);
	free(fw);
}

struct fw_tunables *fw_tunables(struct fw *fw)
{
	return &fw->tun;
}

void fw_set_if_addrs(struct fw *fw, const uint32_t *if_addrs, int n_ifs)
{
	for (int i = 0; i < FW_MAX_IFS; i++)
		fw->ifaddr[i] = i < n_ifs ? if_addrs[i] : 0;
}

void fw_set_log(struct fw *fw, fw_log_fn fn, void *arg)
{
	fw->log_fn = fn;
	fw->log_arg = arg;
}

void fw_set_now(struct fw *fw, uint64_t now_s)
{
	if (atomic_load_explicit(&fw->now_s, memory_order_relaxed) != now_s)
		atomic_store_explicit(&fw->now_s, now_s, memory_order_relaxed);
}

uint32_t fw_autoinc_step(const struct fw *fw)
{
	uint32_t s = fw->tun.autoinc_step;
	return s < 1 ? 1 : s > 1000 ? 1000 : s;   /* clamped as BSD's sysctl handler does */
}

int fw_rule_count(const struct fw *fw)
{
	return fw_rules_get(fw)->n;
}

int fw_rule_stats(const struct fw *fw, int idx, struct fw_rule_stats *st)
{
	const struct fw_rules *rs = fw_rules_get(fw);
	if (idx < 0 || idx >= rs->n)
		return -ENOENT;
	struct fw_ctr c;
	fw_slot_read(fw, rs->rule[idx].slot, &c);
	st->number = rs->hot[idx].number;
	st->pkts = c.pkts;
	st->bytes = c.bytes;
	st->last_match_s = c.last_s;
	return 0;
}

int fw_rule_text(const struct fw *fw, int idx, char *buf, size_t len)
{
	if (idx < 0 || idx >= fw_rules_get(fw)->n)
		return -ENOENT;
	return fw_list_body(fw, idx, buf, len);
}

const char *fw_diag_str(const struct fw_diag *d, char *buf, size_t len)
{
	if (d->line > 0)
		snprintf(buf, len, "%s:%d:%d: %s", d->file[0] ? d->file : "-", d->line, d->col,
			 d->msg);
	else if (d->col > 0 && !d->kernel)
		snprintf(buf, len, "%s (column %d)", d->msg, d->col);
	else
		snprintf(buf, len, "%s", d->msg);
	return buf;
}

