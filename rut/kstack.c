/* SPDX-License-Identifier: BSD-2-Clause */
/* kstack.c — detects the kernel forwarding the forwarder's frames too (see kstack.h).
 * Called once by main.c at start. */
#include "kstack.h"

#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

/* `nft list chain netdev ppslab_shield in_IF` succeeds: the lab's shield is on. */
static bool shielded(const char *ifname)
{
	char chain[64];
	snprintf(chain, sizeof(chain), "in_%s", ifname);
	char *const argv[] = { "nft", "list", "chain", "netdev", "ppslab_shield", chain, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1 /* O_WRONLY */, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
	pid_t pid;
	int st = -1;
	if (posix_spawnp(&pid, "nft", &fa, NULL, argv, environ) == 0)
		waitpid(pid, &st, 0);
	posix_spawn_file_actions_destroy(&fa);
	return st == 0;
}

/* /proc/sys/net/ipv{4,6}/conf/IF/forwarding is 1 */
static bool forwarding(const char *family, const char *ifname)
{
	char path[128];
	snprintf(path, sizeof(path), "/proc/sys/net/%s/conf/%s/forwarding", family, ifname);
	FILE *f = fopen(path, "r");
	int on = 0;
	if (!f)
		return false;
	if (fscanf(f, "%d", &on) != 1)
		on = 0;
	fclose(f);
	return on != 0;
}

bool kstack_forwards(const char *ifname, char *why, size_t len)
{
	const char *fam = forwarding("ipv4", ifname) ? "ipv4"
			  : forwarding("ipv6", ifname) ? "ipv6" : NULL;
	if (!fam || shielded(ifname))
		return false;
	snprintf(why, len, "net.%s.conf.%s.forwarding is 1 and no ppslab shield drops its "
		 "frames first", fam, ifname);
	return true;
}
