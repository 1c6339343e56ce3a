/* SPDX-License-Identifier: BSD-2-Clause */
/* run.c — ppslab run (called by cmd_run.c): the sweep. Owns the results document while
 * it grows, the topology's boxes, the rig measurement, the case loop and the progress
 * display; delegates the router to dut.c, a measurement to trial.c, the method to
 * search.c and the checks to checks.c. See run.h. */
#include "run.h"

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
#include "clockoff.h"
#include "cli.h"
#include "clock.h"
#include "cmds.h"
#include "dut.h"
#include "jout.h"
#include "envinfo.h"
#include "lab.h"
#include "log.h"
#include "model.h"
#include "plan.h"
#include "proc.h"
#include "profile.h"
#include "results.h"
#include "rutenv.h"
#include "search.h"
#include "trial.h"
#include "version.h"

static volatile sig_atomic_t stop_req;

static void on_signal(int sig)
{
	(void)sig;
	stop_req = 1;
}

struct runner {
	const struct run_opts *o;
	struct profile *p;
	struct plan plan;
	const char *out;         /* results path */
	json_t *root;            /* the results document */
	json_t *cases;           /* root.cases (borrowed) */
	struct trial_env env;
	struct box rut_box;
	struct dut *dut;
	char tmpdir[64];
	char rut_in[32], rut_out[32];   /* the forwarder's interfaces (dut keeps pointers) */
	char **ssh_opts;         /* topology.ssh_options as a vector (borrowed strings) */
	double ceiling_pps;      /* the rig's, 0 unknown */
	double clock_bound_ns;   /* |clock(sink) − clock(gen)| at most this; NaN unknown */
	size_t done, total, failed;
	uint64_t t_start;
	double case_s_sum;
	size_t case_s_n;
	bool tty;
	json_t *router_env;      /* the external router as last read (at the start, then after
				  * every reboot), or NULL */
	bool boot_stale;         /* a reboot was not waited out: router_env's boot identity
				  * may be old */
};

/* A JSON string of text that may hold anything a tool printed: bytes that are not
 * UTF-8 become '?', so the error is never silently dropped. */
static json_t *jtext(const char *t)
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

static void utc_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

static int save(struct runner *r)
{
	char t[32];
	utc_now(t, sizeof(t));
	json_object_set_new(r->root, "updated_utc", json_string(t));
	int rc = res_save(r->out, r->root);
	if (rc)
		log_err("%s: cannot save the results: %s (the previous version is intact)", r->out,
			strerror(-rc));
	return rc;
}

/* --- the topology ------------------------------------------------------------------ */

static int topology_up(struct runner *r)
{
	struct profile *p = r->p;
	struct prof_topology *t = &p->topo;
	if (t->kind == PT_NETNS) {
		if (geteuid() != 0) {
			log_err("the netns topology needs root (network namespaces): run as root, or "
				"use --dry-run to check the profile");
			return EX_NOPERM;
		}
		/* made, or re-made with at least the sender namespaces and queues the
		 * profile's boxes need (a lab with more is kept) */
		struct lab_status st;
		/* a forwarder with N threads gets exactly N queues on its veths (one per
		 * thread: a queue no thread reads would hold frames forever) */
		unsigned rq = p->router.kind == PR_RUT && p->router.threads > 1 ? p->router.threads : 0;
		unsigned wantq = t->lab_queues > rq ? t->lab_queues : rq;
		bool ok = lab_status(t->lab, &st) == 0 && st.complete;
		int fewq = 0;
		for (int i = 0; ok && i < 4; i++)
			if (st.queues[i] < (int)wantq)
				fewq = (int)wantq;
		if (ok && rq && st.queues[1] != (int)rq)
			fewq = (int)wantq;
		int fews = ok && st.senders < (int)t->lab_senders ? (int)t->lab_senders : 0;
		if (!ok || fewq || fews) {
			log_info("making the lab %s (%u sender%s, %u queue%s per veth at least)", t->lab,
				 t->lab_senders, t->lab_senders == 1 ? "" : "s", wantq,
				 wantq == 1 ? "" : "s");
			int q = fewq ? fewq : !ok && wantq > 1 ? (int)wantq : 0;
			struct lab_up_opts uo = { .shield = true, .queues = q,
						  .senders = fews ? fews : ok ? 0 : (int)t->lab_senders };
			if (lab_up(t->lab, &uo)) {
				log_err("cannot make the lab %s (ppslab lab up --name %s%s says why)", t->lab,
					t->lab, fews > 1 ? " --senders N" : "");
				return EX_UNAVAILABLE;
			}
		}
	}
	size_t nso = json_array_size(t->ssh_options);
	if (nso) {
		r->ssh_opts = calloc(nso + 1, sizeof(*r->ssh_opts));
		if (!r->ssh_opts)
			return EX_OSERR;
		for (size_t i = 0; i < nso; i++)
			r->ssh_opts[i] = (char *)json_string_value(json_array_get(t->ssh_options, i));
	}
	r->env.ngens = t->ngens;
	r->env.nsinks = t->nsinks;
	for (size_t i = 0; i < t->ngens + t->nsinks; i++) {
		bool g = i < t->ngens;
		const struct prof_host *h = g ? &t->gens[i] : &t->sinks[i - t->ngens];
		struct trial_box *b = g ? &r->env.gens[i] : &r->env.sinks[i - t->ngens];
		*b = (struct trial_box){ .name = h->name, .spec = h->spec, .threads = h->threads,
					 .cpus = h->cpus, .dst = h->dst, .stream = h->stream,
					 .clock_bound_ns = NAN };
		b->box = (struct box){ .role = g ? "gen" : "sink", .ssh = h->ssh, .netns = h->netns,
				       .bin = h->bin, .ssh_opts = r->ssh_opts };
	}
	r->rut_box = (struct box){ .role = "rut", .ssh = t->rut.ssh, .netns = t->rut.netns,
				   .bin = t->rut.bin, .ssh_opts = r->ssh_opts };
	r->env.dst_b = t->dst_b;
	return 0;
}

/* All sender and sink boxes, senders first. */
static size_t end_boxes(struct runner *r, struct trial_box **v)
{
	size_t n = 0;
	for (size_t i = 0; i < r->env.ngens; i++)
		v[n++] = &r->env.gens[i];
	for (size_t i = 0; i < r->env.nsinks; i++)
		v[n++] = &r->env.sinks[i];
	return n;
}

/* the rut box's two interfaces from "rut0,rut1" */
static void rut_ifaces(const struct profile *p, char *in, char *out, size_t len)
{
	const char *s = p->topo.rut.iface ? p->topo.rut.iface : "rut0,rut1";
	const char *comma = strchr(s, ',');
	snprintf(in, len, "%.*s", comma ? (int)(comma - s) : (int)strlen(s), s);
	snprintf(out, len, "%s", comma ? comma + 1 : "");
}

/* The interface names of a box's "iface": the router's "IN,OUT", or the name inside a
 * port spec ("xdp:gen0,queue=0" → gen0; a udp: socket has none). */
