/* SPDX-License-Identifier: BSD-2-Clause */
/* t_names.c — the labels tables, plots and reports give metric names (names.c): the
 * known ones, a search goal's NAME_pps written as NDR's and PDR's are, the forwarder's
 * own polling figures in words, and a name nothing knows left as it is. */
#include "names.h"
#include "tap.h"

static const char *label(const char *name)
{
	static char buf[256];
	return name_label(name, buf, sizeof(buf));
}

static void t_known(void)
{
	T_STREQ(label("ndr_pps"), "NDR throughput (packets/s)");
	T_STREQ(label("fwd_pps"), "forwarded rate (packets/s)");
	T_STREQ(label("rut.lost_polls"), "kern.polling.lost_polls");
	T_STREQ(label("rut.rule_hits.100"), "hits of rule 100 (packets)");
}

static void t_goals(void)
{
	/* trial.goals' own names (docs/profiles.md#search-goals): pdr01_pps, plr_5_pps */
	T_STREQ(label("pdr01_pps"), "PDR01 throughput (packets/s)");
	T_STREQ(label("plr_5_pps"), "PLR_5 throughput (packets/s)");
	/* the metrics a goal may not be named after keep their own labels */
	T_STREQ(label("mfr_pps"), "maximum forwarding rate (packets/s)");
	T_STREQ(label("offered_pps"), "offered load (packets/s)");
	/* not a goal's: a forwarder figure, a dotted name */
	T_STREQ(label("rut.x_pps"), "rut.x_pps (packets/s)");
}

static void t_polling(void)
{
	T_STREQ(label("rut.unsure_polls"), "lost polls that may be the host's");
	T_STREQ(label("rut.host_delays"), "rounds the host delayed");
	T_STREQ(label("rut.host_ns"), "host time left out of rounds (ns)");
	T_STREQ(label("rut.stalled"), "kern.polling.stalled");
	T_STREQ(label("rut.pending_polls"), "kern.polling.pending_polls");
	T_STREQ(label("rut.kernel_drops"), "forwarder's kernel ring drops");
	/* a name nothing knows: as it is */
	T_STREQ(label("rut.new_thing"), "rut.new_thing");
}

int main(void)
{
	T_RUN(t_known);
	T_RUN(t_goals);
	T_RUN(t_polling);
	return t_done();
}
