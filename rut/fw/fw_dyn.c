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
 * Storage, shared by every forwarding thread: states in a slab of fixed chunks (a
 * state never moves), chained per bucket by index. Lookups take no lock: they walk a
 * chain as it is (an insert links a state in with one release store, a removal unlinks
 * it and the state is reused only after every thread has passed a quiescent point:
 * fw_retire), and write only the found state's lifetime, flags and counters, racily,
 * as FreeBSD's lookup does. Writers take the bucket's lock (one of DYN_NLOCKS stripes;
 * parents have their own, taken first): an install, on any thread; the sweep, the
 * removal of orphans and the flush on the thread that runs commands and the once-a-
 * second work (the maintenance lock keeps it to one). Growing the hash relinks every
 * state into a new bucket array with the installs held off (a reader-writer lock they
 * take for reading), between two increments of a sequence counter: a lookup that
 * misses while it changed looks again. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "fw_impl.h"
#include "fw_dyn.h"

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
	uint32_t src, dst;          /* network order, the first packet's (IPv4) */
	bool v6;                    /* an IPv6 flow (addr_type 6): src6, dst6 hold it */
	uint8_t src6[16], dst6[16];
	uint16_t sport, dport;      /* host order; 0 for packets without ports */
	uint8_t proto;
	_Atomic uint8_t type;       /* 0 once unlinked */
	uint16_t kidx;              /* state name */
	_Atomic uint32_t next;      /* index of the next state of the bucket, 0 = end */
	uint32_t hash;
	_Atomic uint32_t expire;    /* uptime seconds */
	_Atomic uint32_t state;     /* TCP flags seen (forward low byte, reverse next) */
	_Atomic uint32_t ack_fwd, ack_rev;
	uint32_t rulenum, ruleid;   /* the parent rule (number and insertion id) */
	_Atomic uint32_t link;      /* DT_LIMIT: parent index; DT_PARENT: sessions */
	_Atomic uint32_t cache_gen, cache_idx;
	_Atomic uint64_t pcnt, bcnt;
};

#define DYN_CHUNK 4096              /* states per slab chunk */
#define DYN_CHUNKS 1024             /* at most 4,194,304 states and parents */
#define DYN_NLOCKS 256              /* bucket lock stripes (the hash never has fewer buckets) */

struct dyn_bk {                     /* a bucket array: replaced whole when the hash grows */
	uint32_t nb;
	_Atomic uint32_t *head, *phead; /* states, parents */
};

struct fw_dyn {
	struct dstate *_Atomic chunk[DYN_CHUNKS];
	pthread_mutex_t slab;           /* used, free_head, new chunks */
	uint32_t used, free_head;
	_Atomic uint32_t used_pub;      /* slots handed out so far (the listing's widths) */
	struct dyn_bk *_Atomic bk;
	_Atomic uint32_t resize_seq;    /* odd while the hash is being rebuilt */
	pthread_mutex_t lk[DYN_NLOCKS], plk[DYN_NLOCKS];
	pthread_rwlock_t grow;          /* installs read-lock it, growing the hash write-locks */
	pthread_mutex_t maint;          /* the sweep, orphans, flush, growth: one at a time */
	_Atomic uint32_t count, pcount, max_length;
	uint32_t seed;
	bool sweeping;
	uint32_t sweep_pos, sweep_start, sweep_len;
	/* no state expires before min_expire (when min_ok): a second's sweep that could
	 * remove nothing is skipped — FreeBSD walks every state every second, on its
	 * callout's CPU; here that walk would be taken from forwarding. Every thread that
	 * sets a lifetime lowers min_expire and `noted`; a sweep's end sets min_expire to
	 * what it saw, then lowers it by what was noted meanwhile. */
	_Atomic bool min_ok;
	_Atomic uint32_t min_expire, noted;
	uint32_t sweep_min;
	_Atomic uint32_t last_log;
	_Atomic uint64_t denied_limit, denied_nomem;
};

static inline struct dstate *S(const struct fw_dyn *d, uint32_t i)
{
	i--;
	struct dstate *c = atomic_load_explicit(&d->chunk[i / DYN_CHUNK],
						memory_order_acquire);
	return &c[i % DYN_CHUNK];
}

#define LD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define ST(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

static inline uint32_t up(const struct fw *fw)
{
	return atomic_load_explicit(&fw->uptime, memory_order_relaxed);
}

