#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_axes.sh — real-lab sweeps end to end, against a router that behaves like a
# remote FreeBSD box (bsd_router.sh: ppslab-rut with FreeBSD 14's polling, where the
# poll clock is kern.hz, a boot-time tunable; sysctl through its control socket; a
# loader file read only at boot; a reboot that stops forwarding and ssh for a second),
# reached only over its own sshd on a control link, as a real router is. ppslab runs
# in the gen namespace; the sender and sink are the lab's. Asserts on the results:
#  - kern.hz as a reboot axis over three values, set through the shipped
#    loader-tunable hook: one reboot per value, each waited for (the progress says
#    so), the value read back and re-read with the environment after each reboot, and
#    the forwarded rate following kern.hz × burst_max; `ppslab report` showing the
#    router's environment per case;
#  - the same set hook without "reboot" (the loader file edited, nothing restarted):
#    every case after the first fails verification with both values, unmeasured;
#  - a value the router does not come back from (it boots but does not forward): that
#    case fails after router.reboot_timeout with the time waited, the next value runs,
#    the file is complete;
#  - compare --by on an os-like axis finds exactly the regression planted in one value;
#  - a hook that times out: "timed out" in its case's error, its remote command stopped
#    on the router, and the next case running its hook again (the router was left at
#    the failed case's value);
#  - a router that restarts by itself mid-trial (bsd_router.sh crash): that case fails
#    with both boot identities, the next runs the setup and every hook again and
#    reads burst_max back through router.verify;
#  - forwarding turned on only by the setup hook: the probe after a reboot waits for it;
#  - a router that hangs (bsd_router.sh hang): router.power_cycle_hook brings it back;
#    without one, --max-failed stops the run, and --resume --retry-failed completes it;
#  - a host key that changes with a reboot (another boot environment's): said at once.
. "$(dirname "$0")/lib.sh"
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$SSHD" ] || ! command -v ssh >/dev/null; then
	skip "real-lab sweeps" "openssh-server/openssh-client not installed"
	done_testing
	exit 0
fi
lab_up
TOP=$PPSLAB_TOP
D=$T/r2
mkdir -p "$D"
# the router's commands (sysctl, reboot) come first on its sessions' PATH
sshd_prepare 198.19.255.2 "$D/bin"
# a control link between the gen namespace (where ppslab runs) and the router's
ctl_link "pc$$a" "pc$$b" 198.19.255.1 198.19.255.2
printf 'kern.hz="2000"\nkern.polling.burst_max="10"\n' >"$D/loader.conf"
# off for 0.3 s a reboot: the run waits until the router's boot identity has changed,
# which a shorter time off does not hide (a longer one only costs the runner's backoff)
echo 0.3 >"$D/down_s"
start router rut bash "$TOP/tests/integ/bsd_router.sh" boot "$D" "$B" "$SSHD" "$T/sshd_config"
SSHO=(-p 2222 -i "$K" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR
      -o ConnectTimeout=10)
R=root@198.19.255.2
rsysctl() { inns gen ssh -o BatchMode=yes "${SSHO[@]}" "$R" sysctl -n "$1" 2>&1; }
# booted: its sshd answers, then its forwarder (the sysctl behind it) once it is ready
check "the router's sshd answers on the control link" \
	wait_until 30 "the router's sshd" inns gen ssh -o BatchMode=yes "${SSHO[@]}" "$R" true
hz_2000() { [ "$(rsysctl kern.hz)" = 2000 ]; }
hz_any() { [ -n "$(rsysctl kern.hz)" ] && rsysctl kern.hz | grep -qE '^[0-9]+$'; }
wait_until 30 "the router's forwarder answering sysctl" hz_2000 >/dev/null
eq "... and its sysctl is the emulated FreeBSD's: kern.hz from the loader file" \
	"$(rsysctl kern.hz)" 2000

