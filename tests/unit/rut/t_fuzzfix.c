/* SPDX-License-Identifier: BSD-2-Clause */
/* t_fuzzfix.c — the inputs the fuzzers (tests/fuzz/) found, kept as regression cases
 * with their bytes inline, each run the way its harness ran it.
 *
 * fuzz_ctl, " stats" (a request line with a leading space, then noise): the harness
 * used to skip lines starting with "stats" because its port-less forwarder had no
 * per-rule deny counters; this line reached rutstats_json, which read the counters of
 * a NULL array (UBSan, rutstats.c). The harness now builds the forwarder as fwd_init
 * does; here the same lines must give a stats object (0) and usage errors (64).
 *
 * fuzz_rules, "add 140 deny ip6 from any to any ext6hdr rthdr0": its listing
 * ("extension header: rthdr0", print_ext6hdr's words) did not load back, which the
 * harness requires of every listing; it now reads back to the same rule. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "devpoll.h"
#include "fw.h"
#include "fwd.h"
#include "tap.h"

static uint64_t fake_now(void *ctx)
{
	uint64_t *t = ctx;
	return *t += 1000000;
}

static void t_ctl_leading_space_stats(void)
{
	static const unsigned char input[] = {
		0x0a, 0x20, 0x73, 0x74, 0x61, 0x74, 0x73, 0x0a, 0x73, 0x74, 0x61, 0x74, 0x73, 0x69,
		0x66, 0x70, 0x77, 0x20, 0x72, 0x70, 0x73, 0x69, 0x6e, 0x6e, 0x74, 0x74, 0x73, 0x20,
		0x73, 0x73, 0x79, 0x73, 0x64, 0xa3, 0x74, 0x65, 0xff, 0x60, 0xe0, 0x22, 0x08, 0x80,
	};
	static const char *const ifs[] = { "em0", "em1" };
	static struct fwd f;
	struct fwdloop *s = fwdloop_new();
	static struct ctl_req r;
	uint64_t clk = 0;
	if (!s || fwd_init_detached(&f, fw_new(ifs, 2, NULL, 0)) ||
	    fwdloop_init_detached(s, &f, NULL, fake_now, &clk))
		abort();
	fwdloop_set_range(s, PK_RANGE_EINVAL);
	f.thr[0]->denied_by_rule[100] = 7;

	char text[sizeof(input) + 1];
	memcpy(text, input, sizeof(input));
	text[sizeof(input)] = 0;
	static const int want[] = { 0, 64 };   /* " stats", "statsifpw rpsinntts ..." */
	int k = 0;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		memset(&r, 0, sizeof(r));
		snprintf(r.line, sizeof(r.line), "%s", l);
		int st = cmd_exec(s, &r);
		T_EQ_INT(st, k < 2 ? want[k] : -1);
		if (k == 0) {
			json_t *o = r.out.s ? json_loads(r.out.s, 0, NULL) : NULL;
			T_TRUE(o != NULL);
			T_EQ_U64(json_integer_value(json_object_get(json_object_get(o, "denied_by_rule"), "100")), 7);
			json_decref(o);
		} else {
			T_TRUE(r.err.len > 0);
		}
		sbuf_free(&r.out);
		sbuf_free(&r.err);
		k++;
	}
	T_EQ_INT(k, 2);
	fwdloop_free(s);
	fwd_fini(&f);
}

static void t_rules_ext6hdr_listing(void)
{
	struct fw *fw = fw_new(NULL, 0, NULL, 0);
	struct fw_diag d = { .file = "-" };
	char out[512], body[512], again[600];
	T_EQ_INT(fw_exec(fw, "add 140 deny ip6 from any to any ext6hdr rthdr0", out, sizeof(out), &d), 0);
	T_TRUE(fw_rule_text(fw, 0, body, sizeof(body)) > 0);
	T_TRUE(!strcmp(body, "deny ip6 from any to any extension header: rthdr0"));
	snprintf(again, sizeof(again), "add 150 %s", body);
	T_EQ_INT(fw_exec(fw, again, out, sizeof(out), &d), 0);
	T_TRUE(fw_rule_text(fw, 1, out, sizeof(out)) > 0);
	T_TRUE(!strcmp(out, body));
	fw_free(fw);
}

int main(void)
{
	T_RUN(t_ctl_leading_space_stats);
	T_RUN(t_rules_ext6hdr_listing);
	return t_done();
}
