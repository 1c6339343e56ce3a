/* SPDX-License-Identifier: BSD-2-Clause */
/* run.c — ppslab run (called by cmd_run.c): the sweep. Owns the results document while
 * it grows, the topology's boxes, the rig measurement, the case loop and the progress
 * display (the topology is in run_env.c, the rig in run_rig.c, a case in run_case.c,
 * the end in run_print.c); delegates the router to dut.c, a measurement to trial.c, the
 * method to search.c and the checks to checks.c. See run.h. */
#include "run.h"
#include "run_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#ifdef __linux__
#include <linux/fs.h>
#endif
#include <time.h>
#include <unistd.h>

#include "checks.h"
#include "deviations.h"
#include "cli.h"
#include "clock.h"
#include "lab.h"
#include "fmt.h"
#include "jout.h"
#include "log.h"
#include "proc.h"
#include "safefile.h"
#include "version.h"

/* Saves the document with updated_utc now; logs a failure and returns its -errno. */
static int run_save(struct runner *r)
{
	char t[32];
	fmt_utc(t, sizeof(t), time(NULL));
	json_object_set_new(r->root, "updated_utc", json_string(t));
	int rc = res_save(r->out, r->root);
	if (rc) {   /* res_save leaves the file as it was: say whether there was one */
		struct stat st;
		log_err("%s: cannot save the results: %s (%s)", r->out, strerror(-rc),
			lstat(r->out, &st) == 0 ? "the previous version is intact"
						: "nothing was saved");
	}
	return rc;
}


/* --- the results document ---------------------------------------------------------- */

/* The method of p, or of one of its tests: its trial's settings and goals. */
static json_t *trial_obj(const struct profile *p)
{
	const struct prof_trial *t = &p->trial;
	json_t *m = json_object();
	json_object_set_new(m, "trial", json_string(prof_method_name(t->method)));
	json_object_set_new(m, "warmup_s", json_real(t->warmup_s));
	json_object_set_new(m, "trial_s", json_real(t->duration_s));
	json_object_set_new(m, "settle_s", json_real(t->settle_s));
	if (t->method != PM_FIXED) {
		json_object_set_new(m, "width", json_real(t->width));
		json_object_set_new(m, "min_load_pps", json_real(t->min_load_pps));
		json_object_set_new(m, "max_load_pps", json_real(t->max_load_pps));
		json_t *goals = json_array();
		if (t->method == PM_MLR && t->ngoals) {
			/* each goal with all its RFC 9971 attributes */
			for (size_t g = 0; g < t->ngoals; g++) {
				const struct prof_goal *pg = &t->goals[g];
				json_t *o = json_pack("{s:s,s:f,s:f,s:f,s:f,s:f}", "name", pg->name,
						      "loss_ratio", pg->loss_ratio, "exceed_ratio",
						      pg->exceed_ratio, "width", pg->width,
						      "final_s", pg->final_s, "duration_sum_s",
						      pg->duration_sum_s);
				if (pg->latency_ns > 0)
					json_object_set_new(o, "latency_ns", json_real(pg->latency_ns));
				json_array_append_new(goals, o);
			}
			if (t->goal_preset)
				json_object_set_new(m, "goal_preset", json_string(t->goal_preset));
		} else {
			json_array_append_new(goals, json_pack("{s:s,s:f,s:f,s:f}", "name", "NDR",
							       "loss_ratio", 0.0, "exceed_ratio",
							       t->exceed_ratio, "width", t->width));
			if (t->method == PM_MLR)
				json_array_append_new(goals, json_pack("{s:s,s:f,s:f,s:f}", "name",
								       "PDR", "loss_ratio",
								       t->pdr_loss, "exceed_ratio",
								       t->exceed_ratio, "width",
								       t->width));
		}
		json_object_set_new(m, "goals", goals);
	}
	if (t->method == PM_B2B) {
		json_object_set_new(m, "b2b", json_pack("{s:i,s:I,s:I,s:I}", "trials",
							(int)t->b2b_trials, "min_burst",
							(json_int_t)t->b2b_min_burst, "max_burst",
							(json_int_t)t->b2b_max_burst, "resolution",
							(json_int_t)t->b2b_resolution));
		if (t->b2b_throughput_pps > 0)
			jset_num(json_object_get(m, "b2b"), "throughput_pps", t->b2b_throughput_pps);
	}
	if (t->method == PM_OUTAGE) {
		json_t *o = json_pack("{s:s,s:f}", "recipe", prof_recipe_name(t->outage_recipe),
				      "at_s", t->outage_at_s);
		if (t->outage_load_pct > 0)
			jset_num(o, "load_pct_of_ndr", t->outage_load_pct);
		else
			jset_num(o, "load_pps", t->outage_load_pps);
		json_object_set_new(m, "outage", o);
	}
	return m;
}

