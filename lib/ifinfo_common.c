/* SPDX-License-Identifier: BSD-2-Clause */
/* ifinfo_common.c — address and MAC text conversions shared by every system. */
#include "ifinfo.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

int mac_parse(const char *s, uint8_t mac[6])
{
	for (int i = 0; i < 6; i++) {
		int hi, lo;
		char c1 = s[0], c2 = c1 ? s[1] : 0;
		hi = (c1 >= '0' && c1 <= '9') ? c1 - '0' : (c1 | 32) >= 'a' && (c1 | 32) <= 'f' ? (c1 | 32) - 'a' + 10 : -1;
		lo = (c2 >= '0' && c2 <= '9') ? c2 - '0' : (c2 | 32) >= 'a' && (c2 | 32) <= 'f' ? (c2 | 32) - 'a' + 10 : -1;
		if (hi < 0 || lo < 0)
			return -EINVAL;
		mac[i] = (uint8_t)(hi << 4 | lo);
		s += 2;
		if (i < 5) {
			if (*s != ':' && *s != '-')
				return -EINVAL;
			s++;
		}
	}
	return *s ? -EINVAL : 0;
}

void mac_format(const uint8_t mac[6], char out[18])
{
	snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3],
		 mac[4], mac[5]);
}

int ip4_parse(const char *s, uint32_t *addr_be)
{
	uint8_t b[4];
	const char *p = s;
	for (int i = 0; i < 4; i++) {
		unsigned v = 0;
		int digits = 0;
		while (*p >= '0' && *p <= '9' && digits < 4) {
			v = v * 10 + (unsigned)(*p - '0');
			p++;
			digits++;
		}
		if (!digits || digits > 3 || v > 255)
			return -EINVAL;
		b[i] = (uint8_t)v;
		if (i < 3) {
			if (*p != '.')
				return -EINVAL;
			p++;
		}
	}
	if (*p)
		return -EINVAL;
	memcpy(addr_be, b, 4);
	return 0;
}

void ip4_format(uint32_t addr_be, char out[16])
{
	const uint8_t *b = (const uint8_t *)&addr_be;
	snprintf(out, 16, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
}

int ip4_parse_prefix(const char *s, uint32_t *addr_be, uint8_t *len)
{
	char buf[32];
	const char *slash = strchr(s, '/');
	uint64_t l = 32;
	if (slash) {
		if ((size_t)(slash - s) >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, s, (size_t)(slash - s));
		buf[slash - s] = 0;
		if (num_u64(slash + 1, 0, 32, &l))
			return -EINVAL;
		s = buf;
	}
	if (ip4_parse(s, addr_be))
		return -EINVAL;
	*len = (uint8_t)l;
	return 0;
}
