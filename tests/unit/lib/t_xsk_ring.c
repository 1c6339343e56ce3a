/* SPDX-License-Identifier: BSD-2-Clause */
/* t_xsk_ring.c — AF_XDP ring bookkeeping and the frame allocator (lib/xsk_ring.c), on
 * plain arrays standing in for the kernel's mappings: index arithmetic across the 32-bit
 * wrap, batching, frame ownership, and frame conservation through a simulated kernel. */
#include <errno.h>
#include <stdlib.h>

#include "tap.h"
#include "xdp_owner.h"
#include "xsk_ring.h"

/* A ring in plain memory: the shared producer/consumer words, flags and entries. */
struct fake {
	uint32_t prod, cons, flags;
	uint64_t addrs[64];
	struct xr_desc descs[64];
};

static void fake_ring(struct fake *k, struct xr *r, uint32_t size, uint32_t start, int desc)
{
	memset(k, 0, sizeof(*k));
	k->prod = k->cons = start;
	xr_init(r, size, &k->prod, &k->cons, &k->flags, desc ? (void *)k->descs : (void *)k->addrs);
}

static void t_index_arithmetic(void)
{
	T_EQ_U64(xr_used(10, 4), 6);
	T_EQ_U64(xr_used(5, 0xFFFFFFFEu), 7);            /* producer wrapped past 2^32 */
	T_EQ_U64(xr_free(8, 5, 0xFFFFFFFEu), 1);
	T_EQ_U64(xr_free(8, 0x80000000u, 0x80000000u), 8);
	T_EQ_U64(xr_free(8, 0x00000003u, 0xFFFFFFFBu), 0); /* full, across the wrap */
}

static void t_producer_reserve_submit(void)
{
	struct fake k;
	struct xr r;
	uint32_t idx;
	fake_ring(&k, &r, 8, 0, 0);
	T_EQ_U64(xr_prod_free(&r, 1), 8);
	T_EQ_U64(xr_prod_reserve(&r, 5, &idx), 5);
	T_EQ_U64(idx, 0);
	for (uint32_t i = 0; i < 5; i++)
		*xr_addr(&r, idx + i) = 100 + i;
	T_EQ_U64(k.prod, 0);                 /* nothing visible before submit */
	xr_prod_submit(&r, 5);
	T_EQ_U64(k.prod, 5);
	T_EQ_U64(xr_prod_reserve(&r, 5, &idx), 3);   /* partial: only 3 free */
	T_EQ_U64(idx, 5);
	xr_prod_submit(&r, 3);
	T_EQ_U64(xr_prod_reserve(&r, 1, &idx), 0);   /* full */
	k.cons = 4;                                   /* the kernel took four */
	T_EQ_U64(xr_prod_reserve(&r, 6, &idx), 4);
	T_EQ_U64(idx, 8);
	*xr_addr(&r, idx) = 777;
	T_EQ_U64(k.addrs[0], 777);                    /* index 8 masks to slot 0 */
	xr_prod_submit(&r, 4);
	T_EQ_U64(xr_prod_pending(&r), 8);
	k.cons = 12;
	T_EQ_U64(xr_prod_pending(&r), 0);
}

static void t_cached_consumer(void)
{
	/* the shared consumer index is re-read only when the cache shows too little room:
	 * most bursts touch no kernel-written cache line */
	struct fake k;
	struct xr r;
	uint32_t idx;
	fake_ring(&k, &r, 16, 0, 0);
	xr_prod_reserve(&r, 12, &idx);
	xr_prod_submit(&r, 12);
	k.cons = 12;                                  /* kernel consumed all; cache says 4 free */
	T_EQ_U64(xr_prod_free(&r, 4), 4);             /* enough by the cache: not re-read */
	T_EQ_U64(r.cached_cons, 0);
	T_EQ_U64(xr_prod_free(&r, 5), 16);            /* not enough: re-read */
	T_EQ_U64(r.cached_cons, 12);
}

