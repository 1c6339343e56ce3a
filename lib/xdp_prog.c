/* SPDX-License-Identifier: BSD-2-Clause */
/* xdp_prog.c — the XDP redirect program of AF_XDP ports (see xdp_prog.h), called by
 * lib/port_xdp.c when an RX port opens and closes.
 *
 * The program is ours, built at run time from six instructions (no clang, no object
 * file): r2 = ctx->rx_queue_index; return bpf_redirect_map(&xsks, r2, XDP_PASS) — frames
 * of queues without a socket go on to the kernel stack (where the lab's nftables shield
 * drops them). It is named XDP_OWNER_PROG, attached with XDP_FLAGS_UPDATE_IF_NOEXIST
 * (never replacing someone else's program), kept open while in use, and detached only
 * if it is still the one attached (XDP_FLAGS_REPLACE). A copy found attached at open and
 * held by no process is a leftover of a killed tool: detached, with a warning; any
 * other program makes the open fail with EBUSY and says how to remove it. */
#if defined(__linux__) && defined(PPSLAB_HAVE_XDP)
#include "xdp_prog.h"

#include <errno.h>
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "log.h"
#include "xdp_owner.h"

/* The kernel object is per interface and process-wide, so this table is too (a
 * process could open two queues of one interface). Open/close only. */
static struct xprog progs[16];
static pthread_mutex_t progs_mu = PTHREAD_MUTEX_INITIALIZER;

static int prog_load(int map_fd)
{
	struct bpf_insn insns[] = {
		/* r2 = ctx->rx_queue_index */
		{ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = BPF_REG_2, .src_reg = BPF_REG_1,
		  .off = offsetof(struct xdp_md, rx_queue_index) },
		/* r1 = the XSKMAP (a 64-bit immediate: two instructions) */
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_FD, .imm = map_fd },
		{ 0 },
		/* r3 = XDP_PASS: the action when the queue has no socket */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_3, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_redirect_map },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_XDP, XDP_OWNER_PROG, "GPL", insns,
			       sizeof(insns) / sizeof(insns[0]), NULL);
	return fd < 0 ? -errno : fd;
}

static int prog_name(uint32_t id, char name[BPF_OBJ_NAME_LEN], int *fd_out)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		int e = -errno;
		close(fd);
		return e;
	}
	memcpy(name, info.name, BPF_OBJ_NAME_LEN);
	name[BPF_OBJ_NAME_LEN - 1] = 0;
	*fd_out = fd;
	return 0;
}

/* Detaches a leftover of ours, refuses anything else (see the top comment). */
static int prog_clear_leftover(int ifindex, const char *ifname, char *err, size_t errlen)
{
	struct bpf_xdp_query_opts q;
	memset(&q, 0, sizeof(q));
	q.sz = sizeof(q);
	if (bpf_xdp_query(ifindex, 0, &q)) {
		int e = -errno;
		snprintf(err, errlen, "xdp:%s: cannot query its XDP programs: %s", ifname, strerror(-e));
		return e;
	}
	const struct { uint32_t id, flag; const char *mode, *ipword; } att[] = {
		{ q.drv_prog_id, XDP_FLAGS_DRV_MODE, "native", "xdpdrv" },
		{ q.skb_prog_id, XDP_FLAGS_SKB_MODE, "generic", "xdpgeneric" },
		{ q.hw_prog_id, XDP_FLAGS_HW_MODE, "offloaded", "xdpoffload" },
	};
	for (size_t i = 0; i < sizeof(att) / sizeof(att[0]); i++) {
		char name[BPF_OBJ_NAME_LEN] = "?";
		int fd = -1, holder = 0;
		if (!att[i].id)
			continue;
		prog_name(att[i].id, name, &fd);
		if (xdp_prog_leftover(name, att[i].id, (int)getpid())) {
			LIBBPF_OPTS(bpf_xdp_attach_opts, o, .old_prog_fd = fd);
			int rc = bpf_xdp_detach(ifindex, att[i].flag | XDP_FLAGS_REPLACE, &o);
			close(fd);
			if (rc) {
				snprintf(err, errlen, "xdp:%s: cannot detach the leftover XDP program "
					 "'%s' (id %u): %s", ifname, name, att[i].id, strerror(-rc));
				return rc;
			}
			log_warn("xdp:%s: detached a leftover XDP program '%s' (id %u, %s) of a "
				 "ppslab tool that ended without cleaning up", ifname, name,
				 att[i].id, att[i].mode);
			continue;
		}
		if (fd >= 0)
			close(fd);
		if (!strcmp(name, XDP_OWNER_PROG))
			holder = xdp_prog_holder(att[i].id, (int)getpid());
		if (holder > 0)
			snprintf(err, errlen, "xdp:%s: another ppslab process (pid %d) uses AF_XDP on "
				 "this interface; one xdp: port per interface and process", ifname,
				 holder);
		else
			snprintf(err, errlen, "xdp:%s: the interface already has an XDP program "
				 "('%s', id %u, %s mode); remove it first (ip link set dev %s %s off) "
				 "or use afpacket:%s", ifname, name, att[i].id, att[i].mode, ifname,
				 att[i].ipword, ifname);
		return -EBUSY;
	}
	return 0;
}

