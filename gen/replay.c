/* SPDX-License-Identifier: BSD-2-Clause */
/* replay.c — loads a pcap capture file for --replay (see replay.h). Called by main.c
 * before the run; libpcap reads both pcap and pcapng files. */
#include "replay.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pkt.h"

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap * 2 : 1024;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

int gen_replay_load(const char *path, struct gen_replay *r, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	size_t cap_data = 0, cap_idx = 0, cap_len = 0;
	struct pcap_pkthdr *h;
	const u_char *bytes;
	int rc = 0, st;

	memset(r, 0, sizeof(*r));
	pcap_t *pc = pcap_open_offline(path, ebuf);
	if (!pc) {
		FILE *f = fopen(path, "rb");
		if (!f) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return rc;
		}
		fclose(f);
		snprintf(err, errlen, "%s: not a pcap or pcapng file (%s)", path, ebuf);
		return -EINVAL;
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		snprintf(err, errlen, "%s: link type %s, but only Ethernet captures can be replayed",
			 path, pcap_datalink_val_to_name(pcap_datalink(pc)) ?
			 pcap_datalink_val_to_name(pcap_datalink(pc)) : "unknown");
		rc = -EINVAL;
		goto out;
	}
	while ((st = pcap_next_ex(pc, &h, &bytes)) == 1) {
		uint64_t i = r->n;
		if (h->caplen < PKT_ETH_LEN || h->caplen > PKT_FRAME_MAX) {
			snprintf(err, errlen, "%s: frame %llu: %u bytes, not %u..%u", path,
				 (unsigned long long)i + 1, h->caplen, PKT_ETH_LEN, PKT_FRAME_MAX);
			rc = -EINVAL;
			goto out;
		}
		if (r->bytes + h->caplen > GEN_REPLAY_MAX_BYTES || i + 1 > GEN_REPLAY_MAX_FRAMES) {
			snprintf(err, errlen, "%s: more than %llu MiB or %llu frames (frame %llu)", path,
				 GEN_REPLAY_MAX_BYTES >> 20, GEN_REPLAY_MAX_FRAMES,
				 (unsigned long long)i + 1);
			rc = -EFBIG;
			goto out;
		}
		if (grow((void **)&r->data, &cap_data, r->bytes + h->caplen, 1) ||
		    grow((void **)&r->off, &cap_idx, i + 1, sizeof(*r->off)) ||
		    grow((void **)&r->len, &cap_len, i + 1, sizeof(*r->len))) {
			snprintf(err, errlen, "%s: out of memory at frame %llu", path,
				 (unsigned long long)i + 1);
			rc = -ENOMEM;
			goto out;
		}
		memcpy(r->data + r->bytes, bytes, h->caplen);
		r->off[i] = r->bytes;
		r->len[i] = h->caplen;
		r->bytes += h->caplen;
		if (h->caplen > r->len_max)
			r->len_max = h->caplen;
		if (h->caplen < h->len)
			r->truncated++;
		r->n++;
	}
	if (st == PCAP_ERROR) {
		snprintf(err, errlen, "%s: after frame %llu: %s", path, (unsigned long long)r->n,
			 pcap_geterr(pc));
		rc = -EINVAL;
		goto out;
	}
	if (!r->n) {
		snprintf(err, errlen, "%s: no frames", path);
		rc = -EINVAL;
	}
out:
	pcap_close(pc);
	if (rc)
		gen_replay_free(r);
	return rc;
}

double gen_replay_mean_wire(const struct gen_replay *r)
{
	return r->n ? (double)r->bytes / (double)r->n + PKT_FCS_LEN : 0;
}

void gen_replay_free(struct gen_replay *r)
{
	free(r->data);
	free(r->off);
	free(r->len);
	memset(r, 0, sizeof(*r));
}
