/* SPDX-License-Identifier: BSD-2-Clause */
/* lab.c — `ppslab lab up|down|status|shield` (see lab.h). Builds the lab with iproute2
 * and nft, each step idempotent ("replace" and "add if missing"), so up after a
 * half-built state completes it and down after a crash removes what is left. */
#include "lab.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "clock.h"
#include "log.h"
#include "proc.h"
#include "xdp_owner.h"

const struct lab_if lab_ifs[4] = {
	{ LAB_GEN, "gen0", "02:70:70:00:00:02", "198.18.0.2/24", "198.18.0.2" },
	{ LAB_RUT, "rut0", "02:70:70:00:00:01", "198.18.0.1/24", "198.18.0.1" },
	{ LAB_RUT, "rut1", "02:70:70:01:00:01", "198.19.0.1/24", "198.19.0.1" },
	{ LAB_SINK, "sink0", "02:70:70:01:00:02", "198.19.0.2/24", "198.19.0.2" },
};

static const char *const role_names[LAB_ROLES] = { "gen", "rut", "sink" };

const char *lab_role_name(enum lab_role r)
{
	return r < LAB_ROLES ? role_names[r] : "?";
}

void lab_ns_name(const char *name, enum lab_role r, char *buf, int len)
{
	snprintf(buf, (size_t)len, "%s-%s", name, lab_role_name(r));
}

int lab_name_check(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > LAB_NAME_MAX || name[0] == '-' || name[0] == '.')
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.'))
			return -EINVAL;
	}
	return 0;
}

/* Runs a command; on failure logs it with its output. */
static int run(const char *netns, char *const argv[])
{
	char out[2048];
	struct proc_opts o = { .netns = netns, .out = out, .outlen = sizeof(out),
			       .merge_err = 1, .timeout_ns = 20 * NS_PER_S };
	int st = proc_run(argv, &o);
	if (st != 0) {
		char cmd[512] = "";
		for (int i = 0; argv[i]; i++) {
			strncat(cmd, argv[i], sizeof(cmd) - strlen(cmd) - 2);
			strncat(cmd, " ", sizeof(cmd) - strlen(cmd) - 1);
		}
		size_t l = strlen(out);
		while (l && (out[l - 1] == '\n'))
			out[--l] = 0;
		log_err("%s%s%sfailed (status %d): %s", netns ? "[" : "", netns ? netns : "",
			netns ? "] " : "", st, out[0] ? out : cmd);
		return st < 0 ? st : -EIO;
	}
	return 0;
}

/* `ip -d -j link show dev IF` in NS: the array ip prints (its one element describes
 * IF), to json_decref; NULL if there is no such interface. */
static json_t *link_details(const char *ns, const char *ifname)
{
	char *av[] = { "ip", "-n", (char *)ns, "-d", "-j", "link", "show", "dev", (char *)ifname,
		       NULL };
	char out[16384];
	struct proc_opts o = { .out = out, .outlen = sizeof(out), .quiet_err = 1,
			       .timeout_ns = 10 * NS_PER_S };
	return proc_run(av, &o) == 0 ? json_loads(out, 0, NULL) : NULL;
}

/* The transmit queue count of IF (num_tx_queues), 0 if there is no such interface. */
static int link_queues(const char *ns, const char *ifname)
{
	json_t *root = link_details(ns, ifname);
	int q = (int)json_integer_value(json_object_get(json_array_get(root, 0), "num_tx_queues"));
	json_decref(root);
	return q;
}

static int shield_set(const char *ns, enum lab_role r, bool on)
{
	char script[1024];
	char *av[] = { "nft", "-f", "-", NULL };
	if (on) {
		int n = snprintf(script, sizeof(script), "table netdev ppslab_shield {\n");
		for (int i = 0; i < 4; i++)
			if (lab_ifs[i].role == r)
				n += snprintf(script + n, sizeof(script) - (size_t)n,
					      "  chain in_%s { type filter hook ingress device \"%s\" "
					      "priority 0; policy drop; }\n",
					      lab_ifs[i].ifname, lab_ifs[i].ifname);
		snprintf(script + n, sizeof(script) - (size_t)n, "}\n");
	} else {
		/* "add" first so that the delete succeeds whether or not it existed */
		snprintf(script, sizeof(script),
			 "add table netdev ppslab_shield\ndelete table netdev ppslab_shield\n");
	}
	char out[1024];
	struct proc_opts o = { .netns = ns, .stdin_data = script, .out = out,
			       .outlen = sizeof(out), .merge_err = 1, .timeout_ns = 10 * NS_PER_S };
	int st = proc_run(av, &o);
	if (st) {
		log_err("[%s] nft failed (status %d): %s", ns, st, out);
		return st < 0 ? st : -EIO;
	}
	return 0;
}

