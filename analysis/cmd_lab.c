/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_lab.c — `ppslab lab up|down|status|shield`: the command line over lab.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "jout.h"
#include "lab.h"
#include "log.h"
#include "num.h"
#include "opt.h"

#define SYNOPSIS "ppslab lab up|down|status|shield on|off [--name NAME] [options]"

struct args {
	const char *name;
	const char *role;
	const char *vlan;
	int json, no_shield, queues, senders;
};

/* one meaning per short option across ppslab (docs/analysis.md): -n is --dry-run, -q
 * --quiet, -s --set elsewhere, so name, queues and senders are long only */
#define A(m) OPT_AT(struct args, m)
static struct opt_def opts[] = {
	{ "name", 0, "NAME", "lab name: namespaces NAME-gen, NAME-rut, NAME-sink", OPT_STR,
	  A(name), .def = LAB_DEFAULT_NAME },
	{ "no-shield", 0, NULL, "up: leave the kernel stacks of the namespaces on", OPT_FLAG,
	  A(no_shield) },
	{ "queues", 0, "N", "up: N transmit and receive queues per veth, {range} (default: keep, "
	  "1 for a new lab); one per sender thread", OPT_UINT, A(queues), .min = 1,
	  .max = LAB_QUEUES_MAX, .what = "a queue count {range}" },
	{ "senders", 0, "N", "up: N sender namespaces NAME-gen, NAME-gen2, ..., {range}, behind a "
	  "bridge in front of rut0 (default: keep, 1 for a new lab)", OPT_UINT, A(senders),
	  .min = 1, .max = LAB_SENDERS_MAX, .what = "a number of sender namespaces {range}" },
	{ "vlan", 0, "VID|none", "up: the router's ports trunks of VLAN VID (1..4094): subinterfaces "
	  "rut0.VID and rut1.VID carry their addresses (802.1Q devices, or emulated with tc BPF "
	  "where the kernel has none); none: untagged (default: keep, none for a new lab)", OPT_STR,
	  A(vlan) },
	{ "ns", 0, "ROLE", "shield: only this namespace (gen, rut or sink)", OPT_STR, A(role) },
	{ "json", 'j', NULL, "status: print JSON", OPT_FLAG, A(json) },
	OPT_HELP_ROW,
	{ NULL },
};

static int status(const struct args *a)
{
	struct lab_status st;
	if (lab_status(a->name, &st))
		return EX_SOFTWARE;
	if (a->json) {
		json_t *o = jout_obj("lab", "status");
		jset_s(o, "name", a->name);
		jset_b(o, "complete", st.complete);
		json_t *nss = json_object();
		for (int r = 0; r < LAB_ROLES; r++) {
			json_t *n = json_object();
			char ns[64];
			lab_ns_name(a->name, (enum lab_role)r, ns, sizeof(ns));
			jset_s(n, "netns", ns);
			jset_b(n, "exists", st.ns[r]);
			jset_b(n, "shield", st.shield[r]);
			json_object_set_new(nss, lab_role_name((enum lab_role)r), n);
		}
		for (int k = 1; k < st.senders; k++) {
			json_t *n = json_object();
			char ns[64], role[16];
			lab_gen_ns(a->name, k, ns, sizeof(ns));
			snprintf(role, sizeof(role), "gen%d", k + 1);
			jset_s(n, "netns", ns);
			jset_b(n, "exists", st.gen_ok[k]);
			json_object_set_new(nss, role, n);
		}
		json_object_set_new(o, "namespaces", nss);
		jset_i64(o, "senders", st.senders);
		json_t *ifs = json_object(), *qs = json_object();
		for (int i = 0; i < 4; i++) {
			jset_b(ifs, lab_ifs[i].ifname, st.if_ok[i]);
			jset_i64(qs, lab_ifs[i].ifname, st.queues[i]);
		}
		for (int k = 1; k < st.senders; k++) {
			char key[32];
			snprintf(key, sizeof(key), "gen0@gen%d", k + 1);
			jset_b(ifs, key, st.gen_ok[k]);
		}
		json_object_set_new(o, "interfaces", ifs);
		json_object_set_new(o, "queues", qs);
		jset_i64(o, "vlan", st.vlan);
		if (st.vlan)
			jset_b(o, "vlan_emulated", st.vlan_emulated);
		json_t *pr = json_array();
		for (int i = 0; i < st.nproblems; i++)
			json_array_append_new(pr, json_string(st.problem[i]));
		json_object_set_new(o, "problems", pr);
		jout_emit(stdout, o);
	} else {
		bool all_ns = st.ns[LAB_GEN] && st.ns[LAB_RUT] && st.ns[LAB_SINK];
		printf("lab %s: %s\n", a->name,
		       st.complete ? "up"
		       : all_ns && st.nproblems ? "BROKEN (ppslab lab up repairs it)"
		       : st.any ? "INCOMPLETE (ppslab lab up completes it, ppslab lab down removes it)"
				: "down");
		for (int r = 0; r < LAB_ROLES; r++) {
			char ns[64];
			lab_ns_name(a->name, (enum lab_role)r, ns, sizeof(ns));
			printf("  %-24s %-8s shield %s\n", ns, st.ns[r] ? "exists" : "missing",
			       st.ns[r] ? (st.shield[r] ? "on" : "off") : "-");
		}
		for (int k = 1; k < st.senders; k++) {
			char ns[64];
			lab_gen_ns(a->name, k, ns, sizeof(ns));
			printf("  %-24s %-8s gen0 198.18.0.%d/24 %s\n", ns, st.gen_ok[k] ? "exists" : "missing",
			       k + 2, st.gen_ok[k] ? "up" : "missing or down");
		}
		for (int i = 0; i < 4; i++)
			printf("  %-6s %-18s %-17s %-15s queues %d\n", lab_ifs[i].ifname,
			       lab_ifs[i].addr, lab_ifs[i].mac, st.if_ok[i] ? "up" : "missing or down",
			       st.queues[i]);
		if (st.senders > 1)
			printf("  %d senders reach rut0 through the bridge rutsw in %s-rut\n", st.senders,
			       a->name);
		if (st.vlan)
			printf("  rut0 and rut1 are trunks of VLAN %d: rut0.%d and rut1.%d carry their "
			       "addresses (%s)\n", st.vlan, st.vlan, st.vlan,
			       st.vlan_emulated ? "emulated: veth + tc BPF, no 802.1Q module" : "802.1Q");
		for (int i = 0; i < st.nproblems && st.any; i++)
			printf("  broken: %s\n", st.problem[i]);
	}
	return st.complete ? EX_OK : 1;
}

