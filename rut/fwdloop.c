/* SPDX-License-Identifier: BSD-2-Clause */
/* fwdloop.c — the forwarding threads: poll, intr and busy loops (see fwdloop.h).
 * Started by main.c; each owns its poll context and its share of the forwarding
 * engine's hot path; thread 0 runs control commands (through the hook main
 * installed) between batches. */
#include "fwdloop.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "fw.h"
#include "qsbr.h"
#include "relaxed.h"
#include "runctl.h"
#include "thread.h"

#define WAKE_KEY 0xffffu
#define REFRESH_NS (100 * NS_PER_MS)    /* kernel drop counters and published figures */
#define LINK_CHECK_NS (5 * NS_PER_MS)   /* the egress links' state (fwd_link_check) */
#define SLEEP_SLICE_NS (50 * NS_PER_MS) /* longest sleep without looking at stop/ctl */
#define CLOCK_LEAD_NS (2 * NS_PER_MS)   /* the shared clock starts this long after the
					 * threads are created, so none starts late */

#define KNOB_LOG 256

struct fwdloop;
struct fwdloop_thr;
struct fwdloop_handler {
	struct fwdloop_thr *t;
	int port;
};

struct fwdloop_thr {
	struct fwdloop *s;
	int id;
	struct fwd_thr *ft;
	struct devpoll poll;            /* in every mode: the knobs are always readable */
	struct fwdloop_handler h[FWD_MAX_PORTS];
	int epfd;                    /* the ports while ports_armed; thread 0: the ctl wake-up */
	bool ports_armed;            /* the ports are in epfd (intr; poll while disabled) */
	int cpu;                     /* pinned to this CPU, -1: not pinned */
	int err;                     /* -errno when forwarding failed */
	uint64_t cpu_ns;             /* the thread's CPU time when it ended */
	_Atomic int running;
	pthread_t th;
	uint64_t next_refresh;       /* CLOCK_MONOTONIC ns of the next counter refresh */
	uint64_t next_link;          /* ... and of the next link check (fwd_link_check) */
	uint32_t kseen;              /* knob writes applied */
	_Atomic uint32_t kdone;
	uint64_t pause_seen;         /* the last pause deadline this thread has served */
	pthread_mutex_t view_lock;   /* view: the thread's poll context, published */
	struct fwdloop_view view;
};

struct fwdloop {
	struct fwd *f;
	enum fwdloop_mode mode;
	int burst;                   /* busy and intr modes */
	uint64_t spin_ns;            /* poll mode: spin this long before a deadline */
	_Atomic int rt_prio;         /* SCHED_FIFO priority the threads got, 0: normal */
	struct runctl *rc;
	struct ctl_req *mb;          /* NULL without --ctl */
	struct fwdloop_info info;
	struct fwdloop_pub pub;
	int nthr;
	struct fwdloop_thr *t[FWD_MAX_THREADS];
	struct qsbr qsbr;
	fwdloop_cmd_fn cmd;          /* the command hook (fwdloop_set_cmd) */
	void *cmd_ctx;
	bool cmd_later;              /* the mailbox's command goes on (FWDLOOP_CMD_LATER) */
	void *cmd_job;               /* its state, the hook's (fwdloop_set_job) */
	void (*cmd_job_free)(void *);
	pthread_mutex_t load_lock;   /* load: the last rule load, for the stats */
	struct fwdloop_load load;
	uint64_t clock_base;         /* the poll clock's origin, shared by the threads */
	/* knob writes of thread 0's context, replayed by the others in order */
	struct { int knob; int64_t v; } klog[KNOB_LOG];
	_Atomic uint32_t kseq;
	_Atomic int nrunning;
	/* a pause of forwarding (fwdloop_pause): its CLOCK_MONOTONIC end, 0: none yet;
	 * what thread 0 saw of the pauses, written by it, read by the stats */
	_Atomic uint64_t pause_until;
	uint64_t pause_cmd_ns;       /* when the command that began this stall ran */
	_Atomic uint64_t pause_count, pause_req_ns, pause_last_ns, pause_late_ns, pause_total_ns;
};

