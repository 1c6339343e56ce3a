/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd.c — runs one control request on the forwarding thread (see cmd.h). Called by
 * fwdloop.c, through the hook main installs, between batches, when ctl.c has posted a
 * request. */
#include "cmd.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sysexits.h>
#include <unistd.h>

#include "bsdctl.h"
#include "clock.h"
#include "fw.h"
#include "jout.h"
#include "rut_sysctl.h"
#include "rutstats.h"
#include "thread.h"

#define CMD_MAX_WORDS 256
#define CMD_PAUSE_MAX_MS 60000

static int cmd_sysctl(struct fwdloop *s, int argc, char **argv, struct ctl_req *r)
{
	int n;
	const struct bsdctl_oid *tab = rut_sysctl_table(&n);
	/* thread 0's poll context, as DragonFly's global names are the default CPU's; a
	 * knob written goes to every thread's before the command returns */
	struct rut_sysctl_ctx ctx = { .poll = fwdloop_poll0(s), .fw = fwdloop_fwd(s)->fw,
				      .knob_hook = fwdloop_knob_written, .hook_arg = s };
	uint32_t seq = fwdloop_knob_seq(s);
	int st = bsdctl_sysctl(tab, n, &ctx, argc, argv, &r->out, &r->err);
	if (fwdloop_knob_seq(s) != seq && !fwdloop_knob_sync(s))
		sbuf_cat(&r->err, "ppslab-rut: note: a forwarding thread has not taken the new "
				  "value yet (it will at its next round)\n");
	return st;
}

/* The ipfw command word after the flags ("show", "add", ...), or "". */
static const char *ipfw_verb(char **argv, int argc)
{
	for (int i = 1; i < argc; i++)
		if (argv[i][0] != '-')
			return argv[i];
	return "";
}

static bool prefix_of(const char *w, const char *word)
{
	return *w && !strncmp(word, w, strlen(w));
}

/* A diagnostic as ipfw(8) prints it, with the exit status it would have: what the
 * "kernel" refused ("rule 150: setsockopt(IP_FW_ZERO): Invalid argument", "failed to
 * request table info: No such process") exactly so, a parse error with its position. */
static int ipfw_fail(struct ctl_req *r, struct fw_diag *d)
{
	char buf[512];
	sbuf_cat(&r->err, d->warn);
	if (!d->msg[0])   /* said on standard output already ("Entry 5 not found") */
		return d->ex ? d->ex : EX_UNAVAILABLE;
	sbuf_printf(&r->err, "ipfw: %s\n", fw_diag_str(d, buf, sizeof(buf)));
	return d->ex ? d->ex : EX_UNAVAILABLE;
}

static void note_disabled(struct fwdloop *s, struct ctl_req *r)
{
	if (!fw_tunables(fwdloop_fwd(s)->fw)->enable)
		sbuf_cat(&r->err, "ppslab-rut: note: net.inet.ip.fw.enable is 0: the firewall is "
				  "not consulted (sysctl net.inet.ip.fw.enable=1)\n");
}

/* "ipfw [-q] add|delete|show|list|zero|flush|resetlog ...": fw_exec writes what ipfw
 * prints; a listing gets a buffer as large as the ruleset needs. */
static int cmd_ipfw(struct fwdloop *s, const char *line, char **argv, int argc,
		    struct ctl_req *r)
{
	struct fw *fw = fwdloop_fwd(s)->fw;
	const char *verb = ipfw_verb(argv, argc);
	bool listing = prefix_of(verb, "show") || prefix_of(verb, "list");
	size_t cap = 65536 + (size_t)fw_rule_count(fw) * 512;
	for (;;) {
		struct fw_diag d = { .file = "-" };
		char *out = malloc(cap);
		if (!out) {
			sbuf_cat(&r->err, "ppslab-rut: ipfw: out of memory\n");
			return EX_OSERR;
		}
		int rc = fw_exec(fw, line, out, cap, &d);
		if (rc == -ENOSPC && listing && cap < CTL_REPLY_MAX) {
			free(out);
			cap *= 4;
			continue;
		}
		sbuf_cat(&r->out, out);
		free(out);
		if (rc)
			return ipfw_fail(r, &d);
		sbuf_cat(&r->err, d.warn);
		if (prefix_of(verb, "add"))
			note_disabled(s, r);
		return EX_OK;
	}
}

