/* SPDX-License-Identifier: BSD-2-Clause */
/* profile_topo.c — a profile's "topology" section (see profile_impl.h): the kind, the
 * boxes (one or a list of senders and sinks, the router's box), their ssh
 * destinations, interfaces, port specs, threads, CPUs and queues, the destinations and
 * next-hop MACs, and what the netns lab must provide. */
#include "profile_impl.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jpos.h"
#include "lab.h"

static const char *const topo_keys[] = { "kind", "lab", "gen", "rut", "sink", "dst", "dst_b",
					 "dst6", "dst6_b", "dst_mac", "dst_mac_b", "ssh_options",
					 NULL };
static const char *const topo_kinds[] = { "netns", "local", "ssh", NULL };
static const char *const host_keys[] = { "ssh", "netns", "iface", "bin", NULL };
static const char *const gen_keys[] = { "ssh", "netns", "iface", "bin", "port", "threads",
					"cpus", "queues", "dst", "dst6", NULL };
static const char *const sink_keys[] = { "ssh", "netns", "iface", "bin", "port", "threads",
					 "cpus", "queues", NULL };

/* An ssh destination: [user@]host, no spaces, no option-like leading '-'. */
static bool ssh_dest_ok(const char *s)
{
	if (!*s || s[0] == '-' || strlen(s) > 255)
		return false;
	const char *at = strchr(s, '@');
	if (at && (at == s || !at[1] || strchr(at + 1, '@') || at[1] == '-'))
		return false;
	for (; *s; s++) {
		char ch = *s;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || strchr("._-@:[]%", ch)))
			return false;
	}
	return true;
}

/* One interface name: 1..15 characters, no '/', ':', ',' or spaces, not starting with
 * '-' (len: how much of s is the name). */
static bool ifname_ok(const char *s, size_t len)
{
	if (len == 0 || len > 15 || s[0] == '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] == '/' || s[i] == ':' || s[i] == ',' || (unsigned char)s[i] <= ' ' ||
		    s[i] == 0x7f)
			return false;
	return true;
}

/* A port spec as the tools take it: [BACKEND:]TARGET[,KEY=VALUE...]. The interface name
 * is checked without the backend prefix and options ("xdp:enp65s0f0np0",
 * "xdp:gen0,queue=0"); udp: targets are addresses, not interface names. */
static bool port_spec_ok(const char *s)
{
	size_t n = strcspn(s, ",");
	const char *colon = memchr(s, ':', n);
	const char *t = s;
	if (colon) {
		if (colon == s)
			return false;
		for (const char *q = s; q < colon; q++)
			if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9')))
				return false;
		t = colon + 1;
	}
	size_t tl = n - (size_t)(t - s);
	if (colon && colon - s == 3 && !strncmp(s, "udp", 3)) {
		if (!tl)
			return false;
		for (size_t i = 0; i < tl; i++)
			if ((unsigned char)t[i] <= ' ')
				return false;
	} else if (!ifname_ok(t, tl)) {
		return false;
	}
	/* options: KEY=VALUE words */
	for (const char *o = s[n] ? s + n + 1 : NULL; o;) {
		size_t ol = strcspn(o, ",");
		const char *eq = memchr(o, '=', ol);
		if (!eq || eq == o || eq == o + ol - 1)
			return false;
		for (size_t i = 0; i < ol; i++)
			if ((unsigned char)o[i] <= ' ')
				return false;
		o = o[ol] ? o + ol + 1 : NULL;
	}
	return true;
}

/* The router's "IN,OUT" (two interface names), or a port spec of one box. */
static bool iface_ok(const char *s, bool pair)
{
	if (!pair)
		return port_spec_ok(s);
	const char *comma = strchr(s, ',');
	return comma && !strchr(comma + 1, ',') && ifname_ok(s, (size_t)(comma - s)) &&
	       ifname_ok(comma + 1, strlen(comma + 1));
}

/* One box: o (NULL: absent) at path; role "gen", "rut" or "sink"; idx its place in a
 * list of boxes (the netns default LAB-gen, LAB-gen2, ...). */