static const char *const mode_names[] = { "poll", "intr", "busy" };

const char *fwdloop_mode_name(enum fwdloop_mode m)
{
	return (unsigned)m < 3 ? mode_names[m] : "?";
}

int fwdloop_mode_parse(const char *s, enum fwdloop_mode *m)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, mode_names[i])) {
			*m = (enum fwdloop_mode)i;
			return 0;
		}
	return -EINVAL;
}

static uint64_t real_clock(void *ctx)
{
	(void)ctx;
	return mono_ns();
}

/* the calling thread's CPU time: devpoll reads it on the polling thread only */
static uint64_t thread_cpu_clock(void *ctx)
{
	(void)ctx;
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* A registered interface's poll routine: forward at most count frames from the
 * thread's queue of the port; a status round also reads that socket's kernel counters
 * (em(4) reads its statistics registers on POLL_AND_CHECK_STATUS). */
static int poll_handler(void *arg, enum devpoll_cmd cmd, int count)
{
	struct fwdloop_handler *h = arg;
	struct fwd_thr *ft = h->t->ft;
	int n = fwd_burst(ft, h->port, count);
	if (cmd == POLL_AND_CHECK_STATUS) {
		struct port_stats ps;
		port_stats(ft->port[h->port], &ps);
		atomic_store_explicit(&ft->ctr[h->port].kernel_drops, ps.rx_drops,
				      memory_order_relaxed);
	}
	return n;
}

/* Puts the thread's sockets in its epoll set, or takes them out. Only a mode that waits
 * for them has them there: a socket with a waiter costs a wake-up attempt (a spinlock
 * with interrupts off) for every frame the kernel queues to it or frees from it — on
 * veth in the sender's softirq — which busy and poll mode, never waiting, would pay
 * for nothing (in perf with xdp: ports, the wake-up's spin_unlock_irqrestore took
 * 9.5 % of the forwarding core and 8.7 % of the sender's; 3 % each once the ports
 * left). */
static int arm_ports(struct fwdloop_thr *t, bool on)
{
	if (t->ports_armed == on)
		return 0;
	for (int i = 0; i < t->s->f->nports; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
		if (epoll_ctl(t->epfd, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL,
			      port_fd(t->ft->port[i]), &ev) < 0)
			return -errno;
	}
	t->ports_armed = on;
	return 0;
}

static struct fwdloop_thr *thr_alloc(struct fwdloop *s, int id)
{
	struct fwdloop_thr *t = aligned_alloc(64, (sizeof(*t) + 63) / 64 * 64);
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));
	t->s = s;
	t->id = id;
	t->ft = s->f->thr[id];
	t->epfd = -1;
	t->cpu = -1;
	pthread_mutex_init(&t->view_lock, NULL);
	hist_init(&t->view.late_ns);
	return t;
}

int fwdloop_init(struct fwdloop *s, struct fwd *f, enum fwdloop_mode mode,
		 const struct pollkern *k, int burst, uint64_t spin_ns, struct runctl *rc,
		 struct ctl_req *mb, const int *cpus, int ncpus)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	s->mode = mode;
	s->burst = burst;
	s->spin_ns = spin_ns;
	s->rc = rc;
	s->mb = mb;
	s->info.t0_ns = mono_ns();
	pthread_mutex_init(&s->load_lock, NULL);
	int e = qsbr_init(&s->qsbr, f->nthr);
	if (e)
		return e;
	if (f->fw)
		fw_set_qsbr(f->fw, &s->qsbr, 0);   /* thread 0 runs the commands */
	for (int i = 0; i < f->nthr; i++) {
		struct fwdloop_thr *t = thr_alloc(s, i);
		if (!t)
			return -ENOMEM;
		s->t[i] = t;
		s->nthr = i + 1;
		t->cpu = ncpus ? cpus[i % ncpus] : -1;
		devpoll_init(&t->poll, k, real_clock, NULL);
		devpoll_set_cpu_clock(&t->poll, thread_cpu_clock);
		/* the ports register for polling only in poll mode (in the others, as on an
		 * interface without polling, the knobs can be set but nothing is
		 * registered) */
		for (int p = 0; p < f->nports && mode == RUT_POLL; p++) {
			t->h[p] = (struct fwdloop_handler){ .t = t, .port = p };
			if ((e = devpoll_register(&t->poll, poll_handler, &t->h[p])))
				return e;
		}
		t->epfd = epoll_create1(EPOLL_CLOEXEC);
		if (t->epfd < 0)
			return -errno;
		if (mode == RUT_INTR && (e = arm_ports(t, true)))
			return e;
		if (i == 0 && mb) {
			struct epoll_event ev = { .events = EPOLLIN, .data.u32 = WAKE_KEY };
			if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, mb->wake_fd, &ev) < 0)
				return -errno;
		}
	}
	return 0;
}

