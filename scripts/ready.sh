# SPDX-License-Identifier: BSD-2-Clause
# ready.sh — the shell side of the readiness protocol (docs/readiness.md): sourced by
# tests/integ/lib.sh, the CLI tests that start programs, bench/lib.sh and bench/soak.sh,
# so that every script waits for ppslab-rut, ppslab-sink and ppslab-gen the same way,
# and for any other condition with wait_for.

# ready_said FILE...: one of the files holds the program's ready line: its JSON ready
# record (its --json output) or its stderr line "ppslab-TOOL: ready: ..." (its stderr).
ready_said() {
	local f
	for f in "$@"; do
		grep -qE '"type":"ready"|^ppslab-[a-z]+: ready: ' "$f" 2>/dev/null && return 0
	done
	return 1
}

# ready_wait PID TIMEOUT_S FILE...: waits until ready_said FILE... for the program PID
# writes them. 0 when it is ready (also when it said so and has already ended), 1 when
# PID ended without saying it, 2 when TIMEOUT_S passed.
ready_wait() {
	local pid=$1 end=$((SECONDS + $2))
	shift 2
	until ready_said "$@"; do
		if ! kill -0 "$pid" 2>/dev/null; then
			ready_said "$@" && return 0
			return 1
		fi
		[ "$SECONDS" -ge "$end" ] && return 2
		sleep 0.05
	done
}

# ready_fresh FILE...: removes the files a program about to be started will write, so
# that no ready line of an earlier program is read in them. In `COMMAND >FILE &` the
# shell opens (and truncates) FILE in the background child, which a loaded host may
# run only after the parent has looked: an earlier program's ready line, still in FILE,
# would then pass for the new one's, and the caller would send before it is ready.
ready_fresh() {
	rm -f -- "$@"
}

# ready_start OUT ERR COMMAND...: COMMAND in the background, standard output to OUT and
# standard error to ERR, removed first (ready_fresh); its pid in READY_PID, for
# ready_wait READY_PID TIMEOUT_S OUT ERR.
ready_start() {
	local out=$1 err=$2
	shift 2
	ready_fresh "$out" "$err"
	"$@" >"$out" 2>"$err" &
	READY_PID=$!
}

# wait_for TIMEOUT_S COMMAND...: runs COMMAND every 0.05 s until it succeeds; 1 when
# TIMEOUT_S passed first. For the conditions that are not a ready line (a counter
# reaching a value, a line or a file appearing, a process ending); the caller says
# what it waited for when it fails.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.05   # the poll interval
	done
}

# sink_frames FILE: the frames a ppslab-sink has accounted for so far, by the interval
# lines of its --json output FILE (one per --interval): read, of any class, or dropped
# at its ring or by the host. A line being written is left out.
sink_frames() {
	jq -Rn '[inputs | fromjson? | select(.type == "interval")
		| .rx_frames + .ring_drops + .if_drops] | add // 0' "$1" 2>/dev/null || echo 0
}

# sink_caught_up FILE N: sink_frames FILE has reached N (for wait_for)
sink_caught_up() {
	[ "$(sink_frames "$1")" -ge "$2" ]
}