static void parse_host(struct vctx *c, json_t *o, const char *path, const char *role,
		       size_t idx, struct prof_host *h, enum prof_topo kind, const char *lab,
		       bool needed)
{
	char kp[128];
	const char *s;
	bool is_rut = !strcmp(role, "rut");

	if (prof_want_object(c, o, path))
		return;
	if (o)
		prof_check_keys(c, o, path, is_rut ? host_keys : !strcmp(role, "gen") ? gen_keys
											   : sink_keys);
	prof_get_str(c, o, "ssh", path, &s);
	/* an external router is only read (its environment), over ssh whatever the
	 * topology: the sender and sink may well be on this host */
	bool ext_ssh = is_rut && c->router_kind == PR_EXTERNAL;
	if (s) {
		jpos_path_key(kp, sizeof(kp), path, "ssh");
		if (kind != PT_SSH && !ext_ssh)
			prof_verr(c, kp, true, "ssh applies to topology kind \"ssh\" (and to an external "
				  "router's box)");
		else if (!ssh_dest_ok(s))
			prof_verr(c, kp, false,
				  "expected an ssh destination [user@]host (no spaces, not starting with '-'), got \"%.60s\"",
				  s);
		else
			h->ssh = prof_xstrdup(c, s);
	} else if (kind == PT_SSH && needed) {
		prof_verr(c, path, false, "topology kind \"ssh\" needs \"ssh\": \"user@host\" for the %s box",
			  role);
	}
	prof_get_str(c, o, "netns", path, &s);
	if (s && lab_name_check(s))
		prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "netns"), false,
			  "expected a namespace name ([A-Za-z0-9_.-], up to 24 characters), got \"%.60s\"", s);
	else if (s)
		h->netns = prof_xstrdup(c, s);
	else if (kind == PT_NETNS && !(ext_ssh && h->ssh)) {
		char ns[64];
		if (idx)
			snprintf(ns, sizeof(ns), "%s-%s%zu", lab, role, idx + 1);
		else
			snprintf(ns, sizeof(ns), "%s-%s", lab, role);
		h->netns = prof_xstrdup(c, ns);
	}
	prof_get_str(c, o, "iface", path, &s);
	/* an external router's ports are only described (environment), never opened */
	bool pair = is_rut && (c->router_kind == PR_RUT || (s && strchr(s, ',')));
	if (s && !iface_ok(s, pair)) {
		prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "iface"), false,
			  pair ? "expected the router's two ports \"IN,OUT\" (interface names of up to 15 characters), got \"%.60s\"" :
			     "expected an interface name (up to 15 characters, no spaces) or a port spec such as \"xdp:enp65s0f0np0\" or \"xdp:gen0,queue=0\", got \"%.60s\"",
		     s);
	} else if (s) {
		h->iface = prof_xstrdup(c, s);
	} else if (kind == PT_NETNS) {
		h->iface = prof_xstrdup(c, is_rut ? "rut0,rut1" : !strcmp(role, "gen") ? "gen0" : "sink0");
	} else if (needed) {
		prof_verr(c, path, false, "topology kind \"%s\" needs \"iface\" for the %s box%s",
			  kind == PT_SSH ? "ssh" : "local", role,
			  is_rut ? " (\"IN,OUT\": the router's two ports)" : "");
	}
	prof_get_str(c, o, "bin", path, &s);
	if (s && s[0] != '/')
		prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "bin"), false,
			  "expected an absolute directory, got \"%.60s\"", s);
	else if (s)
		h->bin = prof_xstrdup(c, s);
}

/* ---- sender and sink boxes: ports, threads, CPUs, queues ---------------------- */

/* The keys of each backend a profile's "port" may carry, and for which direction (the
 * backends' own tables in lib/port_*.c; the tools check the values' ranges again). */
