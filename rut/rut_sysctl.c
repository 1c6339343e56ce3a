/* SPDX-License-Identifier: BSD-2-Clause */
/* rut_sysctl.c — the sysctl OID table: kern.hz, kern.ppslab.kernel, kern.polling.* and
 * net.inet.ip.fw.* (see rut_sysctl.h). Called by cmd.c and main.c on the forwarding
 * thread (or before it starts). Types follow the kernels: pollhz and enable are int
 * (DragonFly), the other polling knobs unsigned (FreeBSD 8 kern_poll.c); the fw ones as
 * FreeBSD 8 ip_fw2.c. */
#include "rut_sysctl.h"

#include <errno.h>
#include <string.h>

#include "fw.h"

enum pstat {
	PS_BURST, PS_SHORT_TICKS, PS_LOST_POLLS, PS_PENDING_POLLS, PS_RESIDUAL_BURST,
	PS_HANDLERS, PS_PHASE, PS_SUSPECT, PS_STALLED, PS_IDLEPOLL_SLEEPING
};

static const struct devpoll *ctx_poll(void *ctx)
{
	return ((struct rut_sysctl_ctx *)ctx)->poll;
}

static bool knob_exists(void *ctx, const struct bsdctl_oid *o)
{
	return devpoll_has(ctx_poll(ctx), (enum devpoll_knob)o->arg);
}

static bool freebsd_only(void *ctx, const struct bsdctl_oid *o)
{
	(void)o;
	return ctx_poll(ctx)->kern->has_idle_poll;
}

/* HZ is set when the kernel boots (loader.conf): --sysctl at start, not later */
static bool boot_only(void *ctx, const struct bsdctl_oid *o)
{
	(void)o;
	return ((struct rut_sysctl_ctx *)ctx)->boot;
}

static const char *kernel_name(void *ctx, const struct bsdctl_oid *o)
{
	(void)o;
	return ctx_poll(ctx)->kern->name;
}

static int64_t get_knob(void *ctx, const struct bsdctl_oid *o)
{
	return devpoll_get(((struct rut_sysctl_ctx *)ctx)->poll, (enum devpoll_knob)o->arg);
}

static int set_knob(void *ctx, const struct bsdctl_oid *o, int64_t v)
{
	struct rut_sysctl_ctx *c = ctx;
	int rc = devpoll_set(c->poll, (enum devpoll_knob)o->arg, v);
	if (!rc && c->knob_hook)
		c->knob_hook(c->hook_arg, o->arg, v);
	return rc;
}

static int64_t get_stat(void *ctx, const struct bsdctl_oid *o)
{
	const struct devpoll_stats *s = &((struct rut_sysctl_ctx *)ctx)->poll->st;
	switch ((enum pstat)o->arg) {
	case PS_BURST: return s->burst;
	case PS_SHORT_TICKS: return (int64_t)s->short_ticks;
	case PS_LOST_POLLS: return (int64_t)s->lost_polls;
	case PS_PENDING_POLLS: return s->pending_polls;
	case PS_RESIDUAL_BURST: return s->residual_burst;
	case PS_HANDLERS: return s->handlers;
	case PS_PHASE: return s->phase;
	case PS_SUSPECT: return (int64_t)s->suspect;
	case PS_STALLED: return (int64_t)s->stalled;
	case PS_IDLEPOLL_SLEEPING:
		/* FreeBSD's idle thread sleeps unless idle_poll is on and ports registered */
		return !(ctx_poll(ctx)->k.idle_poll && devpoll_registered(ctx_poll(ctx)));
	}
	return 0;
}

enum fwk {
	FK_ENABLE, FK_ONE_PASS, FK_AUTOINC, FK_VERBOSE, FK_VERBOSE_LIMIT, FK_DEFAULT_ACCEPT,
	FK_STATIC_COUNT, FK_DEFAULT_RULE, FK_UPDATE_COUNTERS,
	FK_DYN_BUCKETS, FK_CURR_DYN_BUCKETS, FK_DYN_COUNT, FK_DYN_PARENT_COUNT,
	FK_CURR_MAX_LENGTH, FK_DYN_MAX, FK_DYN_PARENT_MAX, FK_DYN_ACK, FK_DYN_SYN,
	FK_DYN_FIN, FK_DYN_RST, FK_DYN_UDP, FK_DYN_SHORT, FK_DYN_KEEPALIVE,
	FK_DYN_KEEP_STATES, FK_REPLY_LIMIT, FK_SKIPTO_DF, FK_COUNTERS
};

