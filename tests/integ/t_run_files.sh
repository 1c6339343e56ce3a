#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_run_files.sh — what ppslab run, plot and report write, as root in a directory
# anyone can write (sticky, like /tmp): symlinks planted at every name they write
# (the results file, the plot and its .gp/.dat, the report's files, the pre-run check's
# old predictable name) are replaced, never written through; a read-only or immutable
# results file is refused before anything runs; a disk with no room says so.
. "$(dirname "$0")/lib.sh"
lab_up
P=$T/p.json
cat >"$P" <<JSON
{ "description": "t_run_files",
  "matrix": { "pollhz": [500, 1000] },
  "params": { "burst_max": 20, "offered": "10k" },
  "trial": { "method": "fixed", "warmup": "0.1s", "duration": "0.3s", "settle": "0.1s" },
  "rig": { "calibrate": false, "direct": false },
  "topology": { "kind": "netns", "lab": "$LAB" } }
JSON
W=$T/world
mkdir -m 1777 "$W"
V=$T/victims
mkdir -m 0700 "$V"
plant() {   # plant NAME...: W/NAME -> a root-owned 0600 file V/NAME
	local f
	for f in "$@"; do
		printf 'precious %s\n' "$f" >"$V/$f"
		chmod 0600 "$V/$f"
		ln -s "$V/$f" "$W/$f"
	done
}
untouched() {   # every victim still holds what it held, mode 0600
	local f bad=0
	for f in "$V"/*; do
		[ "$(cat "$f")" = "precious $(basename "$f")" ] || { echo "# $f: $(head -c 60 "$f" | tr -cd '[:print:]')"; bad=1; }
		[ "$(stat -c %a "$f")" = 600 ] || { echo "# $f: mode $(stat -c %a "$f")"; bad=1; }
	done
	return $bad
}
plant r.json p.png p.gp p.dat
# the pre-run check's old name held the PID: the shell's PID is ppslab's after exec
bash -c 'ln -s "$1/chk" "$2/r.json.ppslab-check-$$"; exec "${@:3}"' _ "$V" "$W" \
	"$B/ppslab" run "$P" -o "$W/r.json" -q --no-table --plot "$W/p.png" >"$T/o1" 2>"$T/e1"
eq "a run into planted links: status 0" "$?" 0
check "the check's dangling link was not followed (it created nothing)" test ! -e "$V/chk"
check "no victim written through a link" untouched
check "the results file is ours, in place of the link" test -f "$W/r.json" -a ! -L "$W/r.json"
eq "and a whole results file" "$(jq -r '[.schema, .complete, (.cases | length)] | join(" ")' "$W/r.json")" \
	"ppslab/result true 2"
check "the plot, script and data replaced their links" \
	test -f "$W/p.png" -a ! -L "$W/p.png" -a ! -L "$W/p.gp" -a ! -L "$W/p.dat"
eq "no temporary left in the directory" "$(ls -A "$W" | grep -cv '^r.json$\|^p\.\(png\|gp\|dat\)$\|ppslab-check')" 0

# a report into a directory of planted links
mkdir -m 1777 "$W/rep"
(cd "$W/rep" && for f in report.html report.md line-fwd_pps-pollhz.png line-fwd_pps-pollhz.gp \
	line-fwd_pps-pollhz.dat; do printf 'precious rep-%s\n' "$f" >"$V/rep-$f"; chmod 0600 "$V/rep-$f"
	ln -s "$V/rep-$f" "$f"; done)
"$B/ppslab" report "$W/r.json" -o "$W/rep" >"$T/o2" 2>"$T/e2"
eq "a report into planted links: status 0" "$?" 0
check "no victim written through a link by the report" untouched
check "its page is ours" test -f "$W/rep/report.html" -a ! -L "$W/rep/report.html"
ln -s "$V" "$W/rep2"; chown 65534 -h "$W/rep2"
"$B/ppslab" report "$W/r.json" -o "$W/rep2" >"$T/o3" 2>"$T/e3"
eq "a report directory that is another user's link: refused" "$?" 73
check "saying so" grep -q "symbolic link of another user" "$T/e3"

# a read-only results file is kept unless --force
cp "$W/r.json" "$T/ro.json"; chmod 0444 "$T/ro.json"
"$B/ppslab" run "$P" -o "$T/ro.json" -q --no-table >"$T/o4" 2>"$T/e4"
eq "a read-only results file: status 73" "$?" 73
check "named read-only, with the way out" grep -q "ro.json is read-only (mode 0444): --force" "$T/e4"
eq "and left as it was" "$(stat -c %a "$T/ro.json") $(cmp -s "$T/ro.json" "$W/r.json" && echo same)" "444 same"

# an immutable one cannot be replaced at the end of the first case: said before
cp "$W/r.json" "$T/im.json"
if chattr +i "$T/im.json" 2>/dev/null; then
	"$B/ppslab" run "$P" -o "$T/im.json" -q --no-table >"$T/o5" 2>"$T/e5"
	rc=$?
	chattr -i "$T/im.json"
	eq "an immutable results file: status 73" "$rc" 73
	check "named immutable" grep -q "im.json is immutable" "$T/e5"
else
	skip "an immutable results file" "chattr +i does not work on $T"
fi

# no room: 4 KiB free is refused before anything runs; a first save that fails says
# that nothing was saved (not that a previous version is intact)
mkdir "$T/tiny"
if unshare -m true 2>/dev/null; then
	unshare -m bash -c 'mount -t tmpfs -o size=4k tmpfs "$1" && exec "${@:2}"' _ "$T/tiny" \
		"$B/ppslab" run "$P" -o "$T/tiny/r.json" -q --no-table >"$T/o6" 2>"$T/e6"
	eq "4 KiB free: status 73 before anything runs" "$?" 73
	check "saying there is no space" grep -q "No space left on device" "$T/e6"
	big=$(head -c 60000 /dev/zero | tr '\0' x)
	jq --arg d "$big" '.description = $d' "$P" >"$T/big.json"
	unshare -m bash -c 'mount -t tmpfs -o size=40k tmpfs "$1" && exec "${@:2}"' _ "$T/tiny" \
		"$B/ppslab" run "$T/big.json" -o "$T/tiny/r.json" -q --no-table >"$T/o7" 2>"$T/e7"
	eq "a first save that fills the disk: status 74" "$?" 74
	check "says no space, and that nothing was saved" \
		grep -q "cannot save the results: No space left on device (nothing was saved)" "$T/e7"
else
	skip "a full disk" "no private mount namespace (unshare -m)"
fi
# router-axis values with '/' and '=' once gave two cells one case id ("a=x/b=1/b=1"):
# one was skipped as done and the run still said complete; each cell has its own now
H="$PPSLAB_TOP/tests/integ/nft_fwd.sh"
jq --arg lab "$LAB" --arg b "$B" --arg h "$H" 'del(.matrix) | .router = { kind: "external",
	setup_hook: ["bash", $h, "setup", $lab, $b],
	axes: [ { name: "a", values: ["x/b=1", "x"], set: ["true", "{value}"] },
		{ name: "b", values: ["1", "1/b=1"], set: ["true", "{value}"] } ] }' "$P" >"$T/ids.json"
"$B/ppslab" run "$T/ids.json" -o "$T/ids-r.json" -q --no-table >"$T/o8" 2>"$T/e8"
eq "a run over values with / and =: status 0" "$?" 0
eq "four cells, four cases, complete" \
	"$(jq -r '[(.cases | length), ([.cases[].case_id] | unique | length), .complete] | join(" ")' "$T/ids-r.json")" \
	"4 4 true"
eq "the ids escape them" "$(jq -r '[.cases[].case_id] | sort | join(" ")' "$T/ids-r.json")" \
	"a=x%2Fb%3D1/b=1 a=x%2Fb%3D1/b=1%2Fb%3D1 a=x/b=1 a=x/b=1%2Fb%3D1"
# SIGTERM as soon as ppslab run handles it (its SigCgt has SIGTERM, bit 15): not a
# silent 143, but a message and a resumable file
"$B/ppslab" run "$P" -o "$T/term.json" --no-table >"$T/o10" 2>"$T/e10" &
pid=$!
# (once it is ppslab: the shell's child before its exec carries the test's own traps)
caught() { [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = ppslab ] &&
	[ $(( 0x$(awk '/^SigCgt/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo 0) & 0x4000 )) != 0 ]; }
wait_until 10 "ppslab run catches SIGTERM" caught
kill -TERM "$pid"
wait "$pid"
eq "SIGTERM early in a run: status 143" "$?" 143
check "it says it was interrupted" grep -q "interrupted" "$T/e10"
eq "and saved a resumable file" "$(jq -r .complete "$T/term.json" 2>&1)" false

# a sink that does not end when told to: killed after 10 s, and said so (not "status 137")
mkdir "$T/hung"
cat >"$T/hung/ppslab-sink" <<SH
#!/usr/bin/env bash
# the real sink in the background; this one ignores SIGINT and waits for it forever
trap '' INT TERM
"$B/ppslab-sink" "\$@" &
echo \$! >"$T/hung/real.pid"
wait
exec sleep 3600
SH
chmod +x "$T/hung/ppslab-sink"
jq --arg bin "$T/hung" '.matrix.pollhz = [1000] | .topology.sink = { bin: $bin }' "$P" >"$T/hung.json"
"$B/ppslab" run "$T/hung.json" -o "$T/hung-r.json" -q --no-table >"$T/o9" 2>"$T/e9"
eq "a hung sink: the case failed (status 1)" "$?" 1
[ -s "$T/hung/real.pid" ] && kill "$(cat "$T/hung/real.pid")" 2>/dev/null
check "the case says the sink did not finish and was killed" grep -q \
	"sink (sink box sink, .*) did not finish within 10 s of being told to stop and was killed" \
	<(jq -r '.cases[0].error' "$T/hung-r.json")
done_testing