static void t_consumer_peek_release(void)
{
	struct fake k;
	struct xr r;
	uint32_t idx;
	fake_ring(&k, &r, 8, 0, 1);
	T_EQ_U64(xr_cons_peek(&r, 4, &idx), 0);
	for (uint32_t i = 0; i < 6; i++)
		k.descs[i] = (struct xr_desc){ .addr = 2048 * i + 256, .len = 60 + i };
	k.prod = 6;
	T_EQ_U64(xr_cons_peek(&r, 4, &idx), 4);       /* at most max */
	T_EQ_U64(idx, 0);
	T_EQ_U64(xr_desc(&r, idx + 3)->len, 63);
	T_EQ_U64(k.cons, 0);                          /* not released yet */
	xr_cons_release(&r, 4);
	T_EQ_U64(k.cons, 4);
	T_EQ_U64(xr_cons_peek(&r, 64, &idx), 2);      /* what is left */
	T_EQ_U64(idx, 4);
	xr_cons_release(&r, 2);
	T_EQ_U64(k.cons, 6);
}

static void t_wrap_keeps_order(void)
{
	/* 1,000 entries through an 8-entry ring whose indexes start just below 2^32 */
	struct fake k;
	struct xr p, c;
	uint32_t idx;
	uint64_t next_in = 0, next_out = 0;
	int ok = 1;
	fake_ring(&k, &p, 8, 0xFFFFFFF0u, 0);
	xr_init(&c, 8, &k.prod, &k.cons, &k.flags, k.addrs);
	while (next_out < 1000) {
		uint32_t n = xr_prod_reserve(&p, 3, &idx);
		for (uint32_t i = 0; i < n && next_in < 1000; i++)
			*xr_addr(&p, idx + i) = next_in++;
		xr_prod_submit(&p, n);
		n = xr_cons_peek(&c, 2, &idx);
		for (uint32_t i = 0; i < n; i++)
			ok &= *xr_addr(&c, idx + i) == next_out++;
		xr_cons_release(&c, n);
	}
	T_TRUE(ok);
	T_TRUE(k.prod < 0xFFFFFFF0u);                 /* it did wrap */
}

static void t_wakeup_flag(void)
{
	struct fake k;
	struct xr r;
	fake_ring(&k, &r, 8, 0, 0);
	T_TRUE(!xr_needs_wakeup(&r));
	k.flags = XR_NEED_WAKEUP;
	T_TRUE(xr_needs_wakeup(&r));
}

static void t_refill_batching(void)
{
	T_EQ_U64(xr_refill_count(0, 100), 0);
	T_EQ_U64(xr_refill_count(XR_BATCH - 1, 100), 0);   /* too little room: wait */
	T_EQ_U64(xr_refill_count(XR_BATCH, 100), XR_BATCH);
	T_EQ_U64(xr_refill_count(500, 100), 100);          /* as many frames as there are */
	T_EQ_U64(xr_refill_count(500, 0), 0);
}

static void t_geometry(void)
{
	uint32_t c = 0;
	T_EQ_INT(xr_chunk_for(60, &c), 0);
	T_EQ_U64(c, 2048);
	T_EQ_INT(xr_chunk_for(1518, &c), 0);               /* MTU 1500 + Ethernet + VLAN */
	T_EQ_U64(c, 2048);
	T_EQ_INT(xr_chunk_for(2048 - XR_RX_HEADROOM, &c), 0);
	T_EQ_U64(c, 2048);
	T_EQ_INT(xr_chunk_for(2048 - XR_RX_HEADROOM + 1, &c), 0);
	T_EQ_U64(c, 4096);
	T_EQ_INT(xr_chunk_for(4096 - XR_RX_HEADROOM, &c), 0);
	T_EQ_INT(xr_chunk_for(4096 - XR_RX_HEADROOM + 1, &c), -EMSGSIZE);
	T_EQ_INT(xr_chunk_for(9014, &c), -EMSGSIZE);       /* jumbo: needs multi-buffer */
	T_EQ_U64(xr_pow2(1, 64), 64);
	T_EQ_U64(xr_pow2(4096, 64), 4096);
	T_EQ_U64(xr_pow2(4097, 64), 8192);
	T_EQ_U64(xr_pow2(16384, 64), 16384);
}

