/* SPDX-License-Identifier: BSD-2-Clause */
/* replay.h — the frames of a pcap capture file, loaded once, for --replay.
 *
 * The file is read completely before the run (up to GEN_REPLAY_MAX_BYTES of frames), so
 * the hot loop only points the port at frame pos mod n. Only Ethernet captures
 * (LINKTYPE_ETHERNET) can be replayed; frames captured shorter than they were (snaplen)
 * are sent as captured and counted in `truncated`. */
#ifndef PPSLAB_GEN_REPLAY_H
#define PPSLAB_GEN_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#define GEN_REPLAY_MAX_BYTES (512ULL << 20)
#define GEN_REPLAY_MAX_FRAMES (16ULL << 20)

struct gen_replay {
	uint64_t n;             /* frames */
	uint8_t *data;          /* all frames back to back */
	uint64_t *off;          /* frame i at data + off[i] */
	uint32_t *len;          /* its length (without FCS, as captured) */
	uint64_t bytes;         /* Σ len */
	uint32_t len_max;
	uint64_t truncated;     /* frames whose capture was cut short by the snaplen */
};

/* Loads path. 0, or -errno with "FILE: ..." (with the frame number where it applies)
 * in err: -ENOENT, -EINVAL (not a pcap file / not Ethernet / empty), -EFBIG (too big). */
int gen_replay_load(const char *path, struct gen_replay *r, char *err, size_t errlen);
/* Mean wire size with FCS (what bit rates are converted with). */
double gen_replay_mean_wire(const struct gen_replay *r);
void gen_replay_free(struct gen_replay *r);

#endif