/* The books of a load (docs/forwarder.md#loading-a-rule-set-under-traffic): its
 * instants, what it held thread 0 for, and thread 0's ring drops until its rings were
 * found empty after it (the drops of the backlog it left count too). */
static void load_begin(struct fwdloop *s, struct fwdloop_load *l, bool per_rule)
{
	struct fwdloop_load prev;
	fwdloop_load_stats(s, &prev);
	*l = (struct fwdloop_load){ .count = prev.count + 1, .per_rule = per_rule,
				    .running = true, .start_ns = real_ns() };
}

static void load_end_at(struct fwdloop *s, struct fwdloop_load *l, uint64_t kd0,
			uint64_t kd_end, int status);

static void load_end(struct fwdloop *s, struct fwdloop_load *l, uint64_t kd0, int status)
{
	load_end_at(s, l, kd0, fwdloop_kernel_drops0(s), status);
}

/* kd_end: the drops read before thread 0 last found its rings empty, so that every
 * frame a counted drop came after was read by then (rx_pkts_drained). */
static void load_end_at(struct fwdloop *s, struct fwdloop_load *l, uint64_t kd0,
			uint64_t kd_end, int status)
{
	if (!l->end_ns)
		l->end_ns = real_ns();
	l->drained_ns = real_ns();
	l->kernel_drops = kd_end - kd0;
	l->kernel_drops_drained = fwdloop_kernel_drops0(s) - kd0;
	l->rx_pkts_drained = fwdloop_rx_pkts0(s);
	l->running = false;
	l->status = status;
	fwdloop_load_set(s, l);
}

/* A load that goes on (fwdloop.h, FWDLOOP_CMD_LATER): an all-at-once load waiting for
 * thread 0's rings to drain, or a per-rule load, which a loader thread of its own makes
 * as ipfw(8) does from a file (ipfw_readfile): one call a line (IP_FW_XADD), each
 * building the new rule set beside the live one and swapping it in with one pointer
 * store. It is the only writer of the rules meanwhile: no other command runs until the
 * request completes. */
struct load_job {
	char *data;                  /* the file, its lines cut in place */
	size_t len, pos;
	int line;                    /* lines read */
	char name[128];
	uint64_t kd0;                /* thread 0's ring drops at the start */
	uint64_t kd_end;             /* ... read once the load was over (drops_read) */
	bool drops_read, joined;
	int status;
	bool drain;                  /* all at once: only the drain is left */
	struct fw *fw;
	pthread_t th;
	bool started;
	_Atomic bool done, stop;
	struct fw_diag d;            /* the failing line's */
	struct sbuf warn;
	struct fwdloop_load l;       /* the loader's books, read after the join */
};

static void job_free(void *arg)
{
	struct load_job *j = arg;
	if (j->started) {
		atomic_store(&j->stop, true);
		pthread_join(j->th, NULL);
	}
	sbuf_free(&j->warn);
	free(j->data);
	free(j);
}

static int job_done(struct fwdloop *s, struct load_job *j, int status)
{
	load_end_at(s, &j->l, j->kd0, j->drops_read ? j->kd_end : fwdloop_kernel_drops0(s),
		    status);
	fwdloop_set_job(s, NULL, NULL);
	job_free(j);
	return status;
}

/* The next command line of the job's file: '#' to the end of a line is a comment, blank
 * lines are skipped (as ipfw_readfile does); NULL at the end. */
