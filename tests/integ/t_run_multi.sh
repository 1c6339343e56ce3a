#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_multi.sh — ppslab run with the sender's and sink's ports in the profile, and with
# several sender boxes. Asserts on the results file: an xdp: sender with two threads and
# an xdp: sink make the lab with two queues, run with those settings in the trials and in
# the rig's ceiling; two sender namespaces reached over ssh (an sshd of the test's own,
# as in t_run_ssh) split the offered load exactly, start at one instant with the spread
# reported, keep their streams apart, and their merged counts add up (sent = received +
# lost per stream, per box and in total); a sender box that cannot start fails the trial
# with its name and the other sender box is stopped.
. "$(dirname "$0")/lib.sh"

# --- an xdp: sender with two threads, an xdp: sink --------------------------------------
"$B/ppslab" lab up --name "$LAB" >"$T/lab.out" 2>&1 || bail "lab up: $(cat "$T/lab.out")"
inns rut "$B/ppslab-sink" -i xdp:rut0 --duration 0.2 >/dev/null 2>"$T/probe.err"
if [ $? != 0 ] && grep -qE "not available in this kernel|built without AF_XDP" "$T/probe.err"; then
	skip "an xdp: sender and sink in a profile" "$(head -n 1 "$T/probe.err")"
else
	jq -n --arg lab "$LAB" --arg r "$T/x.json" '{
	  description: "t_run_multi: xdp: ports, two sender threads",
	  params: { burst_max: 50, pollhz: 1000, offered: "20k" },
	  trial: { method: "fixed", warmup: "0.3s", duration: "1s", settle: "0.3s" },
	  router: { rt_prio: 5 },
	  topology: { kind: "netns", lab: $lab,
	    gen: { port: "xdp", threads: 2 }, sink: { port: "xdp" } },
	  output: { results: $r } }' >"$T/x-prof.json"
	"$B/ppslab" run "$T/x-prof.json" -q --no-table >"$T/x.out" 2>"$T/x.err"
	rc=$?
	eq "run with xdp: ports exits 0" "$rc" 0
	[ "$rc" = 0 ] || sed 's/^/# /' "$T/x.err" | head -n 20
	X=$T/x.json
	eq "the lab was re-made with two queues per veth" \
		"$("$B/ppslab" lab status --name "$LAB" --json | jq -c '[.queues[]] | unique')" "[2]"
	eq "the sender ran on xdp:gen0 with two threads" \
		"$(jq -r '.cases[0].trials[0].gen[0] | "\(.port) \(.threads)"' "$X")" "xdp:gen0 2"
	eq "the sink read both queues, a thread each" \
		"$(jq -r '.cases[0].trials[0].sink[0].threads' "$X")" 2
	eq "the rig's ceiling was measured with the same settings" \
		"$(jq -c '[.rig.senders[0].port, .rig.senders[0].threads, .rig.calibrate.threads]' "$X")" \
		'["xdp:gen0",2,2]'
	check "the direct run sent on the router's rut1 over xdp" \
		test "$(jq -r '.rig.direct.gen[0].port' "$X")" = "xdp:rut1"
	check "a ceiling was found" test "$(jq '.rig.ceiling_pps > 20000' "$X")" = true
	eq "every frame sent was received" \
		"$(jq -r '.cases[0].trials[0] | "\(.tx_frames) \(.rx_frames)"' "$X")" "20000 20000"
fi

# --- two sender namespaces over ssh ------------------------------------------------------
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$SSHD" ] || ! command -v ssh >/dev/null; then
	skip "two sender boxes over ssh" "openssh-server/openssh-client not installed"
	done_testing
	exit 0
fi
"$B/ppslab" lab up --name "$LAB" --senders 2 --queues 1 >"$T/lab.out" 2>&1 ||
	bail "lab up --senders 2: $(cat "$T/lab.out")"
eq "lab status: two sender namespaces" "$("$B/ppslab" lab status --name "$LAB" --json |
	jq -c '[.senders, .namespaces.gen2.exists]')" "[2,true]"
sshd_prepare 127.0.0.1
start sshd gen "$SSHD" -D -e -f "$T/sshd_config"
SSHO=(-p 2222 -i "$K" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR)
answers() { inns gen ssh -o BatchMode=yes "$@" true 2>/dev/null; }
check "sshd answers in $LAB-gen" wait_until 30 "sshd in $LAB-gen answering" answers "${SSHO[@]}" root@127.0.0.1

