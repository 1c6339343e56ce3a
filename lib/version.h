/* SPDX-License-Identifier: BSD-2-Clause */
/* version.h — the ppslab version and the git revision it was built from. */
#ifndef PPSLAB_LIB_VERSION_H
#define PPSLAB_LIB_VERSION_H

#include <stdbool.h>

#define PPSLAB_VERSION "0.1.0"

/* "0.1.0 (git abc1234)" */
const char *ppslab_version(void);

/* Whether two version strings as ppslab_version() gives them name the same release
 * ("0.1.0 (git abc1234)" and "0.1.0 (git 5d6e7f8-dirty)": a rebuild), whatever
 * commit each was built from. False when either is NULL. */
bool ppslab_same_release(const char *a, const char *b);

/* The directory `make install` put the shared data in: PREFIX/share/ppslab (the PREFIX
 * the programs were built with; /usr/local/share/ppslab by default). It holds
 * profiles/NAME.json (sweep profiles) and profiles/rules/NAME.rules (ipfw rule sets).
 * Profile lookup tries the current directory first and this directory second. */
const char *ppslab_share_dir(void);

#endif
