#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_templates.sh — every shipped template for a real lab runs end to end against an
# emulated router, as a lab owner would run it: copied with the router's host name,
# its ports and where its hooks are installed changed (as each template's description
# says), shortened with --set (few cells, one repetition, 1-s trials). The FreeBSD and
# DragonFly templates (freebsd-hz-sweep, freebsd-os-regression, three-box) run against
# bsd_router.sh: a router over its own sshd whose runtime settings are lost at boot,
# with boot environments each with their own loader.conf, and FreeBSD's ifconfig,
# bectl, sysrc, ipfw (kldload with the default-deny rule of ipfw(4)), netstat,
# shutdown and freebsd-version (bsd_cmds.sh); three-box-linux against the namespace's
# own kernel forwarding with nftables; ipv6-freebsd and ipv6-linux (one size over IPv4
# and IPv6, each family's forwarding turned on by the ip_version hook) against each. Asserts on the results: every planned case
# present and measured, the router's environment recorded per case, the hooks run,
# the settings read back, the read hook's counters in every trial. Then what the
# templates must catch: a NIC that cannot poll (freebsd-hz-sweep's poll case fails),
# a 14.2 boot environment running 14.1-p5 (freebsd-os-regression's case fails with
# both). And a sink that counts no test frame while other frames reach its port: the
# case is not ok and shows no forwarding rate from the port's counters. The
# templates of the embedded lab run in t_prof_seeds.sh, except rfc2544-throughput,
# rfc2544-full (the RFC 2544 suite as a profile of tests, 26.5 recovery included) and
# dragonfly-replica, which run here, as does rfc2544-full-router against the emulated
# FreeBSD router (26.6 reset by rebooting it over ssh, its setup run again after it,
# its filters loaded by its rules hook and read back); every template in profiles/ must be run by
# one of the two.
. "$(dirname "$0")/lib.sh"
TOP=$PPSLAB_TOP
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$SSHD" ] || ! command -v ssh >/dev/null || ! command -v nft >/dev/null; then
	skip "shipped templates against an emulated router" "openssh-server/client or nft not installed"
	done_testing
	exit 0
fi