int fwdloop_init_detached(struct fwdloop *s, struct fwd *f, const struct pollkern *k,
			  devpoll_clock_fn now, void *clk)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	pthread_mutex_init(&s->load_lock, NULL);
	struct fwdloop_thr *t = thr_alloc(s, 0);
	if (!t)
		return -ENOMEM;
	s->t[0] = t;
	s->nthr = 1;
	devpoll_init(&t->poll, k, now, clk);
	return qsbr_init(&s->qsbr, 1);
}

void fwdloop_fini(struct fwdloop *s)
{
	if (s->cmd_job && s->cmd_job_free)
		s->cmd_job_free(s->cmd_job);
	s->cmd_job = NULL;
	/* what the commands replaced goes now: no thread reads any more */
	if (s->nthr) {
		qsbr_fini(&s->qsbr);
		if (s->f && s->f->fw)
			fw_set_qsbr(s->f->fw, NULL, 0);
	}
	for (int i = 0; i < s->nthr; i++) {
		struct fwdloop_thr *t = s->t[i];
		if (t->epfd >= 0)
			close(t->epfd);
		pthread_mutex_destroy(&t->view_lock);
		free(t);
		s->t[i] = NULL;
	}
	s->nthr = 0;
	pthread_mutex_destroy(&s->load_lock);
}

void fwdloop_set_range(struct fwdloop *s, enum pk_range r)
{
	for (int i = 0; i < s->nthr; i++)
		devpoll_set_range(&s->t[i]->poll, r);
}

/* How many knob writes the slowest running thread has still to replay. */
static uint32_t knob_lag(struct fwdloop *s)
{
	uint32_t seq = atomic_load(&s->kseq), lag = 0;
	for (int i = 1; i < s->nthr; i++) {
		if (!atomic_load(&s->t[i]->running) && s->t[i]->th)
			continue;   /* ended: it replays nothing more */
		uint32_t d = seq - atomic_load_explicit(&s->t[i]->kdone, memory_order_acquire);
		lag = d > lag ? d : lag;
	}
	return lag;
}

bool fwdloop_knob_sync(struct fwdloop *s)
{
	uint64_t end = mono_ns() + 2 * NS_PER_S;
	while (knob_lag(s)) {
		if (!atomic_load(&s->nrunning) || mono_ns() >= end)
			return !knob_lag(s);
		struct timespec ts = { 0, 200 * 1000 };
		nanosleep(&ts, NULL);
	}
	return true;
}

void fwdloop_knob_written(void *arg, int knob, int64_t v)
{
	struct fwdloop *s = arg;
	if (s->nthr < 2)
		return;
	/* the others are at most a few writes behind (each command waits for them); the
	 * log never overtakes a thread that still has to replay the entry */
	if (knob_lag(s) >= KNOB_LOG - 1)
		fwdloop_knob_sync(s);
	uint32_t seq = atomic_load_explicit(&s->kseq, memory_order_relaxed);
	s->klog[seq % KNOB_LOG].knob = knob;
	s->klog[seq % KNOB_LOG].v = v;
	atomic_store_explicit(&s->kseq, seq + 1, memory_order_release);
	atomic_store_explicit(&s->t[0]->kdone, seq + 1, memory_order_release);
}

