/* SPDX-License-Identifier: BSD-2-Clause */
/* xsk_ring.c — AF_XDP ring index arithmetic and the frame allocator (see xsk_ring.h).
 * Used by lib/port_xdp.c on the kernel's mappings and by tests/unit/lib/t_xsk_ring.c on
 * plain arrays; no system calls. */
#include "xsk_ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t load_acquire(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void store_release(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

void xr_init(struct xr *r, uint32_t size, uint32_t *producer, uint32_t *consumer,
	     uint32_t *flags, void *ring)
{
	r->size = size;
	r->mask = size - 1;
	r->producer = producer;
	r->consumer = consumer;
	r->flags = flags;
	r->ring = ring;
	r->cached_prod = load_acquire(producer);
	r->cached_cons = load_acquire(consumer);
}

uint32_t xr_prod_free(struct xr *r, uint32_t want)
{
	uint32_t f = xr_free(r->size, r->cached_prod, r->cached_cons);
	if (f >= want)
		return f;
	r->cached_cons = load_acquire(r->consumer);
	return xr_free(r->size, r->cached_prod, r->cached_cons);
}

uint32_t xr_prod_reserve(struct xr *r, uint32_t n, uint32_t *idx)
{
	uint32_t f = xr_prod_free(r, n);
	uint32_t k = n < f ? n : f;
	*idx = r->cached_prod;
	r->cached_prod += k;
	return k;
}

void xr_prod_submit(struct xr *r, uint32_t n)
{
	/* we are the only producer: our own index needs no atomic read-modify-write, only
	 * a release so the kernel sees the entries before the index that publishes them */
	store_release(r->producer, *r->producer + n);
}

uint32_t xr_prod_pending(struct xr *r)
{
	r->cached_cons = load_acquire(r->consumer);
	return xr_used(*r->producer, r->cached_cons);
}

uint32_t xr_cons_peek(struct xr *r, uint32_t max, uint32_t *idx)
{
	uint32_t a = xr_used(r->cached_prod, r->cached_cons);
	if (a < max) {
		r->cached_prod = load_acquire(r->producer);
		a = xr_used(r->cached_prod, r->cached_cons);
	}
	uint32_t k = max < a ? max : a;
	*idx = r->cached_cons;
	r->cached_cons += k;
	return k;
}

void xr_cons_release(struct xr *r, uint32_t n)
{
	store_release(r->consumer, *r->consumer + n);
}

bool xr_needs_wakeup(const struct xr *r)
{
	return r->flags && (__atomic_load_n(r->flags, __ATOMIC_RELAXED) & XR_NEED_WAKEUP);
}

uint32_t xr_refill_count(uint32_t space, uint32_t avail)
{
	if (space < XR_BATCH)
		return 0;
	return space < avail ? space : avail;
}

int xr_chunk_for(uint32_t frame_len, uint32_t *chunk)
{
	if (frame_len + XR_RX_HEADROOM <= 2048)
		*chunk = 2048;
	else if (frame_len + XR_RX_HEADROOM <= 4096)
		*chunk = 4096;
	else
		return -EMSGSIZE;
	return 0;
}

uint32_t xr_pow2(uint32_t v, uint32_t min)
{
	uint32_t p = 1;
	if (v < min)
		v = min;
	while (p < v && p < (1u << 31))
		p <<= 1;
	return p;
}

int xf_init(struct xf *f, uint32_t nframes, uint32_t chunk)
{
	memset(f, 0, sizeof(*f));
	if (!nframes || !chunk || (chunk & (chunk - 1)))
		return -EINVAL;
	f->stack = malloc((size_t)nframes * sizeof(*f->stack));
	f->state = calloc(nframes, 1);
	if (!f->stack || !f->state) {
		xf_fini(f);
		return -ENOMEM;
	}
	while ((1u << f->shift) < chunk)
		f->shift++;
	f->nframes = nframes;
	for (uint32_t i = 0; i < nframes; i++)   /* frame 0 ends up on top */
		f->stack[i] = (uint64_t)(nframes - 1 - i) << f->shift;
	f->nfree = nframes;
	return 0;
}

void xf_fini(struct xf *f)
{
	free(f->stack);
	free(f->state);
	memset(f, 0, sizeof(*f));
}

uint32_t xf_alloc(struct xf *f, uint64_t *addrs, uint32_t n, uint8_t to)
{
	uint32_t k = n < f->nfree ? n : f->nfree;
	for (uint32_t i = 0; i < k; i++) {
		uint64_t a = f->stack[--f->nfree];
		f->state[a >> f->shift] = to;
		addrs[i] = a;
	}
	return k;
}

int xf_put(struct xf *f, uint64_t addr, uint8_t from)
{
	uint64_t i = addr >> f->shift;
	if (i >= f->nframes || f->state[i] != from) {
		f->bad++;
		return -EINVAL;
	}
	f->state[i] = XF_FREE;
	f->stack[f->nfree++] = i << f->shift;
	return 0;
}

bool xf_move(struct xf *f, uint64_t addr, uint8_t from, uint8_t to)
{
	uint64_t i = addr >> f->shift;
	if (i >= f->nframes || f->state[i] != from)
		return false;
	f->state[i] = to;
	return true;
}
