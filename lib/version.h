/* version.h — the ppslab version and the git revision it was built from. */
#ifndef PPSLAB_VERSION_H
#define PPSLAB_VERSION_H

#define PPSLAB_VERSION "0.1.0"

/* "0.1.0 (git abc1234)" */
const char *ppslab_version(void);

#endif
