/* SPDX-License-Identifier: BSD-2-Clause */
/* log.h — diagnostics on stderr, prefixed with the program name.
 * Human results go to stdout; everything said here goes to stderr so output pipes
 * cleanly. The level is set once by main(): 0 = errors only (-q), 1 = warnings
 * (default), 2 = info (-v), 3 = debug (-vv). */
#ifndef PPSLAB_LIB_LOG_H
#define PPSLAB_LIB_LOG_H

void log_init(const char *prog, int level);
int log_level(void);
void log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