static char *job_line(struct load_job *j)
{
	while (j->pos < j->len) {
		char *p = j->data + j->pos, *nl = memchr(p, '\n', j->len - j->pos);
		size_t n = nl ? (size_t)(nl - p) : j->len - j->pos;
		p[n] = 0;
		j->pos += n + 1;
		j->line++;
		char *c = strchr(p, '#');
		if (c)
			*c = 0;
		for (size_t k = strlen(p); k && (p[k - 1] == ' ' || p[k - 1] == '\t' ||
						 p[k - 1] == '\r'); k--)
			p[k - 1] = 0;
		if (p[strspn(p, " \t")])
			return p;
	}
	return NULL;
}

/* The command word of a file's line ("add" of "-q add 100 ..." or "ipfw add ..."). */
static bool line_is_add(const char *p)
{
	for (;;) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t");
		if (!n)
			return false;
		if (*p != '-' && !(n == 4 && !strncmp(p, "ipfw", 4)))
			return n <= 3 && !strncmp(p, "add", n);   /* "a", "ad", "add" */
		p += n;
	}
}

/* The loader thread: the calls, one a line, until the end, a failing line (ipfw(8)
 * stops there, the lines before it stay loaded) or the forwarder's end. */
static void *loader(void *arg)
{
	struct load_job *j = arg;
	char out[1024];   /* what ipfw prints for a line: not echoed, as with -q */
	char *line;
	j->status = EX_OK;
	while (!atomic_load(&j->stop) && (line = job_line(j))) {
		struct fw_diag d = { 0 };
		uint64_t t0 = mono_ns();
		int rc = fw_exec(j->fw, line, out, sizeof(out), &d);
		uint64_t dt = mono_ns() - t0;
		j->l.calls++;
		j->l.end_ns = real_ns();
		j->l.busy_ns += dt;
		if (dt > j->l.call_max_ns)
			j->l.call_max_ns = dt;
		sbuf_cat(&j->warn, d.warn);
		if (rc && rc != -ENOSPC) {
			snprintf(d.file, sizeof(d.file), "%s", j->name);
			if (!d.line)
				d.line = j->line;
			j->d = d;
			j->status = -1;
			break;
		}
	}
	j->l.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	atomic_store_explicit(&j->done, true, memory_order_release);
	return NULL;
}

/* Thread 0, with nothing due (its rings empty): a drain that is over, or a loader that
 * is done, reads the ring drops, and completes the request the next time thread 0
 * finds its rings empty. Read the other way round, a drop made between the empty rings
 * and the read (the thread preempted there) would follow a frame not yet read. */
static int load_step(struct fwdloop *s, struct load_job *j, struct ctl_req *r)
{
	if (!j->drain && !j->joined) {
		if (!atomic_load_explicit(&j->done, memory_order_acquire))
			return FWDLOOP_CMD_LATER;
		pthread_join(j->th, NULL);
		j->started = false;
		j->joined = true;
	}
	if (!j->drops_read) {
		j->kd_end = fwdloop_kernel_drops0(s);
		j->drops_read = true;
		return FWDLOOP_CMD_LATER;
	}
	if (j->drain)
		return job_done(s, j, j->status);
	sbuf_cat(&r->err, j->warn.s ? j->warn.s : "");
	int st = EX_OK;
	if (j->status < 0)
		st = ipfw_fail(r, &j->d);
	else
		note_disabled(s, r);
	return job_done(s, j, st);
}

static int job_start(struct fwdloop *s, struct load_job *j)
{
	fwdloop_set_job(s, j, job_free);
	fwdloop_load_set(s, &j->l);
	return FWDLOOP_CMD_LATER;
}

/* A per-rule load: its lines checked to be `add`s (the loader touches nothing but the
 * rules: a flush or delete frees what thread 0 also frees, so it stays with the
 * all-at-once load), then the loader started on thread 0's CPU. */