/* Thread t (not 0) applies thread 0's knob writes to its own context, in order. */
static void knob_replay(struct fwdloop_thr *t)
{
	struct fwdloop *s = t->s;
	uint32_t seq = atomic_load_explicit(&s->kseq, memory_order_acquire);
	if (t->id == 0 || t->kseen == seq)
		return;
	for (; t->kseen != seq; t->kseen++)
		devpoll_set(&t->poll, (enum devpoll_knob)s->klog[t->kseen % KNOB_LOG].knob,
			    s->klog[t->kseen % KNOB_LOG].v);
	atomic_store_explicit(&t->kdone, seq, memory_order_release);
}

static void view_of(const struct devpoll *p, struct fwdloop_view *v, bool hist)
{
	v->st = p->st;
	v->k = p->k;
	v->clock_hz = devpoll_clock_hz(p);
	v->registered = devpoll_registered(p);
	v->t_ns = mono_ns();
	if (hist)
		v->late_ns = p->late_ns;
}

/* The thread's poll figures for the others: the counters after every round, the
 * lateness histogram (15 kB) with the 100 ms refresh. */
static void publish(struct fwdloop_thr *t, bool hist)
{
	const struct devpoll *p = &t->poll;
	if (t->id == 0) {
		struct fwdloop_pub *pub = &t->s->pub;
		atomic_store_explicit(&pub->burst, p->st.burst, memory_order_relaxed);
		atomic_store_explicit(&pub->pollhz, devpoll_clock_hz(p), memory_order_relaxed);
		atomic_store_explicit(&pub->ticks, p->st.ticks, memory_order_relaxed);
		atomic_store_explicit(&pub->lost_polls, p->st.lost_polls, memory_order_relaxed);
		atomic_store_explicit(&pub->rounds, p->st.rounds, memory_order_relaxed);
	}
	if (t->s->nthr < 2)
		return;
	pthread_mutex_lock(&t->view_lock);
	view_of(p, &t->view, hist);
	pthread_mutex_unlock(&t->view_lock);
}

static _Thread_local int my_tid = -1;

void fwdloop_poll_view(struct fwdloop *s, int i, struct fwdloop_view *v)
{
	struct fwdloop_thr *t = s->t[i];
	bool own = !atomic_load(&t->running) || my_tid == i || s->nthr < 2;
	if (own) {
		view_of(&t->poll, v, true);
		return;
	}
	pthread_mutex_lock(&t->view_lock);
	*v = t->view;
	pthread_mutex_unlock(&t->view_lock);
}

static inline bool cmd_waiting(struct fwdloop *s)
{
	return !s->cmd_later && ctl_pending(s->mb);
}

/* The mailbox's command, or the next step of one that goes on (thread 0); completed
 * once it returns a status. */
static void cmd_run(struct fwdloop *s)
{
	/* what thread 0 forwarded leaves first: a long command holds no frame back */
	if (s->t[0]->ft && !s->cmd_later)
		fwd_flush(s->t[0]->ft);
	int st = s->cmd ? s->cmd(s->cmd_ctx, s->mb) : EX_SOFTWARE;
	s->cmd_later = st == FWDLOOP_CMD_LATER;
	if (s->cmd_later)
		return;
	s->mb->status = st;
	ctl_complete(s->mb);
}

/* Thread 0 has nothing due (its rings empty, or its round done and the next tick not
 * yet due): a command that goes on is looked at. */
static bool cmd_step(struct fwdloop_thr *t)
{
	if (t->id != 0 || !t->s->cmd_later)
		return false;
	cmd_run(t->s);
	qsbr_quiescent(&t->s->qsbr, 0);
	return true;
}

/* Between batches: a quiescent point; thread 0: a waiting command and what the
 * commands replaced; every thread: knob writes, and every REFRESH_NS the kernel
 * counters. */
static void service(struct fwdloop_thr *t)
{
	struct fwdloop *s = t->s;
	qsbr_quiescent(&s->qsbr, t->id);
	if (t->id == 0) {
		if (cmd_waiting(s))
			cmd_run(s);
		qsbr_reclaim(&s->qsbr);
	} else {
		knob_replay(t);
	}
	uint64_t now = mono_ns();
	if (now >= t->next_link) {   /* a link gone down: frames dropped, not queued */
		fwd_link_check(t->ft);
		t->next_link = now + LINK_CHECK_NS;
	}
	if (now >= t->next_refresh) {
		fwd_refresh_kernel(t->ft);
		if (t->id == 0)
			fwd_fw_tick(s->f);
		publish(t, true);
		t->next_refresh = now + REFRESH_NS;
	}
}

