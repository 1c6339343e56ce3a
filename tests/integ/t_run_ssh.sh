#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_ssh.sh — ppslab run's ssh topology against a real sshd: an sshd of the test's
# own listens on the loopback of the lab's gen namespace, and `ppslab run`, started in
# that namespace, reaches every box through it (BatchMode, the test's key), each box
# then entering its namespace. Asserts on the results file: the pollhz × burst_max
# ceiling through ssh, generated rules loaded into the remote forwarder through the
# control client's stdin, environments collected with `ppslab env` over ssh, and no
# forwarder left running afterwards. Then an external router (the kernel in the router
# namespace) reached over a second sshd there: its environment read without ppslab,
# hook words and rule sets arriving intact, its read hook's counters in the checks, an
# unhooked axis refused, an unknown host key and the user's ConnectTimeout stopping the
# run before the first case, and a slow read hook the remote sinks wait out.
. "$(dirname "$0")/lib.sh"
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$SSHD" ] || ! command -v ssh >/dev/null; then
	skip "ssh topology" "openssh-server/openssh-client not installed"
	done_testing
	exit 0
fi
lab_up
sshd_prepare 127.0.0.1
start sshd gen "$SSHD" -D -e -f "$T/sshd_config"
SSHO=(-p 2222 -i "$K" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR)
answers() { inns gen ssh -o BatchMode=yes "$@" true 2>/dev/null; }   # answers SSH-ARGS...
check "sshd answers in $LAB-gen" wait_until 30 "sshd in $LAB-gen answering" answers "${SSHO[@]}" root@127.0.0.1

# the forwarder through a wrapper that notes its control socket and that directory's mode
mkdir "$T/rbin"
cat >"$T/rbin/ppslab-rut" <<SH
#!/usr/bin/env bash
prev=
for a; do [ "\$prev" = --ctl ] && echo "\$a \$(stat -c %a "\$(dirname "\$a")")" >>"$T/ctl.log"; prev=\$a; done
exec "$B/ppslab-rut" "\$@"
SH
chmod +x "$T/rbin/ppslab-rut"
ln -s "$B/ppslab" "$T/rbin/"   # its environment, as a lab box's bin holds ppslab too
P=$T/ssh.json
jq -n --arg lab "$LAB" --arg b "$B" --arg rb "$T/rbin" --arg k "$K" --arg r "$T/r.json" '{
  description: "t_run_ssh: every box over ssh",
  matrix: { pollhz: [500, 1000] },
  params: { burst_max: 20, offered: "30k", rules: 10 },
  trial: { method: "fixed", warmup: "0.3s", duration: "1.5s", settle: "0.3s" },
  router: { rt_prio: 5 },
  rig: { direct: false },
  topology: { kind: "ssh",
    ssh_options: ["-p", "2222", "-i", $k, "-o", "StrictHostKeyChecking=no",
                  "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"],
    gen:  { ssh: "root@127.0.0.1", netns: ($lab + "-gen"),  iface: "gen0",      bin: $b },
    rut:  { ssh: "root@127.0.0.1", netns: ($lab + "-rut"),  iface: "rut0,rut1", bin: $rb },
    sink: { ssh: "root@127.0.0.1", netns: ($lab + "-sink"), iface: "sink0",     bin: $b } },
  output: { results: $r } }' >"$P"
inns gen "$B/ppslab" run "$P" -q --no-table >"$T/run.out" 2>"$T/run.err"
rc=$?
eq "run over ssh exits 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/# /' "$T/run.err" | head -n 20
R=$T/r.json
eq "complete" "$(jq -r .complete "$R")" true
eq "topology recorded" "$(jq -r .environment.topology "$R")" ssh
eq "two cases finished" "$(jq '[.cases[] | select(.status == "ok" or .status == "flagged")] | length' "$R")" 2
near_or_said "over ssh: pollhz 500 × burst_max 20 = 10,000 pps" \
	"$(jq '.cases[] | select(.params.pollhz == 500) | .metrics.fwd_pps' "$R")" 10000 0.15 \
	"$(host_flags "$R" '.params.pollhz == 500')"
near_or_said "over ssh: pollhz 1000 × burst_max 20 = 20,000 pps" \
	"$(jq '.cases[] | select(.params.pollhz == 1000) | .metrics.fwd_pps' "$R")" 20000 0.15 \
	"$(host_flags "$R" '.params.pollhz == 1000')"
