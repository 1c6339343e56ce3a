/* SPDX-License-Identifier: BSD-2-Clause */
/* xdp_owner.c — finding who holds a BPF program, from /proc (see xdp_owner.h). Called
 * when a port opens and by `ppslab lab up`, never per packet. */
#include "xdp_owner.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool xdp_prog_leftover(const char *name, uint32_t prog_id, int except)
{
	return name && !strcmp(name, XDP_OWNER_PROG) && xdp_prog_holder(prog_id, except) == 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* True if /proc/PID/fdinfo/FD names prog_id. */
static bool fd_holds(const char *pid, const char *fd, uint32_t prog_id)
{
	char path[96], line[128];
	bool found = false;
	snprintf(path, sizeof(path), "/proc/%.16s/fdinfo/%.16s", pid, fd);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *end;
		if (strncmp(line, "prog_id:", 8))
			continue;
		unsigned long v = strtoul(line + 8, &end, 10);
		found = end != line + 8 && v == prog_id;
	}
	fclose(f);
	return found;
}

int xdp_prog_holder(uint32_t prog_id, int except)
{
	DIR *proc = opendir("/proc");
	struct dirent *p;
	int holder = 0;
	if (!proc)
		return 0;   /* no /proc: nobody visible holds it */
	while (!holder && (p = readdir(proc))) {
		char path[96];
		if (!all_digits(p->d_name) || strtol(p->d_name, NULL, 10) == except)
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s/fd", p->d_name);
		DIR *fds = opendir(path);
		if (!fds)
			continue;   /* gone, or not ours to read */
		struct dirent *d;
		while (!holder && (d = readdir(fds))) {
			char lpath[128], target[64];
			if (!all_digits(d->d_name))
				continue;
			/* only BPF program and link descriptors can hold a program: the cheap
			 * readlink filters before the fdinfo read */
			snprintf(lpath, sizeof(lpath), "%.40s/%.16s", path, d->d_name);
			ssize_t l = readlink(lpath, target, sizeof(target) - 1);
			if (l <= 0)
				continue;
			target[l] = 0;
			if (strcmp(target, "anon_inode:bpf-prog") && strcmp(target, "anon_inode:bpf_link"))
				continue;
			if (fd_holds(p->d_name, d->d_name, prog_id))
				holder = (int)strtol(p->d_name, NULL, 10);
		}
		closedir(fds);
	}
	closedir(proc);
	return holder;
}