static bool shield_on(const char *ns)
{
	char *av[] = { "nft", "list", "table", "netdev", "ppslab_shield", NULL };
	char out[1024];
	struct proc_opts o = { .netns = ns, .out = out, .outlen = sizeof(out), .quiet_err = 1,
			       .timeout_ns = 10 * NS_PER_S };
	return proc_run(av, &o) == 0;
}

/* XDP programs on one lab interface (from `ip -d -j link show`): all of them detached
 * (down), or only leftovers (up): an xdp: port's program that no process holds open any
 * more, left by a tool that was killed (xdp_prog_leftover). A live tool's program, and
 * anyone else's (a benchmark's xdp_drop), stay. Returns how many it detached. */
static int xdp_detach(const char *ns, const char *ifname, bool only_leftovers)
{
	json_t *root = link_details(ns, ifname);   /* NULL: no such interface (yet) */
	json_t *xdp = json_object_get(json_array_get(root, 0), "xdp");
	json_t *att = json_object_get(xdp, "attached");
	int n = 0;
	for (size_t i = 0; i < json_array_size(att); i++) {
		json_t *a = json_array_get(att, i);
		json_t *prog = json_object_get(a, "prog");
		json_int_t mode = json_integer_value(json_object_get(a, "mode"));
		uint32_t id = (uint32_t)json_integer_value(json_object_get(prog, "id"));
		const char *pname = json_string_value(json_object_get(prog, "name"));
		/* XDP_ATTACHED_DRV, _SKB, _HW (linux/if_link.h) and their ip(8) keywords */
		const char *kw = mode == 1 ? "xdpdrv" : mode == 2 ? "xdpgeneric" : mode == 3 ? "xdpoffload" : NULL;
		if (!kw || !id)
			continue;
		if (only_leftovers && !xdp_prog_leftover(pname, id, 0))
			continue;
		char *off[] = { "ip", "-n", (char *)ns, "link", "set", "dev", (char *)ifname, (char *)kw,
				"off", NULL };
		if (run(NULL, off) == 0) {
			n++;
			if (only_leftovers)
				log_warn("[%s] %s: detached a leftover XDP program '%s' (id %u)", ns, ifname,
					 pname, id);
		}
	}
	json_decref(root);
	return n;
}

