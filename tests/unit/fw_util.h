/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_util.h — helpers shared by the firewall unit tests (t_fw_*.c): a firewall with
 * the ports em0, em1, rut0, rut1 and the local addresses 10.0.0.254 and 198.18.0.1,
 * ipfw commands that must succeed or fail, and packets built from text. */
#ifndef PPSLAB_TESTS_UNIT_FW_UTIL_H
#define PPSLAB_TESTS_UNIT_FW_UTIL_H

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"
#include "tap.h"

enum { EM0, EM1, RUT0, RUT1 };

static inline uint32_t ip4(const char *s)
{
	struct in_addr a;
	if (inet_pton(AF_INET, s, &a) != 1)
		abort();
	return a.s_addr;
}

static inline struct fw *fw_mk(void)
{
	static const char *const ifs[] = { "em0", "em1", "rut0", "rut1" };
	uint32_t local[] = { ip4("10.0.0.254"), ip4("198.18.0.1") };
	struct fw *fw = fw_new(ifs, 4, local, 2);
	uint32_t ifaddr[] = { ip4("10.0.0.254"), ip4("10.1.0.254"), ip4("198.18.0.1"), 0 };
	fw_set_if_addrs(fw, ifaddr, 4);
	return fw;
}

static __attribute__((unused)) char fw_outbuf[1 << 20];
static __attribute__((unused)) struct fw_diag fw_d;

/* The output of the last command (through a function, so that the compiler does not
 * warn about the 1 MiB buffer in tap.h's 512-byte messages) */
static __attribute__((noinline, unused)) const char *fw_out(void)
{
	return fw_outbuf;
}

/* Runs a command; returns its return code, output in fw_outbuf, diagnostics in fw_d. */
static inline int fw_run(struct fw *fw, const char *cmd)
{
	memset(&fw_d, 0, sizeof(fw_d));
	return fw_exec(fw, cmd, fw_outbuf, sizeof(fw_outbuf), &fw_d);
}

/* Multi-line text compared line by line; a failure names the first differing line
 * (tap.h's T_STREQ would print, and warn about, the whole of both). */
static inline int fw_text_diff(const char *g, const char *w, const char **gl, const char **wl)
{
	int line = 1;
	*gl = g;
	*wl = w;
	for (; *g && *g == *w; g++, w++)
		if (*g == '\n') {
			line++;
			*gl = g + 1;
			*wl = w + 1;
		}
	return *g == *w ? 0 : line;
}

#define FW_TEXT(got, want)                                                             \
	do {                                                                           \
		const char *_gl, *_wl;                                                 \
		int _l = fw_text_diff((got), (want), &_gl, &_wl);                      \
		if (_l)                                                                \
			T_FAIL("line %d is '%.*s', expected '%.*s'", _l,               \
			       (int)(strcspn(_gl, "\n") < 150 ? strcspn(_gl, "\n") : 150), _gl, \
			       (int)(strcspn(_wl, "\n") < 150 ? strcspn(_wl, "\n") : 150), _wl); \
	} while (0)

/* A command that must succeed */
#define FW_OK(fw, cmd)                                                                 \
	do {                                                                           \
		int _rc = fw_run((fw), (cmd));                                         \
		if (_rc)                                                               \
			T_FAIL("'%.150s' failed (%d): %.200s", (cmd), _rc, fw_d.msg);  \
	} while (0)

/* The listing of the rule added by `add` (its echo, without the newline) */
static inline const char *fw_echo(struct fw *fw, const char *add)
{
	static char buf[4096];
	if (fw_run(fw, add)) {
		snprintf(buf, sizeof(buf), "ERROR %d:%s", fw_d.col, fw_d.msg);
		return buf;
	}
	size_t n = strcspn(fw_outbuf, "\n");
	n = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
	memcpy(buf, fw_outbuf, n);
	buf[n] = '\0';
	return buf;
}

/* "tcp 1.2.3.4:1000 5.6.7.8:80"; ports ignored for non-port protocols; frag: offset != 0 */
static inline struct fw_pkt fw_pk(int proto, const char *src, int sport, const char *dst,
				  int dport)
{
	struct fw_pkt p = { 0 };
	p.proto = (uint8_t)proto;
	p.src = ip4(src);
	p.dst = ip4(dst);
	p.sport = (uint16_t)sport;
	p.dport = (uint16_t)dport;
	p.has_ports = proto == 6 || proto == 17 || proto == 132 || proto == 136;
	p.ip_len = 100;
	p.l4_len = 80;     /* a 20-byte IP header: room for any transport header */
	p.ttl = 64;
	p.in = true;
	p.recv_if = EM0;
	p.xmit_if = -1;
	return p;
}

/* the pass of a forwarded packet: inbound on rif, or outbound from rif to xif */
static inline struct fw_pkt fw_pass(struct fw_pkt p, bool in, int rif, int xif)
{
	p.in = in;
	p.recv_if = rif;
	p.xmit_if = in ? -1 : xif;
	return p;
}

static inline const char *fw_path(const char *rel)
{
	static char buf[4096];
	const char *top = getenv("PPSLAB_TOP");
	snprintf(buf, sizeof(buf), "%s/%s", top ? top : ".", rel);
	return buf;
}

#endif
