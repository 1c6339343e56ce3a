# SPDX-License-Identifier: BSD-2-Clause
# lib.sh — shared by the integration tests (sourced): a private lab per test file,
# background processes whose exit status is always checked, assertions on the JSON the
# tools print, TAP output, and a trap that tears everything down even on failure.
set -u
B=${PPSLAB_BIN:?run through tests/run or make check}
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/ready.sh"
LAB=${LAB:-ppt$$}
T=$(mktemp -d /tmp/ppslab-integ.XXXXXX)
tap_n=0
declare -A BG_PID=()

cleanup() {
	local name
	for name in "${!BG_PID[@]}"; do
		kill -TERM "${BG_PID[$name]}" 2>/dev/null
	done
	wait 2>/dev/null
	"$B/ppslab" lab down --name "$LAB" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ok() {      # ok DESC
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}
not_ok() {  # not_ok DESC WHY
	tap_n=$((tap_n + 1))
	echo "not ok $tap_n - $1"
	echo "#   $2"
}
check() {   # check DESC COMMAND...: ok if the command succeeds
	local d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d" "failed: $*"; fi
}
eq() {      # eq DESC ACTUAL EXPECTED
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "got '$2', expected '$3'"; fi
}
near() {    # near DESC ACTUAL EXPECTED REL_TOL
	if awk -v a="$2" -v e="$3" -v t="$4" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(d <= t * e) }'; then
		ok "$1"
	else
		not_ok "$1" "got $2, expected $3 within $4"
	fi
}
within() {  # within DESC ACTUAL LOW HIGH: LOW <= ACTUAL <= HIGH (numbers)
	if awk -v a="$2" -v l="$3" -v h="$4" 'BEGIN { exit !(a >= l && a <= h) }'; then
		ok "$1"
	else
		not_ok "$1" "got $2, expected $3..$4"
	fi
}
# near_or_said DESC ACTUAL EXPECTED REL_TOL SAID: as near; but a figure that misses is
# skipped, not failed, when SAID is not empty: what the run's own checks reported
# about the host for the trials the figure comes from (host_flags). Without such a
# report a miss fails.
near_or_said() {
	if awk -v a="$2" -v e="$3" -v t="$4" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(d <= t * e) }'; then
		ok "$1"
	elif [ -n "$5" ]; then
		skip "$1 (got $2)" "the run's checks say why: $5"
	else
		not_ok "$1" "got $2, expected $3 within $4, and no check of the run says why"
	fi
}
# at_least_or_said DESC ACTUAL LOW SAID: ACTUAL >= LOW; a miss is skipped, not failed,
# when SAID (host_flags) says the host disturbed the trials it comes from
at_least_or_said() {
	if awk -v a="$2" -v l="$3" 'BEGIN { exit !(a >= l) }'; then
		ok "$1"
	elif [ -n "$4" ]; then
		skip "$1 (got $2)" "the run's checks say why: $4"
	else
		not_ok "$1" "got $2, expected at least $3, and no check of the run says why"
	fi
}
# within_or_said DESC ACTUAL LOW HIGH [NS WHY]: LOW <= ACTUAL <= HIGH (integers, ns); a
# miss is skipped, not failed, when it is off by no more than $beh, what the caller set
# as the sender's longest stretch behind its schedule (behind_max_ns: a starved sender
# makes a silence of its own), or than NS, what the forwarder says of its own delays
# (WHY says so)
within_or_said() {
	local off=0 ns=${5:-0} beh=${beh:?within_or_said: set beh to the behind_max_ns of the sender}
	[ "$2" -lt "$3" ] && off=$(($3 - $2))
	[ "$2" -gt "$4" ] && off=$(($2 - $4))
	if [ "$off" = 0 ]; then
		ok "$1"
	elif [ "$off" -le "$beh" ]; then
		skip "$1 (got $2, off by $off ns)" "the sender fell behind its schedule by up to $beh ns (behind_max_ns)"
	elif [ "$off" -le "$ns" ]; then
		skip "$1 (got $2, off by $off ns)" "$6"
	else
		not_ok "$1" "got $2, expected $3..$4; off by $off ns, more than the sender's lateness ($beh ns)"
	fi
}
# host_flags RESULTS CASES: the flags of the cases CASES (a jq condition on a case) of
# the results file RESULTS that say the host disturbed them: the forwarder's poll clock
# lost ticks, or the sender missed its rate or its pace
host_flags() {
	jq -r "[.cases[] | select($2) | .flags[]? | select(startswith(\"poll clock kept time\") or startswith(\"offered load\") or startswith(\"sender kept pace\"))] | unique | join(\"; \")" "$1"
}
counted() { # counted DESC SINK ACTUAL EXPECTED: the sink SINK counted EXPECTED frames;
	# or, when it reports drops on the way (its ring fell behind, or the host dropped
	# frames before they reached it: ring_drops, if_drops), at most that many fewer
	local rd
	rd=$(jv "$2" '.ring_drops + .if_drops')
	if [ "$rd" = 0 ]; then
		eq "$1" "$3" "$4"
	else
		within "$1 (short by at most the $rd frames the sink says its ring and the host dropped)" \
			"$3" $(($4 - rd)) "$4"
	fi
}
# host_lost SINK GEN: the frames the host dropped between the sender GEN and the sink
# SINK (sent directly), as they say: GEN's interface (the sending CPU's veth backlog),
# SINK's ring and interface
host_lost() {
	echo $(($(jv "$2" '.if_tx_dropped // 0') + $(jv "$1" '.ring_drops + .if_drops')))
}
# books DESC SINK GEN N: the books of N frames GEN sent to the sink SINK (which knew N:
# --expect or --expect-from, so its tail counts as lost): each received or lost, and
# lost only what the host dropped on the way — exact on any host, however starved
books() {
	local hl
	hl=$(host_lost "$2" "$3")
	eq "$1: received + lost = $4, lost = the host's drops ($hl)" \
		"$(jv "$2" '.rx_pkts + .lost_pkts'),$(jv "$2" .lost_pkts)" "$4,$hl"
}
skip() {    # skip DESC WHY
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}
bail() {
	echo "Bail out! $*"
	exit 1
}
done_testing() {
	echo "1..$tap_n"
}

