/* SPDX-License-Identifier: BSD-2-Clause */
/* fwdloop.c — the forwarding thread: poll, intr and busy loops (see fwdloop.h). Started by
 * main.c; it owns the poll context, the forwarding engine's hot path, and runs control
 * commands (cmd.c) between batches. */
#include "fwdloop.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cmd.h"

#define WAKE_KEY 0xffffu
#define REFRESH_NS (100 * NS_PER_MS)    /* kernel drop counters and published figures */
#define SLEEP_SLICE_NS (50 * NS_PER_MS) /* longest sleep without looking at stop/ctl */

static const char *const mode_names[] = { "poll", "intr", "busy" };

const char *rut_mode_name(enum rut_mode m)
{
	return (unsigned)m < 3 ? mode_names[m] : "?";
}

int rut_mode_parse(const char *s, enum rut_mode *m)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, mode_names[i])) {
			*m = (enum rut_mode)i;
			return 0;
		}
	return -EINVAL;
}

static uint64_t real_clock(void *ctx)
{
	(void)ctx;
	return mono_ns();
}

/* the calling thread's CPU time: devpoll reads it on the forwarding thread only */
static uint64_t thread_cpu_clock(void *ctx)
{
	(void)ctx;
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* A registered interface's poll routine: forward at most count frames; a status
 * round also reads the port's kernel counters (em(4) reads its statistics registers
 * on POLL_AND_CHECK_STATUS). */
static int poll_handler(void *arg, enum poll_cmd cmd, int count)
{
	struct sched_handler *h = arg;
	int n = fwd_burst(h->s->f, h->port, count);
	if (cmd == POLL_AND_CHECK_STATUS) {
		struct port_stats ps;
		struct fwd_port *p = &h->s->f->ports[h->port];
		port_stats(p->port, &ps);
		atomic_store_explicit(&p->ctr.kernel_drops, ps.rx_drops, memory_order_relaxed);
	}
	return n;
}

/* Puts the ports in the epoll set, or takes them out. Only a mode that waits for them
 * has them there: a socket with a waiter costs a wake-up attempt (a spinlock with
 * interrupts off) for every frame the kernel queues to it or frees from it — on veth
 * in the sender's softirq — which busy and poll mode, never waiting, would pay for
 * nothing (in perf with xdp: ports, the wake-up's spin_unlock_irqrestore took 9.5 % of
 * the forwarding core and 8.7 % of the sender's; 3 % each once the ports left). */
static int arm_ports(struct sched *s, bool on)
{
	if (s->ports_armed == on)
		return 0;
	for (int i = 0; i < s->f->nports; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
		if (epoll_ctl(s->epfd, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL,
			      port_fd(s->f->ports[i].port), &ev) < 0)
			return -errno;
	}
	s->ports_armed = on;
	return 0;
}

int sched_init(struct sched *s, struct fwd *f, enum rut_mode mode, const struct pollkern *k,
	       int burst, uint64_t spin_ns, struct runctl *rc, struct ctl_req *mb)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	s->mode = mode;
	s->burst = burst;
	s->spin_ns = spin_ns;
	s->rc = rc;
	s->mb = mb;
	s->info.t0_ns = mono_ns();
	poll_init(&s->poll, k, real_clock, NULL);
	poll_set_cpu_clock(&s->poll, thread_cpu_clock);
	/* the ports register for polling only in poll mode (in the others, as on an
	 * interface without polling, the knobs can be set but nothing is registered) */
	for (int i = 0; i < f->nports && mode == RUT_POLL; i++) {
		s->h[i] = (struct sched_handler){ .s = s, .port = i };
		int e = poll_register(&s->poll, poll_handler, &s->h[i]);
		if (e)
			return e;
	}
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->epfd < 0)
		return -errno;
	if (mode == RUT_INTR) {
		int e = arm_ports(s, true);
		if (e)
			return e;
	}
	if (mb) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = WAKE_KEY };
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, mb->wake_fd, &ev) < 0)
			return -errno;
	}
	return 0;
}

void sched_fini(struct sched *s)
{
	if (s->epfd > 0)
		close(s->epfd);
	s->epfd = -1;
}

static void publish(struct sched *s)
{
	const struct poll *p = &s->poll;
	atomic_store_explicit(&s->pub.burst, p->st.burst, memory_order_relaxed);
	atomic_store_explicit(&s->pub.pollhz, poll_clock_hz(p), memory_order_relaxed);
	atomic_store_explicit(&s->pub.ticks, p->st.ticks, memory_order_relaxed);
	atomic_store_explicit(&s->pub.lost_polls, p->st.lost_polls, memory_order_relaxed);
	atomic_store_explicit(&s->pub.rounds, p->st.rounds, memory_order_relaxed);
}

/* Between batches: a waiting command, and every REFRESH_NS the kernel counters. */
static void service(struct sched *s)
{
	if (ctl_pending(s->mb)) {
		s->mb->status = cmd_exec(s, s->mb);
		ctl_complete(s->mb);
	}
	uint64_t now = mono_ns();
	if (now >= s->next_refresh) {
		fwd_refresh_kernel(s->f);
		fwd_fw_tick(s->f);
		publish(s);
		s->next_refresh = now + REFRESH_NS;
	}
}

/* Drains every port round-robin, a burst each, until all are empty (the empty read
 * also hands the ring slots back, so epoll does not wake again for them), then sends
 * what the ports held back. */