/* The part of service that a long drain or wait needs: no command is kept waiting,
 * no reclamation held up. True when it ran the rest too. */
static inline bool service_light(struct fwdloop_thr *t)
{
	qsbr_quiescent(&t->s->qsbr, t->id);
	if (t->id == 0 ? cmd_waiting(t->s)
		       : t->kseen != atomic_load_explicit(&t->s->kseq, memory_order_relaxed)) {
		service(t);
		return true;
	}
	return false;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / NS_PER_S), .tv_nsec = (long)(t % NS_PER_S) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* A pause of forwarding (fwdloop_pause): the thread reads no port until its end, so
 * frames wait in the rings, or the kernel drops them there when a ring fills, as in a
 * router that stalls. What it already forwarded leaves first. Thread 0 still answers
 * commands (a pause may be extended or read back); every thread keeps its quiescent
 * points and takes knob writes, each SLEEP_SLICE_NS. In poll mode the tick clock starts again at the pause's end (every thread
 * on the same origin): the pause is no late tick or lost poll. */
static void pause_wait(struct fwdloop_thr *t)
{
	struct fwdloop *s = t->s;
	uint64_t until = atomic_load_explicit(&s->pause_until, memory_order_relaxed);
	if (until == t->pause_seen)
		return;
	uint64_t start = mono_ns();
	if (start >= until) {   /* over before this thread came by */
		t->pause_seen = until;
		return;
	}
	fwd_flush(t->ft);
	for (;;) {
		uint64_t now = mono_ns();
		until = atomic_load_explicit(&s->pause_until, memory_order_relaxed);
		if (now >= until || runctl_stopped(s->rc))
			break;
		sleep_until(until - now > SLEEP_SLICE_NS ? now + SLEEP_SLICE_NS : until);
		if (t->id == 0 && cmd_waiting(s)) {
			service(t);
		} else {
			qsbr_quiescent(&s->qsbr, t->id);
			knob_replay(t);   /* a sysctl during the pause waits for it */
		}
	}
	t->pause_seen = until;
	uint64_t end = mono_ns();
	if (s->mode == RUT_POLL && devpoll_registered(&t->poll))
		devpoll_clock_start(&t->poll, until);
	if (t->id == 0) {   /* from the command: thread 0 may have been held before */
		uint64_t cmd = s->pause_cmd_ns < start ? s->pause_cmd_ns : start;
		atomic_store_explicit(&s->pause_last_ns, end - cmd, memory_order_relaxed);
		atomic_store_explicit(&s->pause_late_ns, start - cmd, memory_order_relaxed);
		atomic_fetch_add_explicit(&s->pause_total_ns, end - cmd, memory_order_relaxed);
	}
}

int fwdloop_pause(struct fwdloop *s, uint64_t ns)
{
	if (!ns)
		return -EINVAL;
	uint64_t now = mono_ns();
	if (now >= atomic_load_explicit(&s->pause_until, memory_order_relaxed))
		s->pause_cmd_ns = now;   /* a new stall, not one extended */
	atomic_store_explicit(&s->pause_until, now + ns, memory_order_relaxed);
	atomic_fetch_add_explicit(&s->pause_count, 1, memory_order_relaxed);
	atomic_store_explicit(&s->pause_req_ns, ns, memory_order_relaxed);
	return 0;
}

void fwdloop_pause_stats(const struct fwdloop *s, struct fwdloop_pause *p)
{
	p->count = atomic_load_explicit(&s->pause_count, memory_order_relaxed);
	p->req_ns = atomic_load_explicit(&s->pause_req_ns, memory_order_relaxed);
	p->last_ns = atomic_load_explicit(&s->pause_last_ns, memory_order_relaxed);
	p->late_ns = atomic_load_explicit(&s->pause_late_ns, memory_order_relaxed);
	p->total_ns = atomic_load_explicit(&s->pause_total_ns, memory_order_relaxed);
}

