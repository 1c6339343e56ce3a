/* SPDX-License-Identifier: BSD-2-Clause */
/* version.c — version string and share directory; PPSLAB_GIT (git describe) and
 * PPSLAB_SHARE_DIR (PREFIX/share/ppslab) come from the Makefile. */
#include "version.h"

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
