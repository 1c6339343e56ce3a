/* SPDX-License-Identifier: BSD-2-Clause */
/* priv.c — resolving a user and dropping to it (see priv.h). Called by the mains of
 * ppslab-gen, ppslab-sink and ppslab-rut for --user, after their ports are open. */
#include "priv.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

int priv_lookup(const char *name, struct priv_user *u, char *err, size_t errlen)
{
	if (!name || !*name || strlen(name) >= sizeof(u->name)) {
		snprintf(err, errlen, "'%s': expected a user name of 1..%zu characters",
			 name ? name : "", sizeof(u->name) - 1);
		return -EINVAL;
	}
	struct passwd pw, *res = NULL;
	char buf[4096];
	errno = 0;
	int rc = getpwnam_r(name, &pw, buf, sizeof(buf), &res);
	if (!res) {
		if (rc && rc != ENOENT && rc != ESRCH)
			snprintf(err, errlen, "'%s': cannot look the user up: %s", name,
				 strerror(rc));
		else
			snprintf(err, errlen, "'%s': no such user", name);
		return -ENOENT;
	}
	snprintf(u->name, sizeof(u->name), "%s", name);
	u->uid = pw.pw_uid;
	u->gid = pw.pw_gid;
	return 0;
}

#ifdef __linux__
/* Effective and permitted capability sets are empty. */
static int caps_empty(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	for (int i = 0; i < 2; i++)
		if (d[i].effective || d[i].permitted)
			return -EPERM;
	return 0;
}
#endif

int priv_drop(const struct priv_user *u, char *err, size_t errlen)
{
	if (geteuid() != 0) {
		snprintf(err, errlen, "--user %s: not running as root, nothing to drop", u->name);
		return -EPERM;
	}
	if (setgroups(1, &u->gid) < 0 || setgid(u->gid) < 0) {
		int e = errno;
		snprintf(err, errlen, "--user %s: cannot set group %u: %s", u->name,
			 (unsigned)u->gid, strerror(e));
		return -e;
	}
	if (setuid(u->uid) < 0) {
		int e = errno;
		snprintf(err, errlen, "--user %s: cannot set user %u: %s", u->name,
			 (unsigned)u->uid, strerror(e));
		return -e;
	}
#ifdef __linux__
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		int e = errno;
		snprintf(err, errlen, "--user %s: cannot set no_new_privs: %s", u->name,
			 strerror(e));
		return -e;
	}
#endif
	/* The checks: every id is the user's, root cannot come back, no capability left. */
	uid_t r, e, s;
	gid_t gr, ge, gs;
	if (getresuid(&r, &e, &s) < 0 || getresgid(&gr, &ge, &gs) < 0 || r != u->uid ||
	    e != u->uid || s != u->uid || gr != u->gid || ge != u->gid || gs != u->gid) {
		snprintf(err, errlen, "--user %s: the ids did not change as asked", u->name);
		return -EPERM;
	}
	if (u->uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
		snprintf(err, errlen, "--user %s: root could be regained after the drop", u->name);
		return -EPERM;
	}
#ifdef __linux__
	if (u->uid != 0 && caps_empty()) {
		snprintf(err, errlen, "--user %s: capabilities are left after the drop", u->name);
		return -EPERM;
	}
#endif
	return 0;
}