static void t_frames_alloc_put(void)
{
	struct xf f;
	uint64_t a[8];
	T_EQ_INT(xf_init(&f, 8, 3000), -EINVAL);           /* not a power of two */
	T_EQ_INT(xf_init(&f, 0, 2048), -EINVAL);
	T_EQ_INT(xf_init(&f, 8, 2048), 0);
	T_EQ_U64(f.nfree, 8);
	T_EQ_U64(xf_alloc(&f, a, 3, XF_FILL), 3);
	T_EQ_U64(a[0], 0);
	T_EQ_U64(a[1], 2048);
	T_EQ_U64(a[2], 4096);
	T_EQ_U64(xf_state_of(&f, 2048), XF_FILL);
	T_EQ_U64(xf_index(&f, 4096 + 256 + 59), 2);        /* an address inside a frame */
	T_EQ_U64(xf_base(&f, 4096 + 256 + 59), 4096);
	T_TRUE(xf_valid(&f, 8 * 2048 - 1));
	T_TRUE(!xf_valid(&f, 8 * 2048));
	/* RX: FILL -> held by port 1; forwarded: held -> TX; completed: TX -> FREE */
	T_TRUE(xf_move(&f, 2048 + 256, XF_FILL, xf_held(1)));
	T_TRUE(!xf_move(&f, 2048 + 256, XF_FILL, xf_held(1)));   /* not in FILL any more */
	T_TRUE(xf_move(&f, 2048 + 256, xf_held(1), XF_TX));
	T_EQ_INT(xf_put(&f, 2048 + 256, XF_TX), 0);
	T_EQ_U64(f.nfree, 6);
	T_EQ_U64(f.stack[f.nfree - 1], 2048);              /* back as its base address */
	/* a completion for a frame that was not sent is counted, not reused */
	T_EQ_INT(xf_put(&f, 2048, XF_TX), -EINVAL);
	T_EQ_INT(xf_put(&f, 0, XF_TX), -EINVAL);           /* it is in FILL */
	T_EQ_INT(xf_put(&f, 1 << 20, XF_TX), -EINVAL);     /* outside the UMEM */
	T_EQ_U64(f.bad, 3);
	T_EQ_U64(f.nfree, 6);
	T_TRUE(!xf_move(&f, 1 << 20, XF_FREE, XF_TX));
	/* exhaustion: fewer than asked */
	T_EQ_U64(xf_alloc(&f, a, 8, XF_TX), 6);
	T_EQ_U64(xf_alloc(&f, a, 1, XF_TX), 0);
	xf_fini(&f);
}