static int64_t get_fw(void *ctx, const struct bsdctl_oid *o)
{
	struct fw *fw = ((struct rut_sysctl_ctx *)ctx)->fw;
	const struct fw_tunables *t = fw_tunables(fw);
	switch ((enum fwk)o->arg) {
	case FK_ENABLE: return t->enable;
	case FK_ONE_PASS: return t->one_pass;
	case FK_AUTOINC: return (int32_t)t->autoinc_step;
	case FK_VERBOSE: return t->verbose;
	case FK_VERBOSE_LIMIT: return (int32_t)t->verbose_limit;
	case FK_DEFAULT_ACCEPT: return t->default_to_accept;
	case FK_STATIC_COUNT: return fw_rule_count(fw);
	case FK_DEFAULT_RULE: return 65535;
	case FK_UPDATE_COUNTERS: return t->update_counters;
	case FK_DYN_BUCKETS: return t->dyn_buckets;
	case FK_DYN_MAX: return t->dyn_max;
	case FK_DYN_PARENT_MAX: return t->dyn_parent_max;
	case FK_DYN_ACK: return t->dyn_ack_lifetime;
	case FK_DYN_SYN: return t->dyn_syn_lifetime;
	case FK_DYN_FIN: return t->dyn_fin_lifetime;
	case FK_DYN_RST: return t->dyn_rst_lifetime;
	case FK_DYN_UDP: return t->dyn_udp_lifetime;
	case FK_DYN_SHORT: return t->dyn_short_lifetime;
	case FK_DYN_KEEPALIVE: return t->dyn_keepalive;
	case FK_DYN_KEEP_STATES: return 0;
	case FK_REPLY_LIMIT: return t->reply_limit;
	case FK_SKIPTO_DF: return t->skipto_dragonfly;
	case FK_COUNTERS: return t->counters;
	case FK_CURR_DYN_BUCKETS:
	case FK_DYN_COUNT:
	case FK_DYN_PARENT_COUNT:
	case FK_CURR_MAX_LENGTH: {
		struct fw_dyn_stats st;
		fw_dyn_stats(fw, &st);
		return o->arg == FK_CURR_DYN_BUCKETS ? st.curr_buckets
		     : o->arg == FK_DYN_COUNT ? st.count
		     : o->arg == FK_DYN_PARENT_COUNT ? st.parent_count : st.curr_max_length;
	}
	}
	return 0;
}

/* FreeBSD's net.inet.ip.fw handlers check nothing (autoinc_step is clamped to 1..1000
 * where it is used), so no write fails. */
static int set_fw(void *ctx, const struct bsdctl_oid *o, int64_t v)
{
	struct fw_tunables *t = fw_tunables(((struct rut_sysctl_ctx *)ctx)->fw);
	switch ((enum fwk)o->arg) {
	case FK_ENABLE: t->enable = v != 0; break;
	case FK_ONE_PASS: t->one_pass = v != 0; break;
	case FK_AUTOINC: t->autoinc_step = (uint32_t)v; break;
	case FK_VERBOSE: t->verbose = v != 0; break;
	case FK_VERBOSE_LIMIT: t->verbose_limit = (uint32_t)v; break;
	case FK_DEFAULT_ACCEPT: t->default_to_accept = v != 0; break;
	case FK_UPDATE_COUNTERS: t->update_counters = v != 0; break;
	/* ip_fw_dynamic.c sysctl_dyn_buckets: more than 256, rounded up to a power of 2
	 * (applied when the hash next grows), else EINVAL */
	case FK_DYN_BUCKETS: {
		uint64_t u = (uint32_t)v, p = 1;
		if (u <= 256)
			return -EINVAL;
		while (p < u)
			p <<= 1;
		t->dyn_buckets = p > 0x80000000u ? 0x80000000u : (uint32_t)p;
		break;
	}
	case FK_DYN_MAX: t->dyn_max = (uint32_t)v; break;
	case FK_DYN_PARENT_MAX: t->dyn_parent_max = (uint32_t)v; break;
	/* plain unsigned OIDs in ip_fw_dynamic.c: no check */
	case FK_DYN_ACK: case FK_DYN_SYN: case FK_DYN_FIN: case FK_DYN_RST:
	case FK_DYN_UDP: case FK_DYN_SHORT: {
		_Atomic uint32_t *f = o->arg == FK_DYN_ACK ? &t->dyn_ack_lifetime
			    : o->arg == FK_DYN_SYN ? &t->dyn_syn_lifetime
			    : o->arg == FK_DYN_FIN ? &t->dyn_fin_lifetime
			    : o->arg == FK_DYN_RST ? &t->dyn_rst_lifetime
			    : o->arg == FK_DYN_UDP ? &t->dyn_udp_lifetime : &t->dyn_short_lifetime;
		*f = (uint32_t)v;
		break;
	}
	case FK_DYN_KEEPALIVE: t->dyn_keepalive = v != 0; break;
	/* a deleted rule's states go with it (FreeBSD's default); keeping them is refused
	 * with EINVAL rather than accepted and ignored */
	case FK_DYN_KEEP_STATES:
		if (v != 0)
			return -EINVAL;
		break;
	case FK_REPLY_LIMIT: t->reply_limit = (uint32_t)v; break;
	case FK_SKIPTO_DF: t->skipto_dragonfly = v != 0; break;
	case FK_STATIC_COUNT:
	case FK_DEFAULT_RULE:
	case FK_CURR_DYN_BUCKETS:
	case FK_DYN_COUNT:
	case FK_DYN_PARENT_COUNT:
	case FK_CURR_MAX_LENGTH:
	case FK_COUNTERS: return -EPERM;
	}
	return 0;
}

