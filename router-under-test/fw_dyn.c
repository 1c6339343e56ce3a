/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_dyn.c — ipfw's dynamic states (keep-state, record-state, limit, set-limit,
 * check-state), after FreeBSD 14's ip_fw_dynamic.c: a hash of states whose bucket
 * count starts at 256 and grows (dyn_tick: to the next power of two above the state
 * count, at most net.inet.ip.fw.dyn_buckets) when there are more than two states per
 * bucket, or more states than buckets with a chain longer than 8; a symmetric hash of
 * the 5-tuple, so both directions of a flow land in one bucket; lifetimes by protocol
 * and TCP flags (dyn_update_proto_state, dyn_update_tcp_state); expiry once a second
 * by a sweep (dyn_expire_states) — a lookup does not look at the lifetime, so a state
 * matches until the sweep has removed it; `limit` parents that count their sessions
 * (dyn_get_parent_state) and expire dyn_short_lifetime after their last use once they
 * have none. Called by the evaluator (lookup, install), the commands (orphans after a
 * deletion, the `-d` listing) and the forwarder (fw_dyn_maintain).
 *
 * Storage: states in one array (a slab: no allocation per state), chained per bucket
 * by index. For the multi-threaded forwarder to come the bucket is the unit of
 * locking: writers (install, sweep) take the bucket's lock; readers walk a chain
 * without one, as FreeBSD's do, which needs the slab to stop moving (chunks instead of
 * one realloc'ed array) and removed states to be freed only after every reader has
 * left (FreeBSD: hazard pointers; here an epoch per forwarding thread). The lookup
 * writes only the found state's lifetime and counters (as FreeBSD's does, racily). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "fw_impl.h"

enum { DT_KEEP = 1, DT_LIMIT, DT_PARENT };

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04
#define TH_ACK 0x10
#define BOTH_SYN (TH_SYN | (TH_SYN << 8))
#define BOTH_FIN (TH_FIN | (TH_FIN << 8))
#define TCP_FLAGS (0xff | (0xff << 8))
#define ACK_FWD 0x00010000u
#define ACK_REV 0x00020000u
#define ACK_BOTH (ACK_FWD | ACK_REV)
#define TIME_LEQ(a, b) ((int32_t)((a) - (b)) <= 0)
#define TIME_LT(a, b) ((int32_t)((a) - (b)) < 0)

struct dstate {
	uint32_t src, dst;          /* network order, the first packet's */
	uint16_t sport, dport;      /* host order; 0 for packets without ports */
	uint8_t proto, type;
	uint16_t kidx;              /* state name */
	uint32_t next;              /* index + 1 of the next state of the bucket, 0 = end */
	uint32_t hash;
	uint32_t expire;            /* uptime seconds */
	uint32_t state;             /* TCP flags seen (forward low byte, reverse next) */
	uint32_t ack_fwd, ack_rev;
	uint32_t rulenum, ruleid;   /* the parent rule (number and insertion id) */
	uint32_t link;              /* DT_LIMIT: parent index + 1; DT_PARENT: sessions */
	uint32_t cache_gen, cache_idx;
	uint64_t pcnt, bcnt;
};

struct fw_dyn {
	struct dstate *s;
	uint32_t cap, used, free_head;   /* free list through next */
	uint32_t *head, *phead, nb;      /* states and parents, nb buckets */
	uint32_t count, pcount, max_length;
	uint32_t seed;
	bool sweeping;
	uint32_t sweep_pos, sweep_start, sweep_len;
	/* no state expires before min_expire (when min_ok): a second's sweep that could
	 * remove nothing is skipped — FreeBSD walks every state every second, on its
	 * callout's CPU; here that walk would be taken from forwarding */
	bool min_ok;
	uint32_t min_expire, sweep_min;
	uint32_t last_log;
	uint64_t denied_limit, denied_nomem;
};

static inline void note_expire(struct fw_dyn *d, uint32_t e)
{
	if (TIME_LT(e, d->min_expire))
		d->min_expire = e;
	if (d->sweeping && TIME_LT(e, d->sweep_min))
		d->sweep_min = e;
}

static uint32_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return (uint32_t)k;
}

