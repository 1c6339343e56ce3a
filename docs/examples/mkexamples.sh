#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# mkexamples.sh [BINDIR [PROFILE...]] — measures docs/examples again (all, or the profiles
# named): each shipped seed profile run on this machine, as root, in a lab of its own
# (LAB, default ppex<pid>; never the default lab), its results file kept as
# docs/examples/NAME.json; then remake.sh makes every table and figure from the results
# files (which needs no root). Run from the top of the tree: sudo docs/examples/mkexamples.sh
set -eu
B=${1:-build/bin}
[ $# -gt 0 ] && shift
set -- "${@:-demo dragonfly-hz-sweep dragonfly-replica ipfw-counter-cost polling-vs-interrupt rule-scaling rfc2544-throughput}"
D=docs/examples
LAB=${LAB:-ppex$$}
W=$(mktemp -d /tmp/ppslab-examples.XXXXXX)
cleanup() { "$B/ppslab" lab down --name "$LAB" >/dev/null 2>&1; rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
for p in $*; do
	echo "== $p" >&2
	# the plot and table are made by remake.sh; the run writes its results only
	"$B/ppslab" run "$p" --set "topology.lab=\"$LAB\"" -o "$W/$p.json" --plot "$W/$p.png" \
		--no-table -q >/dev/null
	mv "$W/$p.json" "$D/$p.json"
done
"$D/remake.sh" "$B"