# runs in the gen namespace; a profile from the base one with jq FILTER
P=$T/base.json
jq -n --arg lab "$LAB" --arg r "$R" --arg k "$K" --arg d "$D" --arg top "$TOP" '{
  description: "t_run_axes: kern.hz of an emulated FreeBSD router, through its loader file",
  params: { offered: "15k" },
  trial: { method: "fixed", warmup: "0.3s", duration: "1s", settle: "0.3s" },
  rig: { calibrate: false, direct: false },
  router: { kind: "external",
    axes: [{ name: "kern.hz", values: [100, 250, 1000],
             set: ["ssh", $r, "sh", ($top + "/profiles/hooks/loader-tunable"), "kern.hz", "{value}",
                   ($d + "/loader.conf")],
             verify: ["ssh", $r, "sysctl", "-n", "kern.hz"], reboot: true }],
    reboot_hook: ["ssh", $r, "reboot"],
    reboot_timeout: "30s", hook_timeout: "10s" },
  topology: { kind: "netns", lab: $lab, rut: { ssh: $r, iface: "rut0,rut1" },
    ssh_options: ["-p", "2222", "-i", $k, "-o", "StrictHostKeyChecking=no",
                  "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"] },
  output: { results: "unused.json" } }' >"$P"
run() {     # run NAME [JQ-FILTER [JQ-ARGS...]]: the base profile changed by the filter, into $T/NAME.json
	local name=$1 f=${2:-.}
	shift; shift
	jq "$@" --arg o "$T/$name.json" "$f | .output.results = \$o" "$P" >"$T/$name.prof.json"
	local t0=$(date +%s%N)
	inns gen "$B/ppslab" run "$T/$name.prof.json" --no-table >"$T/$name.out" 2>"$T/$name.err"
	RC=$?
	echo "# run $name: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
m() { jq -r "$2" "$T/$1.json"; }   # m NAME FILTER

# --- a reboot axis over three values --------------------------------------------------
run hz
eq "kern.hz sweep: exits 0" "$RC" 0
[ "$RC" = 0 ] || sed 's/^/# /' "$T/hz.err" | tail -n 12
eq "three cases measured" "$(m hz '[.cases[] | select(.status == "ok" or .status == "flagged")] | length')" 3
eq "one reboot per value, each recorded with the router back" \
	"$(m hz '[.cases[] | select(.router_reboot.back == true)] | length')" 3
eq "... each by the reboot hook, once" \
	"$(m hz '[.cases[].router_hooks[] | select(.hook == "reboot")] | length')" 3
eq "each case read its value back from the router" \
	"$(m hz '[.cases[] | (.router_verify["kern.hz"] | .ok and (.got == (.want))) and (.router_verify["kern.hz"].got == (.params["kern.hz"] | tostring))] | all')" true
eq "the router's environment was read again after each reboot: its kern.hz and boot" \
	"$(m hz '[.cases[] | (.router_env.tunables["kern.hz"] == .params["kern.hz"])] | all'),$(m hz '[.cases[].router_env.boot_id] | unique | length')" "true,3"
check "the wait is in the progress: it started" \
	grep -q "kern.hz=250 rep 1: the router restarts; waiting until it is back" "$T/hz.err"
check "... and the router was back after some seconds" \
	grep -qE "kern.hz=250 rep 1: the router is back after [0-9.]+ s" "$T/hz.err"
check "... and the environment says kern.hz=2000 before the first" \
	test "$(m hz '.environment.dut.tunables["kern.hz"]')" = 2000
r100=$(m hz '.cases[] | select(.params["kern.hz"] == 100) | .metrics.fwd_pps | floor')
r250=$(m hz '.cases[] | select(.params["kern.hz"] == 250) | .metrics.fwd_pps | floor')
r1000=$(m hz '.cases[] | select(.params["kern.hz"] == 1000) | .metrics.fwd_pps | floor')
echo "# kern.hz 100/250/1000 × burst_max 10: $r100 / $r250 / $r1000 pps"
# rates in a window: right, or the run's own checks say the host held the forwarder
said=$(host_flags "$T/hz.json" 'true')
if [ "${r1000:-0}" -gt $(( ${r100:-0} * 4 )) ] || [ -z "$said" ]; then
	check "the rate follows kern.hz: 1000 forwards over 4 times what 100 does ($r1000 vs $r100)" \
		test "${r1000:-0}" -gt $(( ${r100:-0} * 4 ))
else
	skip "the rate follows kern.hz: 1000 forwards over 4 times what 100 does ($r1000 vs $r100)" \
		"the run's checks say why: $said"
fi
check "... and 250 lies between" test "${r250:-0}" -gt "${r100:-0}" -a "${r250:-0}" -lt "${r1000:-0}"
near_or_said "... 100 × 10 = 1,000 pps" "${r100:-0}" 1000 0.2 "$said"
"$B/ppslab" report "$T/hz.json" -o "$T/rep" --no-plots >/dev/null 2>"$T/rep.err"
eq "report: the router's environment per case, where it varied (kern.hz per reboot)" \
	"$(grep -c "The router's environment varied between cases" "$T/rep/report.md"),$(grep -cE 'kern\.hz (100|250|1000) *\| *1 ' "$T/rep/report.md")" "1,3"

# --- the same set hook without reboot: the loader file changes, the kernel does not ---
run noreboot '.router.axes[0].reboot = false | .router.axes[0].values = [1000, 250, 100]'
eq "reboot: false by mistake: exits 1 (cases failed)" "$RC" 1
eq "the first case (the value the router runs) measured, the others failed" \
	"$(m noreboot '[.cases[].status | sub("flagged"; "ok")] | join(",")')" "ok,failed,failed"
eq "... with both values and why" \
	"$(m noreboot '.cases[1].error')" \
	'kern.hz is 1000 on the router, the cell wants 250: the setting did not take effect (if it takes effect only at boot, give the axis "reboot": true)'
eq "... and nothing was measured under the wrong setting" \
	"$(m noreboot '[.cases[1:][] | .trials | length] | add')" 0
eq "no reboot was asked for" "$(m noreboot '[.cases[].router_hooks[]? | select(.hook == "reboot")] | length')" 0

# --- a value the router does not come back from ---------------------------------------
# kern.hz=99999 is more than the forwarder takes: the box boots, ssh answers, nothing
# is forwarded, so the probe never passes
run noback '.router.axes[0].values = [99999, 250] | .router.reboot_timeout = "3s"'
eq "a router that does not come back: exits 1" "$RC" 1
eq "... that case failed, the next value measured, the file complete" \
	"$(m noback '[([.cases[].status | sub("flagged"; "ok")] | join(",")), .complete] | map(tostring) | join(" ")')" "failed,ok true"
m noback '.cases[1].flags[]?' | sed 's/^/# flagged: /'
check "... the error says how long it waited and what it saw" \
	grep -qE "^the router did not come back after the reboot for kern.hz=99999: waited [3-9]\.[0-9] s \(router.reboot_timeout 3 s\), [0-9]+ tr(y|ies); the last: no test frame passed through it" \
	<(m noback '.cases[0].error')
eq "... recorded as not back" "$(m noback '.cases[0].router_reboot | [.back, (.waited_s >= 3)] | map(tostring) | join(",")')" "false,true"
eq "... and the next value verified after its own reboot" \
	"$(m noback '.cases[1].router_verify["kern.hz"].got')" 250
inns gen "$B/ppslab" run "$T/noback.prof.json" --resume --no-table >/dev/null 2>"$T/resume.err"
eq "... and --resume finds nothing left to do" "$?,$(grep -c 'nothing left to resume' "$T/resume.err")" "0,1"

# --- compare --by an os-like axis -----------------------------------------------------
# The polled rate of a loaded 2-core machine varies by a few percent between cases: a
# 10 % practical margin keeps that noise from counting, the planted 50 % does.
# "os" 14.0 halves burst_max (kern.hz 250: 5,000 pps, 2,500 with it), three repetitions a
# planted in one value
OS_SET='case $1 in 14.0) b=10 ;; *) b=20 ;; esac; sysctl kern.polling.burst_max=$b >/dev/null && echo "$1" >"$2/os"'
os_sweep() {
	run os '.router.axes = [{name: "os", values: ["13.2", "14.0", "14.1"],
			set: ["ssh", $r, "sh", "-c", $s, "sh", "{value}", $d], verify: ["ssh", $r, "cat", ($d + "/os")]}]
		| del(.router.reboot_hook) | .repetitions = 3 | .order = "random" | .seed = 5
		| .trial = {method: "fixed", warmup: "0.2s", duration: "0.8s", settle: "0.2s"}' \
		--arg s "$OS_SET" --arg r "$R" --arg d "$D"
	"$B/ppslab" compare "$T/os.json" --by os --margin 10% -o "$T/cmp.json" >"$T/cmp.txt" 2>"$T/cmp.err"
	CRC=$?
	sed 's/^/# /' "$T/cmp.txt" | grep -E "REGRESSION|EQUIVALENT|INCONCLUSIVE|vs" | head -n 8
	regs=$(jq -r '[.rows[] | select(.verdict == "REGRESSION" or .verdict == "PROGRESSION") | .candidate + " " + .verdict] | join(",")' "$T/cmp.json")
}
os_sweep
# The emulated router's rate is its poll clock's: a host so busy that it delays the
# clock through a repetition (another build beside the test) can take a tenth of an
# unchanged value's rate, more than the margin. Such a sweep is run once more; a
# comparison that finds the wrong regression finds it twice.
if [ "$RC" = 0 ] && [ "$regs" != "os=14.0 REGRESSION" ]; then
	echo "# os sweep: found '$regs'; sweeping again"
	os_sweep