static inline void atomic_min32(_Atomic uint32_t *a, uint32_t v)
{
	uint32_t cur = atomic_load(a);
	while (TIME_LT(v, cur) && !atomic_compare_exchange_weak(a, &cur, v))
		;
}

static inline void note_expire(struct fw_dyn *d, uint32_t e)
{
	/* noted before min_expire: see the sweep's end (dyn_sweep_done) */
	atomic_min32(&d->noted, e);
	atomic_min32(&d->min_expire, e);
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

/* A flow's addresses as the state table compares them: IPv4 ones in src/dst, IPv6
 * ones in src6/dst6 with src/dst their hash folds (equal addresses fold equal, so the
 * hash of both directions stays one bucket) */
struct fkey {
	bool v6;
	uint32_t src, dst;
	uint8_t src6[16], dst6[16];
};

static uint32_t fold6(const uint8_t *a)
{
	uint64_t x, y;
	memcpy(&x, a, 8);
	memcpy(&y, a + 8, 8);
	return mix(x ^ y * 0x9e3779b97f4a7c15ull);
}

/* the packet's addresses; with the limit mask bits (FW_LIM_*) the masked ones */
static void fkey_of(const struct fw_pkt *p, uint32_t mask, struct fkey *k)
{
	memset(k, 0, sizeof(*k));
	k->v6 = p->ip6;
	if (!p->ip6) {
		k->src = mask & FW_LIM_SRC_ADDR ? p->src : 0;
		k->dst = mask & FW_LIM_DST_ADDR ? p->dst : 0;
		return;
	}
	if (mask & FW_LIM_SRC_ADDR)
		memcpy(k->src6, p->src6, 16);
	if (mask & FW_LIM_DST_ADDR)
		memcpy(k->dst6, p->dst6, 16);
	k->src = fold6(k->src6);
	k->dst = fold6(k->dst6);
}

/* do the state's ends equal the key's, forward (rev false) or reversed */
static inline bool ends_eq(const struct dstate *s, const struct fkey *k, bool rev)
{
	if (s->v6 != k->v6)
		return false;
	if (!k->v6)
		return rev ? s->src == k->dst && s->dst == k->src
			   : s->src == k->src && s->dst == k->dst;
	return rev ? !memcmp(s->src6, k->dst6, 16) && !memcmp(s->dst6, k->src6, 16)
		   : !memcmp(s->src6, k->src6, 16) && !memcmp(s->dst6, k->dst6, 16);
}

static struct dyn_bk *bk_new(uint32_t nb)
{
	struct dyn_bk *b = malloc(sizeof(*b));
	_Atomic uint32_t *h = calloc(2 * (size_t)nb, sizeof(*h));
	if (!b || !h) {
		free(b);
		free((void *)(uintptr_t)h);   /* free() takes no _Atomic pointer */
		return NULL;
	}
	b->nb = nb;
	b->head = h;
	b->phead = h + nb;
	return b;
}

static void bk_free(void *arg)
{
	struct dyn_bk *b = arg;
	if (!b)
		return;
	free((void *)(uintptr_t)b->head);   /* free() takes no _Atomic pointer */
	free(b);
}

static inline struct dyn_bk *bk_of(const struct fw_dyn *d)
{
	return atomic_load_explicit(&d->bk, memory_order_acquire);
}

struct fw_dyn *fw_dyn_new(void)
{
	struct fw_dyn *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	d->seed = mix((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 32);
	struct dyn_bk *b = bk_new(256);   /* ipfw_dyn_init(): dyn_grow_hashtable(chain, 256) */
	if (!b) {
		free(d);
		return NULL;
	}
	atomic_init(&d->bk, b);
	pthread_mutex_init(&d->slab, NULL);
	pthread_mutex_init(&d->maint, NULL);
	pthread_rwlockattr_t ra;
	pthread_rwlockattr_init(&ra);
	/* a steady stream of installs must not keep the growth out */
	pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&d->grow, &ra);
	pthread_rwlockattr_destroy(&ra);
	for (int i = 0; i < DYN_NLOCKS; i++) {
		pthread_mutex_init(&d->lk[i], NULL);
		pthread_mutex_init(&d->plk[i], NULL);
	}
	return d;
}

void fw_dyn_free(struct fw_dyn *d)
{
	if (!d)
		return;
	for (int k = 0; k < DYN_CHUNKS; k++)
		free(atomic_load_explicit(&d->chunk[k], memory_order_relaxed));
	bk_free(atomic_load_explicit(&d->bk, memory_order_relaxed));
	pthread_mutex_destroy(&d->slab);
	pthread_mutex_destroy(&d->maint);
	pthread_rwlock_destroy(&d->grow);
	for (int i = 0; i < DYN_NLOCKS; i++) {
		pthread_mutex_destroy(&d->lk[i]);
		pthread_mutex_destroy(&d->plk[i]);
	}
	free(d);
}

/* A free slot (its owner holds a bucket lock), or 0. */
static uint32_t new_state(struct fw_dyn *d)
{
	uint32_t i = 0;
	pthread_mutex_lock(&d->slab);
	if (d->free_head) {
		i = d->free_head;
		d->free_head = LD(S(d, i)->next);
	} else if (d->used < (uint32_t)DYN_CHUNKS * DYN_CHUNK) {
		uint32_t c = d->used / DYN_CHUNK;
		if (!atomic_load_explicit(&d->chunk[c], memory_order_relaxed)) {
			struct dstate *m = calloc(DYN_CHUNK, sizeof(*m));
			if (m)
				atomic_store_explicit(&d->chunk[c], m, memory_order_release);
		}
		if (atomic_load_explicit(&d->chunk[c], memory_order_relaxed)) {
			i = ++d->used;
			atomic_store_explicit(&d->used_pub, d->used, memory_order_release);
		}
	}
	pthread_mutex_unlock(&d->slab);
	return i;
}

/* Unlinked states, handed back to the slab after the grace period. */
struct dead_states {
	struct fw_dyn *d;
	uint32_t n, cap;
	uint32_t *idx;
};

static void dead_add(struct dead_states *ds, uint32_t i)
{
	ST(S(ds->d, i)->type, 0);
	if (ds->n == ds->cap) {
		uint32_t cap = ds->cap ? 2 * ds->cap : 256;
		uint32_t *ni = realloc(ds->idx, cap * sizeof(*ni));
		if (!ni)
			return;   /* the slot is lost, not reused too early */
		ds->idx = ni;
		ds->cap = cap;
	}
	ds->idx[ds->n++] = i;
}

static void dead_free(void *arg)
{
	struct dead_states *ds = arg;
	struct fw_dyn *d = ds->d;
	pthread_mutex_lock(&d->slab);
	for (uint32_t k = 0; k < ds->n; k++) {
		ST(S(d, ds->idx[k])->next, d->free_head);
		d->free_head = ds->idx[k];
	}
	pthread_mutex_unlock(&d->slab);
	free(ds->idx);
	free(ds);
}

static void dead_retire(struct fw *fw, struct dead_states *ds)
{
	if (!ds->n) {
		free(ds->idx);
		return;
	}
	struct dead_states *h = malloc(sizeof(*h));
	if (!h) {
		free(ds->idx);   /* lost, not reused too early */
		return;
	}
	*h = *ds;
	fw_retire(fw, dead_free, h);
}

/* dyn_update_tcp_state(): the new expiry; updates the flags and ACKs (racily, as
 * FreeBSD does: two threads updating one state may lose one update) */
static uint32_t tcp_expire(struct fw *fw, struct dstate *s, const struct fw_pkt *p, int dir)
{
	struct fw_tunables *t = &fw->tun;
	uint32_t now = up(fw), expire = LD(s->expire);
	uint32_t th = p->tcp_flags & (TH_FIN | TH_SYN | TH_RST);
	uint32_t state = LD(s->state) | (dir == FW_DYN_FWD ? th : th << 8);
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
			uint32_t a = LD(s->ack_fwd);
			if (a == 0 || (int32_t)(p->tcp_ack - a) >= 0) {
				state |= ACK_FWD;
				ST(s->ack_fwd, p->tcp_ack);
			}
		} else {
			uint32_t a = LD(s->ack_rev);
			if (a == 0 || (int32_t)(p->tcp_ack - a) >= 0) {
				state |= ACK_REV;
				ST(s->ack_rev, p->tcp_ack);
			}
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
	ST(s->state, state);
	return expire;
}

/* dyn_update_proto_state(): lifetime and counters of a state the packet matched */
static void update_state(struct fw *fw, struct dstate *s, const struct fw_pkt *p, int dir)
{
	const struct fw_tunables *t = &fw->tun;
	uint32_t e;
	if (p->proto == 17 || p->proto == 136)
		e = up(fw) + t->dyn_udp_lifetime;
	else if (p->proto == 6)
		e = tcp_expire(fw, s, p, dir);
	else
		e = up(fw) + t->dyn_short_lifetime;
	if (LD(s->expire) != e) {   /* one store a second per state, not per packet */
		ST(s->expire, e);
		note_expire(fw->dyn, e);
	}
	ST(s->pcnt, LD(s->pcnt) + 1);
	ST(s->bcnt, LD(s->bcnt) + p->ip_len);
}

static void pkt_ports(const struct fw_pkt *p, uint16_t *sp, uint16_t *dp)
{
	bool ports = p->has_ports && !p->frag;
	*sp = ports ? p->sport : 0;
	*dp = ports ? p->dport : 0;
}

int fw_rule_find(const struct fw_rules *r, uint32_t number, uint32_t id,
		 _Atomic uint32_t *cache_gen, _Atomic uint32_t *cache_idx)
{
	uint32_t cg = LD(*cache_gen), ci = LD(*cache_idx);
	/* a pair torn by two threads refreshing it is still checked against the rule */
	if (cg == r->gen && ci < (uint32_t)r->n && r->rule[ci].seq == id &&
	    r->hot[ci].number == number)
		return (int)ci;
	for (int i = fw_rules_lower_bound(r, number); i < r->n && r->hot[i].number == number; i++)
		if (r->rule[i].seq == id && r->hot[i].action != FW_A_DEFAULT) {
			ST(*cache_gen, r->gen);
			ST(*cache_idx, (uint32_t)i);
			return i;
		}
	return -1;
}

int fw_dyn_lookup(struct fw *fw, const struct fw_rules *rs, const struct fw_pkt *p,
		  uint16_t kidx, struct fw_dyn_info *di)
{
	struct fw_dyn *d = fw->dyn;
	uint16_t sp, dp;
	pkt_ports(p, &sp, &dp);
	di->kidx = kidx;
	di->dir = FW_DYN_NONE;
	di->parent = -1;
	struct fkey k;
	fkey_of(p, FW_LIM_SRC_ADDR | FW_LIM_DST_ADDR, &k);
	uint32_t h = hash_flow(d->seed, k.src, sp, k.dst, dp, p->proto);
	for (;;) {
		uint32_t seq = atomic_load_explicit(&d->resize_seq, memory_order_acquire);
		if (seq & 1) {   /* the hash is being rebuilt, with every bucket locked */
			sched_yield();
			continue;
		}
		const struct dyn_bk *b = bk_of(d);
		for (uint32_t i = atomic_load_explicit(&b->head[h & (b->nb - 1)], memory_order_acquire); i;
		     i = atomic_load_explicit(&S(d, i)->next, memory_order_acquire)) {
			struct dstate *s = S(d, i);
			if (s->proto != p->proto || (kidx && s->kidx != kidx))
				continue;
			int dir;
			if (s->sport == sp && s->dport == dp && ends_eq(s, &k, false))
				dir = FW_DYN_FWD;
			else if (s->sport == dp && s->dport == sp && ends_eq(s, &k, true))
				dir = FW_DYN_REV;
			else
				continue;
			update_state(fw, s, p, dir);
			/* ipfw_dyn_lookup_state(): a state whose rule is gone is no match */
			int r = fw_rule_find(rs, s->rulenum, s->ruleid, &s->cache_gen, &s->cache_idx);
			if (r < 0)
				return -1;
			di->dir = (uint8_t)dir;
			di->parent = r;
			return r;
		}
		/* a miss counts only if the chains did not change under the walk */
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&d->resize_seq, memory_order_relaxed) == seq)
			return -1;
	}
}

