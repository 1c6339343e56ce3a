/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_rules.c — libFuzzer harness for the ipfw rule parser (rut/fw/fw_parse.c,
 * fw_cmd.c; make fuzz): arbitrary bytes as a rule file through fw_load_file, then each
 * line as an ipfw command (fw_exec), then the `ipfw list` round trip: what the listing
 * prints must load again into a fresh ruleset and list identically. Errors must carry
 * a message (or, as ipfw prints some, output); nothing may crash or leak. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "fw.h"

static const char *const ifs[] = { "em0", "em1", "vlan10" };
static const uint32_t local[] = { 0x010012c6, 0x010013c6 };

static struct fw *new_fw(void)
{
	struct fw *fw = fw_new(ifs, 3, local, 2);
	if (!fw)
		abort();
	return fw;
}

/* Loads len bytes as a rule file; 0 or -errno with d filled. */
static int load(struct fw *fw, const char *buf, size_t len, struct fw_diag *d)
{
	char path[64];
	int fd = memfd_create("fuzz-rules", MFD_CLOEXEC);
	if (fd < 0 || (len && write(fd, buf, len) != (ssize_t)len))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int rc = fw_load_file(fw, path, d);
	close(fd);
	return rc;
}

static size_t list(struct fw *fw, char *out, size_t cap)
{
	struct fw_diag d = { .file = "-" };
	if (fw_exec(fw, "list", out, cap, &d))
		abort();
	return strlen(out);
}

/* "add N [log ...] //" with no text is FreeBSD's rule with an empty body; ipfw lists it
 * as "N count [log ...]", which ipfw (and ppslab-rut) refuses to load: the one listing
 * that does not round-trip, on FreeBSD too. */
static bool empty_body(const struct fw_diag *d)
{
	return strstr(d->msg, "expected a protocol") && strstr(d->msg, "got end of line");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[1 << 20], out2[1 << 20];
	struct fw *fw = new_fw();
	struct fw_diag d = { .file = "fuzz.rules" };
	int rc = load(fw, (const char *)data, size, &d);
	if (rc && !d.msg[0])
		abort();
	if (rc == 0) {
		/* Round trip: the listing loads again and lists the same. */
		size_t n = list(fw, out, sizeof(out));
		struct fw *fw2 = new_fw();
		struct fw_diag d2 = { .file = "list" };
		int rc2 = load(fw2, out, n, &d2);
		if (rc2 && !empty_body(&d2)) {
			fprintf(stderr, "listing does not load: %d:%d: %s\n--\n%s", d2.line,
				d2.col, d2.msg, out);
			abort();
		}
		if (rc2 == 0) {
			/* A listing may normalize once where FreeBSD's does too ("IP" is a
			 * test of protocol 0 that lists as "ip", which reads back as no
			 * test); the listing of a listing is then a fixed point. */
			size_t n2 = list(fw2, out2, sizeof(out2));
			if (strcmp(out, out2)) {
				struct fw *fw3 = new_fw();
				struct fw_diag d3 = { .file = "list2" };
				if (load(fw3, out2, n2, &d3) && !empty_body(&d3))
					abort();
				list(fw3, out, sizeof(out));
				if (strcmp(out, out2)) {
					fprintf(stderr, "listing changed twice:\n%s--\n%s", out2, out);
					abort();
				}
				fw_free(fw3);
			}
		}
		fw_free(fw2);
	}
	/* Each line as a command (as the control socket runs them). */
	char *text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	int lines = 0;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && lines < 64;
	     l = strtok_r(NULL, "\n", &save), lines++) {
		struct fw_diag dl = { .file = "-" };
		out[0] = 0;
		/* the message is in dl.msg, or on standard output where ipfw prints it
		 * ("Entry N not found") */
		if (fw_exec(fw, l, out, 4096, &dl) && dl.ex != 0 && !dl.msg[0] && !out[0] &&
		    errno != ENOSPC)
			abort();
	}
	free(text);
	fw_free(fw);
	return 0;
}