/* The results' "method": a profile's trial (trial_obj), or with tests each test's in
 * method.tests[] (its "name" first); the frame accounting; and every deviation from RFC
 * 2544 the profile asks for (deviations.h), each test's named. */
static json_t *method_obj(const struct profile *p)
{
	json_t *m = p->ntests ? json_object() : trial_obj(p);
	if (p->ntests) {
		json_t *ts = json_array();
		for (size_t i = 0; i < p->ntests; i++) {
			json_t *o = json_pack("{s:s}", "name", p->tests[i]->test);
			json_object_update_missing_new(o, trial_obj(p->tests[i]));
			json_array_append_new(ts, o);
		}
		json_object_set_new(m, "tests", ts);
	}
	json_object_set_new(m, "l1_overhead_bytes", json_integer(20));
	json_object_set_new(m, "frame_size_counts_fcs", json_true());
	json_t *dev = json_array();
	dev_find(p, NULL, dev);
	json_object_set_new(m, "rfc2544_deviations", dev);
	return m;
}

/* The results' matrix.axes: the profile's swept axes; with tests, "test" (the tests'
 * names) first, then every axis a test sweeps with the values of all tests, in test
 * and profile order. */
static json_t *matrix_axes(const struct profile *p)
{
	json_t *axes = json_object();
	if (!p->ntests) {
		for (size_t i = 0; i < p->naxes; i++)
			json_object_set(axes, p->axes[i].name, p->axes[i].values);
		return axes;
	}
	json_t *names = json_array();
	json_object_set_new(axes, "test", names);
	for (size_t t = 0; t < p->ntests; t++) {
		const struct profile *tp = p->tests[t];
		json_array_append_new(names, json_string(tp->test));
		for (size_t i = 0; i < tp->naxes; i++) {
			json_t *have = json_object_get(axes, tp->axes[i].name);
			if (!have) {
				json_object_set_new(axes, tp->axes[i].name,
						    json_copy(tp->axes[i].values));
				continue;
			}
			size_t k, j;
			json_t *v, *w;
			json_array_foreach(tp->axes[i].values, k, v) {
				bool dup = false;
				json_array_foreach(have, j, w)
					dup |= res_value_eq(v, w) != 0;
				if (!dup)
					json_array_append(have, v);
			}
		}
	}
	return axes;
}

static json_t *new_root(struct runner *r)
{
	const struct profile *p = r->p;
	char t[32], id[64];
	fmt_utc(t, sizeof(t), time(NULL));
	snprintf(id, sizeof(id), "%s-%s-%04x", p->name, t, (unsigned)(getpid() & 0xffff));
	json_t *axes = matrix_axes(p);
	json_t *root = json_pack("{s:s,s:s,s:s,s:s,s:s,s:b}", "schema", RES_SCHEMA,
				 "schema_version", "1.0.0", "run_id", id, "created_utc", t,
				 "updated_utc", t, "complete", 0);
	json_object_set_new(root, "tool", json_pack("{s:s,s:s,s:s}", "name", "ppslab", "version",
						    ppslab_version(), "cmdline",
						    r->o->cmdline ? r->o->cmdline : ""));
	json_object_set_new(root, "profile", json_deep_copy(p->root));
	json_object_set_new(root, "method", method_obj(p));
	json_object_set_new(root, "matrix",
			    json_pack("{s:o,s:o,s:i,s:s,s:I}", "axes", axes, "fixed",
				      json_deep_copy(p->fixed), "repetitions", p->repetitions,
				      "order", p->order_random ? "random" : "sequential", "seed",
				      (json_int_t)p->seed));
	json_object_set_new(root, "cases", json_array());
	return root;
}

