/* SPDX-License-Identifier: BSD-2-Clause */
/* run_env.c — the topology of a run, the boxes reached, their environment and clocks
 * (see run_impl.h) */
#include "run_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "clockoff.h"
#include "cli.h"
#include "clock.h"
#include "envinfo.h"
#include "jout.h"
#include "lab.h"
#include "log.h"
#include "proc.h"
#include "rutenv.h"
#include "version.h"

/* --- the topology ------------------------------------------------------------------ */

int run_topology_up(struct runner *r)
{
	const struct profile *p = r->p;
	const struct prof_topology *t = &p->topo;
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
		/* ppslab-rut reads the router's addresses, routes and neighbours off its own
		 * ports and makes its trunks itself: a lab left on a VLAN (lab up --vlan, an
		 * external router's hook) is given its untagged ports back */
		bool unvlan = p->router.kind == PR_RUT && st.vlan;
		if (unvlan)
			log_info("taking the lab %s's router ports off VLAN %d (ppslab-rut makes its "
				 "own trunks)", t->lab, st.vlan);
		if (!ok || fewq || fews || unvlan) {
			log_info("making the lab %s (%u sender%s, %u queue%s per veth at least)", t->lab,
				 t->lab_senders, t->lab_senders == 1 ? "" : "s", wantq,
				 wantq == 1 ? "" : "s");
			int q = fewq ? fewq : !ok && wantq > 1 ? (int)wantq : 0;
			struct lab_up_opts uo = { .shield = true, .queues = q,
						  .senders = fews ? fews : ok ? 0 : (int)t->lab_senders,
						  .vlan = unvlan ? LAB_VLAN_NONE : 0 };
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
			r->ssh_opts[i] = proc_arg(json_string_value(json_array_get(t->ssh_options, i)));
	}
	r->env.ngens = t->ngens;
	r->env.nsinks = t->nsinks;
	for (size_t i = 0; i < t->ngens + t->nsinks; i++) {
		bool g = i < t->ngens;
		const struct prof_host *h = g ? &t->gens[i] : &t->sinks[i - t->ngens];
		struct trial_box *b = g ? &r->env.gens[i] : &r->env.sinks[i - t->ngens];
		*b = (struct trial_box){ .name = h->name, .spec = h->spec, .threads = h->threads,
					 .cpus = h->cpus, .dst = h->dst, .dst6 = h->dst6,
					 .stream = h->stream,
					 .clock_bound_ns = NAN };
		b->box = (struct box){ .role = g ? "gen" : "sink", .ssh = h->ssh, .netns = h->netns,
				       .bin = h->bin, .ssh_opts = r->ssh_opts };
	}
	r->rut_box = (struct box){ .role = "rut", .ssh = t->rut.ssh, .netns = t->rut.netns,
				   .bin = t->rut.bin, .ssh_opts = r->ssh_opts };
	r->env.dst_b = t->dst_b;
	r->env.dst6_b = t->dst6_b;
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
void run_rut_ifaces(const struct profile *p, char *in, char *out, size_t len)
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
json_t *run_external_env(struct runner *r, bool say)
{
	const struct profile *p = r->p;
	if (!r->rut_box.ssh && !r->rut_box.netns)
		return json_pack("{s:s}", "note", "not collected: the profile gives the router no "
				 "topology.rut.ssh (or netns) to reach it by");
	/* the BSD names of swept knobs, read back as they are (more names: router axes) */
	const char *names[64];
	size_t n = 0;
	for (size_t a = 0; a < p->naxes; a++) {
		const struct axis_def *ax = axis_find(p->axes[a].name);
		if (ax && ax->act == AA_SYSCTL && !ax->rut_only && n < 64)
			names[n++] = ax->oid;
		/* a router axis with a sysctl's name (kern.hz) is read as one */
		if (p->axes[a].router && strchr(p->axes[a].name, '.') && n < 64)
			names[n++] = p->axes[a].name;
	}
	if (!r->o->quiet && say)
		fprintf(stderr, "reading the router's environment (%s)...\n",
			r->rut_box.ssh ? r->rut_box.ssh : r->rut_box.netns);
	return rutenv_collect(&r->rut_box, p->topo.rut.iface, names, n);
}

/* An external router's environment read at the start is its state before the setup
 * hook (net.ipv4.ip_forward 0 on a router that then forwarded). Once the first case has
 * run the hook, it is read again: environment.dut is then the state the run measured,
 * and environment.dut_before_setup the state found. Once per results file (a resumed
 * run that has it keeps it). */
void run_env_after_setup(struct runner *r)
{
	json_t *env = json_object_get(r->root, "environment");
	if (r->p->router.kind != PR_EXTERNAL || !r->p->router.setup_hook || !env ||
	    json_object_get(env, "dut_before_setup"))
		return;
	json_t *before = json_object_get(env, "dut"), *after = run_external_env(r, false);
	if (!after)
		return;
	if (!json_object_get(after, "router"))
		json_object_set_new(after, "router", json_string("external"));
	json_object_set_new(after, "read", json_string("after the setup hook"));
	/* null when nothing was read before: still marks the reading done */
	json_object_set(env, "dut_before_setup", before ? before : json_null());
	json_object_set_new(env, "dut", after);
}

/* What a case records of the router it ran on, read after the last reboot: its OS,
 * boot identity and tunables (the swept names among them). */
json_t *run_router_env_brief(const json_t *env)
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

/* A box's environment as run_environment() recorded it. */
static const json_t *env_of(const json_t *env, size_t n, const char *one, const char *many,
			    const char *name)
{
	if (n > 1)
		return json_object_get(json_object_get(env, many), name);
	return json_object_get(env, one);
}

/* Every sender's and sink's clock against ours, and the bound on a sender's and a
 * sink's difference that decides whether one-way delays are published (clockoff.h):
 * the largest over the pairs. */
void run_clocks(struct runner *r, json_t *env)
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
void run_box_offsets(struct runner *r)
{
	const json_t *c = res_get(r->root, "environment", "clocks", NULL);
	struct trial_box *v[2 * PROF_BOXES_MAX];
	size_t n = end_boxes(r, v);
	for (size_t i = 0; i < n; i++) {
		const json_t *b = json_object_get(c, v[i]->name);
		const json_t *rt = json_object_get(b, "rtt");
		double off = jnum(rt, "offset_ns"), bound = jnum(rt, "bound_ns");
		if (!v[i]->box.ssh || json_is_true(json_object_get(b, "same_clock_as_control"))) {
			off = 0;
			bound = 0;
		}
		v[i]->clock_off_ns = isnan(off) ? 0 : off;
		v[i]->clock_bound_ns = isnan(off) ? NAN : bound;
	}
}

json_t *run_environment(struct runner *r)
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
						       : run_external_env(r, true);
		json_object_set_new(dut, "router", json_string(p->router.kind == PR_RUT
								       ? "ppslab-rut " PPSLAB_VERSION
								       : "external"));
		json_object_set_new(env, "dut", dut);
	}
	run_clocks(r, env);
	return env;
}