static int drain(struct sched *s)
{
	bool more = true;
	while (more && !runctl_stopped(s->rc)) {
		more = false;
		for (int i = 0; i < s->f->nports; i++) {
			int n = fwd_burst(s->f, i, s->burst);
			if (n < 0)
				return n;
			more |= n > 0;
		}
		if (ctl_pending(s->mb))
			service(s);
	}
	fwd_flush(s->f);
	return 0;
}

/* The interrupt-driven service: wait for a port (or a command), then drain. */
static int intr_once(struct sched *s, int timeout_ms)
{
	struct epoll_event ev[FWD_MAX_PORTS + 1];
	int n = epoll_wait(s->epfd, ev, FWD_MAX_PORTS + 1, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (int i = 0; i < n; i++)
		if (ev[i].data.u32 == WAKE_KEY) {
			uint64_t v;
			ssize_t r = read(s->mb->wake_fd, &v, sizeof(v));
			(void)r;
		}
	return n ? drain(s) : 0;
}

static int loop_intr(struct sched *s)
{
	while (!runctl_stopped(s->rc)) {
		int rc = intr_once(s, 100);
		if (rc < 0)
			return rc;
		service(s);
	}
	return 0;
}

static int loop_busy(struct sched *s)
{
	unsigned iter = 0;
	while (!runctl_stopped(s->rc)) {
		int got = 0;
		for (int i = 0; i < s->f->nports; i++) {
			int n = fwd_burst(s->f, i, s->burst);
			if (n < 0)
				return n;
			got += n;
		}
		if (!got)
			fwd_flush(s->f);
		if (ctl_pending(s->mb) || (++iter & 1023) == 0)
			service(s);
	}
	return 0;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / NS_PER_S), .tv_nsec = (long)(t % NS_PER_S) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Until the next tick's deadline: sleep while far, spin the last spin_ns, idle-poll
 * instead if asked; commands are served meanwhile (one may change the deadline). */
static int wait_tick(struct sched *s)
{
	struct poll *p = &s->poll;
	for (;;) {
		uint64_t next = poll_next_deadline(p), now = mono_ns();
		if (now >= next || runctl_stopped(s->rc) || !poll_registered(p))
			return 0;
		if (ctl_pending(s->mb)) {
			service(s);
			continue;
		}
		if (p->k.idle_poll) {
			/* FreeBSD's idle thread: one pass, then the CPU goes to whoever else
			 * wants it (poll_idle's mi_switch); at the forwarding thread's own
			 * priority, not an idle one (docs/design/polling.md#idle-polling) */
			int rc = poll_idle(p);
			if (rc < 0)
				return rc;
			if (!rc)
				fwd_flush(s->f);
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

static int loop_poll(struct sched *s)
{
	struct poll *p = &s->poll;
	bool polling = false;
	while (!runctl_stopped(s->rc)) {
		if (!poll_registered(p)) {
			/* deregistered: the ports are served by interrupts until they register
			 * again (FreeBSD 7's kern.polling.enable=1) */
			polling = false;
			int rc = arm_ports(s, true);
			if (rc < 0)
				return rc;
			rc = intr_once(s, 50);
			if (rc < 0)
				return rc;
			service(s);
			continue;
		}
		if (!polling) {
			int rc = arm_ports(s, false);
			if (rc < 0)
				return rc;
			poll_clock_start(p, mono_ns());
			polling = true;
		}
		int rc = poll_work(p, 256);
		if (rc < 0)
			return rc;
		fwd_flush(s->f);   /* the round's frames leave before the wait for the next tick */
		service(s);
		if (rc == 1)
			continue;
		if ((rc = wait_tick(s)) < 0)
			return rc;
		poll_clock(p, mono_ns());
	}
	return 0;
}

static void *sched_thread(void *arg)
{
	struct sched *s = arg;
	int rc = 0;
	clock_low_slack();
	s->next_refresh = 0;
	switch (s->mode) {
	case RUT_POLL: rc = loop_poll(s); break;
	case RUT_INTR: rc = loop_intr(s); break;
	case RUT_BUSY: rc = loop_busy(s); break;
	}
	fwd_refresh_kernel(s->f);
	publish(s);
	s->err = rc;
	s->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	atomic_store(&s->running, 0);
	if (rc)
		runctl_wake(s->rc);
	return NULL;
}

int sched_start(struct sched *s, int rt_prio, bool *rt_ok)
{
	pthread_attr_t at;
	int rc;
	pthread_attr_init(&at);
	if (rt_prio > 0) {
		struct sched_param sp = { .sched_priority = rt_prio };
		pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&at, SCHED_FIFO);
		pthread_attr_setschedparam(&at, &sp);
	}
	atomic_store(&s->running, 1);
	rc = pthread_create(&s->th, &at, sched_thread, s);
	pthread_attr_destroy(&at);
	*rt_ok = rt_prio > 0 && rc == 0;
	s->rt_prio = *rt_ok ? rt_prio : 0;
	if (rc == EPERM && rt_prio > 0)
		rc = pthread_create(&s->th, NULL, sched_thread, s);
	if (rc) {
		atomic_store(&s->running, 0);
		return -rc;
	}
	return 0;
}

void sched_join(struct sched *s)
{
	pthread_join(s->th, NULL);
}

uint64_t sched_cpu_ns(struct sched *s)
{
	clockid_t cid;
	if (atomic_load(&s->running) && pthread_getcpuclockid(s->th, &cid) == 0)
		return clock_ns(cid);
	return s->cpu_ns;
}