check "the remote forwarder's rules were executed (allow rule counted)" \
	test "$(jq '[.cases[].metrics["rut.rule_hits.65000"]] | min' "$R")" -gt 10000
eq "ten generated rules before it, idle (left out of the record, counted)" \
	"$(jq '.cases[0].trials[0].rut | [(.rules | length), .rules_idle] | join(",")' -r "$R")" "1,11"
eq "the sender's environment came over ssh (ppslab env)" \
	"$(jq -r '.environment.sender.nics[0].name + " " + .environment.sender.nics[0].driver' "$R")" "gen0 veth"
eq "the sink's tail was accounted remotely too" \
	"$(jq '[.cases[].trials[].sink[0].rx_pkts > 0] | all' "$R")" true
# A sender slow to start (an ssh session on a loaded host takes seconds): the sink,
# started first, waits for its frames however long the senders take to get ready; and
# a sink that ends by itself before the trial stops it fails the trial instead of
# recording its missed frames as lost. Wrappers of the tools in a bin directory of
# their own: the sender's starts 8 s late (the delay is the point), the sink's ends
# after 1 s (its last --duration wins).
mkdir -p "$T/slow" "$T/short"
for f in "$B"/ppslab*; do ln -s "$f" "$T/slow/"; ln -s "$f" "$T/short/"; done
rm "$T/slow/ppslab-gen" "$T/short/ppslab-sink"
printf '#!/bin/sh\nsleep 8\nexec %s/ppslab-gen "$@"\n' "$B" >"$T/slow/ppslab-gen"
printf '#!/bin/sh\nexec %s/ppslab-sink "$@" --duration 1s\n' "$B" >"$T/short/ppslab-sink"
chmod +x "$T/slow/ppslab-gen" "$T/short/ppslab-sink"
jq --arg s "$T/slow" --arg r "$T/rs.json" 'del(.matrix) | .params.pollhz = 1000 | .rig.calibrate = false
	| .topology.gen.bin = $s | .output.results = $r' "$P" >"$T/slow.json"
inns gen "$B/ppslab" run "$T/slow.json" -q --no-table >/dev/null 2>"$T/slow.err"
rc=$?
eq "a sender ready 8 s late: the run exits 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/# /' "$T/slow.err" | head -n 5
# (the forwarder's ceiling here is below the load: what it drops is its own, counted)
eq "... the sink counting the trial's frames, as many as the forwarder sent it at most" \
	"$(jq -c '.cases[0].trials[0] | [.sink[0].rx_pkts > 0, (.checks[] | select(.name == "forwarder vs sink") | .ok)]' \
		"$T/rs.json")" "[true,true]"
jq --arg s "$T/short" --arg r "$T/rq.json" '.topology.sink.bin = $s | .output.results = $r' "$T/slow.json" |
	jq --arg b "$B" '.topology.gen.bin = $b' >"$T/short.json"
inns gen "$B/ppslab" run "$T/short.json" -q --no-table >/dev/null 2>"$T/short.err"
eq "a sink that ends by itself before the trial is done: the case fails (status 1)" "$?" 1
check "... saying so" grep -q "ended with status 0 before the trial stopped it" <(jq -r '.cases[0].error' "$T/rq.json")