static uint32_t xs32(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* A port's life against a simulated kernel: frames move FREE -> fill ring -> RX ring ->
 * held -> (forwarded to TX -> completion -> FREE) or (recycled to fill), in random
 * bursts. Every frame is accounted for at every step and none is ever in two places. */
static void t_frames_conserved(void)
{
	enum { N = 64 };
	struct xf f;
	struct fake kf, kr, kt, kc;
	struct xr fq, rx, tx, cq, kfq, krx, ktx, kcq;   /* k*: the kernel's ends */
	uint64_t held[N];
	uint32_t nheld = 0, seed = 12345, idx, kidx;
	int ok = 1;
	xf_init(&f, N, 2048);
	fake_ring(&kf, &fq, 32, 0xFFFFFF00u, 0);
	xr_init(&kfq, 32, &kf.prod, &kf.cons, &kf.flags, kf.addrs);
	fake_ring(&kr, &rx, 32, 7, 1);
	xr_init(&krx, 32, &kr.prod, &kr.cons, &kr.flags, kr.descs);
	fake_ring(&kt, &tx, 16, 0xFFFFFFFAu, 1);
	xr_init(&ktx, 16, &kt.prod, &kt.cons, &kt.flags, kt.descs);
	fake_ring(&kc, &cq, 16, 3, 0);
	xr_init(&kcq, 16, &kc.prod, &kc.cons, &kc.flags, kc.addrs);
	for (int step = 0; step < 20000 && ok; step++) {
		/* port: recycle held frames (unless forwarded), refill, receive, forward some */
		for (uint32_t i = 0; i < nheld; i++) {
			if (xf_state_of(&f, held[i]) != xf_held(0))
				continue;
			if (xr_prod_reserve(&fq, 1, &idx) == 1) {
				f.state[xf_index(&f, held[i])] = XF_FILL;
				*xr_addr(&fq, idx) = xf_base(&f, held[i]);
				xr_prod_submit(&fq, 1);
			} else {
				ok &= xf_put(&f, held[i], xf_held(0)) == 0;
			}
		}
		nheld = 0;
		uint32_t want = xr_refill_count(xr_prod_free(&fq, XR_BATCH), f.nfree);
		uint32_t k = xr_prod_reserve(&fq, want, &idx);
		for (uint32_t i = 0; i < k; i++)
			ok &= xf_alloc(&f, xr_addr(&fq, idx + i), 1, XF_FILL) == 1;
		xr_prod_submit(&fq, k);
		uint32_t n = xr_cons_peek(&rx, 1 + xs32(&seed) % 16, &idx);
		for (uint32_t i = 0; i < n; i++) {
			const struct xr_desc *d = xr_desc(&rx, idx + i);
			ok &= xf_move(&f, d->addr, XF_FILL, xf_held(0));
			held[nheld++] = d->addr;
		}
		xr_cons_release(&rx, n);
		uint32_t fw = n ? xs32(&seed) % (n + 1) : 0;
		uint32_t t = xr_prod_reserve(&tx, fw, &idx);
		for (uint32_t i = 0; i < t; i++) {
			ok &= xf_move(&f, held[i], xf_held(0), XF_TX);
			*xr_desc(&tx, idx + i) = (struct xr_desc){ .addr = held[i], .len = 60 };
		}
		xr_prod_submit(&tx, t);
		n = xr_cons_peek(&cq, 16, &idx);
		for (uint32_t i = 0; i < n; i++)
			ok &= xf_put(&f, *xr_addr(&cq, idx + i), XF_TX) == 0;
		xr_cons_release(&cq, n);

		/* kernel: receive into a few fill frames, send a few, complete them */
		n = xr_cons_peek(&kfq, xs32(&seed) % 8, &kidx);
		uint32_t r = xr_prod_reserve(&krx, n, &idx);
		for (uint32_t i = 0; i < r; i++)
			*xr_desc(&krx, idx + i) = (struct xr_desc){
				.addr = *xr_addr(&kfq, kidx + i) + XR_RX_HEADROOM, .len = 60 };
		xr_prod_submit(&krx, r);
		kfq.cached_cons -= n - r;   /* what did not fit stays in the fill ring */
		xr_cons_release(&kfq, r);
		n = xr_cons_peek(&ktx, xs32(&seed) % 8, &kidx);
		uint32_t c = xr_prod_reserve(&kcq, n, &idx);
		for (uint32_t i = 0; i < c; i++)
			*xr_addr(&kcq, idx + i) = xr_desc(&ktx, kidx + i)->addr;
		xr_prod_submit(&kcq, c);
		ktx.cached_cons -= n - c;
		xr_cons_release(&ktx, c);

		/* every frame is in exactly one place */
		uint32_t in_fill = xr_used(kf.prod, kf.cons), in_rx = xr_used(kr.prod, kr.cons);
		uint32_t in_tx = xr_used(kt.prod, kt.cons), in_cq = xr_used(kc.prod, kc.cons);
		uint32_t held_now = 0;
		for (uint32_t i = 0; i < nheld; i++)
			held_now += xf_state_of(&f, held[i]) == xf_held(0);
		ok &= f.nfree + in_fill + in_rx + held_now + in_tx + in_cq == N;
	}
	T_TRUE(ok);
	T_EQ_U64(f.bad, 0);
	T_TRUE(kr.prod > 7 + 1000);          /* it really moved traffic */
	xf_fini(&f);
}

static void t_owner_names(void)
{
	/* no process holds a program id that does not exist: ours by name is a leftover */
	T_EQ_INT(xdp_prog_holder(0xFFFFFFF0u, 0), 0);
	T_TRUE(xdp_prog_leftover(XDP_OWNER_PROG, 0xFFFFFFF0u, 0));
	T_TRUE(!xdp_prog_leftover("xdp_drop", 0xFFFFFFF0u, 0));       /* a benchmark's */
	T_TRUE(!xdp_prog_leftover("xsk_def_prog", 0xFFFFFFF0u, 0));   /* libxdp's */
	T_TRUE(!xdp_prog_leftover(NULL, 0xFFFFFFF0u, 0));
	T_TRUE(strlen(XDP_OWNER_PROG) < 16);           /* fits bpf_prog_info.name */
}

int main(void)
{
	T_RUN(t_index_arithmetic);
	T_RUN(t_producer_reserve_submit);
	T_RUN(t_cached_consumer);
	T_RUN(t_consumer_peek_release);
	T_RUN(t_wrap_keeps_order);
	T_RUN(t_wakeup_flag);
	T_RUN(t_refill_batching);
	T_RUN(t_geometry);
	T_RUN(t_frames_alloc_put);
	T_RUN(t_frames_conserved);
	T_RUN(t_owner_names);
	return t_done();
}