/* Drains every port round-robin, a burst each, until all are empty (the empty read
 * also hands the ring slots back, so epoll does not wake again for them), then sends
 * what the ports held back. */
static int drain(struct fwdloop_thr *t)
{
	bool more = true;
	while (more && !runctl_stopped(t->s->rc)) {
		more = false;
		pause_wait(t);
		for (int i = 0; i < t->s->f->nports; i++) {
			int n = fwd_burst(t->ft, i, t->s->burst);
			if (n < 0)
				return n;
			more |= n > 0;
		}
		service_light(t);
	}
	fwd_flush(t->ft);
	return 0;
}

/* The interrupt-driven service: wait for a port (or a command), then drain. */
static int intr_once(struct fwdloop_thr *t, int timeout_ms)
{
	struct epoll_event ev[FWD_MAX_PORTS + 1];
	bool step = t->id == 0 && t->s->cmd_later;   /* a command that goes on: looked at
						      * each time the ports are found
						      * empty, at least every ms */
	int n = epoll_wait(t->epfd, ev, FWD_MAX_PORTS + 1, step ? 1 : timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (int i = 0; i < n; i++)
		if (ev[i].data.u32 == WAKE_KEY) {
			uint64_t v;
			ssize_t r = read(t->s->mb->wake_fd, &v, sizeof(v));
			(void)r;
		}
	int rc = n ? drain(t) : 0;   /* a drain ends with every port empty */
	if (step && !rc)
		cmd_step(t);
	return rc;
}

static int loop_intr(struct fwdloop_thr *t)
{
	while (!runctl_stopped(t->s->rc)) {
		int rc = intr_once(t, 100);
		if (rc < 0)
			return rc;
		service(t);
	}
	return 0;
}

static int loop_busy(struct fwdloop_thr *t)
{
	struct fwdloop *s = t->s;
	unsigned iter = 0;
	while (!runctl_stopped(s->rc)) {
		int got = 0;
		pause_wait(t);
		for (int i = 0; i < s->f->nports; i++) {
			int n = fwd_burst(t->ft, i, s->burst);
			if (n < 0)
				return n;
			got += n;
		}
		if (!got) {
			fwd_flush(t->ft);
			cmd_step(t);
		}
		if ((++iter & 1023) == 0 || (t->id == 0 && cmd_waiting(s)))
			service(t);
	}
	return 0;
}

/* Until the next tick's deadline: sleep while far, spin the last spin_ns, idle-poll
 * instead if asked; commands and knob writes are served meanwhile (one may change the
 * deadline). */
static int wait_tick(struct fwdloop_thr *t)
{
	struct fwdloop *s = t->s;
	struct devpoll *p = &t->poll;
	bool stepped = false;
	for (;;) {
		uint64_t next = devpoll_next_deadline(p), now = mono_ns();
		if (now >= next || runctl_stopped(s->rc) || !devpoll_registered(p))
			return 0;
		if (service_light(t))
			continue;   /* a command or knob may have moved the deadline */
		/* a command that goes on: looked at once a wait, before the sleep */
		if (!stepped && next - now > s->spin_ns) {
			stepped = true;
			if (cmd_step(t))
				continue;
		}
		if (p->k.idle_poll) {
			/* FreeBSD's idle thread: one pass, then the CPU goes to whoever else
			 * wants it (poll_idle's mi_switch); at the forwarding thread's own
			 * priority, not an idle one (docs/design/polling.md#idle-polling) */
			int rc = devpoll_idle(p);
			if (rc < 0)
				return rc;
			if (!rc)
				fwd_flush(t->ft);
			sched_yield();
			continue;
		}
		if (next - now > s->spin_ns) {
			uint64_t wake = next - s->spin_ns;
			if (wake - now > SLEEP_SLICE_NS)
				wake = now + SLEEP_SLICE_NS;
			sleep_until(wake);
			continue;
		}
		while (mono_ns() < next)
			;
		return 0;
	}
}

static int loop_poll(struct fwdloop_thr *t)
{
	struct fwdloop *s = t->s;
	struct devpoll *p = &t->poll;
	bool polling = false, first = true;
	while (!runctl_stopped(s->rc)) {
		if (!devpoll_registered(p)) {
			/* deregistered: the ports are served by interrupts until they register
			 * again (FreeBSD 7's kern.polling.enable=1) */
			polling = false;
			int rc = arm_ports(t, true);
			if (rc < 0)
				return rc;
			rc = intr_once(t, 50);
			if (rc < 0)
				return rc;
			service(t);
			continue;
		}
		if (!polling) {
			int rc = arm_ports(t, false);
			if (rc < 0)
				return rc;
			/* the threads' clocks start on one origin: their ticks fall together */
			devpoll_clock_start(p, first ? s->clock_base : mono_ns());
			first = false;
			polling = true;
		}
		pause_wait(t);
		int rc = devpoll_work(p, 256);
		if (rc < 0)
			return rc;
		fwd_flush(t->ft);   /* the round's frames leave before the wait for the next tick */
		/* their transmit followed the round on the kernel's timeline, as the
		 * netisr's own work: the deadlines it reached fire now (suspect), and the
		 * poll they scheduled runs at once */
		int after = rc == 0 ? devpoll_trail_done(p) : 0;
		service(t);
		if (s->nthr > 1)
			publish(t, false);
		if (rc == 1 || after > 0)
			continue;
		if ((rc = wait_tick(t)) < 0)
			return rc;
		devpoll_clock(p, mono_ns());
	}
	return 0;
}

static void *fwdloop_thread(void *arg)
{
	struct fwdloop_thr *t = arg;
	struct fwdloop *s = t->s;
	int rc = 0;
	clock_low_slack();
	my_tid = t->id;
	knob_replay(t);   /* the writes made at start (--sysctl) */
	t->next_refresh = 0;
	t->next_link = 0;
	switch (s->mode) {
	case RUT_POLL: rc = loop_poll(t); break;
	case RUT_INTR: rc = loop_intr(t); break;
	case RUT_BUSY: rc = loop_busy(t); break;
	}
	relaxed_set(&t->ft->end_real_ns, real_ns());   /* it forwards nothing after this */
	fwd_refresh_kernel(t->ft);
	publish(t, true);
	t->err = rc;
	t->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	qsbr_offline(&s->qsbr, t->id);   /* it reads nothing more */
	atomic_store(&t->running, 0);
	atomic_fetch_sub(&s->nrunning, 1);
	if (rc)
		runctl_wake(s->rc);
	return NULL;
}

static int start_one(struct fwdloop_thr *t, int rt_prio, bool *rt_ok)
{
	pthread_attr_t at;
	int rc;
	pthread_attr_init(&at);
	thread_attr_cpu(&at, t->cpu);
	if (rt_prio > 0 && *rt_ok) {
		struct sched_param sp = { .sched_priority = rt_prio };
		pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&at, SCHED_FIFO);
		pthread_attr_setschedparam(&at, &sp);
	}
	atomic_store(&t->running, 1);
	atomic_fetch_add(&t->s->nrunning, 1);
	rc = pthread_create(&t->th, &at, fwdloop_thread, t);
	if (rc == EPERM && rt_prio > 0 && *rt_ok) {
		*rt_ok = false;
		pthread_attr_setinheritsched(&at, PTHREAD_INHERIT_SCHED);
		rc = pthread_create(&t->th, &at, fwdloop_thread, t);
	}
	pthread_attr_destroy(&at);
	if (rc) {
		atomic_store(&t->running, 0);
		atomic_fetch_sub(&t->s->nrunning, 1);
		return -rc;
	}
	return 0;
}