/* the case already in the document for (case_id, rep), or -1 */
static long find_case(json_t *cases, const char *id, const json_t *params, unsigned rep)
{
	size_t i;
	json_t *c;
	json_array_foreach(cases, i, c) {
		const char *cid = json_string_value(json_object_get(c, "case_id"));
		if (cid && !strcmp(cid, id) && json_integer_value(json_object_get(c, "rep")) == rep)
			return (long)i;
	}
	/* a file written before case ids were escaped has another id for a value with '/'
	 * or '=': the same params and rep are the same case */
	json_array_foreach(cases, i, c)
		if (json_integer_value(json_object_get(c, "rep")) == rep &&
		    json_equal(json_object_get(c, "params"), params))
			return (long)i;
	return -1;
}

/* --- progress ------------------------------------------------------------------------- */

static void eta_text(double s, char *buf, size_t len)
{
	if (!(s >= 0) || s > 1e7)
		snprintf(buf, len, "?");
	else if (s >= 60)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
	else
		snprintf(buf, len, "%ds", (int)s);
}

/* The progress line of case pc, just done into c. */
static void run_progress(struct runner *r, const struct plan_case *pc, const json_t *c)
{
	if (r->o->quiet)
		return;
	double per = r->case_s_n ? r->case_s_sum / (double)r->case_s_n : r->plan.est_trial_s;
	char eta[32];
	eta_text(per * (double)(r->total - r->done), eta, sizeof(eta));
	if (!c) {   /* starting */
		if (!r->tty)
			return;
		int w = 30, fill = r->total ? (int)(w * r->done / r->total) : 0;
		char bar[40];
		for (int i = 0; i < w; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[w] = 0;
		/* \r and padding, no terminal escapes: works on any tty, NO_COLOR or not */
		fprintf(stderr, "\r[%s] %zu/%zu %s rep %u  ETA %-10s", bar, r->done, r->total,
			pc->case_id, pc->rep, eta);
		fflush(stderr);
		return;
	}
	const char *st = json_string_value(json_object_get(c, "status"));
	double fwd = jnum(json_object_get(c, "metrics"), "fwd_pps");
	char fb[32];
	if (r->tty)
		fprintf(stderr, "\r%*s\r", 100, "");
	fprintf(stderr, "case %zu/%zu %s rep %u: %s", r->done, r->total, pc->case_id, pc->rep,
		st ? st : "interrupted");
	if (!isnan(fwd))
		fprintf(stderr, ", forwarded %s pps",
			fmt_thousands((uint64_t)(fwd + 0.5), fb, sizeof(fb)));
	const char *e = json_string_value(json_object_get(c, "error"));
	if (e)
		fprintf(stderr, ": %s", e);
	fprintf(stderr, "  (ETA %s)\n", eta);
}

/* --- the whole run ------------------------------------------------------------------- */

/* Checks before anything runs that the results file can be written: it is not
 * read-only (refused without --force, like an interrupted run) nor immutable, and a
 * temporary beside it (a random name, never a planted link: safefile.h) takes a few KiB
 * and is removed; the file system has room to save the file and its first case. */
static int check_writable(const char *path, bool force)
{
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		log_err("%s: not a regular file: cannot keep the results there", path);
		return EX_CANTCREAT;
	}
	if (exists && !(st.st_mode & 0222) && !force) {
		log_err("%s is read-only (mode %04o): --force replaces it", path,
			(unsigned)(st.st_mode & 07777));
		return EX_CANTCREAT;
	}
#ifdef FS_IOC_GETFLAGS
	int fd = exists ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	int fl = 0;
	if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &fl) == 0 &&
	    (fl & (FS_IMMUTABLE_FL | FS_APPEND_FL))) {
		close(fd);
		log_err("%s is %s (chattr): it cannot be replaced", path,
			fl & FS_IMMUTABLE_FL ? "immutable" : "append-only");
		return EX_CANTCREAT;
	}
	if (fd >= 0)
		close(fd);