void fw_dyn_ntop(bool v6, uint32_t a4, const uint8_t a6[16], char out[INET6_ADDRSTRLEN])
{
	struct in_addr x = { a4 };
	if (v6)
		inet_ntop(AF_INET6, a6, out, INET6_ADDRSTRLEN);
	else
		inet_ntop(AF_INET, &x, out, INET6_ADDRSTRLEN);
}

static void log_limit(struct fw *fw, uint32_t rulenum, const struct fw_pkt *p)
{
	struct fw_dyn *d = fw->dyn;
	uint32_t now = up(fw), last = LD(d->last_log);
	if (!fw->tun.verbose || !fw->log_fn || last == now ||
	    !atomic_compare_exchange_strong(&d->last_log, &last, now))
		return;
	char line[256], a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	fw_dyn_ntop(p->ip6, p->src, p->src6, a);
	fw_dyn_ntop(p->ip6, p->dst, p->dst6, b);
	uint16_t sp, dp;
	pkt_ports(p, &sp, &dp);
	/* print_dyn_rule_flags(): "ipfw: %s type %d %s %d -> %s %d, %d %s" (O_LIMIT is 66
	 * in ip_fw.h's opcode list) */
	snprintf(line, sizeof(line), "ipfw: %u drop session type %d %s %d -> %s %d, %u too many entries",
		 rulenum, 66, a, sp, b, dp, atomic_load(&d->count));
	fw->log_fn(fw->log_arg, line);
}