# Another ppslab on a box: its `bin` holds a wrapper `ppslab` whose `env` reports
# another version, symlinks for the other programs. A box of another release stops the
# run before anything is measured (status 78, EX_CONFIG), naming the box, its ssh
# destination and both versions; a rebuild of this release (another git) is warned and
# recorded, not refused (which releases are the same: t_version). With
# --allow-version-mismatch the run goes on and records both, and a sink of that older
# release, refusing the run's --epoch as one would, fails the case with its own message
# quoted. (-q would silence the warnings, not the record.)
HERE=$("$B/ppslab" --version | sed 's/^ppslab //')
REL=${HERE%% (git *}
mkdir -p "$T/rebuilt" "$T/old"
for f in "$B"/ppslab*; do ln -s "$f" "$T/rebuilt/"; ln -s "$f" "$T/old/"; done
rm "$T/rebuilt/ppslab" "$T/old/ppslab" "$T/old/ppslab-sink"
fake_ppslab() {   # fake_ppslab DIR VERSION
	printf '#!/bin/sh\n[ "$1" = env ] || exec %s/ppslab "$@"\n%s/ppslab "$@" | jq -c --arg v "%s" %s\n' \
		"$B" "$B" "$2" "'.ppslab = \$v'" >"$1/ppslab"
	chmod +x "$1/ppslab"
}
fake_ppslab "$T/rebuilt" "$REL (git rebuilt)"
fake_ppslab "$T/old" "0.0.9 (git old)"
printf '#!/bin/sh\nfor a; do [ "$a" = --epoch ] && { echo "ppslab-sink: unknown option '"'"'--epoch'"'"' (see --help)" >&2; exit 64; }; done\nexec %s/ppslab-sink "$@"\n' \
	"$B" >"$T/old/ppslab-sink"
chmod +x "$T/old/ppslab-sink"
jq --arg g "$T/rebuilt" --arg s "$T/old" --arg r "$T/rv.json" '.topology.gen.bin = $g
	| .topology.sink.bin = $s | .output.results = $r | .trial.warmup = "0.1s"
	| .trial.duration = "0.5s" | .trial.settle = "0.1s"' "$T/slow.json" >"$T/vers.json"
inns gen "$B/ppslab" run "$T/vers.json" --no-table >/dev/null 2>"$T/vers.err"
eq "a sink box of another release: the run is refused (status 78)" "$?" 78
check "... naming the box, its ssh destination and both versions" \
	grep -qF "the sink box sink (root@127.0.0.1) runs ppslab 0.0.9 (git old), this host $HERE: another release" "$T/vers.err"
check "... and the option that runs anyway" grep -qF -- --allow-version-mismatch "$T/vers.err"
check "... the sender, a rebuild of this release, only warned about (t_version: the same release)" \
	grep -qF "ppslab: warning: the sender box gen (root@127.0.0.1) runs ppslab $REL (git rebuilt), this host $HERE: the same release, another build" "$T/vers.err"
eq "... the sink the one box refused" "$(grep -c 'another release, whose tools' "$T/vers.err")" 1
check "... nothing measured: no results file" test ! -e "$T/rv.json"
inns gen "$B/ppslab" run "$T/vers.json" --no-table --allow-version-mismatch >/dev/null 2>"$T/vers2.err"
eq "--allow-version-mismatch: the run goes on, its case failing (status 1)" "$?" 1
eq "... both boxes recorded in environment.version_mismatch" \
	"$(jq -c '[.environment.version_mismatch[] | [.box, .role, .ssh, .ppslab, .here, .release]]' "$T/rv.json")" \
	"$(jq -nc --arg h "$HERE" --arg r "$REL (git rebuilt)" '[["gen", "sender", "root@127.0.0.1", $r, $h, "same"],
		["sink", "sink", "root@127.0.0.1", "0.0.9 (git old)", $h, "differs"]]')"
check "... warned on stderr" grep -qF "the sink box sink (root@127.0.0.1) runs ppslab 0.0.9 (git old), this host $HERE: another release; running anyway" "$T/vers2.err"
check "... the case's error quotes the old sink's own message" \
	grep -qF "ppslab-sink (sink) exited with status 64 before it was ready: ppslab-sink: unknown option '--epoch' (see --help)" \
	<(jq -r '.cases[0].error' "$T/rv.json")
# resumed, the boxes are asked again (one may have been changed since): refused, the
# file kept as it was
fake_ppslab "$T/old" "0.0.8 (git older)"
cp "$T/rv.json" "$T/rv.before"
inns gen "$B/ppslab" run "$T/vers.json" --no-table --resume --retry-failed >/dev/null 2>"$T/vers3.err"
eq "--resume: a sink of another release refused again (status 78)" "$?" 78
check "... its version asked again, not the one recorded" \
	grep -qF "the sink box sink (root@127.0.0.1) runs ppslab 0.0.8 (git older), this host $HERE: another release" "$T/vers3.err"
check "... the results file untouched" cmp -s "$T/rv.json" "$T/rv.before"

# ours only (this lab's router namespace): other checkouts run their own forwarders. A
# forwarder stopped over ssh may still be leaving as the run ends; none stays.
no_rut() { [ -z "$(lab_procs rut ppslab-rut)" ]; }
check "no forwarder left running" wait_until 10 "no ppslab-rut in $LAB-rut" no_rut
check "the forwarder's control socket: in a private (0700) directory with a random name" \
	grep -qE '^/tmp/ppslab-rut\.[A-Za-z0-9]{10}/rut\.sock 700$' "$T/ctl.log"