#endif
	/* a save writes the whole file beside the old one: room for both, and a case */
	unsigned long long need = (exists ? 2ULL * (unsigned long long)st.st_size : 0) +
				  32768, have = 0;
	struct safefile sf;
	int rc = safe_create(&sf, path, 0600);
	struct statvfs v;   /* the room before the probe below takes some */
	bool full = !rc && fstatvfs(fileno(sf.f), &v) == 0 &&
		    (have = (unsigned long long)v.f_bavail * v.f_frsize) < need;
	char block[4096];
	memset(block, ' ', sizeof(block));
	for (int i = 0; !rc && i < 4; i++) {   /* write(2): a full disk says ENOSPC */
		ssize_t w = write(fileno(sf.f), block, sizeof(block));
		if (w != (ssize_t)sizeof(block))
			rc = w < 0 ? -errno : -ENOSPC;
	}
	if (!rc && fsync(fileno(sf.f)) < 0)
		rc = -errno;
	if (sf.tmp)
		safe_abort(&sf);
	if (full) {
		log_err("%s: %s: %llu KiB free, a run needs at least %llu KiB to save its "
			"results", path, strerror(ENOSPC), have / 1024, need / 1024);
		return EX_CANTCREAT;
	}
	if (rc) {
		log_err("%s: cannot write the results there: %s", path, strerror(-rc));
		return EX_CANTCREAT;
	}
	return 0;
}

static int open_results(struct runner *r)
{
	const struct run_opts *o = r->o;
	struct stat st;
	bool exists = stat(r->out, &st) == 0;
	if (o->resume) {
		if (!exists) {
			log_err("%s: nothing to resume (no such file)", r->out);
			return EX_NOINPUT;
		}
		struct res_file *rf = NULL;
		char err[512];
		int rc = res_load(r->out, &rf, err, sizeof(err));
		if (rc) {
			log_err("%s", err);
			return rc == -ENOENT ? EX_NOINPUT : EX_DATAERR;
		}
		r->root = json_incref(rf->root);
		res_free(rf);
		/* the same matrix, or the cases of two sweeps would mix in one file */
		json_t *fresh = new_root(r);
		const json_t *a = json_object_get(json_object_get(r->root, "matrix"), "axes");
		const json_t *b = json_object_get(json_object_get(fresh, "matrix"), "axes");
		const json_t *ra = json_object_get(json_object_get(r->root, "matrix"), "repetitions");
		const json_t *rb = json_object_get(json_object_get(fresh, "matrix"), "repetitions");
		bool same = a && json_equal(a, b) && ra &&
			    json_equal(ra, rb);
		json_decref(fresh);
		if (!same) {
			log_err("%s was made with another matrix (axes or repetitions) than this "
				"profile: resume it with the profile and --set that made it", r->out);
			return EX_DATAERR;
		}
		return 0;
	}
	if (exists) {
		json_t *old = json_load_file(r->out, 0, NULL);
		bool incomplete = old && json_is_false(json_object_get(old, "complete"));
		json_decref(old);
		if (incomplete && !o->force) {
			log_err("%s holds an interrupted run: --resume continues it, --force "
				"overwrites it", r->out);
			return EX_CANTCREAT;
		}
	}
	r->root = new_root(r);
	return r->root ? 0 : EX_OSERR;
}

/* An exclusive lock (flock) on path, which says who holds it: "pid N, started UTC".
 * The kernel drops a flock when its holder dies, so a run killed with SIGKILL leaves no
 * stale lock, only the file; the descriptor is close-on-exec, so no tool the run starts
 * holds it. Returns the descriptor, held until the run ends, or -(sysexits status)
 * with the message logged: what is in use and by whom. */