/* A state's fields before it is linked in (nobody else can see it yet). */
static void state_init(struct dstate *s, const struct fkey *k, uint16_t sport,
		       uint16_t dport, uint8_t proto, uint8_t type, uint16_t kidx, uint32_t hash,
		       uint32_t rulenum, uint32_t ruleid, uint32_t link, uint32_t expire)
{
	s->v6 = k->v6;
	s->src = k->v6 ? 0 : k->src;
	s->dst = k->v6 ? 0 : k->dst;
	memcpy(s->src6, k->src6, 16);
	memcpy(s->dst6, k->dst6, 16);
	s->sport = sport;
	s->dport = dport;
	s->proto = proto;
	s->kidx = kidx;
	s->hash = hash;
	s->rulenum = rulenum;
	s->ruleid = ruleid;
	ST(s->type, type);
	ST(s->next, 0);
	ST(s->expire, expire);
	ST(s->state, 0);
	ST(s->ack_fwd, 0);
	ST(s->ack_rev, 0);
	ST(s->link, link);
	ST(s->cache_gen, 0);
	ST(s->cache_idx, 0);
	ST(s->pcnt, 0);
	ST(s->bcnt, 0);
}

/* Links state i at the head of a chain (its bucket's lock held): one release store. */
static void link_in(struct fw_dyn *d, _Atomic uint32_t *head, uint32_t i)
{
	ST(S(d, i)->next, LD(*head));
	atomic_store_explicit(head, i, memory_order_release);
}

