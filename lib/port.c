/* SPDX-License-Identifier: BSD-2-Clause */
/* port.c — spec parsing and dispatch to the backends (see port.h). The per-burst cost
 * of the indirection is one function-pointer call. */
#include "port_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct port_ops *const backends[] = {
#if defined(__linux__) && !defined(PPSLAB_PORTABLE)
	&port_afpacket_ops,
#endif
	&port_pcap_ops,
	&port_udp_ops,
#ifndef PPSLAB_PORTABLE
	&port_xdp_ops,   /* without libxdp at build time: opening it explains that */
#endif
	&port_libnet_ops,
};

/* Backends this build leaves out on purpose: named in the error when asked for. */
static const char *const left_out[] = {
#if !defined(__linux__) || defined(PPSLAB_PORTABLE)
	"afpacket",
#endif
#ifdef PPSLAB_PORTABLE
	"xdp",
#endif
	NULL,
};

/* The "unknown port backend" message, or why a known one is not in this build. */
static void unknown_backend(const char *name, size_t len, char *err, size_t errlen);

/* " afpacket pcap udp xdp": the backends this build knows, for error messages. */
static const char *backend_list(char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]) && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, " %s", backends[i]->name);
	return buf;
}

static void unknown_backend(const char *name, size_t len, char *err, size_t errlen)
{
	char have[64];
	backend_list(have, sizeof(have));
	for (int i = 0; left_out[i]; i++)
		if (strlen(left_out[i]) == len && !strncmp(left_out[i], name, len)) {
			snprintf(err, errlen, "port backend '%s' is Linux-only and not in this "
#ifdef PPSLAB_PORTABLE
				 "PORTABLE "
#endif
				 "build (have:%s)", left_out[i], have);
			return;
		}
	snprintf(err, errlen, "unknown port backend '%.*s' (have:%s)", (int)len, name, have);
}

const char *port_kv_get(const struct port_kv *kv, int nkv, const char *key)
{
	for (int i = 0; i < nkv; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].val;
	return NULL;
}

int port_opt_err(const struct port *p, char *err, size_t errlen, const char *fmt, ...)
{
	/* the spec without its options: the options are what the message is about */
	int n = snprintf(err, errlen, "%.*s: ", (int)strcspn(p->spec, ","), p->spec);
	if (n >= 0 && (size_t)n < errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int port_kv_check(const struct port *p, const struct port_kv *kv, int nkv,
		  const struct port_key *keys, char *err, size_t errlen)
{
	static const char *const dirs[] = { "", "receiving", "sending", "" };
	for (int i = 0; i < nkv; i++) {
		const struct port_key *k = keys;
		while (k->name && strcmp(k->name, kv[i].key))
			k++;
		if (!k->name) {
			char have[128] = "";
			size_t o = 0;
			for (k = keys; k->name && o < sizeof(have); k++)
				o += (size_t)snprintf(have + o, sizeof(have) - o, "%s%s",
						      k == keys ? "" : ", ", k->name);
			return port_opt_err(p, err, errlen, "unknown port option '%s' (%s: takes %s)",
					    kv[i].key, p->ops->name, o ? have : "no options");
		}
		for (int j = 0; j < i; j++)
			if (!strcmp(kv[j].key, kv[i].key))
				return port_opt_err(p, err, errlen, "port option '%s' given twice",
						    kv[i].key);
		if (!(k->dir & p->cfg.dir))
			return port_opt_err(p, err, errlen, "%s=%s: only for %s ports, and this one "
					    "is only %s", kv[i].key, kv[i].val, dirs[k->dir & 3],
					    dirs[p->cfg.dir & 3]);
	}
	return 0;
}

int port_kv_bool(const struct port *p, const struct port_kv *kv, int nkv, const char *key,
		 int *out, char *err, size_t errlen)
{
	const char *v = port_kv_get(kv, nkv, key);
	if (!v)
		return 0;
	if (strcmp(v, "0") && strcmp(v, "1"))
		return port_opt_err(p, err, errlen, "%s=%s: expected 0 or 1", key, v);
	*out = v[0] == '1';
	return 0;
}

enum port_txe port_tx_errclass(int e)
{
	if (e == EAGAIN || e == EWOULDBLOCK || e == ENOBUFS || e == EINTR)
		return PORT_TXE_FULL;
	if (e == ENETDOWN || e == ENXIO)
		return PORT_TXE_LINK;
	return PORT_TXE_BAD;
}

void port_link_wait(void)
{
	struct timespec ts = { 0, PORT_LINK_WAIT_US * 1000L };
	nanosleep(&ts, NULL);
}

char *port_specs_help(unsigned dir, int l2_only, char *buf, size_t len)
{
	const struct port_ops *ok[8];
	size_t n = 0, o = 0;
	/* Ethernet backends first, then udp: */
	for (int l4 = 0; l4 < 2; l4++)
		for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]) && n < 8; i++) {
			const struct port_ops *b = backends[i];
			if (b->unavailable || (b->dirs & dir) != dir || b->l4 != l4 || (l4 && l2_only))
				continue;
			ok[n++] = b;
		}
	buf[0] = 0;
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s:%s", i == 0 ? "" : i + 1 == n ? " or " :
				      ", ", ok[i]->name, ok[i]->l4 ? "ADDR:PORT" : "IF");
	if (o < len && n && !backends[0]->unavailable && (backends[0]->dirs & dir) == dir)
		snprintf(buf + o, len - o, "; IF alone is %s:IF", backends[0]->name);
	return buf;
}