/* commutative in (address, port) of the two ends (ip_fw_dynamic.c hash_packet) */
static uint32_t hash_flow(uint32_t seed, uint32_t a1, uint16_t p1, uint32_t a2, uint16_t p2,
			  uint8_t proto)
{
	uint32_t h1 = ntohl(a1), h2 = ntohl(a2);
	if (h1 > h2 || (h1 == h2 && p1 > p2)) {
		uint32_t t = h1;
		h1 = h2;
		h2 = t;
		uint16_t q = p1;
		p1 = p2;
		p2 = q;
	}
	return mix(((uint64_t)h1 << 32 | h2) ^ ((uint64_t)p1 << 48 | (uint64_t)p2 << 32 | proto) *
		   0x9e3779b97f4a7c15ull ^ seed);
}

static int alloc_buckets(struct fw_dyn *d, uint32_t nb)
{
	uint32_t *h = calloc(nb, sizeof(*h)), *ph = calloc(nb, sizeof(*ph));
	if (!h || !ph) {
		free(h);
		free(ph);
		return -ENOMEM;
	}
	/* relink (dyn_grow_hashtable): chains keep no order worth keeping */
	for (uint32_t b = 0; b < d->nb; b++) {
		for (int list = 0; list < 2; list++) {
			uint32_t i = list ? d->phead[b] : d->head[b];
			while (i) {
				struct dstate *s = &d->s[i - 1];
				uint32_t nx = s->next, nbk = s->hash & (nb - 1);
				uint32_t *dst = list ? ph : h;
				s->next = dst[nbk];
				dst[nbk] = i;
				i = nx;
			}
		}
	}
	free(d->head);
	free(d->phead);
	d->head = h;
	d->phead = ph;
	d->nb = nb;
	return 0;
}