int fwdloop_start(struct fwdloop *s, int rt_prio, bool *rt_ok)
{
	*rt_ok = rt_prio > 0;
	s->clock_base = mono_ns() + CLOCK_LEAD_NS;
	for (int i = 0; i < s->nthr; i++) {
		int rc = start_one(s->t[i], rt_prio, rt_ok);
		if (rc) {
			runctl_wake(s->rc);
			return rc;
		}
	}
	s->rt_prio = *rt_ok ? rt_prio : 0;
	return 0;
}

void fwdloop_join(struct fwdloop *s)
{
	for (int i = 0; i < s->nthr; i++)
		if (s->t[i]->th)
			pthread_join(s->t[i]->th, NULL);
}

uint64_t fwdloop_thr_cpu_ns(struct fwdloop *s, int i)
{
	const struct fwdloop_thr *t = s->t[i];
	clockid_t cid;
	if (atomic_load(&t->running) && pthread_getcpuclockid(t->th, &cid) == 0)
		return clock_ns(cid);
	return t->cpu_ns;
}

uint64_t fwdloop_cpu_ns(struct fwdloop *s)
{
	uint64_t sum = 0;
	for (int i = 0; i < s->nthr; i++)
		sum += fwdloop_thr_cpu_ns(s, i);
	return sum;
}

