/* SPDX-License-Identifier: BSD-2-Clause */
/* version.c — version string and share directory; PPSLAB_GIT (git describe) and
 * PPSLAB_SHARE_DIR (PREFIX/share/ppslab) come from the Makefile. */
#include "version.h"

#include <string.h>

#ifndef PPSLAB_GIT
#define PPSLAB_GIT "unknown"
#endif
#ifndef PPSLAB_SHARE_DIR
#define PPSLAB_SHARE_DIR "/usr/local/share/ppslab"
#endif

const char *ppslab_version(void)
{
	return PPSLAB_VERSION " (git " PPSLAB_GIT ")";
}

const char *ppslab_share_dir(void)
{
	return PPSLAB_SHARE_DIR;
}

/* the length of a version's release ("0.1.0" of "0.1.0 (git 669017a)") */
static size_t release_len(const char *v)
{
	const char *g = strstr(v, " (git ");
	return g ? (size_t)(g - v) : strlen(v);
}

bool ppslab_same_release(const char *a, const char *b)
{
	if (!a || !b)
		return false;
	size_t la = release_len(a);
	return la && la == release_len(b) && !strncmp(a, b, la);
}