# prof OUT RESULTS GEN2_IFACE: the profile of two sender boxes and one sink, all over ssh
prof() {
	jq -n --arg lab "$LAB" --arg b "$B" --arg k "$K" --arg r "$2" --arg g2 "$3" '{
	  description: "t_run_multi: two sender boxes over ssh",
	  params: { burst_max: 50, pollhz: 1000, offered: "20k" },
	  trial: { method: "fixed", warmup: "0.3s", duration: "1s", settle: "0.3s" },
	  router: { rt_prio: 5 },
	  rig: { direct: false, calibrate: false },
	  topology: { kind: "ssh",
	    ssh_options: ["-p", "2222", "-i", $k, "-o", "StrictHostKeyChecking=no",
	                  "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"],
	    gen: [ { ssh: "root@127.0.0.1", netns: ($lab + "-gen"),  iface: "gen0", bin: $b },
	           { ssh: "root@127.0.0.1", netns: ($lab + "-gen2"), iface: $g2, bin: $b } ],
	    rut:  { ssh: "root@127.0.0.1", netns: ($lab + "-rut"),  iface: "rut0,rut1", bin: $b },
	    sink: { ssh: "root@127.0.0.1", netns: ($lab + "-sink"), iface: "sink0", bin: $b } },
	  output: { results: $r } }' >"$1"
}
prof "$T/two.json" "$T/r2.json" gen0
inns gen "$B/ppslab" run "$T/two.json" -q --no-table >"$T/two.out" 2>"$T/two.err"
rc=$?
eq "two sender boxes over ssh: run exits 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/# /' "$T/two.err" | head -n 20
R=$T/r2.json
TR='.cases[0].trials[0]'
eq "the offered load split exactly: 10,000 frames from each box" \
	"$(jq -c "[$TR.boxes[] | select(.role == \"sender\") | [.box, .tx_frames]]" "$R")" \
	'[["gen",10000],["gen2",10000]]'
eq "each box on a stream of its own" \
	"$(jq -c "[$TR.streams[] | [.box, .stream]]" "$R")" '[["gen",1],["gen2",3]]'
eq "the sink kept the streams apart" \
	"$(jq -c "$TR.sink[0].streams | map(.stream) | sort" "$R")" '[1,3]'
eq "per stream: sent = received + lost" \
	"$(jq "[$TR.streams[] | .sent == .received + .lost] | all" "$R")" true
eq "per sender box: sent = received + lost" \
	"$(jq "[$TR.boxes[] | select(.role == \"sender\") | .tx_frames == .rx_frames + .lost_frames] | all" "$R")" true
eq "in total: sent = received + lost" \
	"$(jq "$TR | .tx_frames == .rx_frames + .lost_frames" "$R")" true
eq "the sink box's count is the streams' sum" \
	"$(jq "$TR | ([.boxes[] | select(.role == \"sink\") | .rx_frames] | add) == ([.streams[].received] | add)" "$R")" true
eq "one start instant, each box's clock offset recorded" \
	"$(jq -c "$TR.start.boxes | [to_entries[] | [.key, (.value.clock_offset_ns | type)]]" "$R")" \
	'[["gen","number"],["gen2","number"]]'
check "the first frames' spread is reported" \
	test "$(jq "$TR.start.spread_ns | type" "$R")" = '"number"'
eq "environment: both senders recorded" \
	"$(jq -c '.environment.senders | keys' "$R")" '["gen","gen2"]'

# a sender box that cannot start: the trial fails with its name, the other box stops
prof "$T/bad.json" "$T/rb.json" nosuch0
inns gen "$B/ppslab" run "$T/bad.json" -q --no-table >"$T/bad.out" 2>"$T/bad.err"
eq "a sender box that cannot start: the case fails (status 1)" "$?" 1
check "the error names the box" grep -q "^the sender box gen2 (ssh root@127.0.0.1, namespace $LAB-gen2)" \
	<(jq -r '.cases[0].error' "$T/rb.json")
gens_in() { ip netns pids "$LAB-$1" | xargs -r ps -o comm= -p | grep -c '^ppslab-gen$'; }
no_gen() { [ "$(gens_in gen)" = 0 ]; }
check "the other sender box's ppslab-gen was stopped" wait_until 15 "ppslab-gen in $LAB-gen gone" no_gen
done_testing