static int run_lock(const char *path, const char *what)
{
	int fd;
	struct stat a, b;
again:
	fd = safe_open_lock(path, 0644);
	if (fd < 0) {
		log_err("%s: cannot open its lock %s: %s", what, path,
			fd == -EPERM ? "it is not a plain file of this user's (another user's, or "
			"a hard link): remove it if no run holds it" : strerror(-fd));
		return -EX_CANTCREAT;
	}
	/* `lab status` tests the lock by taking it shared for an instant: a run that starts
	 * in that instant must not take the probe for another run (30 tries, 10 ms apart) */
	int locked = flock(fd, LOCK_EX | LOCK_NB);
	for (int i = 0; locked && errno == EWOULDBLOCK && i < 30; i++) {
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000000L }, NULL);
		locked = flock(fd, LOCK_EX | LOCK_NB);
	}
	/* a run that ended removed the file between our open and our lock: the lock is on
	 * a file nobody else will open; take the new one */
	if (!locked && (fstat(fd, &a) || stat(path, &b) || a.st_ino != b.st_ino ||
			a.st_dev != b.st_dev)) {
		close(fd);
		goto again;
	}
	if (locked) {
		char who[160] = "";
		ssize_t n = pread(fd, who, sizeof(who) - 1, 0);
		who[n > 0 ? n : 0] = 0;
		who[strcspn(who, "\n")] = 0;
		for (char *c = who; *c; c++)   /* it is a file anyone may have written */
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				*c = '?';
		log_err("%s is in use by another ppslab run (%s; lock %s): not starting a second "
			"one", what, who[0] ? who : "it has not said who yet", path);
		close(fd);
		return -EX_TEMPFAIL;
	}
	char me[160], t[40];
	fmt_utc(t, sizeof(t), time(NULL));
	int l = snprintf(me, sizeof(me), "pid %d, started %s\n", (int)getpid(), t);
	if (ftruncate(fd, 0) || pwrite(fd, me, (size_t)l, 0) != l)
		log_warn("%s: cannot say who holds it: %s", path, strerror(errno));
	return fd;
}

/* The lock file of the results file path: .NAME.lock beside it. */
static void results_lock_path(const char *out, char *buf, size_t len)
{
	const char *slash = strrchr(out, '/');
	if (slash)
		snprintf(buf, len, "%.*s/.%s.lock", (int)(slash - out), out, slash + 1);
	else
		snprintf(buf, len, ".%s.lock", out);
}

/* ppslab tools running in the lab while we hold its lock are nobody's: left by a run
 * killed with SIGKILL (a forwarder still bound to the lab's ports would forward, and
 * count, beside ours). Refused, or with --kill-strays stopped by PID. The router's
 * namespace counts only when the run's router is ppslab-rut. */
static int run_strays(struct runner *r)
{
	struct lab_proc all[LAB_PROCS_MAX], pr[LAB_PROCS_MAX];
	int na = lab_procs(r->p->topo.lab, all, LAB_PROCS_MAX), n = 0;
	/* the router's namespace is an external router's own (it may well run a ppslab-rut
	 * of its own there): only ours when we start the forwarder */
	char rutns[64];
	lab_ns_name(r->p->topo.lab, LAB_RUT, rutns, sizeof(rutns));
	for (int i = 0; i < na; i++)
		if (r->p->router.kind == PR_RUT || strcmp(all[i].ns, rutns))
			pr[n++] = all[i];
	if (n <= 0)
		return 0;
	for (int i = 0; i < n; i++) {
		if (r->o->kill_strays)
			log_warn("stopping %s (pid %d) left running in %s", pr[i].comm, pr[i].pid,
				 pr[i].ns);
		else
			log_err("%s (pid %d) is still running in %s, left by another run: not "
				"starting over it (--kill-strays stops it)", pr[i].comm, pr[i].pid,
				pr[i].ns);
	}
	if (!r->o->kill_strays)
		return EX_TEMPFAIL;
	for (int i = 0; i < n; i++)
		kill(pr[i].pid, SIGTERM);
	/* not our children: gone when kill(0) says so; KILL after 5 s */
	uint64_t end = mono_ns() + 5 * NS_PER_S;
	for (int i = 0; i < n; i++) {
		while (kill(pr[i].pid, 0) == 0 && mono_ns() < end)
			usleep(20000);   /* the poll interval of the wait */
		if (kill(pr[i].pid, 0) == 0)
			kill(pr[i].pid, SIGKILL);
	}
	for (int i = 0; i < n; i++) {
		uint64_t e2 = mono_ns() + 5 * NS_PER_S;
		while (kill(pr[i].pid, 0) == 0 && mono_ns() < e2)
			usleep(20000);
		if (kill(pr[i].pid, 0) == 0) {
			log_err("%s (pid %d) did not end", pr[i].comm, pr[i].pid);
			return EX_TEMPFAIL;
		}
	}
	return 0;
}

/* The locks of a run: its results file (a hidden lock file beside it) and, for a netns
 * topology, its lab (in /run/ppslab: the lab is the machine's); both removed at the
 * end. */