/* net.inet.ip.fw.counters: how the forwarding threads count rule matches (fw.h) */
static const char *get_counters(void *ctx, const struct bsdctl_oid *o)
{
	(void)o;
	struct fw *fw = ((struct rut_sysctl_ctx *)ctx)->fw;
	return fw_tunables(fw)->counters == FW_CTR_SHARED ? "shared" : "percpu";
}

static int set_counters(void *ctx, const struct bsdctl_oid *o, const char *v)
{
	(void)o;
	struct fw *fw = ((struct rut_sysctl_ctx *)ctx)->fw;
	if (!strcmp(v, "shared"))
		fw_tunables(fw)->counters = FW_CTR_SHARED;
	else if (!strcmp(v, "percpu"))
		fw_tunables(fw)->counters = FW_CTR_PERCPU;
	else
		return -EINVAL;
	return 0;
}

#define KNOB(n, t, k, d) { "kern.polling." n, t, 1, d, k, get_knob, set_knob, NULL, \
			   knob_exists, NULL }
#define FWK(n, t, w, k, d) { "net.inet.ip.fw." n, t, w, d, k, get_fw, w ? set_fw : NULL }
#define STAT(n, s, d) { "kern.polling." n, BSDCTL_UINT, 0, d, s, get_stat, NULL }