void xdp_prog_put(struct xprog *x)
{
	pthread_mutex_lock(&progs_mu);
	if (--x->refs == 0) {
		/* only if it is still ours: XDP_FLAGS_REPLACE with the expected program */
		LIBBPF_OPTS(bpf_xdp_attach_opts, o, .old_prog_fd = x->prog_fd);
		bpf_xdp_detach(x->ifindex, x->mode_flag | XDP_FLAGS_REPLACE, &o);
		close(x->prog_fd);
		close(x->map_fd);
		memset(x, 0, sizeof(*x));
	}
	pthread_mutex_unlock(&progs_mu);
}

/* The program on ifindex: ours already (one more user), or loaded and attached now. */
int xdp_prog_get(int ifindex, const char *ifname, int skb, struct xprog **out, char *err,
		    size_t errlen)
{
	struct xprog *x = NULL;
	int rc = 0;
	pthread_mutex_lock(&progs_mu);
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		if (progs[i].refs && progs[i].ifindex == ifindex) {
			progs[i].refs++;
			*out = &progs[i];
			goto out;
		}
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]) && !x; i++)
		if (!progs[i].refs)
			x = &progs[i];
	if (!x) {
		snprintf(err, errlen, "xdp:%s: too many interfaces with xdp: ports", ifname);
		rc = -ENOSPC;
		goto out;
	}
	if ((rc = prog_clear_leftover(ifindex, ifname, err, errlen)))
		goto out;
	x->map_fd = bpf_map_create(BPF_MAP_TYPE_XSKMAP, "ppslab_xsks", 4, 4, 64, NULL);
	if (x->map_fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "xdp:%s: cannot create an XSKMAP: %s%s", ifname, strerror(-rc),
			 rc == -EPERM ? " (needs root or CAP_BPF + CAP_NET_ADMIN)" : "");
		goto out;
	}
	x->prog_fd = prog_load(x->map_fd);
	if (x->prog_fd < 0) {
		rc = x->prog_fd;
		snprintf(err, errlen, "xdp:%s: the kernel refused the XDP redirect program: %s",
			 ifname, strerror(-rc));
		close(x->map_fd);
		goto out;
	}
	/* native (driver) mode unless skb=1; a driver without native XDP falls back to
	 * generic mode unless native was not asked for explicitly */
	x->mode_flag = skb ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE;
	rc = bpf_xdp_attach(ifindex, x->prog_fd, x->mode_flag | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
	if (rc == -EOPNOTSUPP && !skb) {
		x->mode_flag = XDP_FLAGS_SKB_MODE;
		rc = bpf_xdp_attach(ifindex, x->prog_fd, x->mode_flag | XDP_FLAGS_UPDATE_IF_NOEXIST,
				    NULL);
	}
	if (rc) {
		snprintf(err, errlen, "xdp:%s: cannot attach the XDP program (%s mode): %s%s", ifname,
			 x->mode_flag == XDP_FLAGS_SKB_MODE ? "generic" : "native", strerror(-rc),
			 rc == -EBUSY || rc == -EEXIST ? " (another XDP program was attached meanwhile)"
						       : "");
		close(x->prog_fd);
		close(x->map_fd);
		goto out;
	}
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(x->prog_fd, &info, &len) == 0)
		x->prog_id = info.id;
	x->ifindex = ifindex;
	x->refs = 1;
	*out = x;
out:
	pthread_mutex_unlock(&progs_mu);
	return rc;
}
#endif