int fw_dyn_install(struct fw *fw, const struct fw_rules *rs, int idx, const struct fw_insn *x,
		   const struct fw_pkt *p)
{
	struct fw_dyn *d = fw->dyn;
	uint32_t rulenum = rs->hot[idx].number, ruleid = rs->rule[idx].seq;
	uint16_t sp, dp;
	pkt_ports(p, &sp, &dp);
	uint32_t parent = 0;
	pthread_mutex_t *pl = NULL;
	pthread_rwlock_rdlock(&d->grow);
	if (x->op == FW_OP_LIMIT) {
		/* the masked flow id names the parent, with the rule */
		struct fkey mk;
		fkey_of(p, x->n, &mk);
		uint16_t msp = x->n & FW_LIM_SRC_PORT ? sp : 0, mdp = x->n & FW_LIM_DST_PORT ? dp : 0;
		uint32_t h = mix(hash_flow(d->seed, mk.src, msp, mk.dst, mdp, p->proto) ^ ruleid);
		pl = &d->plk[h % DYN_NLOCKS];
		pthread_mutex_lock(pl);
		struct dyn_bk *b = bk_of(d);
		_Atomic uint32_t *ph = &b->phead[h & (b->nb - 1)];
		for (uint32_t i = LD(*ph); i; i = LD(S(d, i)->next)) {
			struct dstate *s = S(d, i);
			if (s->ruleid == ruleid && s->rulenum == rulenum && s->proto == p->proto &&
			    s->sport == msp && s->dport == mdp && ends_eq(s, &mk, false)) {
				ST(s->expire, up(fw) + fw->tun.dyn_short_lifetime);
				note_expire(d, LD(s->expire));
				parent = i;
				break;
			}
		}
		if (!parent) {
			if (atomic_load(&d->pcount) >= fw->tun.dyn_parent_max || !(parent = new_state(d))) {
				pthread_mutex_unlock(pl);
				pthread_rwlock_unlock(&d->grow);
				atomic_fetch_add_explicit(&d->denied_nomem, 1, memory_order_relaxed);
				return -1;
			}
			uint32_t e = up(fw) + fw->tun.dyn_short_lifetime;
			state_init(S(d, parent), &mk, msp, mdp, p->proto, DT_PARENT, (uint16_t)x->a, h,
				   rulenum, ruleid, 0, e);
			link_in(d, ph, parent);
			atomic_fetch_add(&d->pcount, 1);
			note_expire(d, e);
		}
		if (LD(S(d, parent)->link) >= x->b) {
			pthread_mutex_unlock(pl);
			pthread_rwlock_unlock(&d->grow);
			atomic_fetch_add_explicit(&d->denied_limit, 1, memory_order_relaxed);
			log_limit(fw, rulenum, p);
			return -1;
		}
	}
	/* a state with this name may exist already (record-state, other names, or another
	 * thread's install of the same flow): fine */
	struct fkey k;
	fkey_of(p, FW_LIM_SRC_ADDR | FW_LIM_DST_ADDR, &k);
	uint32_t h = hash_flow(d->seed, k.src, sp, k.dst, dp, p->proto);
	pthread_mutex_t *l = &d->lk[h % DYN_NLOCKS];
	pthread_mutex_lock(l);
	struct dyn_bk *b = bk_of(d);
	_Atomic uint32_t *hd = &b->head[h & (b->nb - 1)];
	int rc = 0;
	for (uint32_t i = LD(*hd); i; i = LD(S(d, i)->next)) {
		const struct dstate *s = S(d, i);
		if (s->proto == p->proto && s->kidx == x->a &&
		    ((s->sport == sp && s->dport == dp && ends_eq(s, &k, false)) ||
		     (s->sport == dp && s->dport == sp && ends_eq(s, &k, true))))
			goto out;
	}
	uint32_t i;
	if (atomic_load(&d->count) >= fw->tun.dyn_max || !(i = new_state(d))) {
		atomic_fetch_add_explicit(&d->denied_nomem, 1, memory_order_relaxed);
		rc = -1;
		goto out;
	}
	struct dstate *s = S(d, i);
	state_init(s, &k, sp, dp, p->proto, parent ? DT_LIMIT : DT_KEEP, (uint16_t)x->a,
		   h, rulenum, ruleid, parent, up(fw) + fw->tun.dyn_syn_lifetime);
	ST(s->cache_gen, rs->gen);
	ST(s->cache_idx, (uint32_t)idx);
	update_state(fw, s, p, FW_DYN_FWD);
	note_expire(d, LD(s->expire));
	link_in(d, hd, i);
	atomic_fetch_add(&d->count, 1);
	if (parent)
		atomic_fetch_add(&S(d, parent)->link, 1);
out:
	pthread_mutex_unlock(l);
	if (pl)
		pthread_mutex_unlock(pl);
	pthread_rwlock_unlock(&d->grow);
	return rc;
}