enum pk_kind { PKV_U, PKV_01, PKV_ENUM };
struct port_key_spec {
	const char *backend, *key;
	unsigned dir;               /* 1 receive, 2 send */
	enum pk_kind kind;
	const char *names;          /* PKV_ENUM: "v2|v3" */
};
static const struct port_key_spec port_keys[] = {
	{ "afpacket", "ring", 1, PKV_ENUM, "v2|v3" },
	{ "afpacket", "frames", 3, PKV_U, NULL },
	{ "afpacket", "tov", 1, PKV_U, NULL },
	{ "afpacket", "bypass", 2, PKV_01, NULL },
	{ "afpacket", "promisc", 1, PKV_01, NULL },
	{ "afpacket", "linear", 2, PKV_01, NULL },
	{ "pcap", "promisc", 1, PKV_01, NULL },
	{ "xdp", "mode", 3, PKV_ENUM, "auto|copy|zc" },
	{ "xdp", "queue", 3, PKV_U, NULL },
	{ "xdp", "frames", 3, PKV_U, NULL },
	{ "xdp", "skb", 1, PKV_01, NULL },
	{ "xdp", "budget", 2, PKV_U, NULL },
};

static bool enum_has(const char *names, const char *v, size_t vl)
{
	for (const char *n = names; *n;) {
		size_t l = strcspn(n, "|");
		if (l == vl && !strncmp(n, v, l))
			return true;
		n += l + (n[l] == '|');
	}
	return false;
}

/* "port": BACKEND[,KEY=VALUE...] for a box of role gen (send) or sink (receive). Each
 * problem is said at path; returns the backend's length in s, 0 on error. */
static size_t check_port(struct vctx *c, const char *s, const char *path, bool send)
{
	static const char *const gen_be[] = { "afpacket", "xdp", "pcap", "libnet", NULL };
	static const char *const sink_be[] = { "afpacket", "xdp", "pcap", NULL };
	const char *const *be = send ? gen_be : sink_be;
	size_t bl = strcspn(s, ",");
	bool known = false;
	for (size_t i = 0; be[i]; i++)
		known |= strlen(be[i]) == bl && !strncmp(be[i], s, bl);
	if (!known) {
		char list[128];
		prof_names_list(be, list, sizeof(list));
		prof_verr(c, path, false, "expected a backend %s, optionally with its keys (\"xdp,mode=copy\"), "
			  "got \"%.*s\"%s", list, (int)(bl > 40 ? 40 : bl), s,
			  memchr(s, ':', bl) ? " (the interface goes into \"iface\")" : "");
		return 0;
	}
	bool ok = true;
	for (const char *o = s[bl] ? s + bl + 1 : NULL; o;) {
		size_t ol = strcspn(o, ","), kl = strcspn(o, "=");
		const struct port_key_spec *k = NULL;
		for (size_t i = 0; i < sizeof(port_keys) / sizeof(port_keys[0]); i++)
			if (strlen(port_keys[i].backend) == bl && !strncmp(port_keys[i].backend, s, bl) &&
			    kl < ol && strlen(port_keys[i].key) == kl && !strncmp(port_keys[i].key, o, kl))
				k = &port_keys[i];
		const char *v = o + kl + 1;
		size_t vl = kl < ol ? ol - kl - 1 : 0;
		bool vok = vl > 0 && k;
		if (vok && k->kind == PKV_ENUM)
			vok = enum_has(k->names, v, vl);
		else if (vok && k->kind == PKV_01)
			vok = vl == 1 && (*v == '0' || *v == '1');
		else if (vok)
			for (size_t i = 0; i < vl && vok; i++)
				vok = v[i] >= '0' && v[i] <= '9';
		if (kl >= ol || !vl) {
			prof_verr(c, path, false, "\"%.*s\": expected KEY=VALUE after the backend", (int)ol, o);
			ok = false;
		} else if (!k) {
			char list[160] = "";
			size_t n = 0;
			for (size_t i = 0; i < sizeof(port_keys) / sizeof(port_keys[0]); i++)
				if (strlen(port_keys[i].backend) == bl &&
				    !strncmp(port_keys[i].backend, s, bl) && n < sizeof(list))
					n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
							      n ? ", " : "", port_keys[i].key);
			prof_verr(c, path, false, "%.*s has no key \"%.*s\"%s%s", (int)bl, s, (int)kl, o,
				  n ? "; its keys: " : "", list);
			ok = false;
		} else if (!(k->dir & (send ? 2 : 1))) {
			prof_verr(c, path, false, "%.*s's %s applies to a port that %s, not to a %s's",
				  (int)bl, s, k->key, send ? "receives" : "sends", send ? "sender" : "sink");
			ok = false;
		} else if (!vok) {
			prof_verr(c, path, false, "%.*s's %s=%.*s: expected %s", (int)bl, s, k->key,
				  (int)(vl > 40 ? 40 : vl), v,
				  k->kind == PKV_ENUM ? k->names : k->kind == PKV_01 ? "0 or 1"
									    : "a whole number");
			ok = false;
		}
		o = o[ol] ? o + ol + 1 : NULL;
	}
	return ok ? bl : 0;
}

