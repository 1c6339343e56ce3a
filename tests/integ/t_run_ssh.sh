#!/usr/bin/env bash
# t_run_ssh.sh — ppslab run's ssh topology against a real sshd: an sshd of the test's
# own listens on the loopback of the lab's gen namespace, and `ppslab run`, started in
# that namespace, reaches every box through it (BatchMode, the test's key), each box
# then entering its namespace. Asserts on the results file: the pollhz × burst_max
# ceiling through ssh, generated rules loaded into the remote forwarder through the
# control client's stdin, environments collected with `ppslab env` over ssh, and no
# forwarder left running afterwards.
. "$(dirname "$0")/lib.sh"
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$SSHD" ] || ! command -v ssh >/dev/null; then
	skip "ssh topology" "openssh-server/openssh-client not installed"
	done_testing
	exit 0
fi
lab_up
K=$T/id_lab
ssh-keygen -q -t ed25519 -N "" -f "$K" -C ppslab-test
ssh-keygen -q -t ed25519 -N "" -f "$T/host_key" -C ppslab-test-host
cp "$K.pub" "$T/authorized_keys"
chmod 600 "$T/authorized_keys"
mkdir -p /run/sshd
cat >"$T/sshd_config" <<CFG
ListenAddress 127.0.0.1
Port 2222
HostKey $T/host_key
AuthorizedKeysFile $T/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile none
LogLevel ERROR
CFG
start sshd gen "$SSHD" -D -e -f "$T/sshd_config"
SSHO=(-p 2222 -i "$K" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR)
up=no
for i in $(seq 1 50); do
	inns gen ssh -o BatchMode=yes "${SSHO[@]}" root@127.0.0.1 true 2>/dev/null && { up=yes; break; }
	sleep 0.1
done
eq "sshd answers in $LAB-gen" "$up" yes

P=$T/ssh.json
jq -n --arg lab "$LAB" --arg b "$B" --arg k "$K" --arg r "$T/r.json" '{
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
    rut:  { ssh: "root@127.0.0.1", netns: ($lab + "-rut"),  iface: "rut0,rut1", bin: $b },
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
near "over ssh: pollhz 500 × burst_max 20 = 10,000 pps" \
	"$(jq '.cases[] | select(.params.pollhz == 500) | .metrics.fwd_pps' "$R")" 10000 0.15
near "over ssh: pollhz 1000 × burst_max 20 = 20,000 pps" \
	"$(jq '.cases[] | select(.params.pollhz == 1000) | .metrics.fwd_pps' "$R")" 20000 0.15
check "the remote forwarder's rules were executed (allow rule counted)" \
	test "$(jq '[.cases[].metrics["rut.rule_hits.65000"]] | min' "$R")" -gt 10000
eq "ten generated rules before it, idle (left out of the record, counted)" \
	"$(jq '.cases[0].trials[0].rut | [(.rules | length), .rules_idle] | join(",")' -r "$R")" "1,11"
eq "the sender's environment came over ssh (ppslab env)" \
	"$(jq -r '.environment.sender.nics[0].name + " " + .environment.sender.nics[0].driver' "$R")" "gen0 veth"
eq "the sink's tail was accounted remotely too" \
	"$(jq '[.cases[].trials[].sink[0].rx_pkts > 0] | all' "$R")" true
sleep 0.5
eq "no forwarder left running" "$(pgrep -f 'ppslab-rut.*--ctl /tmp/ppslab-rut-' | wc -l)" 0
stop sshd
done_testing
