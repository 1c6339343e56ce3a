/* version.c — version string; PPSLAB_GIT comes from the Makefile (git describe). */
#include "version.h"

#ifndef PPSLAB_GIT
#define PPSLAB_GIT "unknown"
#endif

const char *ppslab_version(void)
{
	return PPSLAB_VERSION " (git " PPSLAB_GIT ")";
}