fi
eq "os sweep: exits 0" "$RC" 0
[ "$RC" = 0 ] || sed 's/^/# /' "$T/os.err" | tail -n 12
eq "compare --by os: exits 0" "$CRC" 0
eq "exactly one regression, in os=14.0 against 13.2" "$regs" "os=14.0 REGRESSION"
eq "... the baseline is the first value" "$(jq -r '.by | .axis + "=" + .baseline' "$T/cmp.json")" "os=13.2"
"$B/ppslab" compare "$T/os.json" --by os --baseline 14.0 --margin 10% -o "$T/cmp2.json" >/dev/null 2>&1
v=$(jq -r '[.rows[] | .verdict] | unique | join(",")' "$T/cmp2.json")
said=$(host_flags "$T/os.json" 'true')
if [ "$v" = PROGRESSION ] || [ -z "$said" ]; then
	eq "--baseline 14.0: the others are progressions" "$v" PROGRESSION
else
	skip "--baseline 14.0: the others are progressions (got $v)" "the run's checks say why: $said"
fi

# --- a hook that times out: stopped on the router, re-run before anything is measured -
# burst_max=20's hook sets the value, then hangs past hook_timeout (6 s: a loaded
# machine's ssh round trips fit well within it); the next case (10)
# must run its hook again (the router is at 20), and the hung remote command must be
# stopped, not left running on the router
HANG='sysctl kern.polling.burst_max="$1" >/dev/null || exit 1; if [ "$1" = 20 ]; then sleep 10.123; fi'
run hang '.router = {kind: "external",
		hooks: {burst_max: ["ssh", $r, "sh", "-c", $s, "sh", "{burst_max}"]},
		read_hook: ["ssh", $r, "sysctl", "-n", "kern.polling.burst_max"], hook_timeout: "6s"}
	| .matrix = {burst_max: [10, 20]} | .repetitions = 2
	| .trial = {method: "fixed", warmup: "0.2s", duration: "0.6s", settle: "0.2s"}' \
	--arg s "$HANG" --arg r "$R"
