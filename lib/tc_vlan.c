/* SPDX-License-Identifier: BSD-2-Clause */
/* tc_vlan.c — the tc BPF programs of an emulated 802.1Q subinterface (see tc_vlan.h),
 * called by `ppslab lab up --vlan` (analysis/runner/lab.c) where the kernel refuses
 * `ip link add ... type vlan`. */
#include "tc_vlan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(__linux__)
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
						.off = (o), .imm = (i) })
#define LDX_W(d, s, field) INSN(BPF_LDX | BPF_MEM | BPF_W, d, s, \
				(short)offsetof(struct __sk_buff, field), 0)
#define MOV_K(d, k) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, k)
#define MOV_X(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define CALL(f) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

int tc_vlan_build(enum tc_vlan_dir dir, unsigned vid, int to_ifindex, struct bpf_insn *out,
		  int max)
{
	if (vid < 1 || vid > 4094 || to_ifindex <= 0 || (dir != TC_VLAN_POP && dir != TC_VLAN_PUSH))
		return -EINVAL;
	/* the tag's protocol as the helpers and __sk_buff.vlan_proto have it: network order */
	int proto = htons(ETH_P_8021Q);
	struct bpf_insn p[TC_VLAN_INSNS_MAX];
	int n = 0;
	if (dir == TC_VLAN_POP) {
		/* PASS and SHOT are the last four instructions; the jumps' offsets are
		 * counted from the next instruction */
		enum { SHOT = 15, PASS = 17 };
		p[n++] = MOV_X(BPF_REG_6, BPF_REG_1);                                /* 0 */
		p[n++] = LDX_W(BPF_REG_2, BPF_REG_1, vlan_present);                  /* 1 */
		p[n] = INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_2, 0, PASS - n - 1, 0); n++;
		p[n++] = LDX_W(BPF_REG_2, BPF_REG_1, vlan_proto);                    /* 3 */
		p[n] = INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_2, 0, PASS - n - 1, proto); n++;
		p[n++] = LDX_W(BPF_REG_2, BPF_REG_1, vlan_tci);                      /* 5 */
		p[n++] = INSN(BPF_ALU64 | BPF_AND | BPF_K, BPF_REG_2, 0, 0, 0x0fff); /* the VID */
		p[n] = INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_2, 0, PASS - n - 1, (int)vid); n++;
		p[n++] = MOV_X(BPF_REG_1, BPF_REG_6);                                /* 8 */
		p[n++] = CALL(BPF_FUNC_skb_vlan_pop);
		p[n] = INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, SHOT - n - 1, 0); n++;
		p[n++] = MOV_K(BPF_REG_1, to_ifindex);                               /* 11 */
		p[n++] = MOV_K(BPF_REG_2, 0);          /* egress of the hidden peer: arrives on P.V */
		p[n++] = CALL(BPF_FUNC_redirect);
		p[n++] = EXIT();                                                     /* 14 */
		p[n++] = MOV_K(BPF_REG_0, TC_ACT_SHOT);                              /* SHOT */
		p[n++] = EXIT();
		p[n++] = MOV_K(BPF_REG_0, TC_ACT_UNSPEC);                            /* PASS */
		p[n++] = EXIT();
	} else {
		enum { SHOT = 8 };
		p[n++] = MOV_K(BPF_REG_2, proto);                                    /* 0 */
		p[n++] = MOV_K(BPF_REG_3, (int)vid);   /* the TCI: priority 0, the VID */
		p[n++] = CALL(BPF_FUNC_skb_vlan_push);
		p[n] = INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, SHOT - n - 1, 0); n++;
		p[n++] = MOV_K(BPF_REG_1, to_ifindex);                               /* 4 */
		p[n++] = MOV_K(BPF_REG_2, 0);          /* egress of P: onto the trunk */
		p[n++] = CALL(BPF_FUNC_redirect);
		p[n++] = EXIT();                                                     /* 7 */
		p[n++] = MOV_K(BPF_REG_0, TC_ACT_SHOT);                              /* SHOT */
		p[n++] = EXIT();
	}
	if (n > max)
		return -ENOSPC;
	memcpy(out, p, (size_t)n * sizeof(p[0]));
	return n;
}
#endif

#if defined(__linux__) && defined(PPSLAB_HAVE_XDP)
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

int tc_vlan_supported(char *why, size_t whylen)
{
	(void)why;
	(void)whylen;
	return 1;
}

/* Loads dir's program for vid to to_ifindex and attaches it on ifindex's ingress. In the
 * namespace already (the child of tc_vlan_attach). */