static int run_locks(struct runner *r, int fds[2])
{
	char path[4200];
	results_lock_path(r->out, path, sizeof(path));
	char what[4200];
	snprintf(what, sizeof(what), "the results file %s", r->out);
	if ((fds[0] = run_lock(path, what)) < 0)
		return -fds[0];
	if (r->p->topo.kind != PT_NETNS)
		return 0;
	if (mkdir(LAB_LOCK_DIR, 0755) && errno != EEXIST) {
		log_err("%s: cannot make the directory of the labs' locks: %s", LAB_LOCK_DIR,
			strerror(errno));
		return EX_CANTCREAT;
	}
	lab_lock_path(r->p->topo.lab, path, sizeof(path));
	snprintf(what, sizeof(what), "the lab %s", r->p->topo.lab);
	if ((fds[1] = run_lock(path, what)) < 0)
		return -fds[1];
	return run_strays(r);
}

/* A signal before the first case: the results file is saved as it is (no case,
 * "complete": false, so --resume continues it) and the run says so. */
static int stopped_early(struct runner *r)
{
	int sig = *r->o->stop_sig ? *r->o->stop_sig : SIGINT;
	int rc = run_save(r);
	log_err("%s: interrupted by %s before the first case: %s", r->out, strsignal(sig),
		rc ? "nothing saved" : "saved without cases; --resume continues it");
	return 128 + sig;
}

/* The locks taken and the results document opened (a new one, or the one to resume).
 * A sysexits status; *done when there is nothing to run (a complete file resumed). */
static int run_open(struct runner *r, int lockfd[2], bool *done)
{
	const struct run_opts *o = r->o;
	int rc;
	if ((rc = run_locks(r, lockfd)))
		return rc;
	/* Ctrl-C or SIGTERM from here on is reported, never a silent 130 or 143; the
	 * handlers without SA_RESTART come with the first case */
	o->catch_signals(false);
	if ((rc = check_writable(r->out, o->force)) || (rc = open_results(r)))
		return rc;   /* open_results may have loaded a file before refusing it */
	if (*o->stop && !o->resume)
		return stopped_early(r);
	r->cases = json_object_get(r->root, "cases");
	bool any_failed = false;
	size_t k;
	json_t *fc;
	json_array_foreach(r->cases, k, fc)
		any_failed |= json_is_string(json_object_get(fc, "status")) &&
			      !strcmp(json_string_value(json_object_get(fc, "status")), "failed");
	if (o->retry_failed && any_failed)   /* a complete file is resumed for them */
		json_object_del(r->root, "complete");
	if (o->resume && json_is_true(json_object_get(r->root, "complete"))) {
		if (!o->quiet)
			fprintf(stderr, "%s is complete: nothing left to resume\n", r->out);
		run_print_table_plot(r->p, o, r->out, r->root);
		*done = true;
	}
	return 0;
}

/* The router, the boxes reached, the environment, the clocks and the rig's ceiling
 * (measured once; a resumed file has it), saved before the first case. */
static int run_setup(struct runner *r)
{
	const struct run_opts *o = r->o;
	r->env.p = r->p;
	r->env.tmpdir = r->tmpdir;
	r->env.stop = o->stop;
	r->env.epochs = &r->epochs;
	r->tty = isatty(2);
	o->catch_signals(true);
	if (r->p->router.kind != PR_NONE) {
		run_rut_ifaces(r->p, r->rut_in, r->rut_out, sizeof(r->rut_in));
		struct dut_cfg dc = { .p = r->p, .box = r->rut_box, .in = r->rut_in, .out = r->rut_out,
				      .tmpdir = r->tmpdir };
		if (dut_new(&dc, &r->dut))
			return EX_OSERR;
		r->env.dut = r->dut;
	}
	int rc = run_reach_all(r);
	if (rc)
		return rc;
	json_t *env = json_object_get(r->root, "environment");
	bool collected = !env;
	if (collected)
		json_object_set_new(r->root, "environment", env = run_environment(r));
	if ((rc = run_versions(r, env, collected)))
		return rc;
	if (r->p->router.kind == PR_EXTERNAL && prof_has_reboots(r->p))
		/* the boot identity a restart must change; a resumed run's may be old */
		r->router_env = o->resume ? run_external_env(r, true)
				: json_incref(res_get(r->root, "environment", "dut", NULL));
	const json_t *pb = res_get(r->root, "environment", "clocks", "pair_bound_ns", NULL);
	r->clock_bound_ns = json_is_number(pb) ? json_number_value(pb) : NAN;
	run_box_offsets(r);
	const json_t *rig = json_object_get(r->root, "rig");
	if (rig) {   /* resumed: the ceiling measured before */
		double c = jnum(rig, "ceiling_pps");
		r->ceiling_pps = isnan(c) ? 0 : c;
	} else {
		if (!o->quiet)
			fprintf(stderr, "measuring the rig's own ceiling...\n");
		json_object_set_new(r->root, "rig", run_rig_measure(r));
		char cb[32];
		if (!o->quiet && r->ceiling_pps > 0)
			fprintf(stderr, "rig ceiling: %s pps\n",
				fmt_thousands((uint64_t)(r->ceiling_pps + 0.5), cb, sizeof(cb)));
	}
	return run_save(r) ? EX_IOERR : 0;
}