struct fwdloop *fwdloop_new(void)
{
	return calloc(1, sizeof(struct fwdloop));
}

void fwdloop_free(struct fwdloop *s)
{
	if (!s)
		return;
	fwdloop_fini(s);
	free(s);
}

void fwdloop_set_cmd(struct fwdloop *s, fwdloop_cmd_fn fn, void *ctx)
{
	s->cmd = fn;
	s->cmd_ctx = ctx;
}

struct devpoll *fwdloop_poll0(struct fwdloop *s)
{
	return &s->t[0]->poll;
}

struct fwd *fwdloop_fwd(const struct fwdloop *s)
{
	return s->f;
}

enum fwdloop_mode fwdloop_mode(const struct fwdloop *s)
{
	return s->mode;
}

int fwdloop_nthr(const struct fwdloop *s)
{
	return s->nthr;
}

uint64_t fwdloop_spin_ns(const struct fwdloop *s)
{
	return s->spin_ns;
}

int fwdloop_rt_prio(const struct fwdloop *s)
{
	return atomic_load(&s->rt_prio);
}

struct fwdloop_info *fwdloop_info(struct fwdloop *s)
{
	return &s->info;
}

const struct fwdloop_pub *fwdloop_pub(const struct fwdloop *s)
{
	return &s->pub;
}

int fwdloop_running(const struct fwdloop *s)
{
	return atomic_load(&s->nrunning);
}

int fwdloop_thr_cpu(const struct fwdloop *s, int i)
{
	return s->t[i]->cpu;
}

int fwdloop_thr_err(const struct fwdloop *s, int i)
{
	return s->t[i]->err;
}

uint32_t fwdloop_knob_seq(const struct fwdloop *s)
{
	return atomic_load(&s->kseq);
}

void *fwdloop_job(const struct fwdloop *s)
{
	return s->cmd_job;
}

void fwdloop_set_job(struct fwdloop *s, void *job, void (*free_fn)(void *))
{
	s->cmd_job = job;
	s->cmd_job_free = free_fn;
}

uint64_t fwdloop_kernel_drops0(struct fwdloop *s)
{
	struct fwd_thr *ft = s->nthr ? s->t[0]->ft : NULL;
	uint64_t n = 0;
	if (!ft)
		return 0;
	fwd_refresh_kernel(ft);
	for (int i = 0; i < s->f->nports; i++)
		n += atomic_load_explicit(&ft->ctr[i].kernel_drops, memory_order_relaxed);
	return n;
}

uint64_t fwdloop_rx_pkts0(struct fwdloop *s)
{
	struct fwd_thr *ft = s->nthr ? s->t[0]->ft : NULL;
	uint64_t n = 0;
	if (!ft)
		return 0;
	for (int i = 0; i < s->f->nports; i++)
		n += atomic_load_explicit(&ft->ctr[i].rx_pkts, memory_order_relaxed);
	return n;
}

void fwdloop_load_set(struct fwdloop *s, const struct fwdloop_load *l)
{
	pthread_mutex_lock(&s->load_lock);
	s->load = *l;
	pthread_mutex_unlock(&s->load_lock);
}

void fwdloop_load_stats(struct fwdloop *s, struct fwdloop_load *l)
{
	pthread_mutex_lock(&s->load_lock);
	*l = s->load;
	pthread_mutex_unlock(&s->load_lock);
}
