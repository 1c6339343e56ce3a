#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# mkexamples.sh [BINDIR [PROFILE...]] — re-makes docs/examples (all, or the profiles named): each shipped seed profile run on this
# machine (as root, in a lab of its own), its table (NAME.txt), plot (NAME.png) and the
# environment it came from (NAME.env), with the gnuplot script and data beside the plot
# (NAME.gp, NAME.dat) to restyle it. The results files themselves are not kept here (the
# script makes them again); KEEP=DIR copies them to DIR, to re-plot or report them later.
# Run from the top of the tree: sudo docs/examples/mkexamples.sh
set -eu
B=${1:-build/bin}
[ $# -gt 0 ] && shift
set -- "${@:-demo dragonfly-hz-sweep dragonfly-replica ipfw-counter-cost polling-vs-interrupt rule-scaling rfc2544-throughput}"
D=docs/examples
LAB=ppex$$
W=$(mktemp -d /tmp/ppslab-examples.XXXXXX)
cleanup() { "$B/ppslab" lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
for p in $*; do
	echo "== $p" >&2
	"$B/ppslab" run "$p" --set "topology.lab=\"$LAB\"" -o "$W/$p.json" -p "$D/$p.png" -q >"$D/$p.txt"
	jq -r '"run \(.run_id), \(.created_utc)\nrouter: \(.environment.dut.os.name // "?") \(.environment.dut.os.version // "") kernel \(.environment.dut.os.kernel // "?"), \(.environment.dut.cpu.model // "?"), \(.environment.dut.cpu.threads // "?") threads, \(.environment.dut.mem_mb // "?") MB\nrig ceiling: \(.rig.ceiling_pps // null | if . then round else "unknown" end) pps\nmethod: \(.method.trial), \(.method.trial_s) s trials; deviations from RFC 2544: \(.method.rfc2544_deviations | join("; "))"' "$W/$p.json" >"$D/$p.env"
	[ -z "${KEEP:-}" ] || { mkdir -p "$KEEP" && cp "$W/$p.json" "$KEEP/"; }
done
