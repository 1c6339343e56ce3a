#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# remake.sh [BINDIR] — makes every example's table and figure again from its shipped
# results file, without root: for each docs/examples/NAME.json, `ppslab table` writes
# NAME.txt and `ppslab plot` NAME.png with NAME.gp and NAME.dat, each with the options
# the profile's output.table and output.plot give (as `ppslab run` used them), and jq
# writes NAME.env (the environment and method). The same results file always gives the
# same NAME.txt, NAME.gp, NAME.dat and NAME.env, byte for byte (tests/cli/t_examples.sh).
# From the top of the tree:  docs/examples/remake.sh   (or: make examples)
set -euo pipefail
B=$(cd "${1:-build/bin}" && pwd)
cd "$(dirname "$0")"

# opts FILE SECTION KEY...: "--KEY\0VALUE\0" for each KEY the profile's output.SECTION
# gives as a string (row_label as --row-label); NUL-separated, no value meets a shell
opts() {
	local f=$1 sec=$2
	shift 2
	jq -j --arg sec "$sec" '(.profile.output[$sec] // {}) as $o
		| $ARGS.positional[] as $k | ($o[$k] | strings) as $v
		| "--\($k | gsub("_"; "-"))\u0000\($v)\u0000"' "$f" --args "$@"
}

for j in *.json; do
	n=${j%.json}
	mapfile -d '' targs < <(opts "$j" table rows cols metric where show row_label title)
	mapfile -d '' pargs < <(opts "$j" plot kind x y by metric where title)
	"$B/ppslab" table "$j" "${targs[@]}" >"$n.txt"
	"$B/ppslab" plot "$j" "${pargs[@]}" -o "$n.png" >/dev/null
	jq -r '"run \(.run_id), \(.created_utc)\nrouter: \(.environment.dut.os.name // "?") \(.environment.dut.os.version // "") kernel \(.environment.dut.os.kernel // "?"), \(.environment.dut.cpu.model // "?"), \(.environment.dut.cpu.threads // "?") threads, \(.environment.dut.mem_mb // "?") MB\nrig ceiling: \(.rig.ceiling_pps // null | if . then round else "unknown" end) pps\nmethod: \(.method.trial), \(.method.trial_s) s trials; deviations from RFC 2544: \(.method.rfc2544_deviations | join("; "))"' "$j" >"$n.env"
done