# --- every template is run somewhere --------------------------------------------------
HERE="freebsd-hz-sweep freebsd-os-regression three-box three-box-linux ipv6-freebsd ipv6-linux rfc2544-throughput dragonfly-replica freebsd-outage-rules"
HERE+=" rfc2544-full rfc2544-full-router"
for f in "$TOP"/profiles/*.json; do
	n=$(basename "$f" .json)
	case " $HERE " in *" $n "*) continue ;; esac
	check "template $n: run by t_prof_seeds.sh" grep -q "^prof $n " "$TOP/tests/integ/t_prof_seeds.sh"
done

lab_up
cd "$T" || bail "no $T"
m() { jq -r "$2" "$T/$1.json"; }   # m NAME FILTER

# --- the embedded lab's templates not in t_prof_seeds ---------------------------------
short=(--set trial.warmup=0.2s --set trial.settle=0.2s --set rig.calibrate=false
       --set rig.direct=false --set "topology.lab=\"$LAB\"" --set repetitions=1)
# a search on a shared two-core host: the sender falls behind by up to 200 ms at times,
# which spoils every repetition of a load; what is tested here is the template, so
# such trials are counted and flagged (repeat_invalid 0), and the load stays below 20k
"$B/ppslab" run "$TOP/profiles/rfc2544-throughput.json" -o "$T/rfc.json" --no-table "${short[@]}" \
	--set size=64 --set trial.initial=0.3s --set trial.duration=0.5s --set trial.width=0.2 \
	--set trial.max_load=20k --set trial.repeat_invalid=0 \
	>/dev/null 2>"$T/rfc.err"
RC=$?
# a host that stalls the sender through every repetition of a search's load: the case
# fails saying so (docs/method.md#a-sender-that-falls-behind), no number
spoiled=$(m rfc '[.cases[] | select(.status == "failed") | .error // "" | select(test("spoiled by the sender"))] | first // ""' 2>/dev/null)
if [ "$RC" = 1 ] && [ -n "$spoiled" ]; then
	skip "rfc2544-throughput (one size): runs to the end, NDR <= PDR" "the host stalled the sender: ${spoiled:0:160}"
else
	eq "rfc2544-throughput (one size): runs to the end" "$RC" 0
	[ "$RC" = 0 ] || tail -n 5 "$T/rfc.err" | sed 's/^/# /'
	eq "... NDR and PDR found, NDR <= PDR" \
		"$(m rfc '.cases[0].metrics | (.ndr_pps > 0 and .pdr_pps >= .ndr_pps)')" true
fi
"$B/ppslab" run "$TOP/profiles/dragonfly-replica.json" -o "$T/replica.json" --no-table "${short[@]}" \
	--set pollhz=1000 --set kernel=dragonfly-1.8 --set trial.duration=1s >/dev/null 2>"$T/replica.err"
RC=$?
eq "dragonfly-replica (one cell): runs to the end" "$RC" 0
[ "$RC" = 0 ] || tail -n 5 "$T/replica.err" | sed 's/^/# /' 
eq "... one case, measured" "$(m replica '[.cases[] | .status | sub("flagged"; "ok")] | join(",")')" ok

# the RFC 2544 suite (a profile of tests) at one size, each test's search short
suite=(--set size=64 --set trial.duration=0.3s --set trial.max_load=20k --set trial.width=0.3
       --set trial.repeat_invalid=0 --set 'tests.trial.ladder=["10k","20k"]'
       --set tests.trial.b2b_trials=1 --set tests.trial.b2b_max_burst=4096)
SUITE='["throughput","latency","frame-loss","back-to-back","recovery","filters","filters"]'
# the outage tests' own trial lengths shortened too: the recovery's overload and low
# rate, the reset's time for the emulated router to come back (it is off 0.3 s)
SHORT_OUTAGE='(.tests[] | select(.name == "recovery") | .trial) += {outage_at: "0.6s", duration: "1.2s"}
  | (.tests[] | select(.name == "reset") | .trial) += {outage_at: "0.5s", duration: "2.5s"}'
jq "$SHORT_OUTAGE" "$TOP/profiles/rfc2544-full.json" >"$T/full.prof.json"
"$B/ppslab" run "$T/full.prof.json" -o "$T/full.json" --no-table "${short[@]}" \
	"${suite[@]}" >/dev/null 2>"$T/full.err"
RC=$?
eq "rfc2544-full (one size): runs to the end" "$RC" 0
[ "$RC" = 0 ] || tail -n 5 "$T/full.err" | sed 's/^/# /'
eq "... every test's cases, in order" "$(m full '[.cases[] | .params.test]' | jq -c .)" "$SUITE"
eq "... the filters at 1 and 25 rules" \
	"$(m full '[.cases[] | select(.params.test == "filters") | .params.rules]' | jq -c .)" "[1,25]"
eq "... deviations from RFC 2544 named for every test" \
	"$(m full '[.method.rfc2544_deviations[] | select(startswith("no test of") | not) | split(":")[0]] | unique | length')" 6
eq "... and the one test of section 26 the lab's suite leaves out: the reset" \
	"$(m full '[.method.rfc2544_deviations[] | select(startswith("no test of"))] | join(";")')" \
	"no test of RFC 2544 §26.6 (reset) among the profile's tests"
eq "... recovery (26.5): 110 % of the throughput its search found, then 55 %, and its deviations" \
	"$(m full '.cases[] | select(.params.test == "recovery") | .results.OUTAGE | (.action.load_drop.from_pps == 1.1 * .load_pps) and (.load_from | test("NDR"))'),$(m full '[.method.rfc2544_deviations[] | select(startswith("recovery: recovery (RFC 2544 §26.5)"))] | length')" "true,2"
echo "# recovery: $(m full '.cases[] | select(.params.test == "recovery") | [.status, .metrics.outage_recovery_s, .results.OUTAGE.recovery.why // .results.OUTAGE.recovery.note // ""] | tostring')"

# --- the emulated FreeBSD router --------------------------------------------------------
D=$T/r2
mkdir -p "$D"
sshd_prepare 198.19.255.6 "$D/bin"
ctl_link "pt$$a" "pt$$b" 198.19.255.5 198.19.255.6
# two boot environments, each with its own loader.conf and release
for be in 14.1-RELEASE 14.2-RELEASE; do
	mkdir -p "$D/be/$be/boot"
	printf 'kern.hz="1000"\nkern.polling.burst_max="20"\n' >"$D/be/$be/boot/loader.conf"
	echo "$be" >"$D/be/$be/version"
done
echo 14.1-RELEASE >"$D/be.next"
# off for 0.3 s a reboot: the run waits until the router's boot identity has changed,
# which a shorter time off does not hide (a longer one only costs the runner's backoff)
echo 0.3 >"$D/down_s"
start router rut bash "$TOP/tests/integ/bsd_router.sh" boot "$D" "$B" "$SSHD" "$T/sshd_config"
SSHO=(-p 2222 -i "$K" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR
      -o ConnectTimeout=10)
R=root@198.19.255.6
# rsh COMMAND: run on the router (one string, as ssh hands it to the remote shell);
# RO: more ssh options
rsh() { inns gen ssh -o BatchMode=yes "${SSHO[@]}" ${RO:-} "$R" "$@" 2>&1; }
hz_up() { [ "$(rsh sysctl -n kern.hz)" = 1000 ]; }
check "the router's sshd and forwarder answer" wait_until 30 "the emulated router" hz_up

# the stand-ins act as FreeBSD's
eq "freebsd-version -ku: the running environment's release, twice" "$(rsh freebsd-version -ku | tr '\n' ' ')" \
	"14.1-RELEASE 14.1-RELEASE "
eq "bectl list -H: both environments, the running one N and R" \
	"$(rsh bectl list -H | cut -f1,2 | tr '\t\n' ': ')" "14.1-RELEASE:NR 14.2-RELEASE:- "
eq "ipfw before kldload: not loaded (status 71)" "$(rsh ipfw list >/dev/null; echo $?)" 71
eq "sysctl net.inet.ip.fw.enable before kldload: unknown" "$(rsh sysctl -n net.inet.ip.fw.enable)" \
	"sysctl: unknown oid 'net.inet.ip.fw.enable'"
# kldload alone: the default rule denies the session's own traffic (ipfw(4)), which
# the ssh client's timeout ends; the router is unreachable until it restarts
rsh ifconfig rut0 polling
RO="-o ServerAliveInterval=1 -o ServerAliveCountMax=2" rsh kldload ipfw >/dev/null
check "kldload ipfw without a rule that allows: the router no longer answers ssh" \
	test "$(RO="-o ConnectTimeout=2" rsh true >/dev/null; echo $?)" = 255
echo reboot >"$D/power"
check "... until it restarts" wait_until 30 "the emulated router back" hz_up
eq "... and the boot lost the runtime settings: no port polls, no ipfw" \
	"$(rsh ifconfig rut0 | grep -c POLLING),$(rsh kldstat -q -m ipfw; echo $?)" "0,1"
eq "kldload ipfw with an allow rule in the same command: reachable, the firewall on" \
	"$(rsh 'kldload ipfw 2>/dev/null && ipfw -q add 65000 allow ip from any to any' >/dev/null; rsh sysctl -n net.inet.ip.fw.enable)" 1
eq "ipfw show: the forwarder's rules with counters" "$(rsh ipfw list | tr '\n' ';')" \
	"65000 allow ip from any to any;65535 deny ip from any to any;"
eq "ifconfig rut0 polling: POLLING in its options, kern.polling.handlers 1" \
	"$(rsh ifconfig rut0 polling; rsh ifconfig rut0 | grep -c 'options=.*POLLING'),$(rsh sysctl -n kern.polling.handlers)" "1,1"
eq "sysrc -f /boot/loader.conf: the running environment's file" \
	"$(rsh sysrc -f /boot/loader.conf kern.hz=2000),$(grep -c 'kern.hz="2000"' "$D/be/14.1-RELEASE/boot/loader.conf")" \
	"kern.hz: 1000 -> 2000,1"
rsh sysrc -f /boot/loader.conf kern.hz=1000 >/dev/null
eq "the loader-tunable hook with --be: the other environment's loader.conf (bectl mount), unmounted after" \
	"$(rsh sh "$TOP/profiles/hooks/loader-tunable" --be 14.2-RELEASE kern.hz 4000 && grep -c '^kern.hz="4000"' "$D/be/14.2-RELEASE/boot/loader.conf"),$(grep -c '^kern.hz="1000"' "$D/be/14.1-RELEASE/boot/loader.conf"),$(rsh bectl list -H | cut -f3 | tr '\n' ' ')" \
	"1,1,/ - "
rsh sh "$TOP/profiles/hooks/loader-tunable" --be 14.2-RELEASE kern.hz 1000
eq "the boot-env hook: the running environment" "$(rsh sh "$TOP/profiles/hooks/boot-env" current)" 14.1-RELEASE
check "netstat -I rut0 -n -W -d: FreeBSD's interface line" \
	grep -qE '^rut0 +1500 <Link#1> +[0-9a-f:]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+' <(rsh netstat -I rut0 -n -W -d)
eq "netstat -I rut0 -w 1 -q 1: a header and one line of differences" \
	"$(rsh netstat -I rut0 -b -w 1 -q 1 | awk 'NR == 3 && NF == 8 { n++ } END { print NR "," n + 0 }')" "3,1"
eq "read-freebsd on it: the counters as JSON, the rules' counters included" \
	"$(rsh sh "$TOP/profiles/hooks/read-freebsd" rut0 rut1 | jq -r '[(.rx_pkts | type), (.ifaces | keys | join("+")), (.polling | has("burst_max")), (.rules | type)] | join(",")')" \
	"number,rut0+rut1,true,array"

# A template as its description says to use it: the router's host name, its ports and
# the hooks' directory changed, then shortened
# tmpl NAME OUT [--set ...]: profiles/NAME.json for this lab, run into $T/OUT.json (JQX: a
# jq filter laid over it last)
tmpl() {
	local name=$1 out=$2
	shift 2
	jq --arg r "$R" --arg lab "$LAB" --arg k "$K" --arg h "$TOP/profiles/hooks/" --arg o "$T/$out.json" \
	   --arg rf "$T/outage.rules" '
	  walk(if type == "string" then
	         (if . == "root@r2" then $r elif . == "em0" or . == "enp1s0f0" then "rut0"
	          elif . == "em1" or . == "enp1s0f1" then "rut1"
	          else sub("/usr/local/libexec/ppslab/"; $h) | sub("/var/tmp/ppslab-outage.rules"; $rf) end)
	       else . end)
	  | .topology = {kind: "netns", lab: $lab, rut: {ssh: $r, iface: "rut0,rut1"},
	      ssh_options: ["-p", "2222", "-i", $k, "-o", "StrictHostKeyChecking=no",
	                    "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=5"]}
	  | .output.results = $o | del(.output.plot) | '"${JQX:-.}" "$TOP/profiles/$name.json" >"$T/$out.prof.json"
	local t0=$(date +%s%N)
	inns gen "$B/ppslab" run "$T/$out.prof.json" --no-table "${short[@]}" --set offered=15k \
		--set trial.duration=1s --set router.hook_timeout=20s "$@" >"$T/$out.out" 2>"$T/$out.err"
	RC=$?
	echo "# $name: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
	[ "$RC" = 0 ] || { sed 's/^/# /' "$T/$out.err" | tail -n 8; m "$out" '.cases[] | select(.status == "failed") | .error' | sed 's/^/# failed: /'; }
}
measured() { m "$1" '[.cases[] | .status | sub("flagged"; "ok")] | join(",")'; }

# --- freebsd-hz-sweep: kern.hz through sysrc and a reboot, polling by ifconfig ---------
tmpl freebsd-hz-sweep hz --set kern.hz=2000 --set router.reboot_timeout=30s
eq "freebsd-hz-sweep: exits 0" "$RC" 0
eq "... every planned case (kern.hz 2000 x poll, intr) present and measured" "$(measured hz)" "ok,ok"
eq "... kern.hz read back before each, as the cell wants" \
	"$(m hz '[.cases[] | .router_verify["kern.hz"].got == (.params["kern.hz"] | tostring)] | all')" true
eq "... the polling mode and burst_max read back (router.verify)" \
	"$(m hz '[.cases[] | (.router_verify.mode.got == .params.mode) and (.router_verify.burst_max.got == "150")] | all')" true
eq "... the setup, mode, burst_max and check hooks ran for each" \
	"$(m hz '[.cases[] | ([.router_hooks[] | select(.status == 0) | .hook] | (index("setup") and index("mode") and index("burst_max") and index("check")) != null)] | all')" true
eq "... the router's environment per case: release 14.1, kern.hz of the cell (2000, not 1000 before)" \
	"$(m hz '[.cases[] | .router_env | (.os.version | startswith("14.1")) and (.os.kernel | startswith("14.1"))] | all'),$(m hz '[.cases[] | .router_env.tunables["kern.hz"] == .params["kern.hz"]] | all')" "true,true"
m hz '.cases[0].router_env | {os, tunables}' | tr -d '\n' | sed 's/^/# router_env: /; s/$/\n/'
eq "... its read hook's counters in every trial: frames in and out (netstat's), each port's" \
	"$(m hz '[.cases[].trials[] | .rut | (.rx_pkts > 0) and (.fwd_pkts > 0) and (.output.ifaces | has("rut0") and has("rut1"))] | all')" true

# --- a NIC that cannot poll ---------------------------------------------------------------
echo rut1 >"$D/nopoll"
rsh ifconfig rut1 -polling
tmpl freebsd-hz-sweep nopoll --set kern.hz=2000 --set mode=poll --set router.reboot_timeout=30s
rm -f "$D/nopoll"
eq "freebsd-hz-sweep with a port that cannot poll: the poll case failed" "$(measured nopoll)" failed
check "... saying that one port of two polls" grep -q "mode is mixed: 1 of 2 ports poll on the router" \
	<(m nopoll '.cases[0].error')
eq "... and nothing was measured in it" "$(m nopoll '.cases[0].trials | length')" 0

# --- freebsd-os-regression: boot environments, ipfw loaded safely ------------------------
tmpl freebsd-os-regression os --set direction=uni --set rules=1 --set router.reboot_timeout=30s
eq "freebsd-os-regression: exits 0" "$RC" 0
eq "... every planned case (2 boot environments x 1 rule) present and measured" "$(measured os)" "ok,ok"
eq "... each ran the boot environment it names, read back with its release" \
	"$(m os '[.cases[] | .router_verify.os.got == .params.os] | all'),$(m os '[.cases[] | .router_env.os.version == .params.os] | all')" "true,true"
eq "... the rules loaded by the rules hook and counted back" \
	"$(m os '[.cases[] | .router_verify.rules | .ok and .got == "1"] | all')" true
eq "... ipfw's rule counters in the read hook: the count rule counted the test frames" \
	"$(m os '[.cases[] | .trials[-1].rut.rules | map(select(.number != 65000)) | length > 0] | all')" true
# the os axis checks the running kernel: a 14.2 environment that runs 14.1-p5 fails
echo "14.1-RELEASE-p5" >"$D/be/14.2-RELEASE/version"
tmpl freebsd-os-regression osk --set direction=uni --set rules=0 --set os=14.2-RELEASE --set router.reboot_timeout=30s
echo "14.2-RELEASE" >"$D/be/14.2-RELEASE/version"
eq "... a 14.2-RELEASE environment running 14.1-RELEASE-p5: its case failed, with both" \
	"$(measured osk),$(m osk '.cases[0].error | test("14.1-RELEASE-p5")')" "failed,true"

# --- three-box: a DragonFly router, kern.polling.pollhz at run time ----------------------
echo dragonfly-2.0 >"$D/kernel"
echo reboot >"$D/power"
pollhz_up() { rsh sysctl -n kern.polling.pollhz | grep -qE '^[0-9]+$'; }
wait_until 30 "the router back as a DragonFly box" pollhz_up >/dev/null
tmpl three-box three --set kern.polling.pollhz=2000 --set direction=uni --set rules=0,10
eq "three-box: exits 0" "$RC" 0
eq "... every planned case (pollhz 2000 x 0, 10 rules) present and measured" "$(measured three)" "ok,ok"
eq "... pollhz, burst_max and the rule count read back" \
	"$(m three '[.cases[] | (.router_verify["kern.polling.pollhz"].got == (.params["kern.polling.pollhz"] | tostring)) and .router_verify.burst_max.ok and (.router_verify.rules.got == (.params.rules | tostring))] | all')" true
eq "... the check hook passed (both ports poll)" \
	"$(m three '[.cases[] | [.router_hooks[] | select(.hook == "check") | .status == 0] | all] | all')" true

# --- freebsd-outage-rules: 20,000 rules loaded by a hook during the trial ----------------
tmpl freebsd-outage-rules fout --set trial.duration=2.5s --set trial.outage_at=1s
eq "freebsd-outage-rules: exits 0" "$RC" 0
eq "... its case measured, the action fired and answered" \
	"$(m fout '[.cases[] | (.status | sub("flagged"; "ok")), (.trials[-1].action.status | tostring)] | join(",")')" "ok,0"
eq "... the setup hook wrote the 20,000 rules on the router, the action loaded them" \
	"$(wc -l <"$T/outage.rules"),$(rsh ipfw list | wc -l | tr -d ' ')" "20000,20002"
eq "... the gaps on the action's time line, loss / load the frames lost over 10,000 pps" \
	"$(m fout '.cases[0].results.OUTAGE | (.gaps | type) == "array" and .loss_over_load_s == .lost_pkts / 10000')" true
# --- ipv6-freebsd: one size over IPv4 and IPv6, each family's forwarding turned on -----
tmpl ipv6-freebsd v6b --set size=128
eq "ipv6-freebsd: exits 0" "$RC" 0
eq "... every planned case (ip_version 4, 6 at 128 bytes) present and measured" "$(measured v6b)" "ok,ok"
eq "... the ip_version hook ran for each, and the family's forwarding read back on" \
	"$(m v6b '[.cases[] | ([.router_hooks[] | select(.hook == "ip_version") | .status] == [0]) and (.router_verify.ip_version.got == (.params.ip_version | tostring))] | all')" true
eq "... each case sent its family, and the router forwarded both" \
	"$(m v6b '[.cases[] | .params.ip_version as $v | .trials[-1] | (.gen[0].ip_version == $v) and (.sink[0].rx_pkts > 0)] | all')" true
eq "... net.inet6.ip6.forwarding on on the router" "$(rsh sysctl -n net.inet6.ip6.forwarding)" 1
# --- rfc2544-full-router: the suite on that router, its filters loaded by the rules hook --
# and 26.6 reset: the router rebooted over ssh by its reboot hook in the trial
boot0=$(cat "$D/boottime")
JQX=$SHORT_OUTAGE tmpl rfc2544-full-router fullr "${suite[@]}" --set router.reboot_timeout=30s
eq "rfc2544-full-router: exits 0" "$RC" 0
SUITER='["throughput","latency","frame-loss","back-to-back","recovery","reset","filters","filters"]'
eq "... every test's cases present and measured" \
	"$(m fullr '[.cases[] | .params.test]' | jq -c .),$(measured fullr)" "$SUITER,ok,ok,ok,ok,ok,ok,ok,ok"
eq "... the filters' rule count read back (the settings applied again after the reset)" \
	"$(m fullr '[.cases[] | select(.params.test == "filters") | .router_verify.rules.got]' | jq -c .)" '["1","25"]'
C='(.cases[] | select(.params.test == "reset"))'
echo "# reset: $(m fullr "$C | [.status, .metrics.outage_reset_s, .flags] | tostring")"
eq "... reset (26.6): the router rebooted by its reboot hook, its restart recorded as the reset's" \
	"$(m fullr "$C | [.results.OUTAGE.action.hook[2:4] == [\"shutdown\", \"-r\"], .router_restarted.by] | map(tostring) | join(\",\")"),$([ "$(cat "$D/boottime")" != "$boot0" ] && echo rebooted)" \
	"true,the reset (trial.outage_recipe),rebooted"
eq "... a reset time measured, at least the router's time off" \
	"$(m fullr "$C | .metrics.outage_reset_s >= 0.3 and .results.OUTAGE.reset_ns / 1e9 == .metrics.outage_reset_s")" true
eq "... the setup hook ran again after the reset (ipfw loaded again for the filters)" \
	"$(m fullr '[.cases[] | select(.params.test == "filters") | .router_hooks[]? | select(.hook == "setup")] | length')" 1
eq "... its deviations listed: one kind of reset" \
	"$(m fullr '[.method.rfc2544_deviations[] | select(startswith("reset: reset (RFC 2544 §26.6) of one kind"))] | length')" 1
eq "... every test of section 26 in the router's suite" \
	"$(m fullr '[.method.rfc2544_deviations[] | select(startswith("no test of"))] | length')" 0

# --- a sink that counts no test frame gets no forwarded rate -----------------------------
# The router's firewall denies the test traffic (UDP) while other frames (not test
# frames) reach the sink's port, about 1,000 a second: the port's kernel counters count
# them, the sink does not. The case must not show them as a forwarding rate.
cat >"$T/noise.py" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
f = b"\xff" * 6 + bytes.fromhex("020000000001") + b"\x88\xb5" + bytes(46)
while True:    # the traffic's own pace, until it is killed
    s.send(f)
    time.sleep(0.001)
PY
DENY='kldstat -q -m ipfw || kldload ipfw 2>/dev/null; ipfw -q add 65000 allow ip from any to any && ipfw -q add 100 deny udp from any to any'
jq -n --arg lab "$LAB" --arg r "$R" --arg k "$K" --arg s "$DENY" --arg o "$T/deaf.json" '{
  description: "t_templates: a sink that counts no test frame",
  params: { offered: "5k" },
  trial: { method: "fixed", warmup: "0.2s", duration: "1.5s", settle: "0.2s" },
  rig: { calibrate: false, direct: false },
  router: { kind: "external", setup_hook: ["ssh", $r, "sh", "-c", $s], hook_timeout: "20s" },
  topology: { kind: "netns", lab: $lab, rut: { ssh: $r, iface: "rut0,rut1" },
    ssh_options: ["-p", "2222", "-i", $k, "-o", "StrictHostKeyChecking=no",
                  "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"] },
  output: { results: $o } }' >"$T/deaf.prof.json"
start noise rut python3 "$T/noise.py" rut1
n0=$(inns sink cat /sys/class/net/sink0/statistics/rx_packets)
inns gen "$B/ppslab" run "$T/deaf.prof.json" --no-table >/dev/null 2>"$T/deaf.err"
n1=$(inns sink cat /sys/class/net/sink0/statistics/rx_packets)
kill -TERM "${BG_PID[noise]}" 2>/dev/null
finish noise 10
check "other frames reached the sink's port during the run ($((n1 - n0)))" test $((n1 - n0)) -gt 500
eq "the sink counted no test frame" "$(m deaf '.cases[0].trials[-1].rx_frames')" 0
eq "... so the case is not ok, and its forwarded rate is 0, not the port's other frames" \
	"$(m deaf '.cases[0] | [.status, (.metrics.fwd_pps // 0 | floor)] | map(tostring) | join(",")')" "flagged,0"
[ "$(m deaf '.cases[0].status')" = flagged ] || m deaf '.cases[0].error // empty' | sed 's/^/# error: /'
check "... saying why the port's counters were not used" \
	grep -q "counted no test frame" <(m deaf '.cases[0].trials[-1].fwd_rate_fallback')

kill -TERM "${BG_PID[router]}" 2>/dev/null
finish router 10

# --- three-box-linux: the namespace's own kernel forwards, nftables filters ---------------
inns rut nft delete table inet bsd_ipfw 2>/dev/null
"$B/ppslab" lab shield off --ns rut --name "$LAB" >/dev/null
L=$T/lnx
mkdir -p "$L/bin"
SYSCTL=$(PATH=/usr/sbin:/sbin command -v sysctl)
# net.core.netdev_budget is the host's, not a namespace's: this router keeps its own;
# everything else is the namespace's sysctl
cat >"$L/bin/sysctl" <<SH
#!/usr/bin/env bash
n= w= rc=0
for a in "\$@"; do
	case \$a in
	-n) n=-n ;;
	-w) w=-w ;;
	-*) ;;
	net.core.netdev_budget=*)
		echo "\${a#*=}" >"$L/netdev_budget"
		echo "net.core.netdev_budget = \${a#*=}" ;;
	net.core.netdev_budget)
		v=\$(cat "$L/netdev_budget" 2>/dev/null || echo 300)
		if [ -n "\$n" ]; then echo "\$v"; else echo "net.core.netdev_budget = \$v"; fi ;;
	*) "$SYSCTL" \$n \$w "\$a" || rc=\$? ;;
	esac
done
exit \$rc
SH
chmod 755 "$L/bin/sysctl"
sed "s|^SetEnv PATH=$D/bin:|SetEnv PATH=$L/bin:|" "$T/sshd_config" >"$T/sshd_linux"
start lsshd rut "$SSHD" -D -e -f "$T/sshd_linux"
check "the Linux router's sshd answers" wait_until 30 "the Linux router's sshd" rsh true
tmpl three-box-linux lnx --set net.core.netdev_budget=300 --set rules=0,100 --set direction=uni
eq "three-box-linux: exits 0" "$RC" 0
eq "... every planned case (0, 100 rules) present and measured" "$(measured lnx)" "ok,ok"
eq "... netdev_budget and the rule count read back" \
	"$(m lnx '[.cases[] | (.router_verify["net.core.netdev_budget"].got == "300") and (.router_verify.rules.got == (.params.rules | tostring))] | all')" true
eq "... its read hook's counters in every trial: frames in and out, softnet's" \
	"$(m lnx '[.cases[].trials[] | .rut | (.rx_pkts > 0) and (.fwd_pkts > 0) and (.output.softnet | has("time_squeeze"))] | all')" true
eq "... the router's environment: Linux, netdev_budget 300" \
	"$(m lnx '.environment.dut | (.os.kernel | length > 0) and (.tunables["net.core.netdev_budget"] == 300)')" true
m lnx '.environment.dut | {os, tunables}' | tr -d '\n' | sed 's/^/# environment.dut: /; s/$/\n/'
# the lab's shield in the router namespace is the lab's, not the router's: a run that
# finds it missing makes it again, and the kernel would see no test frame (three-box-
# linux's rules hook flushes it with the ruleset); here the setup hook takes it away
tmpl ipv6-linux v6l --set size=128 --set "router.setup_hook=[\"ssh\", \"$R\", \"sh\", \"-c\",
	\"nft delete table netdev ppslab_shield; sysctl -w net.ipv4.ip_forward=1\"]"
eq "ipv6-linux: exits 0" "$RC" 0
eq "... every planned case (ip_version 4, 6 at 128 bytes) present and measured" "$(measured v6l)" "ok,ok"
eq "... the ip_version hook ran for each, and the family's forwarding read back on" \
	"$(m v6l '[.cases[] | ([.router_hooks[] | select(.hook == "ip_version") | .status] == [0]) and (.router_verify.ip_version.got == (.params.ip_version | tostring))] | all')" true
v6fwd=$(m v6l '[.cases[] | .trials[-1].sink[0].rx_pkts > 0] | all')
v6ip=$(m v6l '[.cases[] | .params.ip_version as $v | .trials[-1].gen[0].ip_version == $v] | all')
eq "... each case sent its family, and the kernel forwarded both" "$v6fwd,$v6ip" "true,true"
eq "... the router's environment: its IPv6 forwarding on" \
	"$(m v6l '.environment.dut.tunables["net.ipv6.conf.all.forwarding"]')" 1
[ "$v6fwd,$v6ip" = "true,true" ] || m v6l '.cases[] | {case_id, flags, sink: (.trials[-1].sink[0] | {rx_pkts, lost_pkts})}' | tr -d '\n' | sed 's/^/# /; s/$/\n/'
kill -TERM "${BG_PID[lsshd]}" 2>/dev/null
finish lsshd 10
done_testing
