#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_ext.sh — ppslab run with an external router: the Linux kernel forwarding in the
# lab's router namespace, configured only through the profile's hooks (setup: forwarding
# on, shield off; the rules axis: nftables rules; after each trial: the interface
# counters). Asserts on the results file; and a hook that hangs is killed after its
# timeout, its case failed, the sweep carried on.
. "$(dirname "$0")/lib.sh"
lab_up
H="$PPSLAB_TOP/tests/integ/nft_fwd.sh"
P=$T/ext.json
jq -n --arg lab "$LAB" --arg b "$B" --arg h "$H" --arg r "$T/r.json" '{
  description: "t_run_ext: the Linux kernel as the router, through hooks",
  matrix: { rules: [0, 100] },
  params: { offered: "20k" },
  trial: { method: "fixed", warmup: "0.3s", duration: "1.5s", settle: "0.3s" },
  router: { kind: "external",
    setup_hook: ["bash", $h, "setup", $lab, $b],
    hooks: { rules: ["bash", $h, "rules", ($lab + "-rut"), "{rules}"] },
    read_hook: ["bash", $h, "read", ($lab + "-rut")],
    hook_timeout: "20s" },
  topology: { kind: "netns", lab: $lab },
  output: { results: $r } }' >"$P"
"$B/ppslab" run "$P" -q --no-table >"$T/run.out" 2>"$T/run.err"
rc=$?
eq "run with an external router exits 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/# /' "$T/run.err" | head -n 20
R=$T/r.json
eq "complete" "$(jq -r .complete "$R")" true
eq "the router is recorded as external" "$(jq -r .environment.dut.router "$R")" external
# its environment as the run measured it, after the setup hook turned forwarding on, and
# as it was found before
eq "environment after the setup hook: forwarding on (before: off)" \
	"$(jq -r '.environment | [.dut.tunables["net.ipv4.ip_forward"], .dut.read, .dut_before_setup.tunables["net.ipv4.ip_forward"]] | map(tostring) | join(",")' "$R")" \
	"1,after the setup hook,0"
eq "two cases finished" "$(jq '[.cases[] | select(.status == "ok" or .status == "flagged")] | length' "$R")" 2
# (the kernel forwards all it gets: a miss is the sender's, which a busy host holds back
# and whose offered load check then says so)
near_or_said "the kernel forwards 20,000 pps with no rules" \
	"$(jq '.cases[] | select(.params.rules == 0) | .metrics.fwd_pps' "$R")" 20000 0.10 \
	"$(host_flags "$R" '.params.rules == 0')"
near_or_said "and with 100 nftables rules" \
	"$(jq '.cases[] | select(.params.rules == 100) | .metrics.fwd_pps' "$R")" 20000 0.10 \
	"$(host_flags "$R" '.params.rules == 100')"
eq "the rules hook left 100 drop rules" \
	"$(inns rut nft list chain inet ppslab_fw forward | grep -c 'ip saddr.*drop')" 100
eq "the read hook's JSON is in every trial" \
	"$(jq '[.cases[].trials[].rut.output | type] | unique | join(",")' -r "$R")" array
check "its counters show rut1 sending" \
	test "$(jq '[.cases[-1].trials[-1].rut.output[] | select(.ifname == "rut1") | .stats64.tx.packets][0]' "$R")" -gt 20000
eq "the forwarder checks are skipped, not failed, without forwarder stats" \
	"$(jq -r '[.cases[].trials[].checks[] | select(.name | test("forwarder adds up")) | .ok] | unique | map(tostring) | join(",")' "$R")" null

# a hook that never returns: killed after hook_timeout, the case fails, the next runs
jq --arg r "$T/r2.json" '.matrix = { pollhz: [1000, 2000] } | .params.rules = 0
	| .router.hooks = { pollhz: ["sleep", "30"] } | .router.hook_timeout = "1s"
	| .rig = { calibrate: false, direct: false } | .output.results = $r' "$P" >"$T/hang.json"
