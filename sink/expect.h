/* SPDX-License-Identifier: BSD-2-Clause */
/* expect.h — how many frames the sender says it sent, per stream, read from the
 * sender's JSON summary (ppslab-gen --json), so the sink can count the frames lost after
 * the last arrival (tail loss), and streams that never arrived at all.
 *
 * The file is what `ppslab-gen --json` printed (JSON Lines: interval objects, then one
 * summary), or a single JSON object. The summary used is the last object whose "type" is
 * "summary" (or the only object). It gives either "stream" and "tx_pkts" (one stream),
 * or "streams": [{"stream": ID, "tx_pkts": N}, ...]. Several files may be loaded into
 * the same table (one per sender); a stream named twice is an error. */
#ifndef PPSLAB_SINK_EXPECT_H
#define PPSLAB_SINK_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXPECT_STREAMS 256

struct expect_table {
	uint64_t tx_pkts[EXPECT_STREAMS];     /* sequence numbers used: 0 .. tx_pkts − 1 */
	uint64_t holes[EXPECT_STREAMS];       /* of those, never sent (the sender says) */
	bool have[EXPECT_STREAMS];
	char from[EXPECT_STREAMS][64];   /* which file named the stream (for messages) */
};

/* Adds what path says to t. 0; -ENOENT/-EACCES/-EIO (cannot read: message names the
 * file); -EINVAL (bad content: message says FILE:LINE:COLUMN and what was expected). */
int expect_load(struct expect_table *t, const char *path, char *err, size_t errlen);
/* The same from text already in memory (tests); name is used in messages. */
int expect_parse(struct expect_table *t, const char *name, const char *text, char *err,
		 size_t errlen);

#endif