static int load_attach(enum tc_vlan_dir dir, unsigned vid, int ifindex, int to_ifindex,
		       const char *ifname, char *err, size_t errlen)
{
	struct bpf_insn insns[TC_VLAN_INSNS_MAX];
	int n = tc_vlan_build(dir, vid, to_ifindex, insns, TC_VLAN_INSNS_MAX);
	if (n < 0) {
		snprintf(err, errlen, "VLAN %u: no program: %s", vid, strerror(-n));
		return n;
	}
	static char log[8192];
	log[0] = 0;
	LIBBPF_OPTS(bpf_prog_load_opts, lo, .log_buf = log, .log_size = sizeof(log), .log_level = 1);
	int fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS,
			       dir == TC_VLAN_POP ? "ppslab_vlanpop" : "ppslab_vlanpush", "GPL", insns,
			       (size_t)n, &lo);
	if (fd < 0) {
		int e = -errno;
		log[strcspn(log, "\n")] = 0;
		snprintf(err, errlen, "%s: the kernel refused the VLAN %u program: %s%s%s", ifname, vid,
			 strerror(-e), log[0] ? ": " : "", log);
		return e;
	}
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
	int rc = bpf_tc_hook_create(&hook);
	if (rc && rc != -EEXIST) {
		snprintf(err, errlen, "%s: cannot add a clsact qdisc: %s", ifname, strerror(-rc));
		close(fd);
		return rc;
	}
	LIBBPF_OPTS(bpf_tc_opts, to, .handle = TC_VLAN_HANDLE, .priority = TC_VLAN_PRIO,
		    .prog_fd = fd, .flags = BPF_TC_F_REPLACE);
	rc = bpf_tc_attach(&hook, &to);
	close(fd);   /* the filter holds the program from now on */
	if (rc)
		snprintf(err, errlen, "%s: cannot attach the VLAN %u program on its ingress: %s", ifname,
			 vid, strerror(-rc));
	return rc;
}

int tc_vlan_attach(const char *netns, const char *port, const char *peer, unsigned vid, char *err,
		   size_t errlen)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int e = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return e;
	}
	if (pid == 0) {
		char msg[512] = "", path[256];
		int rc = 0;
		close(pfd[0]);
		snprintf(path, sizeof(path), "/run/netns/%s", netns);
		int nfd = open(path, O_RDONLY | O_CLOEXEC);
		if (nfd < 0 || setns(nfd, CLONE_NEWNET) < 0) {
			rc = -errno;
			snprintf(msg, sizeof(msg), "cannot enter the namespace %s: %s", netns, strerror(errno));
		}
		int pi = rc ? 0 : (int)if_nametoindex(port), qi = rc ? 0 : (int)if_nametoindex(peer);
		if (!rc && (!pi || !qi)) {
			rc = -ENODEV;
			snprintf(msg, sizeof(msg), "[%s] no interface %s", netns, pi ? peer : port);
		}
		if (!rc)
			rc = load_attach(TC_VLAN_POP, vid, pi, qi, port, msg, sizeof(msg));
		if (!rc && (rc = load_attach(TC_VLAN_PUSH, vid, qi, pi, peer, msg, sizeof(msg)))) {
			/* not half a subinterface: the pop program leaves the port again */
			LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = pi, .attach_point = BPF_TC_INGRESS);
			LIBBPF_OPTS(bpf_tc_opts, to, .handle = TC_VLAN_HANDLE, .priority = TC_VLAN_PRIO);
			int d = bpf_tc_detach(&hook, &to);
			if (d)
				snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
					 "; and the VLAN %u program stays on %s: %s", vid, port,
					 strerror(-d));
		}
		ssize_t w = write(pfd[1], msg, strlen(msg));
		(void)w;
		_exit(rc ? (-rc & 0xff) : 0);
	}
	close(pfd[1]);
	char msg[512];
	/* until the child's end closes: a signal does not lose its message */
	size_t got = 0;
	for (;;) {
		ssize_t r = read(pfd[0], msg + got, sizeof(msg) - 1 - got);
		if (r > 0 && (got += (size_t)r) < sizeof(msg) - 1)
			continue;
		if (r < 0 && errno == EINTR)
			continue;
		break;
	}
	close(pfd[0]);
	msg[got] = 0;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	int rc = WIFEXITED(st) ? -WEXITSTATUS(st) : -EIO;
	if (rc)
		snprintf(err, errlen, "%s", msg[0] ? msg : "the VLAN programs' process failed");
	return rc;
}
#else
int tc_vlan_supported(char *why, size_t whylen)
{
	snprintf(why, whylen, "this build has no libbpf (libbpf-dev; 'make deps' installs it), "
		 "which emulating a VLAN subinterface with tc BPF programs needs");
	return 0;
}

int tc_vlan_attach(const char *netns, const char *port, const char *peer, unsigned vid, char *err,
		   size_t errlen)
{
	(void)netns;
	(void)port;
	(void)peer;
	(void)vid;
	tc_vlan_supported(err, errlen);
	return -EOPNOTSUPP;
}
#endif
