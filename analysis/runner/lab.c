/* SPDX-License-Identifier: BSD-2-Clause */
/* lab.c — `ppslab lab up|down|status|shield` (see lab.h). Builds the lab with iproute2
 * and nft, each step idempotent ("replace" and "add if missing"), so up after a
 * half-built state completes it and down after a crash removes what is left. */
#include "lab.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <jansson.h>

#include "clock.h"
#include "log.h"
#include "proc.h"
#include "tc_vlan.h"
#include "xdp_owner.h"

const struct lab_if lab_ifs[4] = {
	{ LAB_GEN, "gen0", "02:70:70:00:00:02", "198.18.0.2/24", "198.18.0.2",
	  "2001:2::2/64", "2001:2::2" },
	{ LAB_RUT, "rut0", "02:70:70:00:00:01", "198.18.0.1/24", "198.18.0.1",
	  "2001:2::1/64", "2001:2::1" },
	{ LAB_RUT, "rut1", "02:70:70:01:00:01", "198.19.0.1/24", "198.19.0.1",
	  "2001:2:0:1::1/64", "2001:2:0:1::1" },
	{ LAB_SINK, "sink0", "02:70:70:01:00:02", "198.19.0.2/24", "198.19.0.2",
	  "2001:2:0:1::2/64", "2001:2:0:1::2" },
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
	char *av[] = { "ip", "-n", proc_arg(ns), "-d", "-j", "link", "show", "dev", proc_arg(ifname),
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

/* An nft script run in namespace ns. */
static int nft_script(const char *ns, const char *script)
{
	char *av[] = { "nft", "-f", "-", NULL };
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

/* vid: the VLAN subinterfaces of the router's ports are shielded too (an emulated one's
 * frames bypass P's chain: its tc program redirects them before netfilter's ingress) */
static int shield_set(const char *ns, enum lab_role r, bool on, int vid)
{
	char script[1024];
	if (on) {
		int n = snprintf(script, sizeof(script), "table netdev ppslab_shield {\n");
		for (int i = 0; i < 4; i++) {
			if (lab_ifs[i].role != r)
				continue;
			n += snprintf(script + n, sizeof(script) - (size_t)n,
				      "  chain in_%s { type filter hook ingress device \"%s\" "
				      "priority 0; policy drop; }\n",
				      lab_ifs[i].ifname, lab_ifs[i].ifname);
			if (r == LAB_RUT && vid > 0)
				n += snprintf(script + n, sizeof(script) - (size_t)n,
					      "  chain in_%s_%d { type filter hook ingress device "
					      "\"%s.%d\" priority 0; policy drop; }\n",
					      lab_ifs[i].ifname, vid, lab_ifs[i].ifname, vid);
		}
		snprintf(script + n, sizeof(script) - (size_t)n, "}\n");
	} else {
		/* "add" first so that the delete succeeds whether or not it existed */
		snprintf(script, sizeof(script),
			 "add table netdev ppslab_shield\ndelete table netdev ppslab_shield\n");
	}
	return nft_script(ns, script);
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
		char *off[] = { "ip", "-n", proc_arg(ns), "link", "set", "dev", proc_arg(ifname),
				proc_arg(kw), "off", NULL };
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

void lab_gen_ns(const char *name, int k, char *buf, int len)
{
	if (k)
		snprintf(buf, (size_t)len, "%s-gen%d", name, k + 1);
	else
		snprintf(buf, (size_t)len, "%s-gen", name);
}

/* Sender k's gen0: 198.18.0.(k+2), MAC 02:70:70:00:00:(k+2) (k = 0 is lab_ifs[0]'s). */
static void gen_addr(int k, char ip[16], char cidr[20], char mac[18])
{
	unsigned h = (unsigned)(k + 2) & 0xff;
	snprintf(ip, 16, "198.18.0.%u", h);
	snprintf(cidr, 20, "198.18.0.%u/24", h);
	snprintf(mac, 18, "02:70:70:00:00:%02x", h);
}

/* Sender k's gen0 in IPv6: 2001:2::(k+2) (hexadecimal, as the MAC's last byte). */
static void gen_addr6(int k, char ip[24], char cidr[28])
{
	unsigned h = (unsigned)(k + 2) & 0xff;
	snprintf(ip, 24, "2001:2::%x", h);
	snprintf(cidr, 28, "2001:2::%x/64", h);
}

#define BRIDGE "rutsw"     /* the switch in front of rut0 (several senders) */
#define BR_RUT "swr0"      /* its port toward rut0 */

static void swg_name(int k, char buf[16])
{
	snprintf(buf, 16, "swg%d", k + 1);
}

static bool link_exists(const char *ns, const char *ifname)
{
	json_t *root = link_details(ns, ifname);
	bool e = json_array_size(root) > 0;
	json_decref(root);
	return e;
}

static int link_del(const char *ns, const char *ifname)
{
	if (!link_exists(ns, ifname))
		return 0;
	char *del[] = { "ip", "-n", proc_arg(ns), "link", "del", proc_arg(ifname), NULL };
	return run(NULL, del);
}

/* The veth pair a (in nsa) - b (in nsb): kept when both ends exist with the queues
 * asked for (exact > 0; 0: any count), else made anew with exact or else q queues. */
static int veth_pair(const char *nsa, const char *a, const char *nsb, const char *b, int exact,
		     int q)
{
	int ha = link_queues(nsa, a), hb = link_queues(nsb, b), rc;
	if (ha && hb && (exact <= 0 || (ha == exact && hb == exact)))
		return 0;
	if ((rc = link_del(nsa, a)) || (rc = link_del(nsb, b)))
		return rc;
	char qs[16];
	snprintf(qs, sizeof(qs), "%d", exact > 0 ? exact : q);
	char *add[] = { "ip", "-n", proc_arg(nsa), "link", "add", proc_arg(a), "numtxqueues", qs,
			"numrxqueues", qs, "type", "veth", "peer", "name", proc_arg(b), "numtxqueues",
			qs, "numrxqueues", qs, "netns", proc_arg(nsb), NULL };
	return run(NULL, add);
}

/* The namespace's kernel sends no MLD report (the ports join their solicited-node
 * groups when an address is added, again when a link comes back up) and no router
 * solicitation: nothing of its own goes out among the test frames, which a test counts
 * on the interfaces exactly. MLD leaves through the output hook, as any local packet.
 * Made again on every up, in one transaction. */
static int quiet6(const char *ns)
{
	static const char script[] =
		"add table inet ppslab_quiet6\ndelete table inet ppslab_quiet6\n"
		"table inet ppslab_quiet6 {\n"
		"  chain out { type filter hook output priority 0; policy accept;\n"
		"    icmpv6 type { mld-listener-report, mld2-listener-report, mld-listener-done,"
		" nd-router-solicit } drop\n  }\n}\n";
	return nft_script(ns, script);
}

static int ns_make(const char *ns)
{
	int rc;
	if (!proc_netns_exists(ns)) {
		char *av[] = { "ip", "netns", "add", proc_arg(ns), NULL };
		if ((rc = run(NULL, av)))
			return rc;
		/* IPv6 off but where if6_up() turns it on, quietly, on a lab port: router
		 * solicitations and MLD reports are not test traffic. Only on a new
		 * namespace: "all" reaches every interface, and would take the ports'
		 * addresses and routes away on every up */
		proc_ns_write(ns, "/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
	}
	proc_ns_write(ns, "/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
	if ((rc = quiet6(ns)))
		return rc;
	char *lo[] = { "ip", "-n", proc_arg(ns), "link", "set", "lo", "up", NULL };
	return run(NULL, lo);
}

/* Sender namespaces the lab has now: the bridge's, or 1. */
static int senders_now(const char *name, const char *rutns)
{
	if (!link_exists(rutns, BR_RUT))
		return 1;
	int n = 1;
	char ns[64];
	for (; n < LAB_SENDERS_MAX; n++) {
		lab_gen_ns(name, n, ns, sizeof(ns));
		if (!proc_netns_exists(ns))
			break;
	}
	return n;
}

static int set_if(const char *ns, const char *ifname, const char *mac, const char *cidr)
{
	char *m[] = { "ip", "-n", proc_arg(ns), "link", "set", "dev", proc_arg(ifname), "address",
		      proc_arg(mac), NULL };
	char *a[] = { "ip", "-n", proc_arg(ns), "addr", "replace", proc_arg(cidr), "dev",
		      proc_arg(ifname), NULL };
	char *up[] = { "ip", "-n", proc_arg(ns), "link", "set", "dev", proc_arg(ifname), "up", NULL };
	int rc;
	if ((rc = run(NULL, m)) || (rc = run(NULL, a)) || (rc = run(NULL, up)))
		return rc;
	return 0;
}

/* IPv6 on one lab port (the namespace's default keeps it off elsewhere: the bridge and
 * its ports, lo), quiet: no link-local address (addr_gen_mode none), no DAD, no router
 * solicitations or advertisements taken, MLD's unsolicited reports 1 ms apart so that
 * they are all sent while the lab comes up, the address kept when the link goes down
 * (as IPv4's is); then the address, no DAD. */
static int if6_up(const char *ns, const char *ifname, const char *cidr)
{
	static const char *const set[][2] = {
		{ "addr_gen_mode", "1" }, { "accept_ra", "0" }, { "router_solicitations", "0" },
		{ "accept_dad", "0" }, { "mldv1_unsolicited_report_interval", "1" },
		{ "mldv2_unsolicited_report_interval", "1" }, { "keep_addr_on_down", "1" },
		{ "disable_ipv6", "0" },
	};
	char path[128];
	int rc;
	for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
		snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/%s", ifname, set[i][0]);
		if ((rc = proc_ns_write(ns, path, set[i][1]))) {
			log_err("[%s] cannot write %s: %s", ns, path, strerror(-rc));
			return rc;
		}
	}
	/* added only when missing: "replace" would join its groups again and send MLD
	 * reports on every up */
	char *show[] = { "ip", "-n", proc_arg(ns), "-6", "-o", "addr", "show", "dev", proc_arg(ifname),
			 "to", proc_arg(cidr), NULL };
	char out[1024] = "";
	struct proc_opts o = { .out = out, .outlen = sizeof(out), .quiet_err = 1,
			       .timeout_ns = 10 * NS_PER_S };
	if (proc_run(show, &o) == 0 && strstr(out, cidr))
		return 0;
	char *a[] = { "ip", "-n", proc_arg(ns), "-6", "addr", "replace", proc_arg(cidr), "dev",
		      proc_arg(ifname), "nodad", NULL };
	return run(NULL, a);
}

static int neigh(const char *ns, const char *ip, const char *mac, const char *dev)
{
	char *nb[] = { "ip", "-n", proc_arg(ns), "neigh", "replace", proc_arg(ip), "lladdr",
		       proc_arg(mac), "dev", proc_arg(dev), "nud", "permanent", NULL };
	return run(NULL, nb);
}

/* VLAN subinterfaces of the router's ports (lab_up_opts.vlan). Names: P.V, and for an
 * emulated one its hidden peer vt-P.V (lib/tc_vlan.h). */
static void vlan_names(const char *port, int vid, char sub[16], char hid[16])
{
	snprintf(sub, 16, "%s.%d", port, vid);
	snprintf(hid, 16, "vt-%s.%d", port, vid);
}

/* The VLAN of the router's ports now: the V of a link rut0.V in rutns, 0 if none. */
static int vlan_now(const char *rutns)
{
	char *av[] = { "ip", "-n", proc_arg(rutns), "-j", "link", "show", NULL };
	char out[65536];
	struct proc_opts o = { .out = out, .outlen = sizeof(out), .quiet_err = 1,
			       .timeout_ns = 10 * NS_PER_S };
	if (proc_run(av, &o) != 0)
		return 0;
	json_t *root = json_loads(out, 0, NULL);
	int vid = 0;
	size_t i, pl = strlen(lab_ifs[1].ifname);
	json_t *l;
	json_array_foreach(root, i, l) {
		const char *n = json_string_value(json_object_get(l, "ifname"));
		char *end;
		if (n && !strncmp(n, lab_ifs[1].ifname, pl) && n[pl] == '.') {
			long v = strtol(n + pl + 1, &end, 10);
			if (!*end && v >= 1 && v <= 4094)
				vid = (int)v;
		}
	}
	json_decref(root);
	return vid;
}

/* Whether P.V is an emulated one (a veth), not an 802.1Q device. */
static bool vlan_emulated(const char *ns, const char *sub)
{
	json_t *root = link_details(ns, sub);
	const char *kind = json_string_value(json_object_get(
		json_object_get(json_array_get(root, 0), "linkinfo"), "info_kind"));
	bool e = kind && !strcmp(kind, "veth");
	json_decref(root);
	return e;
}

/* Whether the lab's tag program (its priority) is on port's ingress. */
static bool vlan_prog_on(const char *ns, const char *port)
{
	char *av[] = { "tc", "-n", proc_arg(ns), "-j", "filter", "show", "dev", proc_arg(port),
		       "ingress", NULL };
	char out[8192] = "";
	struct proc_opts o = { .out = out, .outlen = sizeof(out), .quiet_err = 1,
			       .timeout_ns = 10 * NS_PER_S };
	if (proc_run(av, &o) != 0)
		return false;
	json_t *root = json_loads(out, 0, NULL);
	bool on = false;
	size_t i;
	json_t *f;
	json_array_foreach(root, i, f)
		on |= json_integer_value(json_object_get(f, "pref")) == TC_VLAN_PRIO &&
		      json_object_get(f, "options") != NULL;
	json_decref(root);
	return on;
}

/* A sysctl of the namespace, read (into val). */
static int ns_sysctl_read(const char *ns, const char *path, char *val, size_t len)
{
	char *av[] = { "cat", proc_arg(path), NULL };
	struct proc_opts o = { .netns = ns, .out = val, .outlen = len, .quiet_err = 1,
			       .timeout_ns = 10 * NS_PER_S };
	int rc = proc_run(av, &o);
	val[strcspn(val, "\n")] = 0;
	return rc ? -EIO : 0;
}

static int port_conf(const char *ns, const char *fam, const char *port, const char *key,
		     const char *val)
{
	char path[128];
	snprintf(path, sizeof(path), "/proc/sys/net/%s/conf/%s/%s", fam, port, key);
	int rc = proc_ns_write(ns, path, val);
	if (rc)
		log_err("[%s] cannot write %s: %s", ns, path, strerror(-rc));
	return rc;
}

/* Port P's VLAN subinterface of VLAN now removed unless it is keep's, with the tag
 * programs on P; P routes again (rp_filter back to the namespace's default) when
 * none is left. */
static int vlan_del(const char *ns, const char *port, int now, int keep)
{
	int rc = 0;
	if (!now || now == keep)
		return 0;
	char sub[16], hid[16];
	vlan_names(port, now, sub, hid);
	if ((rc = link_del(ns, sub)) || (rc = link_del(ns, hid)))
		return rc;
	/* ours only: the priority the programs were attached with */
	char pref[16];
	snprintf(pref, sizeof(pref), "%d", TC_VLAN_PRIO);
	char *del[] = { "tc", "-n", proc_arg(ns), "filter", "del", "dev", proc_arg(port), "ingress",
			"pref", pref, NULL };
	struct proc_opts o = { .quiet_err = 1, .timeout_ns = 10 * NS_PER_S };
	proc_run(del, &o);   /* none there (an 802.1Q device): fine */
	if (!keep) {
		char def[16] = "0";
		ns_sysctl_read(ns, "/proc/sys/net/ipv4/conf/default/rp_filter", def, sizeof(def));
		rc = port_conf(ns, "ipv4", port, "rp_filter", def);
	}
	return rc;
}

/* Lab port i of the router (1 rut0, 2 rut1) a trunk of VLAN vid: its subinterface P.V
 * made (the kernel's 802.1Q device, else emulated), with P's MAC, up, with the port's
 * addresses; P itself keeps none and routes nothing (strict rp_filter: its sources are
 * behind P.V; IPv6 off). */
/* Whether `ip link add ... type vlan`'s message (out) says the kernel has no vlan link
 * type (no 802.1Q module), the one failure the emulation stands in for. */
static bool vlan_type_missing(const char *out)
{
	return strstr(out, "Unknown device type") || strstr(out, "Operation not supported");
}

static int vlan_up(const char *ns, int i, int vid, bool *said)
{
	const struct lab_if *l = &lab_ifs[i];
	char sub[16], hid[16], v[16];
	vlan_names(l->ifname, vid, sub, hid);
	snprintf(v, sizeof(v), "%d", vid);
	int rc;
	if (!link_exists(ns, sub)) {
		char *vl[] = { "ip", "-n", proc_arg(ns), "link", "add", "link", proc_arg(l->ifname),
			       "name", sub, "type", "vlan", "id", v, NULL };
		char out[1024] = "";
		struct proc_opts o = { .out = out, .outlen = sizeof(out), .merge_err = 1,
				       .timeout_ns = 10 * NS_PER_S };
		int st = proc_run(vl, &o);
		out[strcspn(out, "\n")] = 0;
		if (st != 0 && !vlan_type_missing(out)) {
			log_err("[%s] cannot make %s: ip link add ... type vlan failed (status %d)%s%s",
				ns, sub, st, out[0] ? ": " : "", out);
			return st < 0 ? st : -EIO;
		}
		if (st != 0) {
			/* the kernel has no 802.1Q device: emulated */
			char why[256];
			if (!tc_vlan_supported(why, sizeof(why))) {
				log_err("[%s] cannot make %s: the kernel has no 802.1Q vlan device "
					"(ip link add ... type vlan: %s), and %s", ns, sub, out, why);
				return -EOPNOTSUPP;
			}
			if (!*said)
				log_warn("[%s] the kernel has no 802.1Q vlan device (ip link add ... "
					 "type vlan: %s): VLAN %d's subinterfaces emulated with veth "
					 "+ tc BPF", ns, out, vid);
			*said = true;
			link_del(ns, hid);
			char *ve[] = { "ip", "-n", proc_arg(ns), "link", "add", sub, "type", "veth",
				       "peer", "name", hid, NULL };
			if ((rc = run(NULL, ve)))
				return rc;
		}
	}
	if (vlan_emulated(ns, sub)) {
		char err[512] = "";
		char *hup[] = { "ip", "-n", proc_arg(ns), "link", "set", "dev", hid, "up", NULL };
		if ((rc = run(NULL, hup)))
			return rc;
		/* every up: attached again (replaced) if missing or changed */
		if ((rc = tc_vlan_attach(ns, l->ifname, hid, (unsigned)vid, err, sizeof(err)))) {
			log_err("[%s] %s: %s", ns, sub, err);
			return rc;
		}
	}
	/* P: its MAC, up, no address, no IPv6 (which takes its address with it), strict
	 * rp_filter. After the subinterface is there: a refusal above leaves the port as
	 * it was */
	char *up[] = { "ip", "-n", proc_arg(ns), "link", "set", "dev", proc_arg(l->ifname), "address",
		       proc_arg(l->mac), "up", NULL };
	if ((rc = run(NULL, up)))
		return rc;
	char *da[] = { "ip", "-n", proc_arg(ns), "addr", "del", proc_arg(l->addr), "dev",
		       proc_arg(l->ifname), NULL };
	struct proc_opts q = { .quiet_err = 1, .timeout_ns = 10 * NS_PER_S };
	proc_run(da, &q);   /* not there: fine */
	if ((rc = port_conf(ns, "ipv6", l->ifname, "disable_ipv6", "1")) ||
	    (rc = port_conf(ns, "ipv4", l->ifname, "rp_filter", "1")))
		return rc;
	if ((rc = set_if(ns, sub, l->mac, l->addr)) || (rc = if6_up(ns, sub, l->addr6)))
		return rc;
	return 0;
}

/* The switch in front of rut0: the bridge, its ports, their static entries. */
static int bridge_up(const char *rutns, int senders, int exact, int q, char gens[][64])
{
	int rc;
	if (!link_exists(rutns, BRIDGE)) {
		char *br[] = { "ip", "-n", proc_arg(rutns), "link", "add", BRIDGE, "type", "bridge",
			       "stp_state", "0", "forward_delay", "0", "mcast_snooping", "0",
			       "nf_call_iptables", "0", "nf_call_ip6tables", "0",
			       "nf_call_arptables", "0", NULL };
		if ((rc = run(NULL, br)))
			return rc;
	}
	char *brup[] = { "ip", "-n", proc_arg(rutns), "link", "set", "dev", BRIDGE, "up", NULL };
	if ((rc = run(NULL, brup)) ||
	    (rc = veth_pair(rutns, lab_ifs[1].ifname, rutns, BR_RUT, exact, q)))
		return rc;
	for (int k = 0; k < senders; k++) {
		char swg[16];
		swg_name(k, swg);
		if ((rc = veth_pair(gens[k], "gen0", rutns, swg, exact, q)))
			return rc;
	}
	for (int k = -1; k < senders; k++) {
		char port[16], ip[16], cidr[20], mac[18];
		if (k < 0) {
			snprintf(port, sizeof(port), "%s", BR_RUT);
			snprintf(mac, sizeof(mac), "%s", lab_ifs[1].mac);
		} else {
			swg_name(k, port);
			gen_addr(k, ip, cidr, mac);
		}
		/* forwarding by the static entries alone: no sender sees another's frames */
		char *en[] = { "ip", "-n", proc_arg(rutns), "link", "set", "dev", port, "master", BRIDGE,
			       "up", NULL };
		char *sl[] = { "ip", "-n", proc_arg(rutns), "link", "set", "dev", port, "type",
			       "bridge_slave", "learning", "off", "flood", "off", "mcast_flood",
			       "off", "bcast_flood", "off", NULL };
		char *fdb[] = { "bridge", "-n", proc_arg(rutns), "fdb", "replace", mac, "dev", port,
				"master", "static", NULL };
		if ((rc = run(NULL, en)) || (rc = run(NULL, sl)) || (rc = run(NULL, fdb)))
			return rc;
	}
	return 0;
}

int lab_up(const char *name, const struct lab_up_opts *o)
{
	char ns[LAB_ROLES][64], gens[LAB_SENDERS_MAX][64];
	int rc;
	if (lab_name_check(name))
		return -EINVAL;
	if (o->vlan > 4094) {   /* the command line's check (cmd_lab.c) for any other caller */
		log_err("lab up: VLAN %d: not a VLAN id 1..4094", o->vlan);
		return -EINVAL;
	}
	for (int r = 0; r < LAB_ROLES; r++)
		lab_ns_name(name, (enum lab_role)r, ns[r], sizeof(ns[r]));
	const char *rutns = ns[LAB_RUT];
	int senders = o->senders > 0 ? o->senders : 0;
	if (!senders)
		senders = proc_netns_exists(rutns) ? senders_now(name, rutns) : 1;
	if (senders > LAB_SENDERS_MAX)
		return -EINVAL;
	for (int k = 0; k < LAB_SENDERS_MAX; k++)
		lab_gen_ns(name, k, gens[k], sizeof(gens[k]));
	for (int k = 0; k < senders; k++)
		if ((rc = ns_make(gens[k])))
			return rc;
	if ((rc = ns_make(rutns)) || (rc = ns_make(ns[LAB_SINK])))
		return rc;
	/* the queues: as asked, else what the lab has (a new pair too) */
	int q = o->queues > 0 ? o->queues : link_queues(rutns, lab_ifs[2].ifname);
	if (q <= 0)
		q = 1;
	/* one sender: gen0 - rut0; several: through the bridge. A lab of the other kind is
	 * taken apart first (rut0's peer is in the other place). */
	bool bridged = senders > 1;
	if (bridged != link_exists(rutns, BR_RUT)) {
		link_del(rutns, lab_ifs[1].ifname);
		link_del(rutns, BR_RUT);
		for (int k = 0; k < LAB_SENDERS_MAX; k++) {
			char swg[16];
			swg_name(k, swg);
			link_del(rutns, swg);
		}
		link_del(rutns, BRIDGE);
		link_del(gens[0], "gen0");
	}
	for (int k = senders; k < LAB_SENDERS_MAX; k++) {   /* senders no longer asked for */
		char swg[16];
		swg_name(k, swg);
		link_del(rutns, swg);
		if (k && proc_netns_exists(gens[k])) {
			xdp_detach(gens[k], "gen0", false);
			char *av[] = { "ip", "netns", "del", gens[k], NULL };
			run(NULL, av);
		}
	}
	if (bridged)
		rc = bridge_up(rutns, senders, o->queues, q, gens);
	else
		rc = veth_pair(gens[0], "gen0", rutns, lab_ifs[1].ifname, o->queues, q);
	if (rc || (rc = veth_pair(rutns, lab_ifs[2].ifname, ns[LAB_SINK], lab_ifs[3].ifname,
				  o->queues, q)))
		return rc;
	/* IPv6 forwarding in the router (the shield keeps the test frames from it unless
	 * it is off: a kernel-forwarding known answer) before its ports join the groups */
	if ((rc = proc_ns_write(rutns, "/proc/sys/net/ipv6/conf/all/forwarding", "1"))) {
		log_err("[%s] cannot turn IPv6 forwarding on: %s", rutns, strerror(-rc));
		return rc;
	}
	/* the VLAN of the router's ports: as asked, else what the lab has; another one's
	 * subinterfaces go first */
	int vnow = vlan_now(rutns);
	int vid = o->vlan > 0 ? o->vlan : o->vlan == LAB_VLAN_NONE ? 0 : vnow;
	for (int i = 1; i < 3; i++)
		if ((rc = vlan_del(rutns, lab_ifs[i].ifname, vnow, vid)))
			return rc;
	/* the devices that carry the router's addresses and neighbours: P or P.V */
	char rdev[4][16];
	bool said = false;   /* the emulation, said once */
	for (int i = 0; i < 4; i++)
		snprintf(rdev[i], sizeof(rdev[i]), "%s", lab_ifs[i].ifname);
	for (int i = 1; i < 4; i++) {
		const char *ins = ns[lab_ifs[i].role];
		if (lab_ifs[i].role == LAB_RUT && vid) {
			char hid[16];
			if ((rc = vlan_up(ins, i, vid, &said)))
				return rc;
			vlan_names(lab_ifs[i].ifname, vid, rdev[i], hid);
			continue;
		}
		if ((rc = set_if(ins, lab_ifs[i].ifname, lab_ifs[i].mac, lab_ifs[i].addr)) ||
		    (rc = if6_up(ins, lab_ifs[i].ifname, lab_ifs[i].addr6)))
			return rc;
	}
	/* permanent neighbours: each side of a link knows the other's MAC; routes from the
	 * ends through the router */
	for (int k = 0; k < senders; k++) {
		char ip[16], cidr[20], mac[18], ip6[24], cidr6[28];
		gen_addr(k, ip, cidr, mac);
		gen_addr6(k, ip6, cidr6);
		char *rg[] = { "ip", "-n", gens[k], "route", "replace", "198.19.0.0/24", "via",
			       "198.18.0.1", "dev", "gen0", NULL };
		char *rg6[] = { "ip", "-n", gens[k], "-6", "route", "replace", "2001:2:0:1::/64",
				"via", "2001:2::1", "dev", "gen0", NULL };
		if ((rc = set_if(gens[k], "gen0", mac, cidr)) ||
		    (rc = if6_up(gens[k], "gen0", cidr6)) ||
		    (rc = neigh(gens[k], lab_ifs[1].ip, lab_ifs[1].mac, "gen0")) ||
		    (rc = neigh(gens[k], lab_ifs[1].ip6, lab_ifs[1].mac, "gen0")) ||
		    (rc = neigh(rutns, ip, mac, rdev[1])) ||
		    (rc = neigh(rutns, ip6, mac, rdev[1])) || (rc = run(NULL, rg)) ||
		    (rc = run(NULL, rg6)))
			return rc;
	}
	char *rs[] = { "ip", "-n", ns[LAB_SINK], "route", "replace", "198.18.0.0/24", "via",
		       "198.19.0.1", "dev", "sink0", NULL };
	char *rs6[] = { "ip", "-n", ns[LAB_SINK], "-6", "route", "replace", "2001:2::/64", "via",
			"2001:2:0:1::1", "dev", "sink0", NULL };
	if ((rc = neigh(rutns, lab_ifs[3].ip, lab_ifs[3].mac, rdev[2])) ||
	    (rc = neigh(ns[LAB_SINK], lab_ifs[2].ip, lab_ifs[2].mac, lab_ifs[3].ifname)) ||
	    (rc = neigh(rutns, lab_ifs[3].ip6, lab_ifs[3].mac, rdev[2])) ||
	    (rc = neigh(ns[LAB_SINK], lab_ifs[2].ip6, lab_ifs[2].mac, lab_ifs[3].ifname)) ||
	    (rc = run(NULL, rs)) || (rc = run(NULL, rs6)))
		return rc;
	bool shield = o ? o->shield : true;
	for (int k = 0; k < senders; k++)
		if ((rc = shield_set(gens[k], LAB_GEN, shield, 0)))
			return rc;
	if ((rc = shield_set(rutns, LAB_RUT, shield, vid)) ||
	    (rc = shield_set(ns[LAB_SINK], LAB_SINK, shield, 0)))
		return rc;
	/* a tool killed while it had an xdp: port leaves its XDP program attached */
	for (int k = 0; k < senders; k++)
		xdp_detach(gens[k], "gen0", true);
	for (int i = 1; i < 4; i++)
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
	char gens[LAB_SENDERS_MAX][64];
	for (int k = 0; k < LAB_SENDERS_MAX; k++) {
		lab_gen_ns(name, k, gens[k], sizeof(gens[k]));
		if (proc_netns_exists(gens[k]))
			xdp_detach(gens[k], "gen0", false);
	}
	for (int i = 1; i < 4; i++) {
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
	for (int k = 1; k < LAB_SENDERS_MAX; k++) {
		if (!proc_netns_exists(gens[k]))
			continue;
		char *av[] = { "ip", "netns", "del", gens[k], NULL };
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
		int rc = shield_set(ns, (enum lab_role)r, on, r == LAB_RUT ? vlan_now(ns) : 0);
		for (int k = 1; !rc && r == LAB_GEN && k < LAB_SENDERS_MAX; k++) {
			lab_gen_ns(name, k, ns, sizeof(ns));
			if (proc_netns_exists(ns))
				rc = shield_set(ns, LAB_GEN, on, 0);
		}
		if (rc)
			return rc;
	}
	return 0;
}

static void problem(struct lab_status *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void problem(struct lab_status *st, const char *fmt, ...)
{
	st->complete = false;
	if (st->nproblems >= LAB_PROBLEMS_MAX)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->problem[st->nproblems++], sizeof(st->problem[0]), fmt, ap);
	va_end(ap);
}

/* `ip -n NS -j W1 W2 W3 W4 [W5]` as JSON, or NULL */
static json_t *ip_json(const char *ns, const char *w1, const char *w2, const char *w3,
		       const char *w4, const char *w5)
{
	char *av[] = { "ip", "-n", proc_arg(ns), "-j", proc_arg(w1), proc_arg(w2), proc_arg(w3),
		       proc_arg(w4), w5 ? proc_arg(w5) : NULL, NULL };
	char out[16384];
	struct proc_opts o = { .out = out, .outlen = sizeof(out), .quiet_err = 1,
			       .timeout_ns = 10 * NS_PER_S };
	return proc_run(av, &o) == 0 ? json_loads(out, 0, NULL) : NULL;
}

static bool has_flag(const json_t *link, const char *flag)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(link, "flags"), i, f)
		if (json_is_string(f) && !strcmp(json_string_value(f), flag))
			return true;
	return false;
}

/* An interface of the lab: there, up with a carrier, with its address (cidr; NULL: a
 * trunk port, whose addresses are its VLAN subinterface's). */
static bool if_check(struct lab_status *st, const char *ns, const char *ifname, const char *cidr)
{
	json_t *l = link_details(ns, ifname);
	json_t *li = json_array_get(l, 0);
	bool ok = false;
	if (!li)
		problem(st, "%s in %s is missing", ifname, ns);
	else if (!has_flag(li, "UP"))
		problem(st, "%s in %s is down", ifname, ns);
	else if (!has_flag(li, "LOWER_UP"))
		problem(st, "%s in %s has no carrier (the other end of its link is down)", ifname, ns);
	else
		ok = true;
	json_decref(l);
	if (!li || !cidr)
		return ok;
	char want[24];
	snprintf(want, sizeof(want), "%s", cidr);
	char *slash = strchr(want, '/');
	if (slash)
		*slash = 0;
	json_t *a = ip_json(ns, "addr", "show", "dev", ifname, NULL);
	bool addr = false;
	size_t i;
	json_t *ai;
	json_array_foreach(json_object_get(json_array_get(a, 0), "addr_info"), i, ai)
		addr |= json_is_string(json_object_get(ai, "local")) &&
			!strcmp(json_string_value(json_object_get(ai, "local")), want) &&
			json_integer_value(json_object_get(ai, "prefixlen")) == atoi(slash ? slash + 1 : "0");
	json_decref(a);
	if (!addr)
		problem(st, "%s in %s does not have its address %s", ifname, ns, cidr);
	return ok && addr;
}

/* A permanent neighbour entry: ip on dev is mac */
static void neigh_check(struct lab_status *st, const char *ns, const char *ip, const char *mac,
			const char *dev)
{
	json_t *n = ip_json(ns, "neigh", "show", ip, "dev", dev);
	json_t *e = json_array_get(n, 0);
	const char *ll = json_string_value(json_object_get(e, "lladdr"));
	bool perm = false;
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(e, "state"), i, s)
		perm |= json_is_string(s) && !strcmp(json_string_value(s), "PERMANENT");
	if (!e || !perm)
		problem(st, "no permanent neighbour %s (%s) on %s in %s: nothing is forwarded to it "
			"(taking a link down and up deletes these)", ip, mac, dev, ns);
	else if (!ll || strcasecmp(ll, mac))
		problem(st, "the neighbour %s on %s in %s is %s, not %s", ip, dev, ns, ll ? ll : "?",
			mac);
	json_decref(n);
}

/* The route from an end through the router */
static void route_check(struct lab_status *st, const char *ns, const char *dst, const char *via)
{
	json_t *r = ip_json(ns, strchr(dst, ':') ? "-6" : "-4", "route", "show", "exact", dst);
	const char *gw = json_string_value(json_object_get(json_array_get(r, 0), "gateway"));
	if (!gw || strcmp(gw, via))
		problem(st, "no route to %s via %s in %s", dst, via, ns);
	json_decref(r);
}

void lab_lock_path(const char *name, char *buf, int len)
{
	snprintf(buf, (size_t)len, LAB_LOCK_DIR "/lab-%s.lock", name);
}

bool lab_in_use(const char *name, char *who, int wholen)
{
	char path[128];
	lab_lock_path(name, path, sizeof(path));
	who[0] = 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool held = flock(fd, LOCK_SH | LOCK_NB) < 0;
	if (held) {
		ssize_t n = pread(fd, who, (size_t)wholen - 1, 0);
		who[n > 0 ? n : 0] = 0;
		who[strcspn(who, "\n")] = 0;
		for (char *c = who; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
				*c = '?';
	}
	close(fd);
	return held;
}

/* `ip netns pids NS`: the processes in a namespace */
static int ns_procs(const char *ns, struct lab_proc *out, int n, int max)
{
	char *av[] = { "ip", "netns", "pids", proc_arg(ns), NULL };
	char buf[8192];
	struct proc_opts o = { .out = buf, .outlen = sizeof(buf), .quiet_err = 1,
			       .timeout_ns = 10 * NS_PER_S };
	if (proc_run(av, &o) != 0)
		return n;
	for (char *p = buf, *e; *p && n < max; p = e) {
		long pid = strtol(p, &e, 10);
		if (e == p)
			break;
		while (*e == '\n' || *e == ' ')
			e++;
		char path[64], comm[32] = "";
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = 0;
		fclose(f);
		comm[strcspn(comm, "\n")] = 0;
		if (strcmp(comm, "ppslab-gen") && strcmp(comm, "ppslab-sink") &&
		    strcmp(comm, "ppslab-rut"))
			continue;
		out[n].pid = (int)pid;
		snprintf(out[n].comm, sizeof(out[n].comm), "%s", comm);
		snprintf(out[n].ns, sizeof(out[n].ns), "%s", ns);
		n++;
	}
	return n;
}

int lab_procs(const char *name, struct lab_proc *out, int max)
{
	if (lab_name_check(name))
		return -EINVAL;
	int n = 0;
	char ns[64];
	for (int r = LAB_RUT; r < LAB_ROLES; r++) {
		lab_ns_name(name, (enum lab_role)r, ns, sizeof(ns));
		if (proc_netns_exists(ns))
			n = ns_procs(ns, out, n, max);
	}
	for (int k = 0; k < LAB_SENDERS_MAX; k++) {
		lab_gen_ns(name, k, ns, sizeof(ns));
		if (proc_netns_exists(ns))
			n = ns_procs(ns, out, n, max);
	}
	return n;
}

int lab_status(const char *name, struct lab_status *st)
{
	char ns[LAB_ROLES][64];
	memset(st, 0, sizeof(*st));
	if (lab_name_check(name))
		return -EINVAL;
	st->complete = true;
	char rdev[4][16];
	for (int i = 0; i < 4; i++)
		snprintf(rdev[i], sizeof(rdev[i]), "%s", lab_ifs[i].ifname);
	lab_ns_name(name, LAB_RUT, ns[LAB_RUT], sizeof(ns[LAB_RUT]));
	st->vlan = proc_netns_exists(ns[LAB_RUT]) ? vlan_now(ns[LAB_RUT]) : 0;
	for (int r = 0; r < LAB_ROLES; r++) {
		lab_ns_name(name, (enum lab_role)r, ns[r], sizeof(ns[r]));
		st->ns[r] = proc_netns_exists(ns[r]);
		st->any |= st->ns[r];
		st->complete &= st->ns[r];
		if (st->ns[r] && !(st->shield[r] = shield_on(ns[r])))
			problem(st, "the shield of %s is off: its kernel also processes the test "
				"frames", ns[r]);
	}
	for (int i = 0; i < 4; i++) {
		const struct lab_if *l = &lab_ifs[i];
		if (!st->ns[l->role]) {
			st->complete = false;
			continue;
		}
		bool trunk = l->role == LAB_RUT && st->vlan;
		st->if_ok[i] = if_check(st, ns[l->role], l->ifname, trunk ? NULL : l->addr);
		st->queues[i] = link_queues(ns[l->role], l->ifname);
		if (trunk) {
			char hid[16];
			vlan_names(l->ifname, st->vlan, rdev[i], hid);
			st->if_ok[i] &= if_check(st, ns[l->role], rdev[i], l->addr);
			if (vlan_emulated(ns[l->role], rdev[i])) {
				st->vlan_emulated = true;
				if (!vlan_prog_on(ns[l->role], l->ifname))
					problem(st, "%s in %s has no VLAN %d program: its tagged frames do "
						"not reach %s", l->ifname, ns[l->role], st->vlan, rdev[i]);
				if (!vlan_prog_on(ns[l->role], hid))
					problem(st, "%s in %s has no VLAN %d program: what %s sends does "
						"not leave %s", hid, ns[l->role], st->vlan, rdev[i],
						l->ifname);
			}
		}
	}
	st->senders = st->ns[LAB_RUT] ? senders_now(name, ns[LAB_RUT]) : 1;
	st->gen_ok[0] = st->if_ok[0];
	for (int k = 1; k < st->senders; k++) {
		char gns[64], ip[16], cidr[20], mac[18];
		lab_gen_ns(name, k, gns, sizeof(gns));
		gen_addr(k, ip, cidr, mac);
		st->gen_ok[k] = proc_netns_exists(gns) && if_check(st, gns, "gen0", cidr);
		if (!st->gen_ok[k])
			st->complete = false;
		else if (!shield_on(gns))
			problem(st, "the shield of %s is off: its kernel also processes the test "
				"frames", gns);
	}
	/* what lab_up() sets on the links that are there: neighbours and routes */
	for (int k = 0; k < st->senders && st->ns[LAB_RUT]; k++) {
		char gns[64], ip[16], cidr[20], mac[18];
		lab_gen_ns(name, k, gns, sizeof(gns));
		gen_addr(k, ip, cidr, mac);
		if (!st->gen_ok[k])
			continue;
		neigh_check(st, gns, lab_ifs[1].ip, lab_ifs[1].mac, "gen0");
		neigh_check(st, gns, lab_ifs[1].ip6, lab_ifs[1].mac, "gen0");
		route_check(st, gns, "198.19.0.0/24", lab_ifs[1].ip);
		route_check(st, gns, "2001:2:0:1::/64", lab_ifs[1].ip6);
		if (st->if_ok[1]) {
			char ip6[24], cidr6[28];
			gen_addr6(k, ip6, cidr6);
			neigh_check(st, ns[LAB_RUT], ip, mac, rdev[1]);
			neigh_check(st, ns[LAB_RUT], ip6, mac, rdev[1]);
		}
	}
	if (st->if_ok[2] && st->if_ok[3]) {
		neigh_check(st, ns[LAB_RUT], lab_ifs[3].ip, lab_ifs[3].mac, rdev[2]);
		neigh_check(st, ns[LAB_SINK], lab_ifs[2].ip, lab_ifs[2].mac, lab_ifs[3].ifname);
		neigh_check(st, ns[LAB_RUT], lab_ifs[3].ip6, lab_ifs[3].mac, rdev[2]);
		neigh_check(st, ns[LAB_SINK], lab_ifs[2].ip6, lab_ifs[2].mac, lab_ifs[3].ifname);
		route_check(st, ns[LAB_SINK], "198.18.0.0/24", lab_ifs[2].ip);
		route_check(st, ns[LAB_SINK], "2001:2::/64", lab_ifs[2].ip6);
	}
	/* tools running in the lab are a run's (fine) or strays: a forwarder left by a
	 * runner killed with SIGKILL keeps the lab's ports and mixes into the next run */
	if (st->any && !lab_in_use(name, st->in_use, sizeof(st->in_use))) {
		struct lab_proc pr[LAB_PROCS_MAX];
		int n = lab_procs(name, pr, LAB_PROCS_MAX);
		for (int i = 0; i < n; i++)
			problem(st, "%s (pid %d) is running in %s with no run holding the lab: "
				"left by a run that was killed? (ppslab run --kill-strays stops it)",
				pr[i].comm, pr[i].pid, pr[i].ns);
	}
	return 0;
}