struct fw_dyn *fw_dyn_new(void)
{
	struct fw_dyn *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	d->seed = mix((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 32);
	if (alloc_buckets(d, 256)) {   /* ipfw_dyn_init(): dyn_grow_hashtable(chain, 256) */
		free(d);
		return NULL;
	}
	return d;
}

void fw_dyn_free(struct fw_dyn *d)
{
	if (!d)
		return;
	free(d->s);
	free(d->head);
	free(d->phead);
	free(d);
}

static uint32_t new_state(struct fw_dyn *d)
{
	if (d->free_head) {
		uint32_t i = d->free_head;
		d->free_head = d->s[i - 1].next;
		return i;
	}
	if (d->used == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 1024;
		struct dstate *ns = realloc(d->s, (size_t)cap * sizeof(*ns));
		if (!ns)
			return 0;
		d->s = ns;
		d->cap = cap;
	}
	return ++d->used;
}

static void put_state(struct fw_dyn *d, uint32_t i)
{
	d->s[i - 1].type = 0;
	d->s[i - 1].next = d->free_head;
	d->free_head = i;
}

/* dyn_update_tcp_state(): the new expiry; updates the flags and ACKs */
static uint32_t tcp_expire(struct fw *fw, struct dstate *s, const struct fw_pkt *p, int dir)
{
	struct fw_tunables *t = &fw->tun;
	uint32_t now = fw->uptime, expire = s->expire;
	uint32_t th = p->tcp_flags & (TH_FIN | TH_SYN | TH_RST);
	uint32_t state = s->state | (dir == FW_DYN_FWD ? th : th << 8);
	switch (state & TCP_FLAGS) {
	case TH_SYN:
		expire = now + t->dyn_syn_lifetime;
		break;
	case BOTH_SYN:
	case BOTH_SYN | TH_FIN:
	case BOTH_SYN | (TH_FIN << 8):
		if (p->frag || p->proto != 6)
			break;
		if (dir == FW_DYN_FWD) {
			if (s->ack_fwd == 0 || (int32_t)(p->tcp_ack - s->ack_fwd) >= 0) {
				state |= ACK_FWD;
				s->ack_fwd = p->tcp_ack;
			}
		} else if (s->ack_rev == 0 || (int32_t)(p->tcp_ack - s->ack_rev) >= 0) {
			state |= ACK_REV;
			s->ack_rev = p->tcp_ack;
		}
		if ((state & ACK_BOTH) == ACK_BOTH) {
			/* ACKs seen both ways: established for dyn_ack_lifetime */
			expire = now + t->dyn_ack_lifetime;
			state &= ~ACK_BOTH;
		}
		break;
	case BOTH_SYN | BOTH_FIN:
		/* FreeBSD clamps the tunable itself, visibly in sysctl */
		if (t->dyn_fin_lifetime >= t->dyn_keepalive_period)
			t->dyn_fin_lifetime = t->dyn_keepalive_period - 1;
		expire = now + t->dyn_fin_lifetime;
		break;
	default:
		if (t->dyn_keepalive && t->dyn_rst_lifetime >= t->dyn_keepalive_period)
			t->dyn_rst_lifetime = t->dyn_keepalive_period - 1;
		expire = now + t->dyn_rst_lifetime;
	}
	s->state = state;
	return expire;
}

/* dyn_update_proto_state(): lifetime and counters of a state the packet matched */
static void update_state(struct fw *fw, struct dstate *s, const struct fw_pkt *p, int dir)
{
	const struct fw_tunables *t = &fw->tun;
	if (p->proto == 17 || p->proto == 136)
		s->expire = fw->uptime + t->dyn_udp_lifetime;
	else if (p->proto == 6)
		s->expire = tcp_expire(fw, s, p, dir);
	else
		s->expire = fw->uptime + t->dyn_short_lifetime;
	note_expire(fw->dyn, s->expire);
	s->pcnt++;
	s->bcnt += p->ip_len;
}

static void pkt_ports(const struct fw_pkt *p, uint16_t *sp, uint16_t *dp)
{
	bool ports = p->has_ports && !p->frag;
	*sp = ports ? p->sport : 0;
	*dp = ports ? p->dport : 0;
}

int fw_rule_find(const struct fw *fw, uint32_t number, uint32_t id, uint32_t *cache_gen,
		 uint32_t *cache_idx)
{
	const struct fw_rules *r = &fw->rules;
	if (*cache_gen == r->gen && *cache_idx < (uint32_t)r->n &&
	    r->rule[*cache_idx].seq == id && r->hot[*cache_idx].number == number)
		return (int)*cache_idx;
	for (int i = fw_rules_lower_bound(r, number); i < r->n && r->hot[i].number == number; i++)
		if (r->rule[i].seq == id && r->hot[i].action != FW_A_DEFAULT) {
			*cache_gen = r->gen;
			*cache_idx = (uint32_t)i;
			return i;
		}
	return -1;
}

int fw_dyn_lookup(struct fw *fw, const struct fw_pkt *p, uint16_t kidx, struct fw_dyn_info *di)
{
	struct fw_dyn *d = fw->dyn;
	uint16_t sp, dp;
	pkt_ports(p, &sp, &dp);
	di->kidx = kidx;
	di->dir = FW_DYN_NONE;
	di->parent = -1;
	uint32_t h = hash_flow(d->seed, p->src, sp, p->dst, dp, p->proto);
	for (uint32_t i = d->head[h & (d->nb - 1)]; i; i = d->s[i - 1].next) {
		struct dstate *s = &d->s[i - 1];
		if (s->proto != p->proto || (kidx && s->kidx != kidx))
			continue;
		int dir;
		if (s->sport == sp && s->dport == dp && s->src == p->src && s->dst == p->dst)
			dir = FW_DYN_FWD;
		else if (s->sport == dp && s->dport == sp && s->src == p->dst && s->dst == p->src)
			dir = FW_DYN_REV;
		else
			continue;
		update_state(fw, s, p, dir);
		/* ipfw_dyn_lookup_state(): a state whose rule is gone is no match */
		int r = fw_rule_find(fw, s->rulenum, s->ruleid, &s->cache_gen, &s->cache_idx);
		if (r < 0)
			return -1;
		di->dir = (uint8_t)dir;
		di->parent = r;
		return r;
	}
	return -1;
}

static void log_limit(struct fw *fw, uint32_t rulenum, const struct fw_pkt *p)
{
	struct fw_dyn *d = fw->dyn;
	if (!fw->tun.verbose || !fw->log_fn || d->last_log == fw->uptime)
		return;
	d->last_log = fw->uptime;
	char line[192], a[16], b[16];
	struct in_addr x = { p->src }, y = { p->dst };
	inet_ntop(AF_INET, &x, a, sizeof(a));
	inet_ntop(AF_INET, &y, b, sizeof(b));
	uint16_t sp, dp;
	pkt_ports(p, &sp, &dp);
	/* print_dyn_rule_flags(): "ipfw: %s type %d %s %d -> %s %d, %d %s" (O_LIMIT is 66
	 * in ip_fw.h's opcode list) */
	snprintf(line, sizeof(line), "ipfw: %u drop session type %d %s %d -> %s %d, %u too many entries",
		 rulenum, 66, a, sp, b, dp, d->count);
	fw->log_fn(fw->log_arg, line);
}

int fw_dyn_install(struct fw *fw, int idx, const struct fw_insn *x, const struct fw_pkt *p)
{
	struct fw_dyn *d = fw->dyn;
	uint32_t rulenum = fw->rules.hot[idx].number, ruleid = fw->rules.rule[idx].seq;
	uint16_t sp, dp;
	pkt_ports(p, &sp, &dp);
	uint32_t parent = 0;
	if (x->op == FW_OP_LIMIT) {
		/* the masked flow id names the parent, with the rule */
		uint32_t ms = x->n & FW_LIM_SRC_ADDR ? p->src : 0, md = x->n & FW_LIM_DST_ADDR ? p->dst : 0;
		uint16_t msp = x->n & FW_LIM_SRC_PORT ? sp : 0, mdp = x->n & FW_LIM_DST_PORT ? dp : 0;
		uint32_t h = mix(hash_flow(d->seed, ms, msp, md, mdp, p->proto) ^ ruleid);
		for (uint32_t i = d->phead[h & (d->nb - 1)]; i; i = d->s[i - 1].next) {
			struct dstate *s = &d->s[i - 1];
			if (s->ruleid == ruleid && s->rulenum == rulenum && s->proto == p->proto &&
			    s->sport == msp && s->dport == mdp && s->src == ms && s->dst == md) {
				s->expire = fw->uptime + fw->tun.dyn_short_lifetime;
				note_expire(d, s->expire);
				parent = i;
				break;
			}
		}
		if (!parent) {
			if (d->pcount >= fw->tun.dyn_parent_max || !(parent = new_state(d))) {
				d->denied_nomem++;
				return -1;
			}
			struct dstate *s = &d->s[parent - 1];
			memset(s, 0, sizeof(*s));
			*s = (struct dstate){ .src = ms, .dst = md, .sport = msp, .dport = mdp,
					      .proto = p->proto, .type = DT_PARENT, .kidx = (uint16_t)x->a,
					      .hash = h, .rulenum = rulenum, .ruleid = ruleid,
					      .expire = fw->uptime + fw->tun.dyn_short_lifetime };
			s->next = d->phead[h & (d->nb - 1)];
			d->phead[h & (d->nb - 1)] = parent;
			d->pcount++;
			note_expire(d, s->expire);
		}
		if (d->s[parent - 1].link >= x->b) {
			d->denied_limit++;
			log_limit(fw, rulenum, p);
			return -1;
		}
	}
	/* a state with this name may exist already (record-state, other names): fine */
	uint32_t h = hash_flow(d->seed, p->src, sp, p->dst, dp, p->proto);
	for (uint32_t i = d->head[h & (d->nb - 1)]; i; i = d->s[i - 1].next) {
		const struct dstate *s = &d->s[i - 1];
		if (s->proto == p->proto && s->kidx == x->a &&
		    ((s->sport == sp && s->dport == dp && s->src == p->src && s->dst == p->dst) ||
		     (s->sport == dp && s->dport == sp && s->src == p->dst && s->dst == p->src)))
			return 0;
	}
	uint32_t i;
	if (d->count >= fw->tun.dyn_max || !(i = new_state(d))) {
		d->denied_nomem++;
		return -1;
	}
	struct dstate *s = &d->s[i - 1];
	*s = (struct dstate){ .src = p->src, .dst = p->dst, .sport = sp, .dport = dp,
			      .proto = p->proto, .type = parent ? DT_LIMIT : DT_KEEP,
			      .kidx = (uint16_t)x->a, .hash = h, .rulenum = rulenum, .ruleid = ruleid,
			      .link = parent, .expire = fw->uptime + fw->tun.dyn_syn_lifetime,
			      .cache_gen = fw->rules.gen, .cache_idx = (uint32_t)idx };
	update_state(fw, s, p, FW_DYN_FWD);
	s->next = d->head[h & (d->nb - 1)];
	d->head[h & (d->nb - 1)] = i;
	d->count++;
	if (parent)
		d->s[parent - 1].link++;
	return 0;
}

/* Unlinks what kill() says from bucket b's chains; returns the states chain length. */
static uint32_t sweep_bucket(struct fw *fw, uint32_t b, bool (*kill)(struct fw *, struct dstate *))
{
	struct fw_dyn *d = fw->dyn;
	uint32_t len = 0;
	for (int list = 0; list < 2; list++) {
		uint32_t *pp = list ? &d->phead[b] : &d->head[b];
		while (*pp) {
			uint32_t i = *pp;
			struct dstate *s = &d->s[i - 1];
			if (kill(fw, s)) {
				*pp = s->next;
				if (s->type == DT_PARENT) {
					d->pcount--;
				} else {
					d->count--;
					if (s->type == DT_LIMIT && s->link) {
						/* the parent lives on dyn_short_lifetime
						 * after its last session goes */
						struct dstate *pa = &d->s[s->link - 1];
						uint32_t e = fw->uptime + fw->tun.dyn_short_lifetime;
						if (--pa->link == 0 && TIME_LEQ(pa->expire, e)) {
							pa->expire = e;
							note_expire(d, e);
						}
					}
				}
				put_state(d, i);
				continue;
			}
			if (!list)
				len++;
			if (s->type != DT_PARENT || s->link == 0)
				note_expire(d, s->expire);   /* a parent in use cannot expire */
			pp = &s->next;
		}
	}
	return len;
}

static bool expired(struct fw *fw, struct dstate *s)
{
	/* dyn_expire_states(): a parent goes only once it has no sessions */
	return TIME_LEQ(s->expire, fw->uptime) && (s->type != DT_PARENT || s->link == 0);
}

static bool orphan(struct fw *fw, struct dstate *s)
{
	return fw_rule_find(fw, s->rulenum, s->ruleid, &s->cache_gen, &s->cache_idx) < 0 &&
	       (s->type != DT_PARENT || s->link == 0);
}

static bool any(struct fw *fw, struct dstate *s)
{
	(void)fw;
	return s->type != DT_PARENT || s->link == 0;
}

void fw_dyn_orphans(struct fw *fw)
{
	struct fw_dyn *d = fw->dyn;
	if (!d->count && !d->pcount)
		return;
	for (uint32_t b = 0; b < d->nb; b++)
		sweep_bucket(fw, b, orphan);
	for (uint32_t b = 0; b < d->nb; b++)   /* parents whose children went first */
		sweep_bucket(fw, b, orphan);
}

void fw_dyn_flush(struct fw *fw)
{
	struct fw_dyn *d = fw->dyn;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t b = 0; b < d->nb; b++)
			sweep_bucket(fw, b, any);
}

