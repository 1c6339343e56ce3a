/* SPDX-License-Identifier: BSD-2-Clause */
/* version.h — the ppslab version and the git revision it was built from. */
#ifndef PPSLAB_LIB_VERSION_H
#define PPSLAB_LIB_VERSION_H

#define PPSLAB_VERSION "0.1.0"

/* "0.1.0 (git abc1234)" */
const char *ppslab_version(void);

/* The directory `make install` put the shared data in: PREFIX/share/ppslab (the PREFIX
 * the programs were built with; /usr/local/share/ppslab by default). It holds
 * profiles/NAME.json (sweep profiles) and profiles/rules/NAME.rules (ipfw rule sets).
 * Profile lookup tries the current directory first and this directory second. */
const char *ppslab_share_dir(void);

#endif
