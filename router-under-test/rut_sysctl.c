/* rut_sysctl.c — the kern.polling.* OID table (see rut_sysctl.h). Called by ctl.c and
 * rutstats.c on the forwarding thread. Types follow the kernels: pollhz and enable are
 * int (DragonFly), the others unsigned (FreeBSD 8 kern_poll.c). */
#include "rut_sysctl.h"

enum pstat {
	PS_BURST, PS_SHORT_TICKS, PS_LOST_POLLS, PS_PENDING_POLLS, PS_RESIDUAL_BURST,
	PS_HANDLERS, PS_PHASE, PS_SUSPECT, PS_STALLED
};

static int64_t get_knob(void *ctx, const struct bsdctl_oid *o)
{
	return poll_get(((struct rut_sysctl_ctx *)ctx)->poll, (enum poll_knob)o->arg);
}

static int set_knob(void *ctx, const struct bsdctl_oid *o, int64_t v)
{
	return poll_set(((struct rut_sysctl_ctx *)ctx)->poll, (enum poll_knob)o->arg, v);
}

static int64_t get_stat(void *ctx, const struct bsdctl_oid *o)
{
	const struct poll_stats *s = &((struct rut_sysctl_ctx *)ctx)->poll->st;
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
	}
	return 0;
}

#define KNOB(n, t, k, d) { "kern.polling." n, t, 1, d, k, get_knob, set_knob }
#define STAT(n, s, d) { "kern.polling." n, BSDCTL_UINT, 0, d, s, get_stat, NULL }

static const struct bsdctl_oid polling[] = {
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
};

const struct bsdctl_oid *rut_sysctl_polling(int *n)
{
	*n = (int)(sizeof(polling) / sizeof(polling[0]));
	return polling;
}