/* --- every box reached once --------------------------------------------------------- */

/* Before anything is measured, each ssh box and each ssh destination of the router's
 * hooks is reached once with the options the run will use (BatchMode: no prompt, the
 * host key must be known): a box that cannot be reached stops the run here, named,
 * instead of failing every case. */
int run_reach_all(struct runner *r)
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

/* --- the boxes' ppslab against ours ------------------------------------------------ */

/* One box's version against ours: a mismatch warned on stderr and appended to list;
 * true when it is another release (or unknown: ppslab env did not answer). */
static bool version_differs(const struct box *b, const char *name, const char *role,
			    const json_t *benv, json_t *list)
{
	const char *here = ppslab_version();
	const json_t *jv = json_object_get(benv, "ppslab");
	const char *there = json_is_string(jv) ? json_string_value(jv) : NULL;
	if (there && !strcmp(there, here))
		return false;
	bool same = ppslab_same_release(there, here);
	const char *what = same ? "same" : there ? "differs" : "unknown";
	json_t *o = json_pack("{s:s, s:s, s:s, s:s?, s:s, s:s}", "box", name, "role", role,
			      "ssh", b->ssh, "ppslab", there, "here", here, "release", what);
	json_array_append_new(list, o);
	if (same)
		log_warn("the %s box %s (%s) runs ppslab %s, this host %s: the same release, "
			 "another build (recorded in the results' environment.version_mismatch)",
			 role, name, b->ssh, there, here);
	else if (!there)
		log_warn("the %s box %s (%s): its ppslab version is unknown (`ppslab env` did not "
			 "answer there; this host has %s): if its tools are older, every trial may "
			 "fail on an option they do not know (recorded in the results' "
			 "environment.version_mismatch)", role, name, b->ssh, here);
	return there && !same;
}