static bool grow_needed(const struct fw *fw)
{
	const struct fw_dyn *d = fw->dyn;
	return d->nb < fw->tun.dyn_buckets &&
	       (d->nb < d->count / 2 || (d->nb < d->count && d->max_length > 8));
}

void fw_dyn_maintain(struct fw *fw, uint32_t budget)
{
	struct fw_dyn *d = fw->dyn;
	if (!d->sweeping) {
		if (d->sweep_start == fw->uptime)
			return;   /* dyn_tick runs once a second */
		d->sweep_start = fw->uptime;
		if (d->min_ok && TIME_LT(fw->uptime, d->min_expire) && !grow_needed(fw))
			return;   /* nothing can expire yet */
		d->sweeping = true;
		d->sweep_pos = 0;
		d->sweep_len = 0;
		d->sweep_min = fw->uptime + 0x40000000u;
	}
	while (budget-- && d->sweep_pos < d->nb) {
		uint32_t len = sweep_bucket(fw, d->sweep_pos++, expired);
		if (len > d->sweep_len)
			d->sweep_len = len;
	}
	if (d->sweep_pos < d->nb)
		return;
	d->sweeping = false;
	d->max_length = d->sweep_len;
	d->min_expire = d->sweep_min;
	d->min_ok = true;
	/* dyn_tick(): grow to the smallest power of two above the count */
	if (grow_needed(fw)) {
		uint32_t nb = 1u << (32 - __builtin_clz(d->count));
		if (nb > fw->tun.dyn_buckets)
			nb = fw->tun.dyn_buckets;
		if (nb > d->nb)
			alloc_buckets(d, nb);
	}
}

