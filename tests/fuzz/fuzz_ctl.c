/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_ctl.c — libFuzzer harness for the control commands of ppslab-rut
 * (rut/cmd.c, bsdctl.c over the rut's sysctl tree, fw_exec; make fuzz):
 * each input line is a request line as ctl.c hands it to the forwarding thread, run by
 * cmd_exec against a forwarder state built without ports (a firewall, the polling
 * knobs and the deny counters fwd_init_detached allocates). "load" requests take the rest of the input as the rule file. Every failing
 * request must say why on its stderr stream (unless quiet flags asked for silence). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "cmd.h"
#include "ctl.h"
#include "devpoll.h"
#include "fw.h"
#include "fwd.h"
#include "fwdloop.h"

static uint64_t fake_now(void *ctx)
{
	uint64_t *t = ctx;
	return *t += 1000000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ifs[] = { "em0", "em1" };
	static struct fwd f;
	struct fwdloop *s = fwdloop_new();
	static struct ctl_req r;
	uint64_t clk = 0;
	/* a forwarder without ports and its per-rule deny counters; the first byte picks
	 * the kernel personality */
	if (!s || fwd_init_detached(&f, fw_new(ifs, 2, NULL, 0)) || !f.fw ||
	    fwdloop_init_detached(s, &f, pollkern_at(size ? data[0] & 3 : 0), fake_now, &clk))
		abort();

	char *text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	char *p = text;
	for (int n = 0; p && *p && n < 32; n++) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		memset(&r, 0, sizeof(r));
		snprintf(r.line, sizeof(r.line), "%s", p);
		p = nl ? nl + 1 : NULL;
		if (!strncmp(r.line, "load ", 5)) {
			r.data = p ? p : (char *)"";
			r.datalen = strlen(r.data);
			p = NULL;
		}
		int st = cmd_exec(s, &r);
		while (st == FWDLOOP_CMD_LATER)   /* a load goes on: its steps, as thread 0 runs them */
			st = cmd_exec(s, &r);
		if (st < 0 || st > 255)
			abort();
		/* sysctl -q fails silently, as BSD's does; ipfw zero|resetlog N says
		 * "Entry N not found" on standard output, as FreeBSD's does */
		if (st != 0 && r.err.len == 0 && r.out.len == 0 && !strstr(r.line, " -")) {
			fprintf(stderr, "status %d without a message for '%s'\n", st, r.line);
			abort();
		}
		sbuf_free(&r.out);
		sbuf_free(&r.err);
	}
	free(text);
	fwdloop_free(s);
	fwd_fini(&f);
	return 0;
}
