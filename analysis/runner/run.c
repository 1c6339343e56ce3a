/* SPDX-License-Identifier: BSD-2-Clause */
/* run.c — ppslab run (called by cmd_run.c): the sweep. Owns the results document while
 * it grows, the topology's boxes, the rig measurement, the case loop and the progress
 * display (the topology is in run_env.c, the rig in run_rig.c, a case in run_case.c,
 * the end in run_print.c); delegates the router to dut.c, a measurement to trial.c, the
 * method to search.c and the checks to checks.c. See run.h. */
#include "run.h"
#include "run_impl.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checks.h"
#include "cli.h"
#include "clock.h"
#include "fmt.h"
#include "log.h"
#include "proc.h"
#include "version.h"

static volatile sig_atomic_t stop_req;

static void on_signal(int sig)
{
	(void)sig;
	stop_req = 1;
}

/* A JSON string of text that may hold anything a tool printed: bytes that are not
 * UTF-8 become '?', so the error is never silently dropped. */
json_t *run_jtext(const char *t)
{
	json_t *j = json_string(t);
	if (j)
		return j;
	char *c = strdup(t);
	if (!c)
		return json_string("?");
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x80 || ((unsigned char)*p < 0x20 && *p != '\t'))
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

void run_utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

int run_save(struct runner *r)
{
	char t[32];
	run_utc_now(t, sizeof(t));
	json_object_set_new(r->root, "updated_utc", json_string(t));
	int rc = res_save(r->out, r->root);
	if (rc)
		log_err("%s: cannot save the results: %s (the previous version is intact)", r->out,
			strerror(-rc));
	return rc;
}


