/* SPDX-License-Identifier: BSD-2-Clause */
/* run_rig.c — the rig's own ceiling: the sender's calibration and a direct run (see
 * run_impl.h) */
#include "run_impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "jout.h"
#include "log.h"
#include "proc.h"

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
		int rc = trial_gen_args(&c, b, b->spec, b->dst, p->topo.dst_mac);
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

json_t *run_rig_measure(struct runner *r)
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
		run_rut_ifaces(p, in, outif, sizeof(in));
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
		struct cell fixed;   /* the profile's fixed traffic, no cell's */
		prof_cell(r->p, NULL, &fixed);
		struct trial_req tr = { .load_pps = 0, .duration_s = 1, .warmup_s = 0.2,
					.cell = &fixed, .kind = "rig", .seq = 0 };
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