uint32_t fw_dyn_total(const struct fw *fw)
{
	return fw->dyn->count + fw->dyn->pcount;
}

void fw_dyn_stats(const struct fw *fw, struct fw_dyn_stats *st)
{
	const struct fw_dyn *d = fw->dyn;
	st->count = d->count;
	st->parent_count = d->pcount;
	st->curr_buckets = d->nb;
	st->curr_max_length = d->max_length;
	st->denied_limit = d->denied_limit;
	st->denied_nomem = d->denied_nomem;
}

static int width(uint64_t v)
{
	int n = 1;
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void fw_dyn_widths(const struct fw *fw, int *pcw, int *bcw)
{
	const struct fw_dyn *d = fw->dyn;
	for (uint32_t i = 0; i < d->used; i++) {
		const struct dstate *s = &d->s[i];
		if (!s->type)
			continue;
		if (width(s->pcnt) > *pcw)
			*pcw = width(s->pcnt);
		if (width(s->bcnt) > *bcw)
			*bcw = width(s->bcnt);
	}
}

/* ipfw2.c show_dyn_state(); a state past its lifetime that the sweep has not removed
 * yet prints nothing but its newline without -e, as list_dyn_state() does */
static void show_one(const struct fw *fw, const struct dstate *s, int pcw, int bcw, bool expired,
		     struct fw_out *o)
{
	uint32_t expire = TIME_LEQ(s->expire, fw->uptime) ? 0 : s->expire - fw->uptime;
	if (expire == 0 && s->type != DT_PARENT && !expired) {
		fw_out_puts(o, "\n");
		return;
	}
	fw_out_printf(o, "%05u", s->rulenum);
	if (pcw > 0 || bcw > 0)
		fw_out_printf(o, " %*llu %*llu (%us)", pcw, (unsigned long long)s->pcnt, bcw,
			      (unsigned long long)s->bcnt, expire);
	if (s->type == DT_PARENT)
		fw_out_printf(o, " PARENT %u", s->link);
	else
		fw_out_puts(o, s->type == DT_LIMIT ? " LIMIT" : " STATE");
	const char *pn = fw_proto_name(s->proto);
	if (pn)
		fw_out_printf(o, " %s", pn);
	else
		fw_out_printf(o, " proto %u", s->proto);
	char a[16], b[16];
	struct in_addr x = { s->src }, y = { s->dst };
	inet_ntop(AF_INET, &x, a, sizeof(a));
	inet_ntop(AF_INET, &y, b, sizeof(b));
	fw_out_printf(o, " %s %u <-> %s %u :%s\n", a, s->sport, b, s->dport,
		      fw_state_name_str(fw, s->kidx));
}

void fw_dyn_show(const struct fw *fw, uint32_t lo, uint32_t hi, int pcw, int bcw, bool expired,
		 struct fw_out *o)
{
	const struct fw_dyn *d = fw->dyn;
	/* ipfw_dump_states(): per bucket, the parents, then the states */
	for (uint32_t b = 0; b < d->nb; b++)
		for (int list = 1; list >= 0; list--)
			for (uint32_t i = list ? d->phead[b] : d->head[b]; i; i = d->s[i - 1].next) {
				const struct dstate *s = &d->s[i - 1];
				if (s->rulenum >= lo && s->rulenum <= hi)
					show_one(fw, s, pcw, bcw, expired, o);
			}
}