int lab_up(const char *name, const struct lab_up_opts *o)
{
	char ns[LAB_ROLES][64];
	int rc;
	if (lab_name_check(name))
		return -EINVAL;
	for (int r = 0; r < LAB_ROLES; r++) {
		lab_ns_name(name, (enum lab_role)r, ns[r], sizeof(ns[r]));
		if (!proc_netns_exists(ns[r])) {
			char *av[] = { "ip", "netns", "add", ns[r], NULL };
			if ((rc = run(NULL, av)))
				return rc;
		}
		/* no IPv6: its router solicitations and MLD reports are not test traffic */
		proc_ns_write(ns[r], "/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
		proc_ns_write(ns[r], "/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
		char *lo[] = { "ip", "-n", ns[r], "link", "set", "lo", "up", NULL };
		if ((rc = run(NULL, lo)))
			return rc;
	}
	/* the two veth pairs: (gen0, rut0) and (rut1, sink0), with the queues asked for */
	char q[16];
	snprintf(q, sizeof(q), "%d", o->queues > 0 ? o->queues : 1);
	for (int p = 0; p < 2; p++) {
		const struct lab_if *a = &lab_ifs[p * 2], *b = &lab_ifs[p * 2 + 1];
		const char *nsa = ns[a->role], *nsb = ns[b->role];
		int have = link_queues(nsa, a->ifname);   /* 0: no such interface */
		if (o->queues > 0 && have && have != o->queues) {
			char *del[] = { "ip", "-n", (char *)nsa, "link", "del", (char *)a->ifname, NULL };
			if ((rc = run(NULL, del)))
				return rc;
			have = 0;
		}
		if (!have) {
			if (link_queues(nsb, b->ifname)) {   /* a half-built pair: start over */
				char *del[] = { "ip", "-n", (char *)nsb, "link", "del", (char *)b->ifname, NULL };
				run(NULL, del);
			}
			char *add[] = { "ip", "-n", (char *)nsa, "link", "add", (char *)a->ifname,
					"numtxqueues", q, "numrxqueues", q, "type", "veth", "peer",
					"name", (char *)b->ifname, "numtxqueues", q, "numrxqueues", q,
					"netns", (char *)nsb, NULL };
			if ((rc = run(NULL, add)))
				return rc;
		}
	}
	for (int i = 0; i < 4; i++) {
		const struct lab_if *l = &lab_ifs[i];
		const char *n = ns[l->role];
		char *mac[] = { "ip", "-n", (char *)n, "link", "set", "dev", (char *)l->ifname,
				"address", (char *)l->mac, NULL };
		char *addr[] = { "ip", "-n", (char *)n, "addr", "replace", (char *)l->addr, "dev",
				 (char *)l->ifname, NULL };
		char *up[] = { "ip", "-n", (char *)n, "link", "set", "dev", (char *)l->ifname, "up",
			       NULL };
		if ((rc = run(NULL, mac)) || (rc = run(NULL, addr)) || (rc = run(NULL, up)))
			return rc;
	}
	/* permanent neighbours: each side of a pair knows the other's MAC */
	static const int peer[4] = { 1, 0, 3, 2 };
	for (int i = 0; i < 4; i++) {
		const struct lab_if *l = &lab_ifs[i], *pr = &lab_ifs[peer[i]];
		char *nb[] = { "ip", "-n", ns[l->role], "neigh", "replace", (char *)pr->ip, "lladdr",
			       (char *)pr->mac, "dev", (char *)l->ifname, "nud", "permanent", NULL };
		if ((rc = run(NULL, nb)))
			return rc;
	}
	/* gen reaches 198.19.0.0/24 and sink reaches 198.18.0.0/24 through the router */
	char *rg[] = { "ip", "-n", ns[LAB_GEN], "route", "replace", "198.19.0.0/24", "via",
		       "198.18.0.1", "dev", "gen0", NULL };
	char *rs[] = { "ip", "-n", ns[LAB_SINK], "route", "replace", "198.18.0.0/24", "via",
		       "198.19.0.1", "dev", "sink0", NULL };
	if ((rc = run(NULL, rg)) || (rc = run(NULL, rs)))
		return rc;
	for (int r = 0; r < LAB_ROLES; r++)
		if ((rc = shield_set(ns[r], (enum lab_role)r, o ? o->shield : true)))
			return rc;
	/* a tool killed while it had an xdp: port leaves its XDP program attached */
	for (int i = 0; i < 4; i++)
		xdp_detach(ns[lab_ifs[i].role], lab_ifs[i].ifname, true);
	return 0;
}

int lab_down(const char *name)
{
	int rc = 0;
	if (lab_name_check(name))
		return -EINVAL;
	/* XDP programs first, on every interface before any namespace goes (deleting one
	 * takes the veth peers in the others with it, asynchronously): a process still
	 * inside would keep a namespace, its veths and their programs alive after the
	 * name is gone */
	for (int i = 0; i < 4; i++) {
		char ns[64];
		lab_ns_name(name, lab_ifs[i].role, ns, sizeof(ns));
		if (proc_netns_exists(ns))
			xdp_detach(ns, lab_ifs[i].ifname, false);
	}
	for (int r = 0; r < LAB_ROLES; r++) {
		char ns[64];
		lab_ns_name(name, (enum lab_role)r, ns, sizeof(ns));
		if (!proc_netns_exists(ns))
			continue;
		char *av[] = { "ip", "netns", "del", ns, NULL };
		int e = run(NULL, av);
		if (e)
			rc = e;
	}
	return rc;
}

int lab_shield(const char *name, enum lab_role role, bool on)
{
	if (lab_name_check(name))
		return -EINVAL;
	for (int r = 0; r < LAB_ROLES; r++) {
		if (role != LAB_ROLES && (int)role != r)
			continue;
		char ns[64];
		lab_ns_name(name, (enum lab_role)r, ns, sizeof(ns));
		if (!proc_netns_exists(ns)) {
			log_err("namespace %s does not exist (ppslab lab up --name %s)", ns, name);
			return -ENOENT;
		}
		int rc = shield_set(ns, (enum lab_role)r, on);
		if (rc)
			return rc;
	}
	return 0;
}

int lab_status(const char *name, struct lab_status *st)
{
	char ns[LAB_ROLES][64];
	memset(st, 0, sizeof(*st));
	if (lab_name_check(name))
		return -EINVAL;
	st->complete = true;
	for (int r = 0; r < LAB_ROLES; r++) {
		lab_ns_name(name, (enum lab_role)r, ns[r], sizeof(ns[r]));
		st->ns[r] = proc_netns_exists(ns[r]);
		st->any |= st->ns[r];
		st->complete &= st->ns[r];
		if (st->ns[r])
			st->shield[r] = shield_on(ns[r]);
	}
	for (int i = 0; i < 4; i++) {
		const struct lab_if *l = &lab_ifs[i];
		if (!st->ns[l->role]) {
			st->complete = false;
			continue;
		}
		char *av[] = { "ip", "-n", ns[l->role], "-o", "addr", "show", "dev", (char *)l->ifname,
			       "up", NULL };
		char out[2048];
		struct proc_opts o = { .out = out, .outlen = sizeof(out), .quiet_err = 1,
				       .timeout_ns = 10 * NS_PER_S };
		st->if_ok[i] = proc_run(av, &o) == 0 && strstr(out, l->addr) != NULL;
		st->queues[i] = link_queues(ns[l->role], l->ifname);
		st->complete &= st->if_ok[i];
	}
	return 0;
}
