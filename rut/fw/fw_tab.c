/* SPDX-License-Identifier: BSD-2-Clause */
/* fw_tab.c — the firewall's built-in name tables: IP protocols (the names of
 * /etc/protocols, IANA "Assigned Internet Protocol Numbers"), well-known service ports
 * (/etc/services, IANA port registry) and ICMP unreachable codes (RFC 792, RFC 1812
 * §5.2.7.1; ipfw(8) names). Built in so that rules compile identically on a box
 * without netbase, and without NSS lookups while 20,000 rules load. Used by
 * fw_parse.c (names → numbers) and fw_show.c (numbers → names). */
#include <string.h>
#include <strings.h>

#include "fw_impl.h"
#include "fw_tab.h"

struct name_num {
	const char *name;
	int num;
};

/* The first name of a number is the one listed; later entries are aliases. */
static const struct name_num protos[] = {
	{ "icmp", 1 },	   { "igmp", 2 },	  { "ggp", 3 },		{ "ipencap", 4 },
	{ "st", 5 },	   { "tcp", 6 },	  { "cbt", 7 },		{ "egp", 8 },
	{ "igp", 9 },	   { "bbn-rcc-mon", 10 }, { "nvp-ii", 11 },	{ "pup", 12 },
	{ "emcon", 14 },   { "xnet", 15 },	  { "chaos", 16 },	{ "udp", 17 },
	{ "mux", 18 },	   { "hmp", 20 },	  { "xns-idp", 22 },	{ "trunk-1", 23 },
	{ "rdp", 27 },	   { "irtp", 28 },	  { "iso-tp4", 29 },	{ "netblt", 30 },
	{ "dccp", 33 },	   { "3pc", 34 },	  { "idpr", 35 },	{ "xtp", 36 },
	{ "ddp", 37 },	   { "idpr-cmtp", 38 },	  { "tp++", 39 },	{ "il", 40 },
	{ "ipv6", 41 },	   { "sdrp", 42 },	  { "ipv6-route", 43 }, { "ipv6-frag", 44 },
	{ "idrp", 45 },	   { "rsvp", 46 },	  { "gre", 47 },	{ "dsr", 48 },
	{ "bna", 49 },	   { "esp", 50 },	  { "ah", 51 },		{ "i-nlsp", 52 },
	{ "narp", 54 },	   { "mobile", 55 },	  { "tlsp", 56 },	{ "skip", 57 },
	{ "ipv6-icmp", 58 }, { "ipv6-nonxt", 59 }, { "ipv6-opts", 60 }, { "cftp", 62 },
	{ "sat-expak", 64 }, { "kryptolan", 65 }, { "rvd", 66 },	{ "ippc", 67 },
	{ "sat-mon", 69 }, { "visa", 70 },	  { "ipcv", 71 },	{ "cpnx", 72 },
	{ "rspf", 73 },	   { "wsn", 74 },	  { "pvp", 75 },	{ "br-sat-mon", 76 },
	{ "sun-nd", 77 },  { "wb-mon", 78 },	  { "wb-expak", 79 },	{ "iso-ip", 80 },
	{ "vmtp", 81 },	   { "secure-vmtp", 82 }, { "vines", 83 },	{ "ttp", 84 },
	{ "nsfnet-igp", 85 }, { "dgp", 86 },	  { "tcf", 87 },	{ "eigrp", 88 },
	{ "ospf", 89 },	   { "sprite-rpc", 90 },  { "larp", 91 },	{ "mtp", 92 },
	{ "ax.25", 93 },   { "ipip", 94 },	  { "micp", 95 },	{ "scc-sp", 96 },
	{ "etherip", 97 }, { "encap", 98 },	  { "gmtp", 100 },	{ "ifmp", 101 },
	{ "pnni", 102 },   { "pim", 103 },	  { "aris", 104 },	{ "scps", 105 },
	{ "qnx", 106 },	   { "a/n", 107 },	  { "ipcomp", 108 },	{ "snp", 109 },
	{ "compaq-peer", 110 }, { "ipx-in-ip", 111 }, { "vrrp", 112 },	{ "pgm", 113 },
	{ "l2tp", 115 },   { "ddx", 116 },	  { "iatp", 117 },	{ "stp", 118 },
	{ "srp", 119 },	   { "uti", 120 },	  { "smp", 121 },	{ "sm", 122 },
	{ "ptp", 123 },	   { "isis", 124 },	  { "fire", 125 },	{ "crtp", 126 },
	{ "crudp", 127 },  { "sscopmce", 128 },	  { "iplt", 129 },	{ "sps", 130 },
	{ "pipe", 131 },   { "sctp", 132 },	  { "fc", 133 },	{ "rsvp-e2e-ignore", 134 },
	{ "mobility-header", 135 }, { "udplite", 136 }, { "mpls-in-ip", 137 }, { "manet", 138 },
	{ "hip", 139 },	   { "shim6", 140 },	  { "wesp", 141 },	{ "rohc", 142 },
	{ "ethernet", 143 },
	/* aliases */
	{ "ipv4", 4 },	   { "ip-in-ip", 4 },	  { "ipv6-icmp6", 58 }, { "icmp6", 58 },
	{ "ospfigp", 89 }, { "is-is", 124 },	  { "carp", 112 },
};

