/* SPDX-License-Identifier: BSD-2-Clause */
/* xsk_ring.h — the bookkeeping behind AF_XDP ports (lib/port_xdp.c), as pure functions
 * over plain memory so it can be tested without a kernel or root.
 *
 * An AF_XDP socket shares four single-producer/single-consumer rings with the kernel
 * (Documentation/networking/af_xdp.rst): FILL (we give the kernel empty frames to
 * receive into), RX (it gives them back full), TX (we give it frames to send) and
 * COMPLETION (it gives them back sent). Each ring is a power-of-two array plus a
 * free-running 32-bit producer and consumer index; an index is masked only when used,
 * so "entries in the ring" is prod - cons in unsigned 32-bit arithmetic, correct across
 * the 2^32 wrap. Each side keeps a cached copy of the other side's index and re-reads
 * the shared one (acquire) only when the cache says there is not enough, so most calls
 * touch no shared cache line. Stores that publish entries are releases.
 *
 * Frames: the UMEM is an array of equal chunks (2 or 4 KiB); each frame is owned by
 * exactly one party at a time, tracked per frame so a frame can move from the port that
 * received it straight to another port's TX ring (shared UMEM) without a copy, and so a
 * frame coming back in a state it should not be in is detected, not silently reused.
 *
 *   FREE --alloc--> FILL (kernel) --rx--> HELD(port) --recycle--> FILL
 *     ^                                       |  \--give up----> FREE
 *     |                                       v
 *     +----------- complete ------------- TX (kernel) <--alloc-- FREE (copied TX)
 */
#ifndef PPSLAB_LIB_XSK_RING_H
#define PPSLAB_LIB_XSK_RING_H

#include <stdbool.h>
#include <stdint.h>

/* Room the kernel leaves before received data in copy mode (XDP_PACKET_HEADROOM). */
#define XR_RX_HEADROOM 256u
/* Fill and completion work is done in batches of at least this many entries: one
 * release store and one cache-line transfer per batch instead of per frame. */
#define XR_BATCH 32u
/* XDP_RING_NEED_WAKEUP in a ring's flags word. */
#define XR_NEED_WAKEUP 1u

/* One ring as mapped from the socket (the same fields libxdp's xsk_ring_* hold). */
struct xr {
	uint32_t cached_prod;   /* producer side: our producer; consumer side: last seen */
	uint32_t cached_cons;   /* consumer side: our consumer; producer side: last seen */
	uint32_t mask, size;
	uint32_t *producer, *consumer, *flags;   /* shared with the kernel */
	void *ring;             /* uint64_t addresses (FILL, COMPLETION) or struct xr_desc */
};

/* An RX/TX descriptor (struct xdp_desc). */
struct xr_desc {
	uint64_t addr;
	uint32_t len;
	uint32_t options;
};

/* Pure index arithmetic, correct across the 32-bit wrap. */
static inline uint32_t xr_used(uint32_t prod, uint32_t cons)
{
	return prod - cons;
}

static inline uint32_t xr_free(uint32_t size, uint32_t prod, uint32_t cons)
{
	return size - (prod - cons);
}

/* Binds a ring view to memory: the kernel's mapping, or a test's arrays. */
void xr_init(struct xr *r, uint32_t size, uint32_t *producer, uint32_t *consumer,
	     uint32_t *flags, void *ring);

/* Producer side: free entries (at most want: the shared consumer index is re-read only
 * when the cached one shows fewer than want), then reserve up to n from the front
 * (returns how many, first index in *idx), fill them, submit (release store). */
uint32_t xr_prod_free(struct xr *r, uint32_t want);
uint32_t xr_prod_reserve(struct xr *r, uint32_t n, uint32_t *idx);
void xr_prod_submit(struct xr *r, uint32_t n);
/* Entries the kernel has not consumed yet (reads the shared consumer index). */
uint32_t xr_prod_pending(struct xr *r);