check "... no remote command of the timed-out hook is left on the router" \
	sh -c '! pgrep -f "sleep 10[.]123" >/dev/null'
m hang '.cases[] | select(.status == "failed") | .error' | sed 's/^/# failed: /'
eq "a hook that times out: its cases failed, the others measured" \
	"$(m hang '[.cases[].status | sub("flagged"; "ok")] | join(",")')" "ok,failed,ok,failed"
check "... the error says it timed out (not a status 255)" \
	grep -qE "^hook for burst_max timed out after 6 s" <(m hang '.cases[1].error')
eq "... its record says so" "$(m hang '[.cases[1].router_hooks[] | select(.hook == "burst_max") | .timed_out] | map(tostring) | join(",")')" true
eq "the next case ran its hook again, and the router reads 10 in its trial" \
	"$(m hang '[([.cases[2].router_hooks[] | select(.hook == "burst_max" and .status == 0)] | length), .cases[2].trials[-1].rut.output] | map(tostring) | join(",")')" "1,10"

# --- a router that restarts by itself during a trial ------------------------------------
# the check hook plants a crash half a second ahead, once: the trial it hits fails, and
# the next case runs the setup and every hook again (the boot lost burst_max=20)
rm -f "$D/crashed"
CRASH='if [ ! -e "$1/crashed" ]; then touch "$1/crashed" && crash 0.5; fi'
run crash '.router = {kind: "external", setup_hook: ["ssh", $r, "true"],
		hooks: {burst_max: ["ssh", $r, "sysctl", "kern.polling.burst_max={burst_max}"]},
		verify: {burst_max: ["ssh", $r, "sysctl", "-n", "kern.polling.burst_max"]},
		check_hook: ["ssh", $r, "sh", "-c", $s, "sh", $d],
		read_hook: ["ssh", $r, "sysctl", "-n", "kern.polling.burst_max"],
		hook_timeout: "10s", reboot_timeout: "30s"}
	| .params.burst_max = 20 | .repetitions = 2
	| .trial = {method: "fixed", warmup: "0.2s", duration: "2s", settle: "0.2s"}' \
	--arg s "$CRASH" --arg r "$R" --arg d "$D"