lab_up() {
	"$B/ppslab" lab up --name "$LAB" "$@" >"$T/lab.out" 2>&1 || bail "lab up: $(cat "$T/lab.out")"
}

inns() {    # inns ROLE COMMAND...: run in the lab's namespace
	local role=$1; shift
	ip netns exec "$LAB-$role" "$@"
}

start() {   # start NAME ROLE COMMAND...: background; stdout to $T/NAME.out, stderr $T/NAME.err
	local name=$1 role=$2; shift 2
	# the files of an earlier NAME go first (ready_start): wait_ready NAME must not
	# take that one's ready line for this one's
	ready_start "$T/$name.out" "$T/$name.err" ip netns exec "$LAB-$role" "$@"
	BG_PID[$name]=$READY_PID
}

finish() {  # finish NAME [TIMEOUT_S]: wait for it, kill it on timeout; status in $RC
	local name=$1 tmo=${2:-30} pid=${BG_PID[$1]} i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt $((tmo * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null
		echo "# $name did not finish within ${tmo}s"
	fi
	wait "$pid"
	RC=$?
	unset "BG_PID[$name]"
}

stop() {    # stop NAME: SIGINT, then finish; status in $RC
	kill -INT "${BG_PID[$1]}" 2>/dev/null
	finish "$1" 10
}

summary() { # summary NAME: the tool's final JSON object
	grep '"type":"summary"' "$T/$1.out" | tail -n 1
}

jv() {      # jv NAME FILTER: a value from NAME's summary
	summary "$1" | jq -r "$2"
}

# wait_ready NAME [TIMEOUT_S]: waits until the background tool NAME (started with
# `start`) has said it is ready (docs/readiness.md): its JSON ready line in $T/NAME.out
# (with --json) or its stderr line in $T/NAME.err (without; not with -q). A sink is
# then counting, a forwarder forwarding with its control socket listening, a sender
# about to send. Returns non-zero with a TAP comment saying why (NAME ended first, or
# TIMEOUT_S, default 30, passed), what it printed on stderr included.
wait_ready() {
	local name=$1 tmo=${2:-30} pid=${BG_PID[$1]:-} rc=1
	if [ -n "$pid" ]; then
		ready_wait "$pid" "$tmo" "$T/$name.out" "$T/$name.err"
		rc=$?
	elif ready_said "$T/$name.out" "$T/$name.err"; then
		rc=0   # finished already, after saying it
	fi
	case $rc in
	0) return 0 ;;
	1) echo "# $name ended before it was ready; stderr: $(head -c 400 "$T/$name.err" 2>/dev/null | tr '\n' '|')" ;;
	*) echo "# $name was not ready within $tmo s; stderr: $(head -c 400 "$T/$name.err" 2>/dev/null | tr '\n' '|')" ;;
	esac
	return $rc
}

# wait_until TIMEOUT_S WHAT COMMAND...: wait_for (scripts/ready.sh), non-zero with the TAP
# comment "WHAT: not within TIMEOUT_S s" when COMMAND never succeeded.
wait_until() {
	local tmo=$1 what=$2
	shift 2
	wait_for "$tmo" "$@" && return 0
	echo "# $what: not within $tmo s"
	return 1
}

