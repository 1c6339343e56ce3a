/* SPDX-License-Identifier: BSD-2-Clause */
/* t_sig.c — signature encode/decode: layout, 48-bit sequence, rejects. */
#include <errno.h>

#include "sig.h"
#include "tap.h"

static void t_roundtrip(void)
{
	uint8_t b[SIG_LEN];
	struct sig s = { .flags = SIG_F_REALTIME, .stream = 7, .seq = 0xABCDEF012345ULL,
			 .tx_ns = 0x0123456789ABCDEFULL }, r;
	sig_put(b, &s);
	T_EQ_U64(b[0], SIG_MAGIC >> 8);
	T_EQ_U64(b[1], SIG_MAGIC & 0xff);
	T_EQ_U64(b[2], (SIG_VERSION << 4) | SIG_F_REALTIME);
	T_EQ_U64(b[3], 7);
	T_EQ_U64(b[4], 0xAB);   /* sequence, big-endian 48 bits */
	T_EQ_U64(b[9], 0x45);
	T_EQ_U64(b[10], 0x01);  /* timestamp, big-endian 64 bits */
	T_EQ_U64(b[17], 0xEF);
	T_EQ_INT(sig_get(b, sizeof(b), &r), 0);
	T_EQ_U64(r.seq, s.seq);
	T_EQ_U64(r.tx_ns, s.tx_ns);
	T_EQ_U64(r.stream, 7);
	T_EQ_U64(r.flags, SIG_F_REALTIME);
}

static void t_seq_is_48_bits(void)
{
	uint8_t b[SIG_LEN];
	struct sig s = { .seq = (1ULL << 48) + 5 }, r;
	sig_put(b, &s);
	T_EQ_INT(sig_get(b, sizeof(b), &r), 0);
	T_EQ_U64(r.seq, 5);
	s.seq = SIG_SEQ_MASK;
	sig_put(b, &s);
	sig_get(b, sizeof(b), &r);
	T_EQ_U64(r.seq, SIG_SEQ_MASK);
	sig_put_seq_ts(b, 42, 99);
	sig_get(b, sizeof(b), &r);
	T_EQ_U64(r.seq, 42);
	T_EQ_U64(r.tx_ns, 99);
}

static void t_rejects(void)
{
	uint8_t b[SIG_LEN];
	struct sig s = { 0 }, r;
	sig_put(b, &s);
	T_EQ_INT(sig_get(b, SIG_LEN - 1, &r), -ENODATA);
	b[2] = (uint8_t)((SIG_VERSION + 1) << 4);
	T_EQ_INT(sig_get(b, SIG_LEN, &r), -EPROTONOSUPPORT);
	b[0] ^= 0xff;
	T_EQ_INT(sig_get(b, SIG_LEN, &r), -EPROTO);
}

/* The one encoder ppslab-gen writes its frames with: warm-up and realtime flags, the
 * version always SIG_VERSION, flags beyond the low nibble never reach it. */
static void t_flags(void)
{
	uint8_t b[SIG_LEN];
	struct sig s = { .version = 9, .flags = SIG_F_REALTIME | SIG_F_WARMUP, .stream = 2,
			 .seq = 1, .tx_ns = 2 }, r;
	sig_put(b, &s);
	T_EQ_U64(b[2], (SIG_VERSION << 4) | SIG_F_REALTIME | SIG_F_WARMUP);
	T_EQ_INT(sig_get(b, sizeof(b), &r), 0);
	T_EQ_U64(r.flags, SIG_F_REALTIME | SIG_F_WARMUP);
	s.flags = 0xf0 | SIG_F_WARMUP;
	sig_put(b, &s);
	T_EQ_U64(b[2], (SIG_VERSION << 4) | SIG_F_WARMUP);
}

int main(void)
{
	T_RUN(t_roundtrip);
	T_RUN(t_flags);
	T_RUN(t_seq_is_48_bits);
	T_RUN(t_rejects);
	return t_done();
}
