/* SPDX-License-Identifier: BSD-2-Clause */
/* fwlog.c — a ring of log lines (see fwlog.h). The forwarding threads push, one at a
 * time; main.c drains. */
#include "fwlog.h"

#include <string.h>

void fwlog_init(struct fwlog *l)
{
	memset(l, 0, sizeof(*l));
	atomic_flag_clear(&l->busy);
}

void fwlog_push(void *arg, const char *line)
{
	struct fwlog *l = arg;
	while (atomic_flag_test_and_set_explicit(&l->busy, memory_order_acquire))
		;   /* another thread copies a line: a few hundred ns */
	uint64_t h = atomic_load_explicit(&l->head, memory_order_relaxed);
	uint64_t t = atomic_load_explicit(&l->tail, memory_order_acquire);
	if (h - t >= FWLOG_SLOTS) {
		atomic_flag_clear_explicit(&l->busy, memory_order_release);
		atomic_fetch_add_explicit(&l->dropped, 1, memory_order_relaxed);
		return;
	}
	char *dst = l->line[h % FWLOG_SLOTS];
	size_t n = strlen(line);
	if (n >= FWLOG_LINE)
		n = FWLOG_LINE - 1;
	memcpy(dst, line, n);
	dst[n] = 0;
	atomic_store_explicit(&l->head, h + 1, memory_order_release);
	atomic_flag_clear_explicit(&l->busy, memory_order_release);
	atomic_fetch_add_explicit(&l->lines, 1, memory_order_relaxed);
}

int fwlog_drain(struct fwlog *l, FILE *f)
{
	uint64_t t = atomic_load_explicit(&l->tail, memory_order_relaxed);
	uint64_t h = atomic_load_explicit(&l->head, memory_order_acquire);
	int n = 0;
	for (; t != h; t++, n++)
		fprintf(f, "%s\n", l->line[t % FWLOG_SLOTS]);
	atomic_store_explicit(&l->tail, t, memory_order_release);
	if (n)
		fflush(f);
	return n;
}