check "which the run removed" test ! -e "$(dirname "$(awk 'NR == 1 { print $1 }' "$T/ctl.log")")"

# --- an external router over its own sshd, as a real router is -----------------------
# The Linux kernel forwards in the router's namespace; ppslab reaches it only over ssh:
# a second sshd there, on a control link between the gen namespace (where ppslab runs)
# and the router's, off the test links. Its host key is known, as a lab's must be.
ctl_link "pc$$a" "pc$$b" 198.19.255.1 198.19.255.2
ssh-keygen -q -t ed25519 -N "" -f "$T/host_key_r" -C ppslab-test-router
sed -e 's/^ListenAddress .*/ListenAddress 198.19.255.2/' -e "s#^HostKey .*#HostKey $T/host_key_r#" \
	"$T/sshd_config" >"$T/sshd_config_r"
start sshd_r rut "$SSHD" -D -e -f "$T/sshd_config_r"
echo "[127.0.0.1]:2222 $(cut -d' ' -f1,2 "$T/host_key.pub")" >"$T/known_gen"
cp "$T/known_gen" "$T/known_all"
echo "[198.19.255.2]:2222 $(cut -d' ' -f1,2 "$T/host_key_r.pub")" >>"$T/known_all"
KNOWN=(-p 2222 -i "$K" -o StrictHostKeyChecking=yes -o "UserKnownHostsFile=$T/known_all" -o LogLevel=ERROR)
check "the router's sshd answers on the control link, its host key known" \
	wait_until 30 "sshd in $LAB-rut answering" answers "${KNOWN[@]}" root@198.19.255.2
"$B/ppslab" lab shield off --ns rut --name "$LAB" >/dev/null

