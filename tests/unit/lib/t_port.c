/* SPDX-License-Identifier: BSD-2-Clause */
/* t_port.c — the port layer's shared rules, without root or sockets: how a send error
 * is classed (a link that is down is backpressure, a bad frame fails, in every
 * backend alike), and port options refused before anything is opened, with the port,
 * the key and what it takes in the message. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "port_impl.h"
#include "tap.h"

static void t_errclass(void)
{
	T_EQ_INT(port_tx_errclass(EAGAIN), PORT_TXE_FULL);
	T_EQ_INT(port_tx_errclass(ENOBUFS), PORT_TXE_FULL);
	T_EQ_INT(port_tx_errclass(EINTR), PORT_TXE_FULL);
	T_EQ_INT(port_tx_errclass(ENETDOWN), PORT_TXE_LINK);
	T_EQ_INT(port_tx_errclass(ENXIO), PORT_TXE_LINK);
	T_EQ_INT(port_tx_errclass(EMSGSIZE), PORT_TXE_BAD);
	T_EQ_INT(port_tx_errclass(EINVAL), PORT_TXE_BAD);
}

/* port_open's error for spec opened in direction dir, "" if it opened */
static const char *open_err(const char *spec, unsigned dir)
{
	static char err[256];
	struct port_cfg cfg = { .dir = dir };
	struct port *p = NULL;
	err[0] = 0;
	int rc = port_open(spec, &cfg, &p, err, sizeof(err));
	if (!rc)
		port_close(p);
	else if (rc != -EINVAL)
		snprintf(err, sizeof(err), "rc %d", rc);
	return err;
}

static void t_options(void)
{
	T_STREQ(open_err("pcap:lo,promisc=x", PORT_RX), "pcap:lo: promisc=x: expected 0 or 1");
	T_STREQ(open_err("pcap:lo,promisc=", PORT_RX), "pcap:lo: promisc=: expected 0 or 1");
	T_STREQ(open_err("pcap:lo,promisc=1", PORT_TX),
		"pcap:lo: promisc=1: only for receiving ports, and this one is only sending");
	T_STREQ(open_err("pcap:lo,promisc=0,promisc=1", PORT_RX),
		"pcap:lo: port option 'promisc' given twice");
	T_STREQ(open_err("pcap:lo,bogus=1", PORT_RX),
		"pcap:lo: unknown port option 'bogus' (pcap: takes promisc)");
	T_STREQ(open_err("libnet:lo,x=1", PORT_TX),
		"libnet:lo: unknown port option 'x' (libnet: takes no options)");
	T_STREQ(open_err("udp:127.0.0.1:9,src=127.0.0.1:5", PORT_RX),
		"udp:127.0.0.1:9: src=127.0.0.1:5: only for sending ports, and this one is only receiving");
#if defined(__linux__) && !defined(PPSLAB_PORTABLE)
	T_STREQ(open_err("afpacket:lo,bypass=2", PORT_TX), "afpacket:lo: bypass=2: expected 0 or 1");
	T_STREQ(open_err("afpacket:lo,linear=5", PORT_TX), "afpacket:lo: linear=5: expected 0 or 1");
	T_STREQ(open_err("afpacket:lo,ring=abc", PORT_RX), "afpacket:lo: ring=abc: expected v2 or v3");
	T_STREQ(open_err("afpacket:lo,tov=-1", PORT_RX), "afpacket:lo: tov=-1: expected 1..1000 (ms)");
	T_STREQ(open_err("afpacket:lo,tov=5", PORT_TX),
		"afpacket:lo: tov=5: only for receiving ports, and this one is only sending");
	T_STREQ(open_err("afpacket:lo,bypass=1", PORT_RX),
		"afpacket:lo: bypass=1: only for sending ports, and this one is only receiving");
	T_STREQ(open_err("afpacket:lo,bogus=1", PORT_RX | PORT_TX),
		"afpacket:lo: unknown port option 'bogus' (afpacket: takes ring, frames, tov, "
		"bypass, promisc, linear)");
#endif
}

int main(void)
{
	T_RUN(t_errclass);
	T_RUN(t_options);
	return t_done();
}
