/* SPDX-License-Identifier: BSD-2-Clause */
/* rulegen.c — generated ipfw rule sets for the rules axis of ppslab run (dut.c writes
 * them before loading; see rulegen.h for the kinds and why). */
#include "rulegen.h"

#include <errno.h>
#include <string.h>

int rulegen_kind_ok(const char *kind)
{
	return kind && (!strcmp(kind, "nomatch") || !strcmp(kind, "count"));
}

int rulegen_write(FILE *f, const char *kind, unsigned n)
{
	if (!rulegen_kind_ok(kind) || n > RULEGEN_MAX)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++) {
		/* ipfw numbers rules 1..65535 and keeps rules of one number in the order they
		 * were added: above RULEGEN_NUM_MAX rules, numbers are shared, in order */
		unsigned num = n <= RULEGEN_NUM_MAX ? i + 1
			     : 1 + (unsigned)((unsigned long long)i * RULEGEN_NUM_MAX / n);
		if (!strcmp(kind, "count")) {
			fprintf(f, "add %u count ip from any to any\n", num);
			continue;
		}
		/* 198.18.128.0/17: 32,768 hosts the test traffic never comes from */
		unsigned h = i % 32768, b3 = 128 + h / 256, b4 = h % 256;
		switch (i % 4) {
		case 0:
			fprintf(f, "add %u deny ip from 198.18.%u.%u to any\n", num, b3, b4);
			break;
		case 1:
			fprintf(f, "add %u deny udp from 198.18.%u.%u to any %u\n", num, b3,
				b4, 1024 + i % 50000);
			break;
		case 2:
			fprintf(f, "add %u deny tcp from 198.18.%u.0/24 to any\n", num, b3);
			break;
		default:
			fprintf(f, "add %u deny icmp from 198.18.%u.%u to any\n", num, b3, b4);
			break;
		}
	}
	fprintf(f, "add %u allow ip from any to any\n", RULEGEN_ALLOW_NUM);
	return ferror(f) ? -EIO : 0;
}