/* Ports whose TCP and UDP assignments agree (or only one exists). */
static const struct name_num services[] = {
	{ "tcpmux", 1 },      { "echo", 7 },	      { "discard", 9 },	     { "systat", 11 },
	{ "daytime", 13 },    { "netstat", 15 },      { "qotd", 17 },	     { "chargen", 19 },
	{ "ftp-data", 20 },   { "ftp", 21 },	      { "ssh", 22 },	     { "telnet", 23 },
	{ "smtp", 25 },	      { "time", 37 },	      { "whois", 43 },	     { "nicname", 43 },
	{ "tacacs", 49 },     { "domain", 53 },	      { "bootps", 67 },	     { "bootpc", 68 },
	{ "tftp", 69 },	      { "gopher", 70 },	      { "finger", 79 },	     { "http", 80 },
	{ "www", 80 },	      { "kerberos", 88 },     { "pop3", 110 },	     { "sunrpc", 111 },
	{ "auth", 113 },      { "ident", 113 },	      { "nntp", 119 },	     { "ntp", 123 },
	{ "epmap", 135 },     { "loc-srv", 135 },     { "netbios-ns", 137 }, { "netbios-dgm", 138 },
	{ "netbios-ssn", 139 }, { "imap", 143 },      { "imap2", 143 },	     { "snmp", 161 },
	{ "snmp-trap", 162 }, { "xdmcp", 177 },	      { "bgp", 179 },	     { "irc", 194 },
	{ "ldap", 389 },      { "https", 443 },	      { "microsoft-ds", 445 }, { "kpasswd", 464 },
	{ "isakmp", 500 },    { "exec", 512 },	      { "biff", 512 },	     { "login", 513 },
	{ "who", 513 },	      { "shell", 514 },	      { "syslog", 514 },     { "printer", 515 },
	{ "talk", 517 },      { "ntalk", 518 },	      { "route", 520 },	     { "router", 520 },
	{ "uucp", 540 },      { "submission", 587 },  { "ipp", 631 },	     { "ldaps", 636 },
	{ "rsync", 873 },     { "ftps-data", 989 },   { "ftps", 990 },	     { "telnets", 992 },
	{ "imaps", 993 },     { "pop3s", 995 },	      { "socks", 1080 },     { "openvpn", 1194 },
	{ "ms-sql-s", 1433 }, { "ms-sql-m", 1434 },   { "l2f", 1701 },	     { "l2tp", 1701 },
	{ "pptp", 1723 },     { "radius", 1812 },     { "radius-acct", 1813 }, { "nfs", 2049 },
	{ "svn", 3690 },      { "mysql", 3306 },      { "ms-wbt-server", 3389 }, { "ipsec-nat-t", 4500 },
	{ "sip", 5060 },      { "sip-tls", 5061 },    { "postgresql", 5432 }, { "x11", 6000 },
	{ "http-alt", 8080 }, { "webcache", 8080 },
};

/* ipfw(8) names of ICMP destination unreachable codes 0..15, in code order. */
static const char *const unreach_names[] = {
	"net",	       "host",	      "protocol",      "port",
	"needfrag",    "srcfail",     "net-unknown",   "host-unknown",
	"isolated",    "net-prohib",  "host-prohib",   "tosnet",
	"toshost",     "filter-prohib", "host-precedence", "precedence-cutoff",
};

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

int fw_proto_by_name(const char *name)
{
	/* getprotobyname(3) matches names and aliases; /etc/protocols lists upper-case
	 * aliases ("TCP"), so any case is accepted */
	for (int i = 0; i < NELEM(protos); i++)
		if (!strcasecmp(protos[i].name, name))
			return protos[i].num;
	return -1;
}

const char *fw_proto_name(int proto)
{
	for (int i = 0; i < NELEM(protos); i++)
		if (protos[i].num == proto)
			return protos[i].name;
	return NULL;
}

int fw_service_port(const char *name)
{
	for (int i = 0; i < NELEM(services); i++)
		if (!strcmp(services[i].name, name))
			return services[i].num;
	return -1;
}

int fw_unreach_code(const char *name)
{
	for (int i = 0; i < NELEM(unreach_names); i++)
		if (!strcmp(unreach_names[i], name))
			return i;
	return -1;
}

const char *fw_unreach_name(int code)
{
	return code >= 0 && code < NELEM(unreach_names) ? unreach_names[code] : NULL;
}

/* sbin/ipfw/ipv6.c icmp6codes: the ICMPv6 destination unreachable codes of RFC 4443
 * 3.1 that `unreach6` names */
static const struct name_num unreach6_names[] = {
	{ "no-route", 0 }, { "admin-prohib", 1 }, { "address", 3 }, { "port", 4 },
};

int fw_unreach6_code(const char *name)
{
	for (int i = 0; i < NELEM(unreach6_names); i++)
		if (!strcmp(unreach6_names[i].name, name))
			return unreach6_names[i].num;
	return -1;
}

const char *fw_unreach6_name(int code)
{
	for (int i = 0; i < NELEM(unreach6_names); i++)
		if (unreach6_names[i].num == code)
			return unreach6_names[i].name;
	return NULL;
}