static int per_rule_start(struct fwdloop *s, struct ctl_req *r, const char *name,
			  struct fwdloop_load *l, uint64_t kd0)
{
	struct load_job *j = calloc(1, sizeof(*j));
	char *data = j ? malloc(r->datalen + 1) : NULL;
	if (!data) {
		free(j);
		sbuf_cat(&r->err, "ppslab-rut: load: out of memory\n");
		load_end(s, l, kd0, EX_OSERR);
		return EX_OSERR;
	}
	memcpy(data, r->data, r->datalen);
	data[r->datalen] = 0;
	j->data = data;
	j->len = r->datalen;
	j->kd0 = kd0;
	j->l = *l;
	j->fw = fwdloop_fwd(s)->fw;
	snprintf(j->name, sizeof(j->name), "%s", name);
	for (char *p; (p = job_line(j));)
		if (!line_is_add(p)) {
			sbuf_printf(&r->err, "ipfw: %s:%d: -per-rule loads 'add' lines only, got "
				    "'%.40s'\n", name, j->line, p + strspn(p, " \t"));
			job_free(j);
			load_end(s, l, kd0, EX_USAGE);
			return EX_USAGE;
		}
	memcpy(data, r->data, r->datalen);   /* the lines again, uncut */
	j->pos = 0;
	j->line = 0;
	pthread_attr_t at;
	pthread_attr_init(&at);
	thread_attr_cpu(&at, fwdloop_thr_cpu(s, 0));   /* the one CPU of the seed's routers */
	int e = pthread_create(&j->th, &at, loader, j);
	pthread_attr_destroy(&at);
	if (e) {
		sbuf_printf(&r->err, "ppslab-rut: load: %s\n", strerror(e));
		job_free(j);
		load_end(s, l, kd0, EX_OSERR);
		return EX_OSERR;
	}
	j->started = true;
	return job_start(s, j);
}

static int count_lines(const char *p, size_t n)
{
	int k = 0;
	for (size_t i = 0; i < n; i++)
		k += p[i] == '\n';
	return k + (n && p[n - 1] != '\n');
}

/* "load LENGTH ipfw [-q] [-per-rule] NAME" + the file's bytes: what ipfw(8) does with
 * a file. By default through fw_load_file (all-or-nothing, as if -q: nothing is
 * echoed), from an in-memory file so that the forwarder needs no access to the
 * client's files, on thread 0 at once: it forwards nothing meanwhile. -per-rule: as
 * ipfw(8) loads it, one call a line, by a loader thread beside the forwarding. The
 * reply comes when thread 0 has found its rings empty after the load. */