int run_versions(struct runner *r, json_t *env, bool collected)
{
	struct trial_box *v[2 * PROF_BOXES_MAX];
	size_t n = end_boxes(r, v), ng = r->env.ngens;
	json_t *list = json_array(), *fresh[2 * PROF_BOXES_MAX + 1] = { NULL };
	const char *bad[2 * PROF_BOXES_MAX + 1][4];   /* role, name, ssh, version */
	size_t nbad = 0;
	for (size_t i = 0; i <= n; i++) {
		bool rut = i == n;
		const struct box *b = rut ? &r->rut_box : &v[i]->box;
		if (!b->ssh || (rut && r->p->router.kind != PR_RUT))
			continue;   /* this host's, or an external router (no ppslab on it) */
		const char *name = rut ? "rut" : v[i]->name;
		const char *role = rut ? "router" : i < ng ? "sender" : "sink";
		const json_t *benv;
		if (collected)
			benv = rut ? json_object_get(env, "dut")
			     : i < ng ? env_of(env, ng, "sender", "senders", name)
				      : env_of(env, n - ng, "sink", "sinks", name);
		else   /* resumed: the box may have been upgraded since */
			benv = fresh[i] = box_env(b, rut ? r->p->topo.rut.iface
						  : i < ng ? r->p->topo.gens[i].iface
							   : r->p->topo.sinks[i - ng].iface);
		if (version_differs(b, name, role, benv, list)) {
			bad[nbad][0] = role;
			bad[nbad][1] = name;
			bad[nbad][2] = b->ssh;
			bad[nbad++][3] = json_string_value(json_object_get(benv, "ppslab"));
		}
	}
	const char *here = ppslab_version();
	for (size_t i = 0; i < nbad; i++) {
		if (r->o->mixed_versions)
			log_warn("the %s box %s (%s) runs ppslab %s, this host %s: another release; "
				 "running anyway (--allow-version-mismatch): a trial whose tool there "
				 "refuses an option fails with its message (recorded in the results' "
				 "environment.version_mismatch)", bad[i][0], bad[i][1], bad[i][2],
				 bad[i][3], here);
		else
			log_err("the %s box %s (%s) runs ppslab %s, this host %s: another release, whose "
				"tools may refuse the options this run passes them (every trial would "
				"fail): install ppslab %s there (a rebuild of the same release is "
				"accepted), or give --allow-version-mismatch to run anyway", bad[i][0],
				bad[i][1], bad[i][2], bad[i][3], here, PPSLAB_VERSION);
	}
	for (size_t i = 0; i <= n; i++)
		json_decref(fresh[i]);
	/* a resumed run keeps what its earlier part found, and adds what is new */
	json_t *old = json_object_get(env, "version_mismatch");
	size_t k, at = 0;
	json_t *e;
	json_array_foreach(old, k, e) {
		bool dup = false;
		for (size_t j = 0; j < json_array_size(list) && !dup; j++)
			dup = json_equal(e, json_array_get(list, j));
		if (!dup)
			json_array_insert(list, at++, e);
	}
	if (json_array_size(list))
		json_object_set_new(env, "version_mismatch", list);
	else
		json_decref(list);
	return nbad && !r->o->mixed_versions ? EX_CONFIG : 0;
}
