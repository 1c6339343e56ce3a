/* SPDX-License-Identifier: BSD-2-Clause */
/* t_lab.c — lab_up's own check of what a caller other than `ppslab lab` may hand it:
 * a VLAN id beyond 4094 refused with a message naming it, before any namespace. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"
#include "log.h"
#include "tap.h"

/* lab_up(name, o)'s return, its stderr into err */
static int up_err(const char *name, const struct lab_up_opts *o, char *err, size_t len)
{
	char path[] = "/tmp/t_lab.XXXXXX";
	int fd = mkstemp(path), save = dup(2);
	if (fd < 0 || save < 0)
		return -999;
	unlink(path);
	fflush(stderr);
	dup2(fd, 2);
	int rc = lab_up(name, o);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	ssize_t n = pread(fd, err, len - 1, 0);
	err[n > 0 ? n : 0] = 0;
	close(fd);
	return rc;
}

static void t_vlan_range(void)
{
	char err[512];
	struct lab_up_opts o = { .vlan = 4095 };
	T_EQ_INT(up_err("tlabvid", &o, err, sizeof(err)), -EINVAL);
	T_TRUE(strstr(err, "VLAN 4095") != NULL);
	T_TRUE(strstr(err, "1..4094") != NULL);
	T_TRUE(access("/run/netns/tlabvid-rut", F_OK) != 0);   /* nothing made */
}

int main(void)
{
	log_init("t_lab", 0);
	T_RUN(t_vlan_range);
	return t_done();
}
