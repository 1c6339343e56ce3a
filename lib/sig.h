/* SPDX-License-Identifier: BSD-2-Clause */
/* sig.h — the 18-byte payload signature every test frame carries.
 *
 * Layout (network byte order), at the start of the UDP payload:
 *   0  magic      2 bytes  SIG_MAGIC
 *   2  ver|flags  1 byte   high nibble SIG_VERSION, low nibble SIG_F_*
 *   3  stream     1 byte   stream id (blast A, blast B, ...)
 *   4  seq        6 bytes  48-bit sequence number, per stream, from 0
 *  10  tx_ns      8 bytes  transmit time in ns on the clock SIG_F_REALTIME names
 * 18 bytes fill the payload of a 64-byte frame exactly (14 + 20 + 8 + 18 + 4 FCS). */
#ifndef PPSLAB_LIB_SIG_H
#define PPSLAB_LIB_SIG_H

#include <stddef.h>
#include <stdint.h>

#define SIG_LEN 18
#define SIG_MAGIC 0x9B5AU
#define SIG_VERSION 1
#define SIG_SEQ_MASK 0xFFFFFFFFFFFFULL
/* A trial's epoch (ppslab-gen and ppslab-sink --epoch E, 0..255): the top 8 bits of the
 * 48-bit sequence number. A sender numbers from E << SIG_EPOCH_SHIFT; a sink told E
 * takes the 40 bits below as the number and counts a frame of another epoch (an earlier
 * trial's, still in the router's rings and queues) as stale, never as received. 2^40
 * frames a trial (20 hours at 14.88 Mpps) before a number reaches the next epoch. */
#define SIG_EPOCH_SHIFT 40
#define SIG_EPOCH_MASK ((1ULL << SIG_EPOCH_SHIFT) - 1)
static inline uint64_t sig_epoch_base(unsigned epoch)
{
	return (uint64_t)(epoch & 0xffu) << SIG_EPOCH_SHIFT;
}
static inline unsigned sig_epoch_of(uint64_t seq48)
{
	return (unsigned)((seq48 & SIG_SEQ_MASK) >> SIG_EPOCH_SHIFT);
}

enum sig_flags {
	SIG_F_REALTIME = 1, /* tx_ns is CLOCK_REALTIME (else CLOCK_MONOTONIC) */
	SIG_F_WARMUP = 2,   /* a warm-up frame: not part of the measured stream */
};

struct sig {
	uint8_t version;
	uint8_t flags;
	uint8_t stream;
	uint64_t seq;   /* 48 bits */
	uint64_t tx_ns;
};

/* Reads the 18 bytes: 0, -ENODATA (len < SIG_LEN), -EPROTO (no magic: a foreign frame)
 * or -EPROTONOSUPPORT (magic but another version). */
int sig_get(const uint8_t *p, size_t len, struct sig *s);

/* Hot-path patch of sequence and timestamp only (the rest stays as built). */
static inline void sig_put_seq_ts(uint8_t *p, uint64_t seq, uint64_t tx_ns)
{
	for (int i = 0; i < 6; i++)
		p[4 + i] = (uint8_t)(seq >> (40 - 8 * i));
	for (int i = 0; i < 8; i++)
		p[10 + i] = (uint8_t)(tx_ns >> (56 - 8 * i));
}

/* Writes the 18 bytes (s->version is not read: SIG_VERSION is written). Inline:
 * ppslab-gen writes it into every frame it sends. */
static inline void sig_put(uint8_t *p, const struct sig *s)
{
	p[0] = (uint8_t)(SIG_MAGIC >> 8);
	p[1] = (uint8_t)SIG_MAGIC;
	p[2] = (uint8_t)((SIG_VERSION << 4) | (s->flags & 0x0f));
	p[3] = s->stream;
	sig_put_seq_ts(p, s->seq & SIG_SEQ_MASK, s->tx_ns);
}

#endif