/* "cpus": a list of CPU numbers, [0, 1] or "0,1", into "0,1". */
static char *parse_cpus(struct vctx *c, const json_t *v, const char *path)
{
	char gbuf[128], buf[400] = "";
	size_t n = 0, k = 0;
	bool ok = true;
	if (json_is_array(v)) {
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e) {
			if (!json_is_integer(e) || json_integer_value(e) < 0 ||
			    json_integer_value(e) > 1023) {
				char ip[512];
				prof_verr(c, jpos_path_idx(ip, sizeof(ip), path, i), false,
					  "expected a CPU number 0..1023, got %s", GOT(e));
				ok = false;
				continue;
			}
			n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0, "%s%lld",
					      k++ ? "," : "", (long long)json_integer_value(e));
		}
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		for (const char *q = s; ok && *q;) {
			size_t l = strcspn(q, ",");
			char *end;
			long x = l && q[0] >= '0' && q[0] <= '9' ? strtol(q, &end, 10) : -1;
			ok = x >= 0 && x <= 1023 && end == q + l;
			if (ok)
				n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0,
						      "%s%ld", k++ ? "," : "", x);
			q += l;
			if (*q == ',' && !*++q)
				ok = false;
		}
		if (!ok)
			prof_verr(c, path, false, "expected a list of CPU numbers 0..1023, [0, 1] or \"0,1\", got %s",
				  GOT(v));
	} else {
		prof_verr(c, path, false, "expected a list of CPU numbers 0..1023, [0, 1] or \"0,1\", got %s",
			  GOT(v));
		ok = false;
	}
	if (ok && (k == 0 || k > 64)) {
		prof_verr(c, path, false, "expected 1..64 CPU numbers, got %zu", k);
		ok = false;
	}
	return ok && n < sizeof(buf) ? prof_xstrdup(c, buf) : NULL;
}

/* The keys only sender and sink boxes have (after parse_host did the common ones):
 * h->spec from iface and port, threads, cpus, queues and a sender's dst. */
