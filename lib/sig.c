/* SPDX-License-Identifier: BSD-2-Clause */
/* sig.c — decode of the payload signature (see sig.h; the encoder,
 * sig_put, is inline there). */
#include "sig.h"

#include <errno.h>

int sig_get(const uint8_t *p, size_t len, struct sig *s)
{
	if (len < SIG_LEN)
		return -ENODATA;
	if ((((unsigned)p[0] << 8) | p[1]) != SIG_MAGIC)
		return -EPROTO;
	s->version = p[2] >> 4;
	s->flags = p[2] & 0x0f;
	s->stream = p[3];
	if (s->version != SIG_VERSION)
		return -EPROTONOSUPPORT;
	uint64_t seq = 0, ts = 0;
	for (int i = 0; i < 6; i++)
		seq = (seq << 8) | p[4 + i];
	for (int i = 0; i < 8; i++)
		ts = (ts << 8) | p[10 + i];
	s->seq = seq;
	s->tx_ns = ts;
	return 0;
}