t0=$(date +%s)
"$B/ppslab" run "$T/hang.json" -q --no-table >"$T/run2.out" 2>"$T/run2.err"
eq "a run whose cases failed exits 1" "$?" 1
t1=$(date +%s)
check "both hooks were killed after their 1 s timeout (run took $((t1 - t0)) s)" test $((t1 - t0)) -lt 20
eq "both cases failed" "$(jq -r '[.cases[].status] | join(",")' "$T/r2.json")" "failed,failed"
check "the error names the hook and says it timed out" \
	grep -q "^hook for pollhz timed out after 1 s" <(jq -r '.cases[0].error' "$T/r2.json")
eq "the file is complete" "$(jq -r .complete "$T/r2.json")" true

# a check hook that says the settings did not take effect fails the case, nothing measured
jq --arg r "$T/r3.json" '.matrix = { rules: [0] } | .router.check_hook = ["sh", "-c", "echo em0: polling is off >&2; exit 1"]
	| .rig = { calibrate: false, direct: false } | .output.results = $r' "$P" >"$T/check.json"
"$B/ppslab" run "$T/check.json" -q --no-table >/dev/null 2>&1
eq "a failed check hook: the run exits 1" "$?" 1
eq "... its case failed with the hook's words, no trial run" \
	"$(jq -r '.cases[0] | [.status, (.error | test("check hook says the settings did not take effect \\(status 1\\): em0: polling is off")), (.trials | length)] | map(tostring) | join(",")' "$T/r3.json")" \
	"failed,true,0"
# a read hook that fails after the trial fails it: the counters, and whether the router
# kept its settings, are unknown (here it answers before the trial, not after)
jq --arg r "$T/r4.json" --arg n "$T/reads" '.matrix = { rules: [0] }
	| .router.read_hook = ["sh", "-c", "n=$(cat \"$1\" 2>/dev/null || echo 0); echo $((n + 1)) >\"$1\"; [ \"$n\" = 0 ]", "sh", $n]
	| .rig = { calibrate: false, direct: false } | .output.results = $r' "$P" >"$T/readfail.json"
"$B/ppslab" run "$T/readfail.json" -q --no-table >/dev/null 2>&1
eq "a read hook failing after the trial: the run exits 1" "$?" 1
eq "... its case failed, the trial says why" \
	"$(jq -r '.cases[0] | [.status, (.trials[0].error | test("^the router.s read hook failed after the trial \\(status 1\\)"))] | map(tostring) | join(",")' "$T/r4.json")" \
	"failed,true"

# router.verify reads a built-in axis back: a hook that did not take effect fails the
# case with both values, unmeasured; --dry-run warns of every setting nothing reads back
jq --arg r "$T/r5.json" '.matrix = { burst_max: [20] } | .params.rules = 0
	| .router.hooks = { burst_max: ["true"] } | .router.verify = { burst_max: ["echo", "10"] }
	| .rig = { calibrate: false, direct: false } | .output.results = $r' "$P" >"$T/verify.json"
"$B/ppslab" run "$T/verify.json" -q --no-table >/dev/null 2>&1
eq "router.verify: a setting that did not take: the run exits 1" "$?" 1
eq "... its case failed with both values, no trial run" \
	"$(jq -r '.cases[0] | [.status, .error, (.trials | length), .router_verify.burst_max.ok] | map(tostring) | join("|")' "$T/r5.json")" \
	"failed|burst_max is 10 on the router, the cell wants 20: the setting did not take effect|0|false"
"$B/ppslab" run "$P" --dry-run >/dev/null 2>"$T/dry.err"
eq "--dry-run warns of the rules hook nothing reads back" \
	"$(grep -c "warning: rules: nothing reads it back from the router" "$T/dry.err")" 1
"$B/ppslab" run "$T/verify.json" --dry-run >/dev/null 2>"$T/dry2.err"
eq "... and not of burst_max, read back by router.verify" "$(grep -c "warning: burst_max" "$T/dry2.err")" 0
eq "the external router's environment is read in its namespace" \
	"$(jq -r '.environment.dut | [(.collected | test("in namespace")), (.nics | length > 1)] | map(tostring) | join(",")' "$R")" "true,true"
done_testing