int port_spec_parse(const char *spec, char backend[16], char target[64], char *err,
		    size_t errlen)
{
	size_t n = spec ? strcspn(spec, ",") : 0;
	const char *colon = spec ? memchr(spec, ':', n) : NULL;
	const struct port_ops *ops = colon ? NULL : backends[0];
	if (!n || n >= 64) {
		snprintf(err, errlen, "empty or too long port spec");
		return -EINVAL;
	}
	if (colon) {
		for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
			if (strlen(backends[i]->name) == (size_t)(colon - spec) &&
			    !strncmp(backends[i]->name, spec, (size_t)(colon - spec)))
				ops = backends[i];
		if (!ops) {
			unknown_backend(spec, (size_t)(colon - spec), err, errlen);
			return -EINVAL;
		}
	}
	const char *t = colon ? colon + 1 : spec;
	size_t tl = n - (size_t)(t - spec);
	if (!tl) {
		snprintf(err, errlen, "port spec '%s' names no interface or address", spec);
		return -EINVAL;
	}
	snprintf(backend, 16, "%s", ops->name);
	snprintf(target, 64, "%.*s", (int)tl, t);
	return 0;
}

int port_open(const char *spec, const struct port_cfg *cfg, struct port **out, char *err,
	      size_t errlen)
{
	char buf[160], *target, *opts;
	const struct port_ops *ops = NULL;
	struct port_kv kv[PORT_MAX_KV];
	int nkv = 0;

	if (!spec || !*spec || strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "empty or too long port spec");
		return -EINVAL;
	}
	strcpy(buf, spec);
	opts = strchr(buf, ',');
	if (opts)
		*opts++ = 0;
	char *colon = strchr(buf, ':');
	if (colon) {
		*colon = 0;
		target = colon + 1;
		for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
			if (!strcmp(backends[i]->name, buf))
				ops = backends[i];
		if (!ops) {
			unknown_backend(buf, strlen(buf), err, errlen);
			return -EINVAL;
		}
	} else {
		target = buf;
		ops = backends[0];
	}
	if (!*target) {
		snprintf(err, errlen, "port spec '%s' names no interface or address", spec);
		return -EINVAL;
	}
	while (opts && *opts) {
		char *next = strchr(opts, ',');
		if (next)
			*next++ = 0;
		char *eq = strchr(opts, '=');
		if (!eq || nkv == PORT_MAX_KV || strlen(opts) >= sizeof(kv[0].key) + sizeof(kv[0].val)) {
			snprintf(err, errlen, "bad port option '%s' (want key=value)", opts);
			return -EINVAL;
		}
		*eq = 0;
		if (strlen(opts) >= sizeof(kv[0].key) || strlen(eq + 1) >= sizeof(kv[0].val)) {
			snprintf(err, errlen, "port option '%s' too long", opts);
			return -EINVAL;
		}
		strcpy(kv[nkv].key, opts);
		strcpy(kv[nkv].val, eq + 1);
		nkv++;
		opts = next;
	}

	struct port *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->ops = ops;
	p->cfg = *cfg;
	if (!p->cfg.frame_max)
		p->cfg.frame_max = 1514;
	snprintf(p->spec, sizeof(p->spec), "%s", spec);
	int rc = ops->open(p, target, kv, nkv, err, errlen);
	if (rc) {
		free(p);
		return rc;
	}
	*out = p;
	return 0;
}

int port_rx_burst(struct port *p, struct port_pkt *pkts, int max)
{
	return p->ops->rx_burst(p, pkts, max);
}

int port_tx_burst(struct port *p, const struct port_pkt *pkts, int n)
{
	return p->ops->tx_burst(p, pkts, n);
}

int port_rx_open(struct port *p)
{
	return p->ops->rx_open ? p->ops->rx_open(p) : 0;
}

int port_fwd_burst(struct port *p, const struct port_pkt *pkts, int n)
{
	return p->ops->fwd_burst ? p->ops->fwd_burst(p, pkts, n) : p->ops->tx_burst(p, pkts, n);
}

void port_flush(struct port *p)
{
	if (p->ops->flush)
		p->ops->flush(p);
}

int port_fd(const struct port *p)
{
	return p->ops->fd(p);
}

int port_stats(struct port *p, struct port_stats *st)
{
	if (p->ops->poll_stats)
		p->ops->poll_stats(p);
	*st = p->st;
	return 0;
}

enum port_layer port_layer(const struct port *p)
{
	return p->layer;
}

const char *port_backend(const struct port *p)
{
	return p->ops->name;
}

const char *port_ifname(const struct port *p)
{
	return p->ifname;
}

const char *port_spec(const struct port *p)
{
	return p->spec;
}

void port_close(struct port *p)
{
	if (!p)
		return;
	p->ops->close(p);
	free(p);
}