/* Consumer side: up to max available entries from *idx on (the shared producer index is
 * re-read only when the cache is empty or short of max), then release n (release store)
 * once they have been read. */
uint32_t xr_cons_peek(struct xr *r, uint32_t max, uint32_t *idx);
void xr_cons_release(struct xr *r, uint32_t n);

static inline uint64_t *xr_addr(const struct xr *r, uint32_t idx)
{
	return (uint64_t *)r->ring + (idx & r->mask);
}

static inline struct xr_desc *xr_desc(const struct xr *r, uint32_t idx)
{
	return (struct xr_desc *)r->ring + (idx & r->mask);
}

bool xr_needs_wakeup(const struct xr *r);

/* How many frames to move to a fill ring with `space` free entries when `avail` frames
 * are free: nothing while fewer than XR_BATCH entries are free (the ring is nearly full
 * and a tiny refill costs as much as a big one), else as many as fit. */
uint32_t xr_refill_count(uint32_t space, uint32_t avail);

/* UMEM geometry for frames of up to frame_len bytes (without FCS): the chunk size
 * (2048 or 4096, a power of two as aligned mode requires) that holds the frame after
 * the kernel's receive headroom. 0 or -EMSGSIZE if no chunk is large enough (AF_XDP
 * multi-buffer is not used). */
int xr_chunk_for(uint32_t frame_len, uint32_t *chunk);
/* The smallest power of two >= v (v <= 2^31), at least min. */
uint32_t xr_pow2(uint32_t v, uint32_t min);

/* Frame ownership (see the diagram above). HELD states carry the holder: a port index
 * within its UMEM group (0..XF_MAX_HOLDERS-1). */
enum xf_state { XF_FREE = 0, XF_FILL = 1, XF_TX = 2, XF_HELD0 = 16 };
#define XF_MAX_HOLDERS 64

struct xf {
	uint64_t *stack;       /* free frames' base addresses; nfree on top */
	uint8_t *state;        /* per frame, enum xf_state or XF_HELD0 + holder */
	uint32_t nframes, nfree;
	uint32_t shift;        /* log2(chunk) */
	uint64_t bad;          /* frames that came back in an unexpected state */
};

/* All nframes frames of chunk bytes start free (the lowest address on top). 0 or
 * -ENOMEM/-EINVAL (chunk not a power of two, nframes 0). */
int xf_init(struct xf *f, uint32_t nframes, uint32_t chunk);
void xf_fini(struct xf *f);

static inline uint32_t xf_index(const struct xf *f, uint64_t addr)
{
	return (uint32_t)(addr >> f->shift);
}

static inline uint64_t xf_base(const struct xf *f, uint64_t addr)
{
	return addr & ~((1ULL << f->shift) - 1);
}

/* True if addr lies inside the UMEM. */
static inline bool xf_valid(const struct xf *f, uint64_t addr)
{
	return (addr >> f->shift) < f->nframes;
}

static inline uint8_t xf_held(unsigned holder)
{
	return (uint8_t)(XF_HELD0 + holder);
}

/* Takes up to n free frames into addrs, marking them `to` (XF_FILL or XF_TX); returns
 * how many. */
uint32_t xf_alloc(struct xf *f, uint64_t *addrs, uint32_t n, uint8_t to);
/* Returns one frame to the free stack if it is in state `from` (any offset inside the
 * frame is accepted); else counts it in bad and leaves it. 0 or -EINVAL. */
int xf_put(struct xf *f, uint64_t addr, uint8_t from);
/* Moves a frame from state `from` to `to`; false (nothing changed) if it was not in
 * `from` or the address is outside the UMEM. */
bool xf_move(struct xf *f, uint64_t addr, uint8_t from, uint8_t to);
static inline uint8_t xf_state_of(const struct xf *f, uint64_t addr)
{
	return f->state[addr >> f->shift];
}

#endif
