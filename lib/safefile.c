/* SPDX-License-Identifier: BSD-2-Clause */
/* safefile.c — files created without following planted symlinks (see safefile.h). */
#include "safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

/* Random bytes; the kernel's, else a mix of time and pid (still not guessable from
 * outside in advance, and O_EXCL keeps a guess harmless anyway). */
static void rand_bytes(unsigned char *b, size_t n)
{
#if defined(__linux__)
	if (getrandom(b, n, GRND_NONBLOCK) == (ssize_t)n)
		return;
#endif
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)ts.tv_sec ^
		     ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)b;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		b[i] = (unsigned char)x;
	}
}

char *safe_tmp_name(const char *path)
{
	static const char al[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *name = path + dlen;
	size_t len = strlen(path) + 16;
	char *t = malloc(len);
	if (!t)
		return NULL;
	unsigned char r[12];
	rand_bytes(r, sizeof(r));
	char x[13];
	for (size_t i = 0; i < sizeof(r); i++)
		x[i] = al[r[i] % (sizeof(al) - 1)];
	x[12] = 0;
	snprintf(t, len, "%.*s.%s.%s", (int)dlen, path, name, x);
	return t;
}

static void sf_clear(struct safefile *sf)
{
	free(sf->path);
	free(sf->tmp);
	sf->f = NULL;
	sf->path = sf->tmp = NULL;
}

int safe_create(struct safefile *sf, const char *path, mode_t mode)
{
	memset(sf, 0, sizeof(*sf));
	if (!*path)
		return -ENOENT;
	sf->path = strdup(path);
	if (!sf->path)
		return -ENOMEM;
	for (int tries = 0; tries < 100; tries++) {
		free(sf->tmp);
		sf->tmp = safe_tmp_name(path);
		if (!sf->tmp) {
			sf_clear(sf);
			return -ENOMEM;
		}
		int fd = open(sf->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0) {
			if (errno == EEXIST)
				continue;
			int e = errno;
			sf_clear(sf);
			return -e;
		}
		sf->f = fdopen(fd, "w");
		if (!sf->f) {
			int e = errno;
			close(fd);
			unlink(sf->tmp);
			sf_clear(sf);
			return -e;
		}
		return 0;
	}
	sf_clear(sf);
	return -EEXIST;
}

/* Closes the stream with the first error of any write, flush, fsync or close. */
static int sf_close(struct safefile *sf, unsigned flags)
{
	if (!sf->f)
		return 0;
	int rc = 0;
	errno = 0;
	if (ferror(sf->f)) {
		/* stdio keeps no errno of a failed write: a full file system is the usual
		 * cause, and the one a user can act on, so it is named when it is so */
		struct statvfs v;
		rc = fstatvfs(fileno(sf->f), &v) == 0 && (uint64_t)v.f_bavail * v.f_frsize < 65536
		     ? -ENOSPC : -EIO;
	}
	if (!rc && fflush(sf->f))
		rc = errno ? -errno : -EIO;
	if (!rc && (flags & SAFE_SYNC) && fsync(fileno(sf->f)) < 0)
		rc = -errno;
	if (fclose(sf->f) && !rc)
		rc = errno ? -errno : -EIO;
	sf->f = NULL;
	return rc;
}

int safe_release(struct safefile *sf)
{
	int rc = sf_close(sf, 0);
	if (rc)
		safe_abort(sf);
	return rc;
}

/* The rename is durable once the directory is on disk too: fsync it (best effort: a
 * directory that cannot be opened or synced leaves the data synced all the same). */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int safe_commit(struct safefile *sf, unsigned flags)
{
	if (!sf->tmp)
		return -EINVAL;
	int rc = sf_close(sf, flags);
	if (!rc && rename(sf->tmp, sf->path) < 0)
		rc = -errno;
	if (rc)
		unlink(sf->tmp);
	else if (flags & SAFE_SYNC)
		sync_dir(sf->path);
	sf_clear(sf);
	return rc;
}

void safe_abort(struct safefile *sf)
{
	if (sf->f)
		fclose(sf->f);
	if (sf->tmp)
		unlink(sf->tmp);
	sf_clear(sf);
}

int safe_write_file(const char *path, mode_t mode, const void *data, size_t len,
		    unsigned flags)
{
	struct safefile sf;
	int rc = safe_create(&sf, path, mode);
	if (rc)
		return rc;
	/* write(2) directly, so that a full disk says ENOSPC, not stdio's EIO */
	int fd = fileno(sf.f);
	const char *p = data;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			safe_abort(&sf);
			return rc;
		}
		p += w;
		len -= (size_t)w;
	}
	return safe_commit(&sf, flags);
}

int safe_open_lock(const char *path, mode_t mode)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd >= 0 || errno != EEXIST)
		return fd >= 0 ? fd : -errno;
	fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
	    st.st_uid != geteuid()) {
		close(fd);
		return -EPERM;
	}
	return fd;
}
