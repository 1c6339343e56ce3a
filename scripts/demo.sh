#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# demo.sh BINDIR — what `make demo` runs: `ppslab run` on profiles/demo.json, which makes
# the embedded lab if it is missing, measures the rig's own ceiling, sweeps the reference
# forwarder's pollhz × burst_max with and without firewall rules, prints the table and
# writes the results JSON and the plot into demo-out/.
set -eu
B=${1:-build/bin}
[ "$(id -u)" = 0 ] || { echo "demo: run as root (network namespaces): sudo make demo" >&2; exit 77; }
mkdir -p demo-out
"$B/ppslab" run profiles/demo.json --force
echo "results: demo-out/demo.json, plot: demo-out/demo.png; the lab stays up (ppslab lab down removes it)"