static int cmd_load(struct fwdloop *s, char **argv, int argc, struct ctl_req *r)
{
	struct fw_diag d = { 0 };
	char path[64];
	const char *name = argc >= 4 ? argv[argc - 1] : "-";
	bool per_rule = false;
	if (argc < 4 || strcmp(argv[2], "ipfw")) {
		sbuf_cat(&r->err, "ppslab-rut: load: expected 'load LENGTH ipfw [-q] NAME'\n");
		return EX_USAGE;
	}
	for (int i = 3; i < argc - 1; i++)
		per_rule |= !strcmp(argv[i], "-per-rule");
	uint64_t t0 = mono_ns(), c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	struct fwdloop_load l;
	load_begin(s, &l, per_rule);
	uint64_t kd0 = fwdloop_kernel_drops0(s);
	l.kernel_drops_before = kd0;
	l.lines = (uint64_t)count_lines(r->data, r->datalen);
	if (per_rule)
		return per_rule_start(s, r, name, &l, kd0);
	int fd = memfd_create("ppslab-rut-rules", MFD_CLOEXEC);
	if (fd < 0 || write(fd, r->data, r->datalen) != (ssize_t)r->datalen) {
		sbuf_printf(&r->err, "ppslab-rut: load: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		load_end(s, &l, kd0, EX_OSERR);
		return EX_OSERR;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int rc = fw_load_file(fwdloop_fwd(s)->fw, path, &d);
	l.busy_ns = l.stall_ns = l.call_max_ns = mono_ns() - t0;   /* from the command on */
	l.end_ns = real_ns();
	l.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	l.calls = 1;
	close(fd);
	if (rc < 0) {
		snprintf(d.file, sizeof(d.file), "%s", name);
		int st = ipfw_fail(r, &d);
		load_end(s, &l, kd0, st);
		return st;
	}
	sbuf_cat(&r->err, d.warn);
	note_disabled(s, r);
	struct load_job *j = calloc(1, sizeof(*j));
	if (!j) {
		load_end(s, &l, kd0, EX_OK);
		return EX_OK;
	}
	*j = (struct load_job){ .kd0 = kd0, .status = EX_OK, .drain = true, .l = l };
	return job_start(s, j);
}

static int cmd_stats(struct fwdloop *s, struct ctl_req *r)
{
	/* thread 0's ring drops read now, beside its live frame counts: the loop refreshes
	 * them only every 100 ms (later when the host holds it), and a reading that pairs
	 * the drops with rx_pkts must be of one instant (tests/integ/t_outage.sh) */
	(void)fwdloop_kernel_drops0(s);
	json_t *o = rutstats_json(s, "stats");
	char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!txt) {
		sbuf_cat(&r->err, "ppslab-rut: stats: out of memory\n");
		return EX_OSERR;
	}
	sbuf_cat(&r->out, txt);
	sbuf_cat(&r->out, "\n");
	free(txt);
	return EX_OK;
}

/* "pause MS": forwarding stops for MS milliseconds (fwdloop_pause); the reply comes at
 * once, while the pause runs. */
static int cmd_pause(struct fwdloop *s, int argc, char **argv, struct ctl_req *r)
{
	char *end = NULL;
	errno = 0;
	unsigned long long ms = argc == 2 && argv[1][0] >= '0' && argv[1][0] <= '9'
				? strtoull(argv[1], &end, 10) : 0;
	if (argc != 2 || errno || !end || *end || ms < 1 || ms > CMD_PAUSE_MAX_MS) {
		sbuf_printf(&r->err, "ppslab-rut: pause%s%s: expected 'pause MS', MS a whole "
			    "number of milliseconds from 1 to %d\n", argc > 1 ? " " : "",
			    argc > 1 ? argv[1] : "", CMD_PAUSE_MAX_MS);
		return EX_USAGE;
	}
	fwdloop_pause(s, (uint64_t)ms * 1000000u);
	sbuf_printf(&r->out, "forwarding paused for %llu ms\n", ms);
	return EX_OK;
}

int cmd_exec(struct fwdloop *s, struct ctl_req *r)
{
	char words[CTL_LINE_MAX + 1];
	char *argv[CMD_MAX_WORDS];
	int argc = 0;
	struct load_job *job = fwdloop_job(s);
	if (job)   /* a per-rule load goes on: its next step */
		return load_step(s, job, r);
	snprintf(words, sizeof(words), "%s", r->line);
	for (char *save = NULL, *w = strtok_r(words, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (argc == CMD_MAX_WORDS) {
			sbuf_printf(&r->err, "ppslab-rut: more than %d words\n", CMD_MAX_WORDS);
			return EX_USAGE;
		}
		argv[argc++] = w;
	}
	if (!argc) {
		sbuf_cat(&r->err, "ppslab-rut: empty command (sysctl, ipfw, stats or pause)\n");
		return EX_USAGE;
	}
	if (!strcmp(argv[0], "sysctl"))
		return cmd_sysctl(s, argc - 1, argv + 1, r);
	if (!strcmp(argv[0], "stats") && argc == 1)
		return cmd_stats(s, r);
	if (!strcmp(argv[0], "ipfw"))
		return cmd_ipfw(s, r->line, argv, argc, r);
	if (!strcmp(argv[0], "pause"))
		return cmd_pause(s, argc, argv, r);
	if (!strcmp(argv[0], "load") && r->data)
		return cmd_load(s, argv, argc, r);
	sbuf_printf(&r->err, "ppslab-rut: unknown command '%s' (sysctl, ipfw, stats or pause)\n", argv[0]);
	return EX_USAGE;
}

int cmd_hook(void *ctx, struct ctl_req *r)
{
	return cmd_exec(ctx, r);
}