static const struct bsdctl_oid polling[] = {
	{ "kern.hz", BSDCTL_INT, 1, "Number of clock ticks per second", POLL_K_HZ, get_knob,
	  set_knob, NULL, NULL, boot_only },
	{ "kern.ppslab.kernel", BSDCTL_STRING, 0,
	  "Kernel whose device polling is modelled (ppslab extension)", 0, NULL, NULL,
	  kernel_name, NULL, NULL },
	STAT("burst", PS_BURST, "Current polling burst size"),
	KNOB("each_burst", BSDCTL_UINT, POLL_K_EACH_BURST, "Max size of each burst"),
	KNOB("burst_max", BSDCTL_UINT, POLL_K_BURST_MAX, "Max Polling burst size"),
	KNOB("user_frac", BSDCTL_UINT, POLL_K_USER_FRAC, "Desired user fraction of cpu time"),
	KNOB("reg_frac", BSDCTL_UINT, POLL_K_REG_FRAC, "Every this many cycles poll register"),
	STAT("short_ticks", PS_SHORT_TICKS, "Hardclock ticks shorter than they should be"),
	STAT("lost_polls", PS_LOST_POLLS, "How many times we would have lost a poll tick"),
	STAT("pending_polls", PS_PENDING_POLLS, "Do we need to poll again"),
	STAT("residual_burst", PS_RESIDUAL_BURST, "# of residual cycles in burst"),
	STAT("handlers", PS_HANDLERS, "Number of registered poll handlers"),
	KNOB("enable", BSDCTL_INT, POLL_K_ENABLE, "Polling enabled"),
	STAT("phase", PS_PHASE, "Polling phase"),
	STAT("suspect", PS_SUSPECT, "suspect event"),
	STAT("stalled", PS_STALLED, "potential stalls"),
	KNOB("pollhz", BSDCTL_INT, POLL_K_POLLHZ, "Device polling frequency"),
	KNOB("idle_poll", BSDCTL_UINT, POLL_K_IDLE_POLL, "Enable device polling in idle loop"),
	{ "kern.polling.idlepoll_sleeping", BSDCTL_UINT, 0, "idlepoll is sleeping",
	  PS_IDLEPOLL_SLEEPING, get_stat, NULL, NULL, freebsd_only, NULL },
#define N_POLLING 19
	/* FreeBSD 8 ip_fw2.c / ip_fw_pfil.c; default_to_accept is a boot-time tunable
	 * there (read-only), writable here so a sweep can flip it; update_counters is the
	 * extension named after the 2012 FreeBSD ipfw counter cost thread
	 * (docs/glossary.md#the-2012-freebsd-10g-ipfw-counter-cost-thread) */
	FWK("enable", BSDCTL_INT, 1, FK_ENABLE, "Enable ipfw"),
	FWK("one_pass", BSDCTL_INT, 1, FK_ONE_PASS,
	    "Only do a single pass through ipfw when using dummynet(4)"),
	FWK("autoinc_step", BSDCTL_INT, 1, FK_AUTOINC, "Rule number auto-increment step"),
	FWK("verbose", BSDCTL_INT, 1, FK_VERBOSE, "Log matches to ipfw rules"),
	FWK("verbose_limit", BSDCTL_INT, 1, FK_VERBOSE_LIMIT,
	    "Set upper limit of matches of ipfw rules logged"),
	FWK("default_to_accept", BSDCTL_UINT, 1, FK_DEFAULT_ACCEPT,
	    "Make the default rule accept all packets."),
	FWK("static_count", BSDCTL_INT, 0, FK_STATIC_COUNT, "Number of static rules"),
	FWK("default_rule", BSDCTL_UINT, 0, FK_DEFAULT_RULE, "Default rule number"),
	FWK("update_counters", BSDCTL_INT, 1, FK_UPDATE_COUNTERS,
	    "Update rule packet/byte/time counters (ppslab extension)"),
	/* FreeBSD 14 ip_fw_dynamic.c (names, types, descriptions) */
	FWK("dyn_buckets", BSDCTL_UINT, 1, FK_DYN_BUCKETS, "Max number of buckets for dynamic states hash table."),
	FWK("curr_dyn_buckets", BSDCTL_UINT, 0, FK_CURR_DYN_BUCKETS, "Current Number of buckets for states hash table."),
	FWK("dyn_count", BSDCTL_UINT, 0, FK_DYN_COUNT, "Current number of dynamic states."),
	FWK("dyn_parent_count", BSDCTL_UINT, 0, FK_DYN_PARENT_COUNT, "Current number of parent states. "),
	FWK("curr_max_length", BSDCTL_UINT, 0, FK_CURR_MAX_LENGTH, "Current max length of dynamic states bucket."),
	FWK("dyn_max", BSDCTL_UINT, 1, FK_DYN_MAX, "Max number of dynamic states."),
	FWK("dyn_parent_max", BSDCTL_UINT, 1, FK_DYN_PARENT_MAX, "Max number of parent dynamic states."),
	FWK("dyn_ack_lifetime", BSDCTL_UINT, 1, FK_DYN_ACK, "Lifetime of dynamic states for TCP ACK."),
	FWK("dyn_syn_lifetime", BSDCTL_UINT, 1, FK_DYN_SYN, "Lifetime of dynamic states for TCP SYN."),
	FWK("dyn_fin_lifetime", BSDCTL_UINT, 1, FK_DYN_FIN, "Lifetime of dynamic states for TCP FIN."),
	FWK("dyn_rst_lifetime", BSDCTL_UINT, 1, FK_DYN_RST, "Lifetime of dynamic states for TCP RST."),
	FWK("dyn_udp_lifetime", BSDCTL_UINT, 1, FK_DYN_UDP, "Lifetime of dynamic states for UDP."),
	FWK("dyn_short_lifetime", BSDCTL_UINT, 1, FK_DYN_SHORT, "Lifetime of dynamic states for other situations."),
	FWK("dyn_keepalive", BSDCTL_UINT, 1, FK_DYN_KEEPALIVE, "Enable keepalives for dynamic states."),
	FWK("dyn_keep_states", BSDCTL_UINT, 1, FK_DYN_KEEP_STATES, "Do not flush dynamic states on rule deletion"),
	FWK("reply_limit", BSDCTL_UINT, 1, FK_REPLY_LIMIT,
	    "reset/unreach replies sent per second, 0 unlimited (ppslab extension)"),
	FWK("skipto_dragonfly", BSDCTL_INT, 1, FK_SKIPTO_DF,
	    "A skipto at or below its own rule goes to the next rule, as DragonFly does (ppslab extension)"),
	{ "net.inet.ip.fw.counters", BSDCTL_STRING, 1,
	  "Rule counters: shared (one per rule, every thread writes it, as FreeBSD 9) or percpu (one per thread, summed, as counter(9)) (ppslab extension)",
	  FK_COUNTERS, get_fw, NULL, get_counters, NULL, NULL, set_counters },
};

const struct bsdctl_oid *rut_sysctl_polling(int *n)
{
	*n = N_POLLING;
	return polling;
}

const struct bsdctl_oid *rut_sysctl_table(int *n)
{
	*n = (int)(sizeof(polling) / sizeof(polling[0]));
	return polling;
}