static void parse_box_port(struct vctx *c, json_t *o, const char *path, bool send,
			   struct prof_host *h, enum prof_topo kind)
{
	char kp[512];
	const char *port;
	long long n;
	h->threads = 1;
	if (prof_get_str(c, o, "port", path, &port))
		port = NULL;
	size_t bl = port ? check_port(c, port, jpos_path_key(kp, sizeof(kp), path, "port"), send)
			 : 0;
	const char *ifs = h->iface;
	const char *colon = ifs ? strchr(ifs, ':') : NULL;
	bool named = colon && (size_t)(colon - ifs) < strcspn(ifs, ",");
	if (port && named) {
		prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "port"), true,
			  "iface \"%.60s\" names its backend already: give it once (\"iface\": \"%.*s\" "
			  "with \"port\", or the whole spec in \"iface\")", ifs, (int)strcspn(colon + 1, ","),
			  colon + 1);
	} else if (ifs && bl) {
		char spec[512];
		snprintf(spec, sizeof(spec), "%.*s:%s%s", (int)bl, port, ifs, port + bl);
		h->spec = prof_xstrdup(c, spec);
		h->backend = strndup(port, bl);
	} else if (ifs) {
		h->spec = prof_xstrdup(c, ifs);
		h->backend = named ? strndup(ifs, (size_t)(colon - ifs)) : strdup("afpacket");
	}
	if (h->spec && !h->backend)
		c->oom = 1;
	if (!prof_get_int(c, o, "threads", path, 1, send ? 64 : 16, 1, &n))
		h->threads = (unsigned)n;
	if (h->backend && !send && h->threads > 1 && strcmp(h->backend, "afpacket") &&
	    strcmp(h->backend, "xdp"))
		prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "threads"), false,
			  "a sink's threads share its port through an afpacket fanout or an xdp: queue "
			  "each; a %s port takes one thread", h->backend);
	const json_t *cv = json_object_get(o, "cpus");
	if (cv)
		h->cpus = parse_cpus(c, cv, jpos_path_key(kp, sizeof(kp), path, "cpus"));
	const json_t *qv = json_object_get(o, "queues");
	if (qv && kind != PT_NETNS)
		prof_verr(c, jpos_path_key(kp, sizeof(kp), path, "queues"), true,
			  "queues applies to topology kind \"netns\" (the lab's veths); a NIC's queues are "
			  "set on its box (ethtool -L)");
	else if (!prof_get_int(c, o, "queues", path, 1, LAB_QUEUES_MAX, 0, &n))
		h->queues = (unsigned)n;
}

/* A destination: IPv4 in 198.18.0.0/15 (RFC 2544 section 12, RFC 6815), or with six
 * an IPv6 one in 2001:2::/48 (RFC 5180), unless the profile allows any. */
static void parse_dst(struct vctx *c, json_t *o, const char *path, const char *key,
		      const char *def, bool six, char **out)
{
	const char *s;
	char kp[512];
	unsigned char a[16];
	prof_get_str(c, o, key, path, &s);
	if (!s)
		s = def;
	jpos_path_key(kp, sizeof(kp), path, key);
	if (inet_pton(six ? AF_INET6 : AF_INET, s, a) != 1) {
		prof_verr(c, kp, false, "expected an IPv%d address, got \"%.60s\"", six ? 6 : 4, s);
		return;
	}
	bool in = six ? a[0] == 0x20 && a[1] == 0x01 && a[2] == 0 && a[3] == 2 && !a[4] && !a[5]
		      : a[0] == 198 && (a[1] & 0xFE) == 18;
	if (!in && !c->allow_any_dst) {
		prof_verr(c, kp, false,
			  "%s is outside the benchmarking range %s; set \"allow_any_dst\": true at the top level if this isolated lab really uses it",
			  s, six ? "2001:2::/48 (RFC 5180)" : "198.18.0.0/15 (RFC 2544, RFC 6815)");
		return;
	}
	*out = prof_xstrdup(c, s);
}

/* A next-hop MAC, "aa:bb:cc:dd:ee:ff": the senders use it instead of a route and
 * neighbour lookup (portable senders have neither). */
static void parse_mac(struct vctx *c, json_t *o, const char *key, char **out)
{
	const char *s;
	char kp[64];
	unsigned b[6];
	char tail;
	prof_get_str(c, o, key, "topology", &s);
	if (!s)
		return;
	jpos_path_key(kp, sizeof(kp), "topology", key);
	bool hex = strlen(s) == 17;
	for (size_t i = 0; hex && i < 17; i++)
		hex = i % 3 == 2 ? s[i] == ':' : isxdigit((unsigned char)s[i]) != 0;
	if (!hex || sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
				      &b[4], &b[5], &tail) != 6 ||
	    s[2] != ':' || s[5] != ':' || s[8] != ':' || s[11] != ':' || s[14] != ':') {
		prof_verr(c, kp, false, "expected a MAC address aa:bb:cc:dd:ee:ff, got \"%.60s\"", s);
		return;
	}
	if (b[0] & 1) {
		prof_verr(c, kp, false, "%s is a multicast or broadcast address, not a router's port", s);
		return;
	}
	*out = prof_xstrdup(c, s);
}

