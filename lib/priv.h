/* SPDX-License-Identifier: BSD-2-Clause */
/* priv.h — dropping root after the ports are open (--user NAME of ppslab-gen,
 * ppslab-sink and ppslab-rut).
 *
 * priv_lookup resolves the user before anything is opened, so that an unknown name is
 * refused at once (the mains exit 67, EX_NOUSER). priv_drop then sets the supplementary
 * groups to the user's primary group only, the gid, the uid (real, effective and saved),
 * clears the ambient capabilities and sets no_new_privs; afterwards it checks that root
 * cannot be regained (setuid(0) fails) and that no capability is left (effective,
 * permitted). Returns 0 or -errno with a message naming what failed in err. */
#ifndef PPSLAB_LIB_PRIV_H
#define PPSLAB_LIB_PRIV_H

#include <stddef.h>
#include <sys/types.h>

struct priv_user {
	char name[64];
	uid_t uid;
	gid_t gid;
};

/* 0, -ENOENT for an unknown user (err says so), -EINVAL for an empty or too long name. */
int priv_lookup(const char *name, struct priv_user *u, char *err, size_t errlen);
/* 0 or -errno (-EPERM: not running as root, or a check after the drop failed). */
int priv_drop(const struct priv_user *u, char *err, size_t errlen);

#endif