/* The case object of pc in the document, emptied for a new run of it; NULL when it
 * finished before --resume (not to run again). */
static json_t *case_slot(struct runner *r, const struct plan_case *pc)
{
	long at = find_case(r->cases, pc->case_id, pc->params, pc->rep);
	json_t *c = at >= 0 ? json_array_get(r->cases, (size_t)at) : NULL;
	if (c && json_is_string(json_object_get(c, "status")) &&
	    !(r->o->retry_failed &&
	      !strcmp(json_string_value(json_object_get(c, "status")), "failed")))
		return NULL;
	if (!c) {
		c = json_object();
		json_array_append_new(r->cases, c);
	}
	json_object_clear(c);
	json_object_set_new(c, "case_id", json_string(pc->case_id));
	json_object_set_new(c, "rep", json_integer(pc->rep));
	json_object_set(c, "params", pc->params);
	return c;
}

/* The case loop, the results saved after every case. A sysexits status (0 when the
 * loop ran to its end, was stopped, or *given_up after max_failed failed cases in a
 * row). */
static int run_cases(struct runner *r, bool *given_up)
{
	const struct run_opts *o = r->o;
	unsigned run_in_a_row = 0;
	r->total = r->plan.ncases;
	r->t_start = mono_ns();
	for (size_t i = 0; i < r->plan.ncases && !*o->stop; i++) {
		const struct plan_case *pc = &r->plan.cases[i];
		json_t *c = case_slot(r, pc);
		if (!c) {
			r->done++;   /* finished before --resume */
			continue;
		}
		/* a test measures its cases by its own trial and axes; the router, the boxes
		 * and the topology are the profile's, the same in every test */
		r->p = r->env.p = pc->prof ? pc->prof : r->base;
		run_progress(r, pc, NULL);
		uint64_t t0 = mono_ns();
		int crc = run_case(r, pc, c);
		if (crc == -ENOMEM)
			return EX_OSERR;
		if (crc == -EIO)
			r->failed++;
		run_in_a_row = crc == -EIO ? run_in_a_row + 1 : crc == 0 ? 0 : run_in_a_row;
		if (crc != -EINTR) {
			r->done++;
			r->case_s_sum += (double)(mono_ns() - t0) / 1e9;
			r->case_s_n++;
		}
		run_progress(r, pc, c);
		if (crc == 0)   /* its setup hook ran and held */
			run_env_after_setup(r);
		if (run_save(r))
			return EX_IOERR;
		if (o->max_failed && run_in_a_row >= o->max_failed && !*o->stop) {
			/* a dead router fails every case in seconds: keep what was measured */
			log_err("stopping: %u cases failed in a row (the last: %.300s); the results so "
				"far are saved, --resume --retry-failed continues once the router is "
				"back", run_in_a_row,
				json_is_string(json_object_get(c, "error"))
				? json_string_value(json_object_get(c, "error")) : "?");
			*given_up = true;
			break;
		}
	}
	return 0;
}

/* After the case loop (rc its status): the summary, "complete" when every planned
 * case is in the file, the last save, the table and plot. The run's exit status. */