/* topology.gen or topology.sink: one box (an object, or absent: the defaults) or a list
 * of 1..PROF_BOXES_MAX. Returns how many went into *out (at least one, unless memory
 * ran out). */
static size_t parse_boxes(struct vctx *c, json_t *topo, const char *role,
			  struct prof_topology *t, const char *lab, struct prof_host **out)
{
	char path[64], ip[96];
	json_t *v = topo ? json_object_get(topo, role) : NULL;
	bool send = !strcmp(role, "gen"), list = json_is_array(v);
	size_t n = list ? json_array_size(v) : 1;
	snprintf(path, sizeof(path), "topology.%s", role);
	if (list && (n == 0 || n > PROF_BOXES_MAX)) {
		prof_verr(c, path, false, "expected 1..%d %s boxes, got %zu", PROF_BOXES_MAX,
			  send ? "sender" : "sink", n);
		n = n ? PROF_BOXES_MAX : 1;
	}
	if (list && !send && n > 1 && t->kind == PT_NETNS)
		prof_verr(c, path, false, "the lab has one sink namespace: several sinks need topology "
			  "kind \"local\" or \"ssh\"");
	*out = calloc(n, sizeof(**out));
	if (!*out) {
		c->oom = 1;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		struct prof_host *h = &(*out)[i];
		json_t *o = list ? json_array_get(v, i) : v;
		const char *bp = list ? jpos_path_idx(ip, sizeof(ip), path, i) : path;
		char name[32];
		if (i)
			snprintf(name, sizeof(name), "%s%zu", role, i + 1);
		else
			snprintf(name, sizeof(name), "%s", role);
		h->name = prof_xstrdup(c, name);
		parse_host(c, o, bp, role, i, h, t->kind, lab, true);
		if (!json_is_object(o))
			o = NULL;
		parse_box_port(c, o, bp, send, h, t->kind);
		if (send) {
			parse_dst(c, o, bp, "dst", t->dst ? t->dst : "198.19.0.2", false, &h->dst);
			parse_dst(c, o, bp, "dst6", t->dst6 ? t->dst6 : "2001:2:0:1::2", true,
				  &h->dst6);
			h->stream = i ? (int)i + 2 : 1;   /* 2 is blast B's */
		}
	}
	return n;
}

/* The lab's sender namespaces and queues, and an xdp: sink's threads there: one per
 * queue, or frames on the queues it does not read would count as lost. */
static void lab_needs(struct vctx *c, json_t *topo, struct prof_topology *t)
{
	if (t->kind != PT_NETNS || !t->ngens || !t->nsinks)
		return;
	unsigned q = 1;
	struct prof_host *all[2 * PROF_BOXES_MAX];
	size_t na = 0;
	for (size_t i = 0; i < t->ngens; i++)
		all[na++] = &t->gens[i];
	for (size_t i = 0; i < t->nsinks; i++)
		all[na++] = &t->sinks[i];
	for (size_t i = 0; i < na; i++) {
		unsigned need = all[i]->queues > all[i]->threads ? all[i]->queues : all[i]->threads;
		if (need > q)
			q = need;
	}
	t->lab_senders = (unsigned)t->ngens;
	t->lab_queues = q > LAB_QUEUES_MAX ? LAB_QUEUES_MAX : q;
	struct prof_host *k = &t->sinks[0];
	if (!k->backend || strcmp(k->backend, "xdp") || (k->spec && strstr(k->spec, "queue=")))
		return;
	json_t *so = json_object_get(topo, "sink");
	bool given = json_is_object(so) && json_object_get(so, "threads");
	char kp[128];
	if (given && k->threads < t->lab_queues)
		prof_verr(c, jpos_path_key(kp, sizeof(kp), "topology.sink", "threads"), false,
			  "an xdp: sink reads one queue per thread, and the lab's veths get %u queues (the "
			  "largest threads or queues of a box): give it threads %u", t->lab_queues,
			  t->lab_queues);
	else if (!given && t->lab_queues > 16)
		prof_verr(c, "topology.sink", false, "an xdp: sink reads one queue per thread, at most 16, "
			  "and the lab's veths get %u queues", t->lab_queues);
	else if (!given)
		k->threads = t->lab_queues;
}

