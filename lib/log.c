/* SPDX-License-Identifier: BSD-2-Clause */
/* log.c — the one place that writes diagnostics to stderr (see log.h). */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static const char *log_prog = "ppslab";
static int log_lvl = 1;

void log_init(const char *prog, int level)
{
	log_prog = prog;
	log_lvl = level;
}

int log_level(void)
{
	return log_lvl;
}

static void log_v(int level, const char *what, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void log_v(int level, const char *what, const char *fmt, va_list ap)
{
	if (level > log_lvl)
		return;
	fprintf(stderr, "%s: %s", log_prog, what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define LOG_FN(name, level, what)                 \
	void name(const char *fmt, ...)           \
	{                                         \
		va_list ap;                       \
		va_start(ap, fmt);                \
		log_v(level, what, fmt, ap);      \
		va_end(ap);                       \
	}

LOG_FN(log_err, 0, "")
LOG_FN(log_warn, 1, "warning: ")
LOG_FN(log_info, 2, "")
LOG_FN(log_debug, 3, "debug: ")