int cmd_lab(int argc, char **argv)
{
	struct args a = { 0 };
	int first, rc;
	if (argc < 2) {
		opt_usage(stderr, SYNOPSIS, opts);
		return EX_USAGE;
	}
	const char *verb = argv[1];
	if (!strcmp(verb, "-h") || !strcmp(verb, "--help")) {
		opt_usage(stdout, SYNOPSIS, opts);
		return EX_OK;
	}
	struct opt_prog prog = { "ppslab", SYNOPSIS, opts };
	if ((rc = opt_parse(&prog, argc - 1, argv + 1, &a, &first)))
		return rc == OPT_DONE ? EX_OK : rc;
	char **rest = argv + 1 + first;
	int nrest = argc - 1 - first;
	if (lab_name_check(a.name)) {
		log_err("--name %s: expected 1..%d characters of A-Z a-z 0-9 _ - .", a.name,
			LAB_NAME_MAX);
		return EX_USAGE;
	}
	if (!strcmp(verb, "status"))
		return status(&a);
	if (getuid() != 0 && strcmp(verb, "status")) {
		log_err("lab %s needs root (network namespaces)", verb);
		return EX_NOPERM;
	}
	if (!strcmp(verb, "up")) {
		struct lab_up_opts o = { .shield = !a.no_shield, .queues = a.queues,
					 .senders = a.senders };
		if (a.vlan) {
			uint64_t v;
			if (!strcmp(a.vlan, "none"))
				o.vlan = LAB_VLAN_NONE;
			else if (!num_u64(a.vlan, 1, 4094, &v))   /* digits only, as typed */
				o.vlan = (int)v;
			else
				return cli_bad("vlan", a.vlan, "a VLAN id 1..4094, or none");
		}
		if (lab_up(a.name, &o))
			return EX_UNAVAILABLE;
		struct lab_status st;
		int senders = lab_status(a.name, &st) ? 1 : st.senders;
		printf("lab %s is up: %s-gen gen0 198.18.0.2 -> %s-rut rut0 198.18.0.1 | rut1 "
		       "198.19.0.1 -> %s-sink sink0 198.19.0.2\n", a.name, a.name, a.name, a.name);
		if (senders > 1)
			printf("%d senders %s-gen .. %s-gen%d (gen0 198.18.0.2 .. 198.18.0.%d) reach rut0 "
			       "through a bridge\n", senders, a.name, a.name, senders, senders + 1);
		if (st.vlan)
			printf("the router's ports are on VLAN %d: rut0.%d and rut1.%d carry their "
			       "addresses (%s)\n", st.vlan, st.vlan, st.vlan,
			       st.vlan_emulated ? "emulated with tc BPF: no 802.1Q module" : "802.1Q");
		return EX_OK;
	}
	if (!strcmp(verb, "down")) {
		if (lab_down(a.name))
			return EX_UNAVAILABLE;
		printf("lab %s is down\n", a.name);
		return EX_OK;
	}
	if (!strcmp(verb, "shield")) {
		if (nrest != 1 || (strcmp(rest[0], "on") && strcmp(rest[0], "off"))) {
			log_err("usage: ppslab lab shield on|off [--name NAME] [--ns gen|rut|sink]");
			return EX_USAGE;
		}
		enum lab_role role = LAB_ROLES;
		if (a.role) {
			for (int r = 0; r < LAB_ROLES; r++)
				if (!strcmp(a.role, lab_role_name((enum lab_role)r)))
					role = (enum lab_role)r;
			if (role == LAB_ROLES)
				return cli_bad("ns", a.role, "gen, rut or sink");
		}
		return lab_shield(a.name, role, !strcmp(rest[0], "on")) ? EX_UNAVAILABLE : EX_OK;
	}
	log_err("unknown lab command '%s' (up, down, status, shield)", verb);
	return EX_USAGE;
}