typedef bool (*kill_fn)(struct fw *, const struct fw_rules *, struct dstate *);

/* Unlinks what kill() says from bucket b's chains (its locks held); returns the states
 * chain length. */
static uint32_t sweep_bucket(struct fw *fw, const struct fw_rules *rs, uint32_t b, kill_fn kill,
			     struct dead_states *ds)
{
	struct fw_dyn *d = fw->dyn;
	struct dyn_bk *bk = bk_of(d);
	uint32_t len = 0;
	pthread_mutex_lock(&d->plk[b % DYN_NLOCKS]);
	pthread_mutex_lock(&d->lk[b % DYN_NLOCKS]);
	for (int list = 0; list < 2; list++) {
		_Atomic uint32_t *pp = list ? &bk->phead[b] : &bk->head[b];
		uint32_t i;
		while ((i = LD(*pp))) {
			struct dstate *s = S(d, i);
			if (kill(fw, rs, s)) {
				/* readers on it go on to its successor: its own link stays */
				atomic_store_explicit(pp, LD(s->next), memory_order_release);
				if (LD(s->type) == DT_PARENT) {
					atomic_fetch_sub(&d->pcount, 1);
				} else {
					atomic_fetch_sub(&d->count, 1);
					uint32_t pa_i = LD(s->link);
					if (LD(s->type) == DT_LIMIT && pa_i) {
						/* the parent lives on dyn_short_lifetime
						 * after its last session goes */
						struct dstate *pa = S(d, pa_i);
						uint32_t e = up(fw) + fw->tun.dyn_short_lifetime;
						if (atomic_fetch_sub(&pa->link, 1) == 1 &&
						    TIME_LEQ(LD(pa->expire), e)) {
							ST(pa->expire, e);
							note_expire(d, e);
						}
					}
				}
				dead_add(ds, i);
				continue;
			}
			if (!list)
				len++;
			/* a parent in use cannot expire */
			if ((LD(s->type) != DT_PARENT || LD(s->link) == 0) &&
			    TIME_LT(LD(s->expire), d->sweep_min))
				d->sweep_min = LD(s->expire);
			pp = &s->next;
		}
	}
	pthread_mutex_unlock(&d->lk[b % DYN_NLOCKS]);
	pthread_mutex_unlock(&d->plk[b % DYN_NLOCKS]);
	return len;
}