# what the router does for the hooks: reads its forward chain's counters as the schema
# of a read hook (a head counter, the rules, the accept rule)
cat >"$T/rut_read.sh" <<'SH'
nft -j list chain inet ppt_fw forward 2>/dev/null | jq -c '
  [.nftables[] | select(.rule) | .rule | {handle,
     pk: ([.expr[] | select(.counter) | .counter.packets][0] // 0)}] as $r
  | if ($r | length) < 2 then {} else
    { rx_pkts: $r[0].pk, fwd_pkts: $r[-1].pk, drop_pkts: ([$r[1:-1][] | .pk] | add // 0),
      rules: [$r[1:][] | {number: .handle, pkts: .pk}] } end'
SH
cat >"$T/fw.nft" <<'NFT'
flush ruleset
table inet ppt_fw {
	chain forward {
		type filter hook forward priority 0; policy accept;
		counter
		ip saddr 198.18.200.1 counter drop
		counter accept
	}
}
NFT
# the rules hook keeps what arrived on its stdin, then loads nft rules: the file as is,
# or N never-matching rules it writes itself
RULES='case $1 in file:*) f=$2/got-file.rules ;; *) f=$2/got-$1.rules ;; esac; cat >"$f" || exit 1
case $1 in
file:*) nft -f "$f" ;;
*) {{ echo "flush ruleset"; echo "table inet ppt_fw {{"; echo "chain forward {{"
      echo "type filter hook forward priority 0; policy accept;"; echo counter
      i=0; while [ $i -lt $1 ]; do echo "ip saddr 198.18.$((128 + i / 256)).$((i % 256)) counter drop"; i=$((i + 1)); done
      echo "counter accept"; echo "}}"; echo "}}"; }} | nft -f - ;;
esac'
R2="root@198.19.255.2"
P2=$T/ext.json
jq -n --arg lab "$LAB" --arg b "$B" --arg k "$K" --arg r "$T/r2.json" --arg t "$T" \
	--arg kn "$T/known_all" --arg rules "$RULES" --arg r2 "$R2" '{
  description: "t_run_ssh: an external router over ssh",
  matrix: { rules: [3, "file:fw.nft"] },
  params: { offered: "20k" },
  trial: { method: "fixed", warmup: "0.3s", duration: "1.5s", settle: "0.3s" },
  rig: { calibrate: false, direct: false },
  router: { kind: "external",
    setup_hook: ["ssh", $r2, "sh", "-c",
                 "sysctl -qw net.ipv4.ip_forward=1 && printf \"%s\\n\" \"$@\" >\"$0\"",
                 ($t + "/argv.out"), "a b", "$HOME", "x;y", "'"'"'q'"'"'", "{{lit}}", "*"],
    hooks: { rules: ["ssh", $r2, "sh", "-c", $rules, "sh", "{rules}", $t] },
    check_hook: ["ssh", $r2, "sh", "-c", "test \"$(cat /proc/sys/net/ipv4/ip_forward)\" = 1"],
    read_hook: ["ssh", $r2, "sh", ($t + "/rut_read.sh")],
    hook_timeout: "20s" },
  topology: { kind: "ssh",
    ssh_options: ["-o", "ConnectTimeout=5", "-p", "2222", "-i", $k, "-o", "StrictHostKeyChecking=yes",
                  "-o", ("UserKnownHostsFile=" + $kn), "-o", "LogLevel=ERROR"],
    gen:  { ssh: "root@127.0.0.1", netns: ($lab + "-gen"),  iface: "gen0",  bin: $b },
    rut:  { ssh: $r2, iface: "rut0,rut1" },
    sink: { ssh: "root@127.0.0.1", netns: ($lab + "-sink"), iface: "sink0", bin: $b } },
  output: { results: $r } }' >"$P2"

# a swept axis nothing sets on the router: refused at its place
jq '.matrix.size = [64, 128] | .matrix.burst_max = [10, 20]' "$P2" >"$T/nohook.json"
"$B/ppslab" run "$T/nohook.json" --dry-run >/dev/null 2>"$T/nohook.err"
eq "an axis without a hook: refused (65)" "$?" 65
check "... at the axis' FILE:LINE:COLUMN" \
	grep -qE "nohook.json:[0-9]+:[0-9]+: matrix.burst_max: axis burst_max is swept, but nothing sets it" "$T/nohook.err"
eq "... and not the traffic's axes, which ppslab sets" "$(grep -c 'matrix.size' "$T/nohook.err")" 0

# a host key nobody knows: the run stops before the first case, naming the box
jq --arg kn "$T/known_gen" '.topology.ssh_options[9] = ("UserKnownHostsFile=" + $kn)' "$P2" >"$T/hk.json"
inns gen "$B/ppslab" run "$T/hk.json" -q --no-table >/dev/null 2>"$T/hk.err"
eq "an unknown host key: the run stops (69)" "$?" 69
check "... naming the router box" grep -q "the rut box (root@198.19.255.2) cannot be reached over ssh" "$T/hk.err"
check "... before the first case (no results written)" test ! -e "$T/r2.json"

# the user's ConnectTimeout wins over ppslab's 10 s: a router that drops ssh fails in 1 s
inns rut nft -f - <<'NFT'
table inet ppt_block {
	chain input_2222 {
		type filter hook input priority 0; policy accept;
		tcp dport 2222 drop
	}
}
NFT
jq '.topology.ssh_options[1] = "ConnectTimeout=1"' "$P2" >"$T/ct.json"
t0=$(date +%s%N)
inns gen "$B/ppslab" run "$T/ct.json" -q --no-table >/dev/null 2>"$T/ct.err"
rc=$?
t1=$(date +%s%N)
eq "a router that drops ssh: the run stops (69)" "$rc" 69
# (the point: sooner than ppslab's own 10 s could end it, however slow the host)
within "... after the user's ConnectTimeout=1, not ppslab's 10 s ($(( (t1 - t0) / 1000000 )) ms)" \
	"$(( (t1 - t0) / 1000000 ))" 0 9900
inns rut nft delete table inet ppt_block

inns gen "$B/ppslab" run "$P2" -q --no-table >"$T/run2.out" 2>"$T/run2.err"
rc=$?
eq "run with an external router over ssh exits 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/# /' "$T/run2.err" | head -n 20
R2J=$T/r2.json
[ -n "${KEEP_R2:-}" ] && cp "$R2J" "$KEEP_R2"
eq "complete, two cases measured" \
	"$(jq -r '[.complete, ([.cases[] | select(.status == "ok" or .status == "flagged")] | length)] | join(",")' "$R2J")" "true,2"
# The kernel forwards all it gets: the rate follows the sender's (a loaded machine can
# make the sender miss 20,000; the offered load check says so). A starved host's kernel drops frames in the router's veth backlog: that loss is real
# and counted (the sink's loss_pct), not a wrong number; what would be one is a rate off
# the offered load with no loss behind it.
off=$(jq '[.cases[].metrics | select((.fwd_pps / .offered_pps - 1) | fabs >= 0.10)] | length' "$R2J")
lost_said=$(jq -r '[.cases[].metrics | select((.fwd_pps / .offered_pps - 1) | fabs >= 0.10)
	| select((.loss_pct // 0) > 0 and (1 - .fwd_pps / .offered_pps) * 100 <= (.loss_pct + 10))
	| "\(.fwd_pps | floor) pps of \(.offered_pps | floor), \(.loss_pct)% lost"]' "$R2J")
if [ "$off" = 0 ] || [ "$(jq length <<<"$lost_said")" != "$off" ]; then
	eq "the router forwards what is offered (within 10 %)" "$off cases off" "0 cases off"
else
	skip "the router forwards what is offered (within 10 %)" \
		"the kernel router lost frames on a loaded host, and the books show them: $(jq -r 'join("; ")' <<<"$lost_said")"
fi
eq "the router's environment came over ssh, without ppslab there" \
	"$(jq -r '.environment.dut.collected | test("^sh over ssh root@198.19.255.2")' "$R2J")" true
eq "... its kernel and ports" \
	"$(jq -r '.environment.dut | [.os.kernel, (.nics | map(.name + " " + .driver) | join(","))] | join(" / ")' "$R2J")" \
	"$(uname -r) / rut0 veth,rut1 veth"
eq "... its forwarding sysctl" \
	"$(jq -r '.environment.dut.tunables["net.ipv4.ip_forward"] | type' "$R2J")" number
eq "a hook's words with spaces and shell characters arrive as written" \
	"$(cat "$T/argv.out" 2>/dev/null | tr '\n' '|')" "a b|\$HOME|x;y|'q'|{lit}|*|"
check "a file: rule set arrives on the router (on the rules hook's stdin)" cmp -s "$T/fw.nft" "$T/got-file.rules"
eq "a generated set arrives the same way (3 rules and the allow rule)" \
	"$(grep -c '^add ' "$T/got-3.rules" 2>/dev/null)" 4
eq "the read hook's counters feed the checks (adds up, vs sink, ruleset executed)" \
	"$(jq -r '[.cases[].trials[].checks[] | select(.name == "forwarder adds up" or .name == "forwarder vs sink" or .name == "ruleset executed") | .ok] | unique | map(tostring) | join(",")' "$R2J")" true
check "... from the router's own counters" \
	test "$(jq '[.cases[].trials[].rut.rx_pkts] | min' "$R2J")" -gt 20000
eq "the user's ssh options come before ppslab's in the hooks too" \
	"$(jq -r '.cases[0].router_hooks[0].argv | (index("ConnectTimeout=5") < index("ConnectTimeout=10"))' "$R2J")" true
# a read hook that takes 6 s before the trial: the remote sink's own limit covers it
# (it once gave up 4 s after the trial's length, and the trial lost every frame)
jq --arg r "$T/r3.json" --arg t "$T" '.matrix = { rules: [3] }
	| .router.read_hook = ["ssh", .router.read_hook[1], "sh", "-c",
		"n=$(cat \"$1/reads\" 2>/dev/null || echo 0); echo $((n + 1)) >\"$1/reads\"; [ $((n % 2)) = 1 ] || sleep 6; sh \"$1/rut_read.sh\"",
		"sh", $t]
	| .output.results = $r' "$P2" >"$T/slowread.json"
inns gen "$B/ppslab" run "$T/slowread.json" -q --no-table >/dev/null 2>"$T/slowread.err"
eq "a 6-s read hook before each trial: the run exits 0" "$?" 0
eq "... and the remote sink counted the load (20,000 pps for 1.5 s: over 27,000 frames)" \
	"$(jq '[.cases[].trials[].sink[0].rx_pkts > 27000] | all' "$T/r3.json")" true
# sshd started in the background of a script ignores SIGINT (as every such job does)
for d in sshd_r sshd; do
	kill -TERM "${BG_PID[$d]}" 2>/dev/null
	finish "$d" 10
done
done_testing