eq "a router that crashed during a trial: that case failed, the next measured" \
	"$(m crash '[.cases[].status | sub("flagged"; "ok")] | join(",")')" "failed,ok"
check "... the error says it restarted" \
	grep -q "^the router restarted during the trial (its boot identity was" <(m crash '.cases[0].error')
eq "... both boot identities recorded" \
	"$(m crash '.cases[0].router_restarted | (.boot_id_before != .boot_id and .boot_id != null)')" true
eq "the next case ran the setup and the burst_max hook again" \
	"$(m crash '[.cases[1].router_hooks[] | select(.status == 0) | .hook] | sort | join(",")')" "burst_max,check,setup,verify"
eq "... read burst_max back as 20 (router.verify) and measured under it" \
	"$(m crash '[.cases[1].router_verify.burst_max.ok, .cases[1].trials[-1].rut.output] | map(tostring) | join(",")')" "true,20"

# --- forwarding that only the setup hook turns on ---------------------------------------
# a router whose rc.conf lacks gateway_enable forwards nothing after a reboot until the
# setup hook's sysctl: the probe that waits for it must come after the setup
printf 'hostname="r2"\n' >"$D/rc.conf"
run setupfirst '.router.axes[0].values = [1000] | .router.reboot_timeout = "20s"
	| .router.setup_hook = ["ssh", $r, "sysctl", "net.inet.ip.forwarding=1"]' --arg r "$R"
rm -f "$D/rc.conf"
eq "forwarding on only in the setup hook: the router is back, the case measured" \
	"$(m setupfirst '[.cases[0].router_reboot.back, (.cases[0].status | sub("flagged"; "ok"))] | map(tostring) | join(",")')" "true,ok"
eq "... the setup ran again on the new boot, before the probe, and not after it" \
	"$(m setupfirst '[.cases[0].router_hooks[].hook] | join(",")')" "setup,kern.hz,reboot,setup,verify"

# --- a router that hangs: its power cycled; a limit of failures; --retry-failed ---------
# the check hook plants a hang once: forwarding and ssh stop until "power" reaches the
# machine, as router.power_cycle_hook (a PDU, IPMI) sends it from the control host
HANGR='if [ ! -e "$1/hung" ]; then touch "$1/hung" && hang 0.5; fi'
HANGP='.router = {kind: "external", setup_hook: ["ssh", $r, "true"],
		hooks: {burst_max: ["ssh", $r, "sysctl", "kern.polling.burst_max={burst_max}"]},
		verify: {burst_max: ["ssh", $r, "sysctl", "-n", "kern.polling.burst_max"]},
		check_hook: ["ssh", $r, "sh", "-c", $s, "sh", $d],
		read_hook: ["ssh", $r, "sysctl", "-n", "kern.polling.burst_max"],
		power_cycle_hook: ["sh", "-c", "echo power >\"$1\"", "sh", ($d + "/power")],
		hook_timeout: "10s", reboot_timeout: "10s"}
	| .params.burst_max = 20 | .repetitions = 2
	| .trial = {method: "fixed", warmup: "0.2s", duration: "2s", settle: "0.2s"}'
rm -f "$D/hung"
run powercycle "$HANGP" --arg s "$HANGR" --arg r "$R" --arg d "$D"
eq "a router that hung during a trial: that case failed, the next measured" \
	"$(m powercycle '[.cases[].status | sub("flagged"; "ok")] | join(",")')" "failed,ok"