double run_pnum(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* --- the results document ---------------------------------------------------------- */

static json_t *method_obj(const struct profile *p)
{
	static const char *const names[] = { "fixed", "rfc2544", "mlr", "ladder" };
	const struct prof_trial *t = &p->trial;
	json_t *m = json_object();
	json_object_set_new(m, "trial", json_string(names[t->method]));
	json_object_set_new(m, "warmup_s", json_real(t->warmup_s));
	json_object_set_new(m, "trial_s", json_real(t->duration_s));
	json_object_set_new(m, "settle_s", json_real(t->settle_s));
	json_object_set_new(m, "l1_overhead_bytes", json_integer(20));
	json_object_set_new(m, "frame_size_counts_fcs", json_true());
	json_t *dev = json_array();
	if (t->duration_s < 60) {
		char b[96];
		snprintf(b, sizeof(b), "%g s trials instead of 60 s (RFC 2544 §24)", t->duration_s);
		json_array_append_new(dev, json_string(b));
	}
	if (t->settle_s < 2) {
		char b[96];
		snprintf(b, sizeof(b), "%g s settle instead of 2 s (RFC 2544 §23)", t->settle_s);
		json_array_append_new(dev, json_string(b));
	}
	if (t->method != PM_FIXED) {
		json_object_set_new(m, "width", json_real(t->width));
		json_object_set_new(m, "min_load_pps", json_real(t->min_load_pps));
		json_object_set_new(m, "max_load_pps", json_real(t->max_load_pps));
		json_t *goals = json_array();
		json_array_append_new(goals, json_pack("{s:s,s:f,s:f,s:f}", "name", "NDR",
						       "loss_ratio", 0.0, "exceed_ratio",
						       t->exceed_ratio, "width", t->width));
		if (t->method == PM_MLR)
			json_array_append_new(goals, json_pack("{s:s,s:f,s:f,s:f}", "name", "PDR",
							       "loss_ratio", t->pdr_loss,
							       "exceed_ratio", t->exceed_ratio,
							       "width", t->width));
		json_object_set_new(m, "goals", goals);
		if (t->method == PM_MLR && t->exceed_ratio > 0)
			json_array_append_new(dev, json_string("MLRsearch exceed ratio above 0"));
	}
	json_object_set_new(m, "rfc2544_deviations", dev);
	return m;
}

static json_t *new_root(struct runner *r)
{
	const struct profile *p = r->p;
	char t[32], id[64];
	run_utc_now(t, sizeof(t));
	snprintf(id, sizeof(id), "%s-%s-%04x", p->name, t, (unsigned)(getpid() & 0xffff));
	json_t *axes = json_object();
	for (size_t i = 0; i < p->naxes; i++)
		json_object_set(axes, p->axes[i].name, p->axes[i].values);
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
static long find_case(json_t *cases, const char *id, unsigned rep)
{
	size_t i;
	json_t *c;
	json_array_foreach(cases, i, c) {
		const char *cid = json_string_value(json_object_get(c, "case_id"));
		if (cid && !strcmp(cid, id) && json_integer_value(json_object_get(c, "rep")) == rep)
			return (long)i;
	}
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

void run_progress(struct runner *r, const struct plan_case *pc, const json_t *c)
{
	if (r->o->quiet)
		return;
	double per = r->case_s_n ? r->case_s_sum / (double)r->case_s_n
				 : plan_case_seconds(r->p);
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
	double fwd = run_pnum(json_object_get(c, "metrics"), "fwd_pps");
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

/* Checks before anything runs that the results file can be written: a temporary file
 * in its directory is created and removed (disk full and read-only show here). */
static int check_writable(const char *path)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.ppslab-check-%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f || fputs("{}\n", f) < 0 || fflush(f) || fsync(fileno(f))) {
		int e = errno;
		if (f)
			fclose(f);
		unlink(tmp);
		log_err("%s: cannot write the results there: %s", path, strerror(e));
		return EX_CANTCREAT;
	}
	fclose(f);
	unlink(tmp);
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

int run_main(const struct run_opts *o)
{
	struct runner R = { .o = o }, *r = &R;
	struct prof_diag d = { 0 };
	int rc = profile_load(o->profile, o->sets, o->nsets, &r->p, &d);
	for (size_t i = 0; i < d.n; i++)
		fprintf(stderr, "%s\n", d.msg[i]);
	prof_diag_free(&d);
	if (rc)
		return rc == -ENOENT ? EX_NOINPUT : rc == -ENOMEM ? EX_OSERR : EX_DATAERR;
	if (plan_make(r->p, &r->plan)) {
		profile_free(r->p);
		return EX_DATAERR;
	}
	if (o->dry_run) {
		plan_print(r->p, &r->plan, stdout);
		rc = 0;
		goto out_plan;
	}
	r->out = o->out ? o->out : r->p->results ? r->p->results : "results.json";
	if ((rc = check_writable(r->out)) || (rc = open_results(r)))
		goto out_root;   /* open_results may have loaded a file before refusing it */
	r->cases = json_object_get(r->root, "cases");
	if (o->resume && json_is_true(json_object_get(r->root, "complete"))) {
		if (!o->quiet)
			fprintf(stderr, "%s is complete: nothing left to resume\n", r->out);
		run_print_table_plot(r);
		rc = 0;
		goto out_root;
	}
	if ((rc = run_topology_up(r)))
		goto out_root;
	snprintf(r->tmpdir, sizeof(r->tmpdir), "/tmp/ppslab-run.XXXXXX");
	if (!mkdtemp(r->tmpdir)) {
		log_err("cannot make a temporary directory: %s", strerror(errno));
		rc = EX_OSERR;
		goto out_root;
	}
	r->env.p = r->p;
	r->env.tmpdir = r->tmpdir;
	r->env.stop = &stop_req;
	r->tty = isatty(2);
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (r->p->router.kind != PR_NONE) {
		run_rut_ifaces(r->p, r->rut_in, r->rut_out, sizeof(r->rut_in));
		struct dut_cfg dc = { .p = r->p, .box = r->rut_box, .in = r->rut_in, .out = r->rut_out,
				      .tmpdir = r->tmpdir };
		if (dut_new(&dc, &r->dut)) {
			rc = EX_OSERR;
			goto out_tmp;
		}
		r->env.dut = r->dut;
	}
	if ((rc = run_reach_all(r)))
		goto out_tmp;
	if (!json_object_get(r->root, "environment"))
		json_object_set_new(r->root, "environment", run_environment(r));
	if (r->p->router.kind == PR_EXTERNAL && prof_has_reboots(r->p))
		/* the boot identity a restart must change; a resumed run's may be old */
		r->router_env = o->resume ? run_external_env(r, true)
				: json_incref(res_get(r->root, "environment", "dut", NULL));
	const json_t *pb = res_get(r->root, "environment", "clocks", "pair_bound_ns", NULL);
	r->clock_bound_ns = json_is_number(pb) ? json_number_value(pb) : NAN;
	run_box_offsets(r);
	const json_t *rig = json_object_get(r->root, "rig");
	if (rig) {   /* resumed: the ceiling measured before */
		double c = run_pnum(rig, "ceiling_pps");
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
	if ((rc = run_save(r)) != 0) {
		rc = EX_IOERR;
		goto out_tmp;
	}

	r->total = r->plan.ncases;
	r->t_start = mono_ns();
	rc = 0;
	for (size_t i = 0; i < r->plan.ncases && !stop_req; i++) {
		const struct plan_case *pc = &r->plan.cases[i];
		long at = find_case(r->cases, pc->case_id, pc->rep);
		json_t *c = at >= 0 ? json_array_get(r->cases, (size_t)at) : NULL;
		if (c && json_is_string(json_object_get(c, "status"))) {
			r->done++;   /* finished before --resume */
			continue;
		}
		if (!c) {
			c = json_object();
			json_array_append_new(r->cases, c);
		}
		json_object_clear(c);
		json_object_set_new(c, "case_id", json_string(pc->case_id));
		json_object_set_new(c, "rep", json_integer(pc->rep));
		json_object_set(c, "params", pc->params);
		run_progress(r, pc, NULL);
		uint64_t t0 = mono_ns();
		int crc = run_case(r, pc, c);
		if (crc == -ENOMEM) {
			rc = EX_OSERR;
			break;
		}
		if (crc == -EIO)
			r->failed++;
		if (crc != -EINTR) {
			r->done++;
			r->case_s_sum += (double)(mono_ns() - t0) / 1e9;
			r->case_s_n++;
		}
		run_progress(r, pc, c);
		run_env_after_setup(r);
		if (run_save(r)) {
			rc = EX_IOERR;
			break;
		}
	}
	if (r->dut) {
		json_t *sum = dut_close(r->dut);
		json_decref(sum);
		r->dut = NULL;
	}
	if (!rc) {
		run_finish_outputs(r);
		if (!stop_req)
			json_object_set_new(r->root, "complete", json_true());
		if (run_save(r))
			rc = EX_IOERR;
	}
	if (!rc) {
		if (!o->quiet)
			fprintf(stderr, "results: %s (%zu cases, %zu failed)%s\n", r->out, r->done,
				r->failed, stop_req ? "; interrupted: --resume continues" : "");
		if (r->done > r->failed)   /* something to show */
			run_print_table_plot(r);
		rc = stop_req ? 130 : r->failed ? 1 : 0;
	}
out_tmp:
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
	json_decref(r->router_env);
	free(r->ssh_opts);
	json_decref(r->root);
out_plan:
	plan_free(&r->plan);
	profile_free(r->p);
	return rc;
}