static bool expired(struct fw *fw, const struct fw_rules *rs, struct dstate *s)
{
	(void)rs;
	/* dyn_expire_states(): a parent goes only once it has no sessions */
	return TIME_LEQ(LD(s->expire), up(fw)) && (LD(s->type) != DT_PARENT || LD(s->link) == 0);
}

static bool orphan(struct fw *fw, const struct fw_rules *rs, struct dstate *s)
{
	(void)fw;
	return fw_rule_find(rs, s->rulenum, s->ruleid, &s->cache_gen, &s->cache_idx) < 0 &&
	       (LD(s->type) != DT_PARENT || LD(s->link) == 0);
}

static bool any(struct fw *fw, const struct fw_rules *rs, struct dstate *s)
{
	(void)fw;
	(void)rs;
	return LD(s->type) != DT_PARENT || LD(s->link) == 0;
}

/* Every bucket, twice: parents whose children went in the first pass go in the second. */
static void sweep_all(struct fw *fw, kill_fn kill)
{
	struct fw_dyn *d = fw->dyn;
	if (!atomic_load(&d->count) && !atomic_load(&d->pcount))
		return;
	struct dead_states ds = { .d = d };
	const struct fw_rules *rs = fw_rules_get(fw);
	pthread_mutex_lock(&d->maint);
	uint32_t keep_min = d->sweep_min;
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t b = 0; b < bk_of(d)->nb; b++)
			sweep_bucket(fw, rs, b, kill, &ds);
	d->sweep_min = keep_min;
	pthread_mutex_unlock(&d->maint);
	dead_retire(fw, &ds);
}

void fw_dyn_orphans(struct fw *fw)
{
	sweep_all(fw, orphan);
}

void fw_dyn_flush(struct fw *fw)
{
	sweep_all(fw, any);
}

static bool grow_needed(const struct fw *fw)
{
	const struct fw_dyn *d = fw->dyn;
	uint32_t nb = bk_of(d)->nb, count = atomic_load(&d->count);
	return nb < fw->tun.dyn_buckets &&
	       (nb < count / 2 || (nb < count && atomic_load(&d->max_length) > 8));
}

/* dyn_grow_hashtable(): every state and parent relinked into nb new buckets, with the
 * installs held off (the sweep, the other writer, runs on this thread) and the sequence
 * odd; lookups that missed meanwhile look again. */