static int iface_names(const char *iface, bool pair, char *buf, size_t len, char *v[4])
{
	int n = 0;
	char *save = NULL;
	snprintf(buf, len, "%s", iface ? iface : "");
	if (!pair) {
		buf[strcspn(buf, ",")] = 0;
		char *colon = strchr(buf, ':');
		if (colon && !strncmp(buf, "udp:", 4))
			return 0;
		v[0] = colon ? colon + 1 : buf;
		return *v[0] ? 1 : 0;
	}
	for (char *w = strtok_r(buf, ",", &save); w && n < 4; w = strtok_r(NULL, ",", &save))
		v[n++] = w;
	return n;
}

/* a box's environment: env_box() here, `ppslab env` over ssh */
static json_t *box_env(const struct box *b, const char *ifaces)
{
	char buf[256];
	char *v[4];
	int n = iface_names(ifaces, !strcmp(b->role, "rut"), buf, sizeof(buf), v);
	if (!b->ssh)
		return env_box(b->netns, v, n);
	struct box_cmd c;
	static char out[1 << 16];
	int rc = box_cmd_init(&c, b, "ppslab");
	rc = rc ? rc : box_arg(&c, "env");
	for (int i = 0; i < n && !rc; i++) {
		rc = box_arg(&c, "-i");
		rc = rc ? rc : box_arg(&c, v[i]);
	}
	rc = rc ? rc : box_cmd_done(&c, b);
	struct proc_opts o = { .out = out, .outlen = sizeof(out), .quiet_err = 1,
			       .timeout_ns = 30 * NS_PER_S };
	json_t *j = !rc && proc_run(c.argv, &o) == 0 ? json_loads(out, 0, NULL) : NULL;
	box_cmd_free(&c);
	if (!j) {
		j = json_object();
		json_object_set_new(j, "ssh", json_string(b->ssh));
		json_object_set_new(j, "error", json_string("ppslab env did not answer over ssh"));
	}
	return j;
}

/* An external router's environment, read without ppslab on it (rutenv.h): over
 * topology.rut.ssh, or in topology.rut.netns on this host. */
static json_t *external_env(struct runner *r, bool say)
{
	const struct profile *p = r->p;
	if (!r->rut_box.ssh && !r->rut_box.netns)
		return json_pack("{s:s}", "note", "not collected: the profile gives the router no "
				 "topology.rut.ssh (or netns) to reach it by");
	/* the BSD names of swept knobs, read back as they are (more names: router axes) */
	static const char *const oids[][2] = {
		{ "pollhz", "kern.polling.pollhz" }, { "burst_max", "kern.polling.burst_max" },
		{ "each_burst", "kern.polling.each_burst" }, { "user_frac", "kern.polling.user_frac" },
		{ "reg_frac", "kern.polling.reg_frac" }, { "idle_poll", "kern.polling.idle_poll" },
		{ "update_counters", "net.inet.ip.fw.update_counters" },
		{ "firewall", "net.inet.ip.fw.enable" },
	};
	const char *names[64];
	size_t n = 0;
	for (size_t a = 0; a < p->naxes; a++) {
		for (size_t i = 0; i < sizeof(oids) / sizeof(oids[0]) && n < 64; i++)
			if (!strcmp(p->axes[a].name, oids[i][0]))
				names[n++] = oids[i][1];
		/* a router axis with a sysctl's name (kern.hz) is read as one */
		if (p->axes[a].router && strchr(p->axes[a].name, '.') && n < 64)
			names[n++] = p->axes[a].name;
	}
	if (!r->o->quiet && say)
		fprintf(stderr, "reading the router's environment (%s)...\n",
			r->rut_box.ssh ? r->rut_box.ssh : r->rut_box.netns);
	return rutenv_collect(&r->rut_box, p->topo.rut.iface, names, n);
}

/* What a case records of the router it ran on, read after the last reboot: its OS,
 * boot identity and tunables (the swept names among them). */
static json_t *router_env_brief(const json_t *env)
{
	json_t *o = json_object();
	static const char *const keys[] = { "os", "boot_id", "tunables", "collected_utc",
					    "error", NULL };
	for (int i = 0; o && keys[i]; i++) {
		json_t *v = json_object_get(env, keys[i]);
		if (v)
			json_object_set(o, keys[i], v);
	}
	return o;
}

/* A box's environment as environment() recorded it. */
static const json_t *env_of(const json_t *env, size_t n, const char *one, const char *many,
			    const char *name)
{
	if (n > 1)
		return json_object_get(json_object_get(env, many), name);
	return json_object_get(env, one);
}

