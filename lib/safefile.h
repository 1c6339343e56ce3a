/* SPDX-License-Identifier: BSD-2-Clause */
/* safefile.h — creating a file without following a symlink someone else planted.
 *
 * The contract: a file is never opened by its name. safe_create makes a temporary in
 * the target's directory, named ".NAME.XXXXXXXXXXXX" with random letters, with
 * O_CREAT|O_EXCL|O_NOFOLLOW (so it is a new file we made, never a link), and the data
 * is written there; safe_commit renames it over NAME. rename(2) replaces a symlink at
 * NAME by our file and never writes through it, so a link planted at NAME or at the
 * temporary's name cannot redirect what ppslab writes, even as root in /tmp. */
#ifndef PPSLAB_LIB_SAFEFILE_H
#define PPSLAB_LIB_SAFEFILE_H

#include <stdio.h>
#include <sys/types.h>

struct safefile {
	FILE *f;          /* write through this (NULL after safe_release) */
	char *path;       /* the target */
	char *tmp;        /* the temporary beside it */
};

/* safe_commit's flags */
#define SAFE_SYNC 1u      /* fsync the data before the rename (a file a crash must not lose) */

/* Creates the temporary for path with mode (less the umask). 0, or -errno with *sf
 * zeroed (nothing to abort). */
int safe_create(struct safefile *sf, const char *path, mode_t mode);
/* Closes the stream but keeps the temporary, for another program to write by the name
 * sf->tmp (gnuplot's image): it opens a regular file we made, never a link. 0 or
 * -errno (the temporary removed). */
int safe_release(struct safefile *sf);
/* Flushes, checks every write succeeded, fsyncs with SAFE_SYNC, closes and renames the
 * temporary over the target. 0, or -errno (the write's own: -ENOSPC when the disk is
 * full) with the temporary removed and the target as it was. */
int safe_commit(struct safefile *sf, unsigned flags);
/* Drops the temporary; the target stays as it was. Safe on a zeroed or finished sf. */
void safe_abort(struct safefile *sf);

/* A whole file in one call: len bytes of data. 0 or -errno as safe_commit. */
int safe_write_file(const char *path, mode_t mode, const void *data, size_t len,
		    unsigned flags);

/* A lock file that others open by its name too, so it cannot be a temporary renamed
 * into place: created with O_EXCL|O_NOFOLLOW, or, when it is there already, opened
 * O_NOFOLLOW and kept only if it is a regular file with one link owned by this user (a
 * hard link planted to a file of root's would otherwise be truncated when the lock
 * says who holds it). The descriptor (O_RDWR, close-on-exec), or -errno: -ELOOP for a
 * symlink, -EPERM for a file that is not ours or has other links. */
int safe_open_lock(const char *path, mode_t mode);

/* The temporary's name for path, random: "DIR/.NAME.XXXXXXXXXXXX". Exposed for tests.
 * NULL on -ENOMEM. The caller frees. */
char *safe_tmp_name(const char *path);

#endif