static void grow(struct fw *fw, uint32_t nb)
{
	struct fw_dyn *d = fw->dyn;
	struct dyn_bk *nw = bk_new(nb);
	if (!nw)
		return;
	pthread_rwlock_wrlock(&d->grow);
	struct dyn_bk *old = bk_of(d);
	atomic_store_explicit(&d->resize_seq, LD(d->resize_seq) + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	for (uint32_t b = 0; b < old->nb; b++) {
		for (int list = 0; list < 2; list++) {
			uint32_t i = LD(*(list ? &old->phead[b] : &old->head[b]));
			while (i) {
				struct dstate *s = S(d, i);
				uint32_t nx = LD(s->next);
				_Atomic uint32_t *dst = list ? &nw->phead[s->hash & (nb - 1)]
							     : &nw->head[s->hash & (nb - 1)];
				ST(s->next, LD(*dst));
				ST(*dst, i);
				i = nx;
			}
		}
	}
	atomic_store_explicit(&d->bk, nw, memory_order_release);
	atomic_store_explicit(&d->resize_seq, LD(d->resize_seq) + 1, memory_order_release);
	pthread_rwlock_unlock(&d->grow);
	fw_retire(fw, bk_free, old);
}

void fw_dyn_maintain(struct fw *fw, uint32_t budget)
{
	struct fw_dyn *d = fw->dyn;
	uint32_t now = up(fw);
	if (pthread_mutex_trylock(&d->maint))
		return;   /* another thread sweeps */
	if (!d->sweeping) {
		if (d->sweep_start == now || (!d->sweep_start && !atomic_load(&d->count) &&
					      !atomic_load(&d->pcount) && !now)) {
			pthread_mutex_unlock(&d->maint);
			return;   /* dyn_tick runs once a second */
		}
		d->sweep_start = now;
		if (atomic_load(&d->min_ok) && TIME_LT(now, atomic_load(&d->min_expire)) &&
		    !grow_needed(fw)) {
			pthread_mutex_unlock(&d->maint);
			return;   /* nothing can expire yet */
		}
		d->sweeping = true;
		d->sweep_pos = 0;
		d->sweep_len = 0;
		d->sweep_min = now + 0x40000000u;
		atomic_store(&d->noted, now + 0x40000000u);
	}
	struct dead_states ds = { .d = d };
	const struct fw_rules *rs = fw_rules_get(fw);
	while (budget-- && d->sweep_pos < bk_of(d)->nb) {
		uint32_t len = sweep_bucket(fw, rs, d->sweep_pos++, expired, &ds);
		if (len > d->sweep_len)
			d->sweep_len = len;
	}
	if (d->sweep_pos >= bk_of(d)->nb) {
		d->sweeping = false;
		atomic_store(&d->max_length, d->sweep_len);
		/* what the walk saw, lowered by what threads noted while it walked */
		atomic_store(&d->min_expire, d->sweep_min);
		atomic_min32(&d->min_expire, atomic_load(&d->noted));
		atomic_store(&d->min_ok, true);
		/* dyn_tick(): grow to the smallest power of two above the count */
		if (grow_needed(fw)) {
			uint32_t nb = 1u << (32 - __builtin_clz(atomic_load(&d->count)));
			if (nb > fw->tun.dyn_buckets)
				nb = fw->tun.dyn_buckets;
			if (nb > bk_of(d)->nb)
				grow(fw, nb);
		}
	}
	pthread_mutex_unlock(&d->maint);
	dead_retire(fw, &ds);
}

uint32_t fw_dyn_total(const struct fw *fw)
{
	return atomic_load(&fw->dyn->count) + atomic_load(&fw->dyn->pcount);
}

void fw_dyn_stats(const struct fw *fw, struct fw_dyn_stats *st)
{
	const struct fw_dyn *d = fw->dyn;
	st->count = atomic_load(&d->count);
	st->parent_count = atomic_load(&d->pcount);
	st->curr_buckets = bk_of(d)->nb;
	st->curr_max_length = atomic_load(&d->max_length);
	st->denied_limit = atomic_load(&d->denied_limit);
	st->denied_nomem = atomic_load(&d->denied_nomem);
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
	uint32_t used = atomic_load_explicit(&d->used_pub, memory_order_acquire);
	for (uint32_t i = 1; i <= used; i++) {
		const struct dstate *s = S(d, i);
		if (!LD(s->type))
			continue;
		uint64_t pc = LD(s->pcnt), bc = LD(s->bcnt);
		if (width(pc) > *pcw)
			*pcw = width(pc);
		if (width(bc) > *bcw)
			*bcw = width(bc);
	}
}

/* A state as the listing reads it (fw_show.c prints it) */
static void entry_of(const struct fw *fw, struct dstate *s, struct fw_dyn_entry *v)
{
	uint32_t e = LD(s->expire), now = up(fw);
	uint8_t type = LD(s->type);
	v->rulenum = s->rulenum;
	v->pcnt = LD(s->pcnt);
	v->bcnt = LD(s->bcnt);
	v->expire = TIME_LEQ(e, now) ? 0 : e - now;
	v->parent = type == DT_PARENT;
	v->limit = type == DT_LIMIT;
	v->link = LD(s->link);
	v->proto = s->proto;
	v->src = s->src;
	v->dst = s->dst;
	v->v6 = s->v6;
	memcpy(v->src6, s->src6, 16);
	memcpy(v->dst6, s->dst6, 16);
	v->sport = s->sport;
	v->dport = s->dport;
	v->kidx = s->kidx;
}

void fw_dyn_walk(const struct fw *fw, uint32_t lo, uint32_t hi, fw_dyn_visit_fn fn, void *arg)
{
	const struct fw_dyn *d = fw->dyn;
	const struct dyn_bk *bk = bk_of(d);
	/* ipfw_dump_states(): per bucket, the parents, then the states (walked as a lookup
	 * walks them: states installed meanwhile may or may not be listed) */
	for (uint32_t b = 0; b < bk->nb; b++)
		for (int list = 1; list >= 0; list--)
			for (uint32_t i = atomic_load_explicit(list ? &bk->phead[b] : &bk->head[b],
							       memory_order_acquire);
			     i; i = atomic_load_explicit(&S(d, i)->next, memory_order_acquire)) {
				struct dstate *s = S(d, i);
				if (s->rulenum >= lo && s->rulenum <= hi) {
					struct fw_dyn_entry v;
					entry_of(fw, s, &v);
					fn(arg, &v);
				}
			}
}