/* Blast B goes from the sink box back to the sender box: one of each. */
static void no_bi(struct vctx *c, json_t *root)
{
	char ip[128];
	const json_t *m = json_object_get(json_object_get(root, "matrix"), "direction");
	const json_t *pv = json_object_get(json_object_get(root, "params"), "direction");
	size_t i;
	json_t *v;
	json_array_foreach(m, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), "bi"))
			prof_verr(c, jpos_path_idx(ip, sizeof(ip), "matrix.direction", i), false,
				  "bidirectional cells need one sender and one sink box (blast B goes from "
				  "the sink box back to the sender box); the topology lists several");
	if (json_is_string(pv) && !strcmp(json_string_value(pv), "bi"))
		prof_verr(c, "params.direction", false, "bidirectional cells need one sender and one sink "
			  "box (blast B goes from the sink box back to the sender box); the topology "
			  "lists several");
}

void prof_parse_topology(struct vctx *c, json_t *root, struct profile *p)
{
	struct prof_topology *t = &p->topo;
	json_t *o = json_object_get(root, "topology");
	const char *lab = NULL;
	int e;

	if (prof_want_object(c, o, "topology"))
		o = NULL;
	if (o)
		prof_check_keys(c, o, "topology", topo_keys);
	if (!prof_get_enum(c, o, "kind", "topology", topo_kinds, PT_NETNS, &e))
		t->kind = (enum prof_topo)e;
	prof_get_str(c, o, "lab", "topology", &lab);
	if (lab && t->kind != PT_NETNS) {
		prof_verr(c, "topology.lab", true, "lab applies to topology kind \"netns\"");
	} else if (lab && lab_name_check(lab)) {
		prof_verr(c, "topology.lab", false,
			  "expected a lab name ([A-Za-z0-9_.-], 1..24 characters, not starting with '-' or '.'), got \"%.60s\"",
			  lab);
		lab = NULL;
	}
	if (t->kind == PT_NETNS)
		t->lab = prof_xstrdup(c, lab ? lab : "ppslab");
	const char *l = t->lab ? t->lab : "ppslab";
	parse_dst(c, o, "topology", "dst", "198.19.0.2", false, &t->dst);
	parse_dst(c, o, "topology", "dst_b", "198.18.0.2", false, &t->dst_b);
	parse_dst(c, o, "topology", "dst6", "2001:2:0:1::2", true, &t->dst6);
	parse_dst(c, o, "topology", "dst6_b", "2001:2::2", true, &t->dst6_b);
	t->ngens = parse_boxes(c, o, "gen", t, l, &t->gens);
	parse_host(c, o ? json_object_get(o, "rut") : NULL, "topology.rut", "rut", 0, &t->rut,
		   t->kind, l, p->router.kind == PR_RUT);
	t->rut.name = prof_xstrdup(c, "rut");
	t->nsinks = parse_boxes(c, o, "sink", t, l, &t->sinks);
	lab_needs(c, o, t);
	if (t->ngens > 1 || t->nsinks > 1)
		no_bi(c, root);
	parse_mac(c, o, "dst_mac", &t->dst_mac);
	parse_mac(c, o, "dst_mac_b", &t->dst_mac_b);
	json_t *so = o ? json_object_get(o, "ssh_options") : NULL;
	if (so && t->kind != PT_SSH && p->router.kind != PR_EXTERNAL) {
		prof_verr(c, "topology.ssh_options", true, "ssh_options applies to topology kind \"ssh\" "
			  "(and to an external router's hooks)");
	} else if (so) {
		prof_check_argv(c, so, "topology.ssh_options", PH_NONE);
		t->ssh_options = json_incref(so);
	}
}