check "... the error says it stopped answering and was power-cycled" \
	grep -q "^the router stopped answering and was power-cycled during the trial" <(m powercycle '.cases[0].error')
eq "... by router.power_cycle_hook, once, and it came back" \
	"$(m powercycle '.cases[0].router_power_cycle | [.status, .back] | map(tostring) | join(",")')" "0,true"
eq "... the next case set it up again and read burst_max back" \
	"$(m powercycle '[.cases[1].router_verify.burst_max.ok, .cases[1].trials[-1].rut.output] | map(tostring) | join(",")')" "true,20"

# without a power_cycle_hook: the hung router fails every case, so the run stops after
# --max-failed of them in a row, resumable; once the router is back, --resume
# --retry-failed runs the failed cases and completes the file
rm -f "$D/hung"
jq --arg s "$HANGR" --arg r "$R" --arg d "$D" --arg o "$T/limit.json" \
	"$HANGP"' | del(.router.power_cycle_hook) | .router.reboot_timeout = "3s" | .repetitions = 4
	| .output.results = $o' "$P" >"$T/limit.prof.json"
inns gen "$B/ppslab" run "$T/limit.prof.json" --max-failed 2 --no-table >/dev/null 2>"$T/limit.err"
eq "a router that stays dead: the run stops with status 1" "$?" 1
check "... saying why" grep -q "stopping: 2 cases failed in a row" "$T/limit.err"
eq "... after two failed cases, the file saved and not complete" \
	"$(m limit '[([.cases[] | select(.status)] | length), ([.cases[].status] | unique | join(",")), (.complete // false)] | map(tostring) | join(" ")')" \
	"2 failed false"
echo power >"$D/power"
wait_until 60 "the router back after its power was cycled" hz_any >/dev/null
inns gen "$B/ppslab" run "$T/limit.prof.json" --resume --retry-failed --no-table >/dev/null 2>"$T/retry.err"
eq "--resume --retry-failed once it is back: exits 0" "$?" 0
eq "... every case measured, the file complete" \
	"$(m limit '[([.cases[].status | sub("flagged"; "ok")] | join(",")), .complete] | map(tostring) | join(" ")')" "ok,ok,ok,ok true"

# --- a boot environment with its own host key -------------------------------------------
# the set hook swaps the router's host key before the reboot, as activating another
# boot environment can: ssh refuses the router from then on, and the run says so at
# once instead of waiting out reboot_timeout (this runs last: the key stays changed)
ssh-keygen -q -t ed25519 -N "" -f "$T/host_key2" -C ppslab-test-router-be2
echo "[198.19.255.2]:2222 $(cut -d' ' -f1,2 "$T/host_key.pub")" >"$T/known_r"
run hostkey '.router.axes[0].values = [1000]
	| .router.axes[0].set = ["ssh", $r, "sh", "-c", "cp \"$1\" \"$2\" && sh \"$3\" kern.hz \"$4\" \"$5\"",
		"sh", ($t + "/host_key2"), ($t + "/host_key"), ($top + "/profiles/hooks/loader-tunable"), "{value}", ($d + "/loader.conf")]
	| .router.reboot_timeout = "60s"
	| .topology.ssh_options = ["-p", "2222", "-i", $k, "-o", "StrictHostKeyChecking=yes",
		"-o", ("UserKnownHostsFile=" + $t + "/known_r"), "-o", "LogLevel=ERROR"]' \
	--arg r "$R" --arg t "$T" --arg top "$TOP" --arg d "$D" --arg k "$K"
eq "a host key that changed with the reboot: the case failed" "$(m hostkey '[.cases[].status] | join(",")')" failed
check "... saying so" grep -q "the router's host key changed (a different boot environment may have its own keys)" \
	<(m hostkey '.cases[0].error')
eq "... without ssh's banner of @" "$(m hostkey '.cases[0].error' | grep -c '@@@')" 0
check "... at once, not after reboot_timeout (60 s): $(m hostkey '.cases[0].router_reboot.waited_s') s" \
	test "$(m hostkey '.cases[0].router_reboot.waited_s | floor')" -lt 30

kill -TERM "${BG_PID[router]}" 2>/dev/null
finish router 10
done_testing