static int run_end(struct runner *r, int rc, bool given_up)
{
	const struct run_opts *o = r->o;
	bool stopped = *o->stop;
	/* complete means every planned case is in the file with its status: never say it
	 * of fewer (two cells that shared a case id once made 3 of 4 "complete") */
	size_t have = 0, ci;
	json_t *cj;
	json_array_foreach(r->cases, ci, cj)
		have += json_is_string(json_object_get(cj, "status"));
	if (!rc && !stopped && !given_up && have != r->plan.ncases) {
		log_err("%s: %zu cases planned, %zu in the file: the run is not complete", r->out,
			r->plan.ncases, have);
		rc = EX_SOFTWARE;
		run_save(r);
	}
	if (!rc) {
		run_finish_outputs(r->root, r->out);
		if (!stopped && !given_up)
			json_object_set_new(r->root, "complete", json_true());
		if (run_save(r))
			rc = EX_IOERR;
	}
	if (rc)
		return rc;
	if (!o->quiet)
		fprintf(stderr, "results: %s (%zu cases, %zu failed)%s\n", r->out, r->done,
			r->failed, stopped ? "; interrupted: --resume continues"
			: given_up ? "; stopped: --resume --retry-failed continues" : "");
	if (r->done > r->failed)   /* something to show */
		run_print_table_plot(r->p, o, r->out, r->root);
	return stopped ? 128 + (*o->stop_sig ? *o->stop_sig : SIGINT) : r->failed ? 1 : 0;
}

/* The locks let go and their files removed (see run_lock). */
static void run_unlock(struct runner *r, const int lockfd[2])
{
	if (lockfd[0] >= 0) {   /* removed while still held: see run_lock */
		char lp[4200];
		results_lock_path(r->out, lp, sizeof(lp));
		unlink(lp);
	}
	if (lockfd[1] >= 0) {   /* so that /run/ppslab does not fill with old labs' names */
		char lp[128];
		lab_lock_path(r->p->topo.lab, lp, sizeof(lp));
		unlink(lp);
	}
	for (int i = 0; i < 2; i++)
		if (lockfd[i] >= 0)
			close(lockfd[i]);
}

int run_main(const struct run_opts *o)
{
	struct runner R = { .o = o, .save = run_save }, *r = &R;
	struct prof_diag d = { 0 };
	int lockfd[2] = { -1, -1 };
	int rc = profile_load(o->profile, o->sets, o->nsets, &r->base, &d);
	r->p = r->base;
	for (size_t i = 0; i < d.n; i++)
		fprintf(stderr, "%s\n", d.msg[i]);
	prof_diag_free(&d);
	if (rc)
		return rc == -ENOENT ? EX_NOINPUT : rc == -ENOMEM ? EX_OSERR : EX_DATAERR;
	if (plan_make(r->p, &r->plan)) {
		profile_free(r->base);
		return EX_DATAERR;
	}
	if (o->dry_run) {
		run_warn_unread(r->p);
		plan_print(r->p, &r->plan, stdout);
		goto out_plan;
	}
	r->out = o->out ? o->out : r->p->results ? r->p->results : "results.json";
	bool done = false, given_up = false;
	if ((rc = run_open(r, lockfd, &done)) || done || (rc = run_topology_up(r)))
		goto out_root;
	if (*o->stop && !o->resume) {
		rc = stopped_early(r);
		goto out_root;
	}
	snprintf(r->tmpdir, sizeof(r->tmpdir), "/tmp/ppslab-run.XXXXXX");
	if (!mkdtemp(r->tmpdir)) {
		log_err("cannot make a temporary directory: %s", strerror(errno));
		rc = EX_OSERR;
		goto out_root;
	}
	if (!(rc = run_setup(r))) {
		rc = run_cases(r, &given_up);
		r->p = r->env.p = r->base;
		json_decref(r->dut ? dut_close(r->dut) : NULL);
		r->dut = NULL;
		rc = run_end(r, rc, given_up);
	}
	if (r->dut)
		json_decref(dut_close(r->dut));
	if (getenv("PPSLAB_KEEP_TMP")) {   /* the tools' own output, for debugging */
		fprintf(stderr, "the tools' output is kept in %s\n", r->tmpdir);
	} else {
		char *av[] = { "rm", "-rf", r->tmpdir, NULL };
		struct proc_opts po = { .quiet_err = 1, .timeout_ns = 30 * NS_PER_S };
		proc_run(av, &po);
	}
out_root:
	run_unlock(r, lockfd);
	json_decref(r->router_env);
	free(r->ssh_opts);
	json_decref(r->root);
out_plan:
	plan_free(&r->plan);
	profile_free(r->base);
	return rc;
}