static double jnum_of(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Every sender's and sink's clock against ours, and the bound on a sender's and a
 * sink's difference that decides whether one-way delays are published (clockoff.h):
 * the largest over the pairs. */
static void clocks(struct runner *r, json_t *env)
{
	struct trial_box *v[2 * PROF_BOXES_MAX];
	size_t n = end_boxes(r, v), ng = r->env.ngens;
	json_t *c = json_object(), *rec[2 * PROF_BOXES_MAX];
	for (size_t i = 0; i < n; i++) {
		rec[i] = clockoff_box(&v[i]->box);
		json_object_set_new(c, v[i]->name, rec[i]);
	}
	double worst = 0;
	bool unknown = false;
	const char *how = "";
	for (size_t i = 0; i < ng; i++)
		for (size_t k = ng; k < n; k++) {
			const char *h = "";
			double b = clockoff_pair(rec[i], rec[k],
						 env_of(env, ng, "sender", "senders", v[i]->name),
						 env_of(env, n - ng, "sink", "sinks", v[k]->name), &h);
			if (isnan(b) && !unknown) {
				unknown = true;
				how = h;
			} else if (!unknown && b >= worst) {
				worst = b;
				how = h;
			}
		}
	if (unknown)
		worst = NAN;
	json_object_set_new(c, "pair_bound_ns", isfinite(worst) ? json_real(worst) : json_null());
	json_object_set_new(c, "pair_method", json_string(how));
	json_object_set_new(env, "clocks", c);
}

/* Each box's clock offset against ours, for the start instant handed to it: 0 on this
 * host; over ssh the round trip's estimate (0, with no bound, when there is none). */
static void box_offsets(struct runner *r)
{
	const json_t *c = res_get(r->root, "environment", "clocks", NULL);
	struct trial_box *v[2 * PROF_BOXES_MAX];
	size_t n = end_boxes(r, v);
	for (size_t i = 0; i < n; i++) {
		const json_t *b = json_object_get(c, v[i]->name);
		const json_t *rt = json_object_get(b, "rtt");
		double off = jnum_of(rt, "offset_ns"), bound = jnum_of(rt, "bound_ns");
		if (!v[i]->box.ssh || json_is_true(json_object_get(b, "same_clock_as_control"))) {
			off = 0;
			bound = 0;
		}
		v[i]->clock_off_ns = isnan(off) ? 0 : off;
		v[i]->clock_bound_ns = isnan(off) ? NAN : bound;
	}
}

static json_t *environment(struct runner *r)
{
	const struct profile *p = r->p;
	static const char *const kinds[] = { "netns", "local", "ssh" };
	json_t *env = json_object();
	json_object_set_new(env, "topology", json_string(kinds[p->topo.kind]));
	json_object_set_new(env, "addressing", json_pack("[s]", "198.18.0.0/15"));
	const struct prof_topology *t = &p->topo;
	json_object_set_new(env, "sender", box_env(&r->env.gens[0].box, t->gens[0].iface));
	json_object_set_new(env, "sink", box_env(&r->env.sinks[0].box, t->sinks[0].iface));
	for (int k = 0; k < 2; k++) {   /* several: every one by its name, the first as well */
		size_t n = k ? t->nsinks : t->ngens;
		if (n < 2)
			continue;
		json_t *o = json_object();
		for (size_t i = 0; i < n; i++) {
			const struct trial_box *b = k ? &r->env.sinks[i] : &r->env.gens[i];
			const struct prof_host *h = k ? &t->sinks[i] : &t->gens[i];
			json_object_set_new(o, b->name, i ? box_env(&b->box, h->iface)
						 : json_deep_copy(json_object_get(env, k ? "sink" : "sender")));
		}
		json_object_set_new(env, k ? "sinks" : "senders", o);
	}
	if (p->router.kind != PR_NONE) {
		json_t *dut = p->router.kind == PR_RUT ? box_env(&r->rut_box, p->topo.rut.iface)
						       : external_env(r, true);
		json_object_set_new(dut, "router", json_string(p->router.kind == PR_RUT
								       ? "ppslab-rut " PPSLAB_VERSION
								       : "external"));
		json_object_set_new(env, "dut", dut);
	}
	clocks(r, env);
	return env;
}

/* --- every box reached once --------------------------------------------------------- */

/* Before anything is measured, each ssh box and each ssh destination of the router's
 * hooks is reached once with the options the run will use (BatchMode: no prompt, the
 * host key must be known): a box that cannot be reached stops the run here, named,
 * instead of failing every case. */
static int reach_all(struct runner *r)
{
	struct trial_box *v[2 * PROF_BOXES_MAX];
	size_t n = end_boxes(r, v);
	const struct box *boxes[2 * PROF_BOXES_MAX + 1];
	for (size_t i = 0; i < n; i++)
		boxes[i] = &v[i]->box;
	boxes[n] = &r->rut_box;
	static char out[4096];
	for (size_t i = 0; i <= n; i++) {
		const struct box *b = boxes[i];
		if (!b->ssh || (i == n && r->p->router.kind == PR_NONE))
			continue;
		struct box_cmd c;
		int rc = box_sys_init(&c, b, "true");
		rc = rc ? rc : box_cmd_done(&c, b);
		struct proc_opts o = { .out = out, .outlen = sizeof(out), .merge_err = 1,
				       .timeout_ns = 40 * NS_PER_S };
		int st = rc ? rc : proc_run(c.argv, &o);
		box_cmd_free(&c);
		if (st) {
			out[strcspn(out, "\n")] = 0;
			log_err("the %s box (%s%s%s) cannot be reached over ssh (status %d): %s; "
				"ppslab needs ssh without a prompt there: a key, and its host key in "
				"known_hosts (connect once by hand, or ssh-keyscan)",
				i < n ? v[i]->name : b->role, b->ssh, b->netns ? ", namespace " : "",
				b->netns ? b->netns : "", st, out[0] ? out : "no message");
			return EX_UNAVAILABLE;
		}
	}
	char err[600];
	if (r->dut && dut_reach(r->dut, err, sizeof(err))) {
		log_err("%s; ppslab needs ssh without a prompt there: a key, and its host key in "
			"known_hosts", err);
		return EX_UNAVAILABLE;
	}
	return 0;
}

/* --- the rig's own ceiling ----------------------------------------------------------- */

/* A sender box's port spec with its interface replaced by ifname (the direct
 * measurement sends from the router's sink-side interface): "xdp:rut1,mode=copy". */
static void spec_on(const char *spec, const char *ifname, char *buf, size_t len)
{
	const char *colon = strchr(spec, ':');
	size_t bl = colon && (size_t)(colon - spec) < strcspn(spec, ",") ? (size_t)(colon - spec) : 0;
	const char *keys = strchr(bl ? colon : spec, ',');
	if (bl)
		snprintf(buf, len, "%.*s:%s%s", (int)bl, spec, ifname, keys ? keys : "");
	else
		snprintf(buf, len, "%s", ifname);
}

/* Every sender box's ppslab-gen --calibrate with its own port, threads and CPUs, all
 * at once (boxes sharing a host share its CPUs, as in the trials): the sum of their
 * ceilings, 0 when one gave none. The summaries go into rig.calibrate (the first box)
 * and, with several boxes, rig.calibrate_boxes. */
static double rig_calibrate(struct runner *r, json_t *rig)
{
	const struct profile *p = r->p;
	size_t n = r->env.ngens;
	pid_t pid[PROF_BOXES_MAX];
	char out[PROF_BOXES_MAX][128];
	double sum = 0;
	bool all = true;
	json_t *per = json_object();
	for (size_t i = 0; i < n; i++) {
		const struct trial_box *b = &r->env.gens[i];
		struct box_cmd c;
		pid[i] = 0;
		snprintf(out[i], sizeof(out[i]), "%s/cal-%s.out", r->tmpdir, b->name);
		int rc = box_cmd_init(&c, &b->box, "ppslab-gen");
		rc = rc ? rc : box_arg(&c, "-i");
		rc = rc ? rc : box_arg(&c, b->spec);
		rc = rc ? rc : box_arg(&c, "--dst");
		rc = rc ? rc : box_arg(&c, b->dst);
		if (!rc && p->topo.dst_mac) {   /* no route lookup where the profile says */
			rc = box_arg(&c, "--dst-mac");
			rc = rc ? rc : box_arg(&c, p->topo.dst_mac);
		}
		if (!rc && b->threads > 1) {
			rc = box_arg(&c, "--threads");
			rc = rc ? rc : box_argf(&c, "%u", b->threads);
		}
		if (!rc && b->cpus) {
			rc = box_arg(&c, "--cpus");
			rc = rc ? rc : box_arg(&c, b->cpus);
		}
		rc = rc ? rc : box_arg(&c, "--calibrate");
		rc = rc ? rc : box_arg(&c, "--duration");
		rc = rc ? rc : box_arg(&c, "1s");
		rc = rc ? rc : box_arg(&c, "--json");
		if (!rc && json_is_true(json_object_get(p->root, "allow_any_dst")))
			rc = box_arg(&c, "--allow-any-dst");
		rc = rc ? rc : box_cmd_done(&c, &b->box);
		if (!rc) {
			pid_t k = proc_spawn(c.argv, c.netns, out[i], "/dev/null");
			pid[i] = k > 0 ? k : 0;
		}
		box_cmd_free(&c);
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = r->env.gens[i].name;
		int st = pid[i] ? proc_wait(pid[i], 60 * NS_PER_S) : -1;
		json_t *js = st == 0 ? jout_last_summary(out[i]) : NULL;
		const json_t *m = json_object_get(js, "max_pps");
		double v = json_is_number(m) ? json_number_value(m) : 0;
		if (v <= 0) {
			all = false;
			log_warn("ppslab-gen --calibrate on the sender box %s gave no ceiling; the rig's "
				 "ceiling is unknown", name);
		}
		sum += v;
		if (i == 0)
			json_object_set(rig, "calibrate", js ? js : json_null());
		json_object_set_new(per, name, js ? js : json_null());
	}
	if (n > 1)
		json_object_set_new(rig, "calibrate_boxes", per);
	else
		json_decref(per);
	return all ? sum : 0;
}

static json_t *rig_measure(struct runner *r)
{
	const struct profile *p = r->p;
	json_t *rig = json_object();
	double cal = 0, direct = 0;
	if (p->rig_calibrate)
		cal = rig_calibrate(r, rig);
	/* sender → sink without the router: in the lab, each sender's tool (its port's
	 * backend and keys, threads, CPUs) on the router's sink-side interface, one veth from
	 * the sink, all at once. Several xdp: senders would bind the same queues of that one
	 * interface: then the calibration alone is the ceiling. */
	bool xdp_many = false;
	for (size_t i = 0; r->env.ngens > 1 && i < r->env.ngens; i++)
		xdp_many |= !strncmp(r->env.gens[i].spec, "xdp:", 4);
	if (p->rig_direct && p->topo.kind == PT_NETNS && p->router.kind != PR_EXTERNAL &&
	    xdp_many) {
		json_object_set_new(rig, "direct", json_null());
		json_object_set_new(rig, "direct_pps", json_null());
		json_object_set_new(rig, "direct_skipped", json_string(
			"several xdp: sender boxes would bind the same queues of the router's one "
			"sink-side interface; the ceiling is the calibration's"));
	} else if (p->rig_direct && p->topo.kind == PT_NETNS && p->router.kind != PR_EXTERNAL) {
		char in[32], outif[32];
		rut_ifaces(p, in, outif, sizeof(in));
		struct trial_env e = r->env;
		char specs[PROF_BOXES_MAX][300];
		for (size_t i = 0; i < e.ngens; i++) {
			e.gens[i].box = r->rut_box;
			spec_on(r->env.gens[i].spec, outif, specs[i], sizeof(specs[i]));
			e.gens[i].spec = specs[i];
			e.gens[i].clock_off_ns = 0;
			e.gens[i].clock_bound_ns = 0;
		}
		e.dut = NULL;
		struct trial_req tr = { .load_pps = 0, .duration_s = 1, .warmup_s = 0.2,
					.params = NULL, .kind = "rig", .seq = 0 };
		json_t *rec = NULL;
		int rc = trial_run(&e, &tr, &rec);
		if (!rc) {
			const json_t *f = json_object_get(rec, "fwd_rate_pps");
			direct = json_is_number(f) ? json_number_value(f) : 0;
		}
		json_object_set_new(rig, "direct", rec ? rec : json_null());
		json_object_set_new(rig, "direct_pps", direct > 0 ? json_real(direct) : json_null());
	}
	/* the settings it was measured with: the trials' own */
	json_t *set = json_array();
	for (size_t i = 0; i < r->env.ngens; i++) {
		const struct trial_box *b = &r->env.gens[i];
		json_t *o = json_pack("{s:s,s:s,s:i}", "box", b->name, "port", b->spec, "threads",
				      (int)b->threads);
		if (b->cpus)
			json_object_set_new(o, "cpus", json_string(b->cpus));
		json_array_append_new(set, o);
	}
	json_object_set_new(rig, "senders", set);
	r->ceiling_pps = cal > 0 && direct > 0 ? fmin(cal, direct) : cal > 0 ? cal : direct;
	json_object_set_new(rig, "ceiling_pps",
			    r->ceiling_pps > 0 ? json_real(r->ceiling_pps) : json_null());
	return rig;
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
	utc_now(t, sizeof(t));
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

/* --- one case ------------------------------------------------------------------------ */

static double pnum(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void metric(json_t *m, const char *k, double v)
{
	json_object_set_new(m, k, isnan(v) ? json_null() : json_real(v));
}

/* cases[].metrics from the method's result and the trial that shows the cell best */
static json_t *case_metrics(const struct search_res *sr, const json_t *trials,
			    const json_t *last, bool bi)
{
	json_t *m = json_object();
	metric(m, "fwd_pps", pnum(last, "fwd_rate_pps"));
	metric(m, "offered_pps", pnum(last, "offered_pps"));
	double loss = pnum(last, "loss_ratio");
	metric(m, "loss_pct", isnan(loss) ? NAN : loss * 100);
	metric(m, "fwd_pps_a", pnum(last, "fwd_rate_pps_a"));
	metric(m, "fwd_pps_b", bi ? pnum(last, "fwd_rate_pps_b") : NAN);
	const json_t *lat = json_object_get(last, "latency_ns");
	metric(m, "lat_p50_ns", pnum(lat, "p50"));
	metric(m, "lat_p99_ns", pnum(lat, "p99"));
	for (size_t g = 0; g < sr->ngoals; g++) {
		char k[32];
		snprintf(k, sizeof(k), "%s_pps", sr->goal[g].name);
		for (char *c = k; *c; c++)
			*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
		metric(m, k, sr->goal[g].ct_pps > 0 ? sr->goal[g].ct_pps : NAN);
	}
	if (sr->mrr_pps > 0)
		metric(m, "mrr_pps", sr->mrr_pps);
	/* MFR: the best forwarding rate of the case's trials as the load window measured
	 * it (the search's own figure counts a backlog delivered after the load too) */
	double mfr = NAN;
	size_t i;
	json_t *t;
	json_array_foreach(trials, i, t) {
		double f = pnum(t, "fwd_rate_pps");
		if (!isnan(f) && (isnan(mfr) || f > mfr))
			mfr = f;
	}
	if (!isnan(mfr))
		metric(m, "mfr_pps", mfr);
	else if (sr->mfr_pps > 0)
		metric(m, "mfr_pps", sr->mfr_pps);
	const json_t *rut = json_object_get(last, "rut");
	if (json_is_object(rut)) {
		metric(m, "cpu_s", pnum(rut, "fwd_cpu_s"));
		const json_t *pol = json_object_get(rut, "polling");
		static const char *const pk[] = { "burst", "lost_polls", "short_ticks", "suspect",
						  "stalled", "pending_polls", NULL };
		for (int j = 0; pk[j] && json_is_object(pol); j++) {
			char k[48];
			snprintf(k, sizeof(k), "rut.%s", pk[j]);
			metric(m, k, pnum(pol, pk[j]));
		}
		metric(m, "rut.kernel_drops", pnum(rut, "kernel_drops"));
		json_t *rule;
		json_array_foreach(json_object_get(rut, "rules"), i, rule) {
			char k[48];
			snprintf(k, sizeof(k), "rut.rule_hits.%lld",
				 (long long)json_integer_value(json_object_get(rule, "number")));
			metric(m, k, pnum(rule, "pkts"));
		}
	}
	return m;
}

static json_t *results_obj(const struct search_res *sr, enum prof_method method)
{
	json_t *res = json_object();
	for (size_t g = 0; g < sr->ngoals; g++) {
		const struct search_goal_res *gr = &sr->goal[g];
		json_object_set_new(res, gr->name,
				    json_pack("{s:b,s:f,s:f,s:f,s:f,s:i,s:f}", "regular",
					      gr->regular, "loss_ratio", gr->loss_ratio, "rlb_pps",
					      gr->rlb_pps, "rub_pps", gr->rub_pps, "ct_pps",
					      gr->ct_pps, "trials", (int)sr->ntrials, "search_s",
					      sr->trial_s));
	}
	if (method == PM_MLR && sr->mrr_pps > 0)
		json_object_set_new(res, "MRR", json_pack("{s:f}", "avg", sr->mrr_pps));
	if ((method == PM_FIXED || method == PM_LADDER) && sr->mfr_pps > 0)
		json_object_set_new(res, "FR", json_pack("{s:f,s:f}", "fwd_pps", sr->mfr_pps,
							 "offered_pps", sr->mfr_load_pps));
	return res;
}

static struct check_ctx check_ctx(const struct profile *p, const json_t *params)
{
	struct check_ctx c = { .rate_tol = 0.005 };
	c.router = p->router.kind == PR_EXTERNAL ? CHECK_EXTERNAL
		 : p->router.kind == PR_NONE ? CHECK_NONE : CHECK_RUT;
	c.firewall = p->router.kind != PR_NONE && prof_firewall_on(p, params);
	double uc = prof_num(p, params, "update_counters");
	c.update_counters = isnan(uc) || uc != 0;
	const json_t *rules = prof_value(p, params, "rules");
	c.rules = json_is_integer(rules) ? (unsigned)json_integer_value(rules) + 1 : 1;
	return c;
}

static void search_config(const struct runner *r, const json_t *params, struct search_cfg *sc)
{
	const struct prof_trial *t = &r->p->trial;
	static const enum search_method m[] = { SM_FIXED, SM_RFC2544, SM_MLR, SM_LADDER };
	memset(sc, 0, sizeof(*sc));
	sc->method = m[t->method];
	double off = prof_num(r->p, params, "offered");
	/* "max" (NaN): the sender goes as fast as it can; the search needs some load */
	sc->load_pps = isnan(off) ? 1e9 : off;
	sc->min_load_pps = t->min_load_pps;
	sc->max_load_pps = t->max_load_pps > 0 ? t->max_load_pps
			 : r->ceiling_pps > 0 ? r->ceiling_pps : 1e6;
	sc->width = t->width;
	sc->duration_s = t->duration_s;
	sc->initial_s = t->initial_s;
	sc->phases = t->phases;
	sc->duration_sum_s = t->duration_sum_s;
	sc->exceed_ratio = t->exceed_ratio;
	sc->pdr_loss = t->pdr_loss;
	sc->max_trials = t->max_trials;
	static double ladder[64];
	sc->nladder = 0;
	for (size_t i = 0; t->ladder && i < json_array_size(t->ladder) && i < 64; i++)
		ladder[sc->nladder++] = json_number_value(json_array_get(t->ladder, i));
	sc->ladder = sc->nladder ? ladder : NULL;
}

/* The case's flags from its trials' failed checks: one per check, "NAME: DETAIL" of the
 * first trial that failed it (and in how many trials), so the table's footnote can say
 * why a cell is marked. */
static void failed_checks(const json_t *trials, json_t *flags)
{
	json_t *seen = json_object();
	size_t i, j, nt = json_array_size(trials);
	json_t *t, *ch;
	json_array_foreach(trials, i, t)
		json_array_foreach(json_object_get(t, "checks"), j, ch) {
			const char *name = json_string_value(json_object_get(ch, "name"));
			if (!name || !json_is_false(json_object_get(ch, "ok")))
				continue;
			json_t *e = json_object_get(seen, name);
			if (e) {
				json_array_set_new(e, 0, json_integer(json_integer_value(json_array_get(e, 0)) + 1));
				continue;
			}
			json_object_set_new(seen, name, json_pack("[i,O]", 1, json_object_get(ch, "detail")));
		}
	const char *name;
	json_t *e;
	json_object_foreach(seen, name, e) {
		char b[1200];
		json_int_t n = json_integer_value(json_array_get(e, 0));
		int w = snprintf(b, sizeof(b), "%s: %s", name, json_string_value(json_array_get(e, 1)));
		if (nt > 1 && w > 0 && (size_t)w < sizeof(b))
			snprintf(b + w, sizeof(b) - (size_t)w, " (%lld of %zu trials)", (long long)n, nt);
		json_array_append_new(flags, jtext(b));
	}
	json_decref(seen);
}

/* One-way delays across two clocks are kept out of the metrics (tables, compare,
 * report) when the clocks may differ by more than trial.max_clock_error of the delay;
 * the trials keep the sink's numbers, the case says why. */
static void withhold_latency(struct runner *r, json_t *c, json_t *m, const json_t *last)
{
	double p50 = pnum(m, "lat_p50_ns");
	const json_t *sink = json_array_get(json_object_get(last, "sink"), 0);
	bool valid = !json_is_false(json_object_get(sink, "delay_valid"));
	char why[400];
	if (!checks_latency_withheld(r->clock_bound_ns, p50, r->p->trial.max_clock_error, valid,
				     why, sizeof(why)))
		return;
	const char *k;
	json_t *v;
	json_object_foreach(m, k, v)
		if (!strncmp(k, "lat_", 4))
			json_object_set_new(m, k, json_null());
	json_object_set_new(c, "latency_withheld", jtext(why));
}

/* --- a router that restarts ---------------------------------------------------------- */

/* A short probe of test frames through the router, in both directions of a
 * bidirectional cell (as lab tools wait for a rebooted router): true when each sink
 * counted some; why says what it saw otherwise. */
static bool probe(struct runner *r, const json_t *params, char *why, size_t len)
{
	struct trial_env e = r->env;
	e.dut = NULL;   /* its read hook may not answer yet */
	struct trial_req tr = { .load_pps = 1000, .duration_s = 0.5, .warmup_s = 0,
				.params = params, .kind = "probe", .seq = 0 };
	json_t *rec = NULL;
	int rc = trial_run(&e, &tr, &rec);
	const json_t *dir = prof_value(r->p, params, "direction");
	size_t want = json_is_string(dir) && !strcmp(json_string_value(dir), "bi") ? 2 : 1;
	const json_t *sinks = json_object_get(rec, "sink");
	bool ok = rc == 0 && json_array_size(sinks) == want;
	for (size_t i = 0; ok && i < want; i++)
		ok = pnum(json_array_get(sinks, i), "rx_pkts") > 0;
	if (!ok) {
		const char *e2 = json_string_value(json_object_get(rec, "error"));
		if (e2 && *e2)
			snprintf(why, len, "the probe failed: %s", e2);
		else
			snprintf(why, len, "no test frame passed through it%s",
				 want == 2 ? " in one direction at least" : "");
	}
	json_decref(rec);
	return ok;
}

/* The boot identity of a router environment (Linux's boot_id, the BSDs'
 * kern.boottime), or "". */
static const char *boot_of(const json_t *env)
{
	const char *b = json_string_value(json_object_get(env, "boot_id"));
	return b ? b : "";
}

/* The wait shown where the progress goes: on a terminal in the progress line, else a
 * line when it starts, every 30 s and at the end. */
static void progress_wait(struct runner *r, const struct plan_case *pc, double waited,
			  int tries, const char *state)
{
	static double said;
	if (r->o->quiet)
		return;
	if (r->tty) {   /* one line, short: the finished case's line overwrites it */
		fprintf(stderr, "\r[%zu/%zu] %s rep %u  router restarting: %.0f s, %d tr%s%-10s",
			r->done + 1, r->total, pc->case_id, pc->rep, waited, tries,
			tries == 1 ? "y" : "ies", "");
		fflush(stderr);
		return;
	}
	if (tries == 0 || waited - said >= 30) {
		fprintf(stderr, "case %zu/%zu %s rep %u: %s (%.0f s so far)\n", r->done + 1, r->total,
			pc->case_id, pc->rep, state, waited);
		said = tries == 0 ? 0 : waited;
	}
}

/* After the router was told to restart: polls, with backoff (0.5 s, doubling, at most
 * 10 s apart), until router.ready_hook exits 0 or, without one, a probe's frames pass
 * through it; and, when its environment is read over ssh, until its boot identity has
 * changed (a router that has not gone down yet answers too). Then reads the
 * environment again. Fills c's router_reboot. 0; -EIO when it is not back within
 * router.reboot_timeout (err says how long it waited and what it saw last); -EINTR. */
static int wait_back(struct runner *r, const struct plan_case *pc, json_t *c, char *err,
		     size_t errlen)
{
	const struct profile *p = r->p;
	double tmo = p->router.reboot_timeout_s, delay = 0.5, waited = 0;
	uint64_t t0 = mono_ns();
	int tries = 0;
	char last[600] = "nothing yet", before[256], what[300] = "";
	size_t wl = 0;
	bool env_known = r->router_env && !json_object_get(r->router_env, "note");
	/* a router in a namespace of this host shares its boot: only a box of its own
	 * (over ssh) shows a restart in its boot identity */
	snprintf(before, sizeof(before), "%s", r->rut_box.ssh ? boot_of(r->router_env) : "");
	json_t *axes = json_object();
	for (size_t a = 0; a < p->router.naxes; a++)
		if (p->router.axes[a].reboot) {
			char vb[128];
			const json_t *v = json_object_get(pc->params, p->router.axes[a].name);
			json_object_set(axes, p->router.axes[a].name, (json_t *)v);
			wl += (size_t)snprintf(what + wl, wl < sizeof(what) ? sizeof(what) - wl : 0,
					       "%s%s=%s", wl ? ", " : "", p->router.axes[a].name,
					       res_value_str(v, vb, sizeof(vb)));
		}
	json_t *rec = json_object();
	json_object_set_new(rec, "axes", axes);
	json_object_set_new(rec, "back_by", json_string(p->router.ready_hook ? "ready_hook"
									      : "probe"));
	json_object_set_new(rec, "boot_id_before", before[0] ? json_string(before) : json_null());
	json_object_set_new(c, "router_reboot", rec);
	progress_wait(r, pc, 0, 0, "the router restarts; waiting until it is back");
	int rc = -EIO;
	for (;;) {
		waited = (double)(mono_ns() - t0) / 1e9;
		if (waited >= tmo)
			break;
		double until = fmin(waited + delay, tmo);
		delay = fmin(delay * 2, 10);
		while (!stop_req && (double)(mono_ns() - t0) / 1e9 < until)
			usleep(100 * 1000);
		if (stop_req) {
			rc = -EINTR;
			break;
		}
		tries++;
		waited = (double)(mono_ns() - t0) / 1e9;
		progress_wait(r, pc, waited, tries, "the router restarts; waiting until it is back");
		bool ready;
		if (p->router.ready_hook) {
			char out[512];
			int st = dut_ready(r->dut, pc->params, out, sizeof(out));
			ready = st == 0;
			if (!ready) {
				out[strcspn(out, "\n")] = 0;
				snprintf(last, sizeof(last), "router.ready_hook exited with status %d%s%.300s",
					 st, out[0] ? ": " : "", out);
			}
		} else {
			ready = probe(r, pc->params, last, sizeof(last));
		}
		if (stop_req) {
			rc = -EINTR;
			break;
		}
		if (!ready)
			continue;
		if (env_known) {
			json_t *env = external_env(r, false);
			const char *now = boot_of(env);
			if (before[0] && (!*now || !strcmp(now, before))) {
				snprintf(last, sizeof(last), *now ? "it answers, but has not restarted yet "
					 "(its boot identity is unchanged: %.200s)"
					 : "it answers, but its boot identity cannot be read", now);
				json_decref(env);
				continue;
			}
			char t[32];
			utc_now(t, sizeof(t));
			json_object_set_new(env, "collected_utc", json_string(t));
			json_decref(r->router_env);
			r->router_env = env;
			json_object_set_new(rec, "boot_id", *now ? json_string(now) : json_null());
		}
		rc = 0;
		break;
	}
	waited = (double)(mono_ns() - t0) / 1e9;
	json_object_set_new(rec, "waited_s", json_real(round(waited * 10) / 10));
	json_object_set_new(rec, "tries", json_integer(tries));
	json_object_set_new(rec, "back", json_boolean(rc == 0));
	if (rc == -EIO) {
		snprintf(err, errlen, "the router did not come back after the reboot for %s: waited "
			 "%.1f s (router.reboot_timeout %g s), %d tr%s; the last: %s", what, waited,
			 tmo, tries, tries == 1 ? "y" : "ies", last);
		json_object_set_new(rec, "last", jtext(last));
	}
	if (!r->o->quiet && !r->tty && rc == 0)
		fprintf(stderr, "case %zu/%zu %s rep %u: the router is back after %.1f s (%d tr%s)\n",
			r->done + 1, r->total, pc->case_id, pc->rep, waited, tries,
			tries == 1 ? "y" : "ies");
	return rc;
}

/* Brings the router to the cell: a restart first when a reboot axis changes (waited
 * for), then everything else (dut.h). Records what ran and what was read back in c.
 * 0; -EIO (err says why); -EINTR. */
static int router_to_cell(struct runner *r, const struct plan_case *pc, json_t *c, char *err,
			  size_t errlen)
{
	if (!r->dut)
		return 0;
	dut_case_begin(r->dut);
	if (r->boot_stale && r->router_env && dut_reboot_pending(r->dut, pc->params)) {
		/* it may have come back late: the boot a restart must change is today's */
		json_decref(r->router_env);
		r->router_env = external_env(r, false);
		r->boot_stale = false;
	}
	int rc = dut_apply_reboot(r->dut, pc->params, err, errlen);
	if (rc == 1) {
		rc = wait_back(r, pc, c, err, errlen);
		if (rc)
			dut_forget(r->dut);   /* whatever state it is in, set all of it again */
		else
			dut_rebooted(r->dut);
		r->boot_stale = rc != 0;
	}
	if (!rc)
		rc = dut_apply(r->dut, pc->params, err, errlen);
	const json_t *hooks = dut_hook_log(r->dut);
	if (json_array_size(hooks))   /* what was run on the router, as run */
		json_object_set_new(c, "router_hooks", json_deep_copy(hooks));
	const json_t *ver = dut_verified(r->dut);
	if (ver)
		json_object_set_new(c, "router_verify", json_deep_copy(ver));
	if (prof_has_reboots(r->p) && r->router_env)
		json_object_set_new(c, "router_env", router_env_brief(r->router_env));
	return rc;
}

/* Runs one case into c (the case object already in the document). Returns 0, -EINTR,
 * or -EIO (the case failed: its status says so). */
static int run_case(struct runner *r, const struct plan_case *pc, json_t *c)
{
	const struct profile *p = r->p;
	json_t *trials = json_array(), *flags = json_array();
	json_object_set_new(c, "trials", trials);
	char t[32], err[1024] = "";
	utc_now(t, sizeof(t));
	json_object_set_new(c, "start_utc", json_string(t));
	int rc = router_to_cell(r, pc, c, err, sizeof(err));
	if (rc == -EINTR) {
		json_object_set_new(c, "interrupted", json_true());
		json_object_set_new(c, "flags", flags);
		return -EINTR;
	}
	if (rc == -ENOMEM) {
		json_decref(flags);
		return -ENOMEM;
	}
	if (rc) {
		json_object_set_new(c, "status", json_string("failed"));
		json_object_set_new(c, "error", jtext(err));
		json_object_set_new(c, "flags", flags);
		return -EIO;
	}
	struct search_cfg sc;
	search_config(r, pc->params, &sc);
	bool at_max = sc.method == SM_FIXED && isnan(prof_num(p, pc->params, "offered"));
	if (search_cfg_check(&sc, err, sizeof(err))) {
		json_object_set_new(c, "status", json_string("failed"));
		json_object_set_new(c, "error", jtext(err));
		json_object_set_new(c, "flags", flags);
		return -EIO;
	}
	struct search *s = search_new(&sc);
	if (!s)
		return -ENOMEM;
	struct search_req req;
	struct check_ctx cc = check_ctx(p, pc->params);
	const json_t *dir = prof_value(p, pc->params, "direction");
	bool bi = json_is_string(dir) && !strcmp(json_string_value(dir), "bi");
	json_t *last = NULL;
	int seq = 0;
	bool flagged = false;
	while (!stop_req && search_next(s, &req) == 0) {
		struct trial_req tr = { .load_pps = at_max ? 0 : req.load_pps,
					.duration_s = req.duration_s,
					.warmup_s = p->trial.warmup_s, .params = pc->params,
					.kind = sc.method == SM_FIXED ? "fixed"
						: sc.method == SM_LADDER ? "ladder" : "search",
					.seq = ++seq };
		json_t *rec = NULL;
		rc = trial_run(&r->env, &tr, &rec);
		if (!rec)
			break;
		json_object_set_new(rec, "why", json_string(req.why ? req.why : ""));
		if (checks_run(rec, &cc) > 0)
			flagged = true;
		json_array_append_new(trials, rec);
		if (rc == -EINTR)
			break;
		if (rc || (r->dut && !dut_alive(r->dut))) {
			const json_t *e = json_object_get(rec, "error");
			snprintf(err, sizeof(err), "%s", json_is_string(e) && json_string_length(e)
				 ? json_string_value(e) : "the forwarder died during the trial");
			rc = -EIO;
			break;
		}
		unsigned long long tx, rx;
		double offered;
		trial_counts(rec, &tx, &rx, &offered);
		search_record(s, &req, tx, rx, offered > 0 ? offered : req.load_pps);
		last = rec;
		save(r);
	}
	struct search_res sr;
	search_result(s, &sr);
	search_free(s);
	if (rc == -EINTR || stop_req) {
		json_object_set_new(c, "interrupted", json_true());
		json_object_set_new(c, "flags", flags);
		return -EINTR;
	}
	utc_now(t, sizeof(t));
	json_object_set_new(c, "end_utc", json_string(t));
	if (rc) {
		json_object_set_new(c, "status", json_string("failed"));
		json_object_set_new(c, "error", jtext(err));
		json_object_set_new(c, "flags", flags);
		return -EIO;
	}
	json_object_set_new(c, "results", results_obj(&sr, p->trial.method));
	json_t *m = case_metrics(&sr, trials, last, bi);
	json_object_set_new(c, "metrics", m);
	const json_t *from = json_object_get(last, "fwd_rate_from");
	if (json_is_string(from))   /* how this case's fwd_pps was measured (compare) */
		json_object_set(c, "fwd_rate_from", (json_t *)from);
	withhold_latency(r, c, m, last);
	if (flagged)
		failed_checks(trials, flags);
	double fwd = pnum(m, "fwd_pps");
	if (r->ceiling_pps > 0 && !isnan(fwd) && fwd >= 0.97 * r->ceiling_pps * (bi ? 2 : 1)) {
		char b[160];
		snprintf(b, sizeof(b), "at the rig's own ceiling (%.0f pps): the sender or sink, "
			 "not the router, may be the limit", r->ceiling_pps);
		json_array_append_new(flags, json_string(b));
		json_object_set_new(m, "rig_limited", json_integer(1));
	}
	json_object_set_new(c, "flags", flags);
	json_object_set_new(c, "status", json_string(json_array_size(flags) ? "flagged" : "ok"));
	return 0;
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

static void progress(struct runner *r, const struct plan_case *pc, const json_t *c)
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
	double fwd = pnum(json_object_get(c, "metrics"), "fwd_pps");
	if (r->tty)
		fprintf(stderr, "\r%*s\r", 100, "");
	fprintf(stderr, "case %zu/%zu %s rep %u: %s", r->done, r->total, pc->case_id, pc->rep,
		st ? st : "interrupted");
	if (!isnan(fwd))
		fprintf(stderr, ", forwarded %.0f pps", fwd);
	const char *e = json_string_value(json_object_get(c, "error"));
	if (e)
		fprintf(stderr, ": %s", e);
	fprintf(stderr, "  (ETA %s)\n", eta);
}

/* --- the end: summary, table, plot ----------------------------------------------------- */

static void finish_outputs(struct runner *r)
{
	struct res_file *rf = NULL;
	char err[512];
	if (res_from_json(r->root, r->out, &rf, err, sizeof(err)) == 0) {
		json_t *sum = res_summary(rf);
		if (sum)
			json_object_set_new(r->root, "summary", sum);
		/* the rule-cost model beside the medians it was fitted to (model.h) */
		json_t *fits = res_fits(rf);
		if (fits && json_array_size(fits))
			json_object_set_new(r->root, "fits", fits);
		else
			json_decref(fits);
		res_free(rf);
	} else {
		log_warn("summary not computed: %s", err);
	}
}

static bool swept(const struct profile *p, const char *axis, size_t len)
{
	for (size_t i = 0; i < p->naxes; i++)
		if (strlen(p->axes[i].name) == len && !strncmp(p->axes[i].name, axis, len))
			return true;
	return false;
}

/* An output setting as it applies to this run: --set may have fixed an axis the
 * profile's table or plot names (rows, x, by, a where condition); such a name is
 * dropped (defaults apply) rather than failing the table. Returns NULL to drop. */
static const char *applies(struct runner *r, const char *key, const char *val, char *buf,
			   size_t len, bool *dropped)
{
	bool axis_key = !strcmp(key, "rows") || !strcmp(key, "x") || !strcmp(key, "y") ||
			!strcmp(key, "by") || (!strcmp(key, "cols") && !strchr(val, '='));
	if (axis_key)   /* with the first axis gone, the second takes its place */
		return swept(r->p, val, strlen(val)) && !*dropped ? val
		       : ((*dropped = true), NULL);
	if (strcmp(key, "where"))
		return val;
	size_t n = 0;
	buf[0] = 0;
	for (const char *c = val; *c;) {
		size_t l = strcspn(c, ","), eq = strcspn(c, "=");
		if (eq < l && swept(r->p, c, eq) && n + l + 2 < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%.*s", n ? "," : "", (int)l, c);
		c += l + (c[l] == ',');
	}
	return n ? buf : NULL;
}

/* A run without swept axes has one cell: no pivot to make, its metrics as lines. */
static void print_single_cell(struct runner *r)
{
	json_t *sum = json_object_get(r->root, "summary"), *row;
	size_t i;
	printf("\n%s, one cell (no axis swept)\n", r->p->name);
	json_array_foreach(sum, i, row) {
		const char *m = json_string_value(json_object_get(row, "metric"));
		double med = pnum(row, "median");
		if (m && !isnan(med))
			printf("  %-22s %.6g%s\n", m, med,
			       json_integer_value(json_object_get(row, "n")) > 1 ? " (median)" : "");
	}
}

static void print_table_plot(struct runner *r)
{
	char wbuf[2][512];
	if (r->p->naxes == 0) {
		print_single_cell(r);
		return;
	}
	bool dropped[2] = { false, false };
	const json_t *out = r->p->output;
	const json_t *tab = json_object_get(out, "table"), *plot = json_object_get(out, "plot");
	char *av[24];
	int n;
	static const char *const tkeys[][2] = { { "rows", "--rows" }, { "cols", "--cols" },
						{ "metric", "--metric" }, { "where", "--where" },
						{ "show", "--show" }, { "row_label", "--row-label" },
						{ "title", "--title" } };
	if (!r->o->no_table) {
		n = 0;
		av[n++] = "table";
		av[n++] = (char *)r->out;
		for (size_t i = 0; i < sizeof(tkeys) / sizeof(tkeys[0]); i++) {
			const json_t *v = json_object_get(tab, tkeys[i][0]);
			const char *a = json_is_string(v) ? applies(r, tkeys[i][0], json_string_value(v),
								     wbuf[0], sizeof(wbuf[0]),
								     &dropped[0]) : NULL;
			if (a) {
				av[n++] = (char *)tkeys[i][1];
				av[n++] = (char *)a;
			}
		}
		av[n] = NULL;
		printf("\n");
		fflush(stdout);
		cmd_table(n, av);
	}
	const char *plotfile = r->o->plot ? r->o->plot
			     : json_string_value(json_object_get(plot, "output"));
	if (plotfile) {
		static const char *const pkeys[][2] = { { "kind", "--kind" }, { "x", "--x" },
							{ "y", "--y" }, { "by", "--by" },
							{ "metric", "--metric" }, { "where", "--where" },
							{ "title", "--title" } };
		n = 0;
		av[n++] = "plot";
		av[n++] = (char *)r->out;
		for (size_t i = 0; i < sizeof(pkeys) / sizeof(pkeys[0]); i++) {
			const json_t *v = json_object_get(plot, pkeys[i][0]);
			const char *a = json_is_string(v) ? applies(r, pkeys[i][0], json_string_value(v),
								     wbuf[1], sizeof(wbuf[1]),
								     &dropped[1]) : NULL;
			if (a) {
				av[n++] = (char *)pkeys[i][1];
				av[n++] = (char *)a;
			}
		}
		av[n++] = "-o";
		av[n++] = (char *)plotfile;
		av[n] = NULL;
		cmd_plot(n, av);   /* it says where it wrote the plot, script and data */
	}
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
		bool same = a && json_equal((json_t *)a, (json_t *)b) && ra &&
			    json_equal((json_t *)ra, (json_t *)rb);
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
		print_table_plot(r);
		rc = 0;
		goto out_root;
	}
	if ((rc = topology_up(r)))
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
		rut_ifaces(r->p, r->rut_in, r->rut_out, sizeof(r->rut_in));
		struct dut_cfg dc = { .p = r->p, .box = r->rut_box, .in = r->rut_in, .out = r->rut_out,
				      .tmpdir = r->tmpdir };
		if (dut_new(&dc, &r->dut)) {
			rc = EX_OSERR;
			goto out_tmp;
		}
		r->env.dut = r->dut;
	}
	if ((rc = reach_all(r)))
		goto out_tmp;
	if (!json_object_get(r->root, "environment"))
		json_object_set_new(r->root, "environment", environment(r));
	if (r->p->router.kind == PR_EXTERNAL && prof_has_reboots(r->p))
		/* the boot identity a restart must change; a resumed run's may be old */
		r->router_env = o->resume ? external_env(r, true)
				: json_incref(res_get(r->root, "environment", "dut", NULL));
	const json_t *pb = res_get(r->root, "environment", "clocks", "pair_bound_ns", NULL);
	r->clock_bound_ns = json_is_number(pb) ? json_number_value(pb) : NAN;
	box_offsets(r);
	const json_t *rig = json_object_get(r->root, "rig");
	if (rig) {   /* resumed: the ceiling measured before */
		double c = pnum(rig, "ceiling_pps");
		r->ceiling_pps = isnan(c) ? 0 : c;
	} else {
		if (!o->quiet)
			fprintf(stderr, "measuring the rig's own ceiling...\n");
		json_object_set_new(r->root, "rig", rig_measure(r));
		if (!o->quiet && r->ceiling_pps > 0)
			fprintf(stderr, "rig ceiling: %.0f pps\n", r->ceiling_pps);
	}
	if ((rc = save(r)) != 0) {
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
		progress(r, pc, NULL);
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
		progress(r, pc, c);
		if (save(r)) {
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
		finish_outputs(r);
		if (!stop_req)
			json_object_set_new(r->root, "complete", json_true());
		if (save(r))
			rc = EX_IOERR;
	}
	if (!rc) {
		if (!o->quiet)
			fprintf(stderr, "results: %s (%zu cases, %zu failed)%s\n", r->out, r->done,
				r->failed, stop_req ? "; interrupted: --resume continues" : "");
		if (r->done > r->failed)   /* something to show */
			print_table_plot(r);
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