# ifc ROLE IF FIELD: an interface's own 64-bit counter (rx_packets, tx_packets, ...).
ifc() {
	ip -n "$LAB-$1" -s -j link show dev "$2" |
		jq -r --arg f "$3" '.[0].stats64 | (if ($f|startswith("rx_")) then .rx[$f|ltrimstr("rx_")] else .tx[$f|ltrimstr("tx_")] end) // 0'
}

# ifc_at_least ROLE IF FIELD N: the counter has reached N (for wait_until)
ifc_at_least() {
	[ "$(ifc "$1" "$2" "$3")" -ge "$4" ]
}

# sink_count NAME: the frames the sink NAME (started with --json) has accounted for so
# far (sink_frames in scripts/ready.sh)
sink_count() {
	sink_frames "$T/$1.out"
}

# sent NAME: the frames the sender NAME put on the wire, by its summary (measured and
# warm-up frames)
sent() {
	jv "$1" '.tx_pkts + (.warmup_pkts // 0)'
}

# sink_has NAME N [TIMEOUT_S]: waits until the sink NAME has accounted for N frames, so
# that stopping it then loses none still on the way: a sender's last frame may reach
# the sink's socket long after the sender has exited (the kernel's softirq work is
# deferred on a busy host). Non-zero with a TAP comment when NAME ended first or
# TIMEOUT_S (default 15) passed.
sink_has() {
	local name=$1 n=$2 tmo=${3:-15} pid=${BG_PID[$1]:-} v end
	case $n in '' | *[!0-9]*) n=0 ;; esac   # no sender summary: nothing to wait for
	end=$((SECONDS + tmo))
	while :; do
		v=$(sink_count "$name")
		[ "$v" -ge "$n" ] && return 0
		if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
			echo "# $name ended having accounted for $v of $n frames"
			return 1
		fi
		if [ "$SECONDS" -ge "$end" ]; then
			echo "# $name accounted for $v of $n frames within $tmo s"
			return 1
		fi
		sleep 0.1   # the poll interval of the wait
	done
}

# sink_done NAME N: the senders are done and N frames are on their way to the sink NAME:
# waits until it has accounted for them (sink_has), then SIGINT (its summary); status
# in $RC.
sink_done() {
	sink_has "$1" "$2"
	stop "$1"
}

# lab_procs ROLE COMM: the pids of the processes called COMM in this lab's ROLE
# namespace: this test's own, whatever other checkouts on the machine run
lab_procs() {
	local p
	for p in $(ip netns pids "$LAB-$1" 2>/dev/null); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$2" ] && echo "$p"
	done
}

# gone PID: the process has ended (for wait_until)
gone() {
	! kill -0 "$1" 2>/dev/null
}

# The old waits, gone: a test still calling one (written before wait_ready) stops here
# with the reason instead of going on unready.
# sshd_prepare ADDR [BINDIR]: the lab's key ($K, authorized), a host key and
# $T/sshd_config for an sshd on ADDR port 2222, key login as root only; with BINDIR its
# sessions' PATH starts there (an emulated router's commands before the system's)
sshd_prepare() {
	K=$T/id_lab
	ssh-keygen -q -t ed25519 -N "" -f "$K" -C ppslab-test
	ssh-keygen -q -t ed25519 -N "" -f "$T/host_key" -C ppslab-test-host
	cp "$K.pub" "$T/authorized_keys"
	chmod 600 "$T/authorized_keys"
	mkdir -p /run/sshd
	{
		printf '%s\n' "ListenAddress $1" "Port 2222" "HostKey $T/host_key" \
			"AuthorizedKeysFile $T/authorized_keys" "PermitRootLogin prohibit-password" \
			"PasswordAuthentication no" "KbdInteractiveAuthentication no" "UsePAM no" \
			"StrictModes no" "PidFile none" "LogLevel ERROR"
		[ -z "${2:-}" ] ||
			echo "SetEnv PATH=$2:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	} >"$T/sshd_config"
}
# ctl_link A B ADDR_GEN ADDR_RUT: a control link (a /30) from the gen namespace, where
# ppslab runs, to the router's
ctl_link() {
	ip link add "$1" netns "$LAB-gen" type veth peer name "$2" netns "$LAB-rut"
	inns gen ip addr add "$3/30" dev "$1" && inns gen ip link set "$1" up
	inns rut ip addr add "$4/30" dev "$2" && inns rut ip link set "$2" up
}
await_ready() { bail "await_ready (a sleep) is gone: use wait_ready NAME (docs/readiness.md)"; }
ready() { bail "ready ROLE N (a socket count) is gone: use wait_ready NAME (docs/readiness.md)"; }

# first_type NAME: the "type" of the first JSON line NAME printed ("ready" when the
# protocol holds: nothing is printed, counted or sent before it)
first_type() {
	head -n 1 "$T/$1.out" | jq -r .type 2>/dev/null
}
