#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_conventions.sh — the four programs behave like the BSD and Linux tools (no root):
# sysexits statuses (64 for an unknown option, a missing argument or a bad value, 66
# for a missing input), nothing on stdout and a message naming the culprit on stderr
# when they fail; --help and --version on stdout with status 0; --version carries the
# git revision the binary was built from; -q and -v everywhere; `ppslab --help` lists
# its commands as git does and each one answers --help; no colour escapes anywhere
# (so NO_COLOR has nothing to turn off; a colour escape in the sources must come with
# NO_COLOR handling).
set -u
BIN=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
T=$(mktemp -d /tmp/ppslab-t_conventions.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
# fails DESC STATUS STDERR-PATTERN COMMAND...: exits STATUS, stdout empty, stderr
# matches the pattern and starts with the program's name
fails() {
	local d=$1 want=$2 pat=$3; shift 3
	"$@" >"$T/out" 2>"$T/err" </dev/null
	local rc=$? prog=${1##*/}
	if [ "$rc" = "$want" ] && [ ! -s "$T/out" ] && grep -qE -- "$pat" "$T/err" &&
		head -n 1 "$T/err" | grep -qE "^($prog|usage): "; then
		ok "$d"
	else
		no "$d" "status $rc (wanted $want)" "stdout: $(head -c 200 "$T/out")" "stderr: $(head -c 300 "$T/err")"
	fi
}
# succeeds DESC STDOUT-PATTERN COMMAND...: status 0, stdout matches, stderr empty
succeeds() {
	local d=$1 pat=$2; shift 2
	"$@" >"$T/out" 2>"$T/err" </dev/null
	local rc=$?
	if [ "$rc" = 0 ] && grep -qE -- "$pat" "$T/out" && [ ! -s "$T/err" ]; then
		ok "$d"
	else
		no "$d" "status $rc" "stdout: $(head -c 200 "$T/out")" "stderr: $(head -c 300 "$T/err")"
	fi
}

rev=""
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	rev=$(git -C "$TOP" describe --always 2>/dev/null)
fi
for p in ppslab ppslab-gen ppslab-sink ppslab-rut; do
	B=$BIN/$p
	fails "$p --no-such-option: 64, named on stderr" 64 "unknown option '--no-such-option'" "$B" --no-such-option
	succeeds "$p --help: usage on stdout, status 0" "^usage: $p" "$B" --help
	if [ -n "$rev" ]; then
		succeeds "$p --version: '$p VERSION (git $rev...)'" "^$p [0-9]+\.[0-9]+\.[0-9]+ \(git $rev(-dirty)?\)\$" "$B" --version
	else
		succeeds "$p --version" "^$p [0-9]" "$B" --version
	fi
	"$B" --help >"$T/help" 2>&1
	if grep -qE '^ +-q, --quiet ' "$T/help" && grep -qE '^ +-v, --verbose ' "$T/help"; then
		ok "$p --help offers -q, --quiet and -v, --verbose"
	else
		no "$p --help offers -q, --quiet and -v, --verbose"
	fi
	succeeds "$p -q --version is accepted" "^$p " "$B" -q --version
	succeeds "$p -v --version is accepted" "^$p " "$B" -v --version
	if LC_ALL=C grep -q $'\033' "$T/help"; then no "$p --help has no escape sequences"; else ok "$p --help has no escape sequences"; fi
done
fails "ppslab-gen --rate (no value): 64" 64 "option '--rate' needs an argument" "$BIN/ppslab-gen" -i lo --rate
fails "ppslab-gen --rate bogus: 64, names --rate" 64 "--rate bogus" "$BIN/ppslab-gen" -i lo --rate bogus
fails "ppslab-sink --port 70000: 64" 64 "--port 70000" "$BIN/ppslab-sink" -i lo --port 70000
fails "ppslab-rut --l2=1: 64, takes no argument" 64 "option '--l2' takes no argument" "$BIN/ppslab-rut" --l2=1
fails "ppslab-rut --check-rules MISSING: 66 (EX_NOINPUT)" 66 "$T/missing.rules" "$BIN/ppslab-rut" --check-rules "$T/missing.rules"
fails "ppslab table MISSING: 66 (EX_NOINPUT)" 66 "$T/missing.json" "$BIN/ppslab" table "$T/missing.json"
echo '{"schema": "nope"' >"$T/bad.json"
fails "ppslab table BAD-JSON: 65 (EX_DATAERR)" 65 "bad.json" "$BIN/ppslab" table "$T/bad.json"
fails "ppslab nosuchcommand: 64" 64 "'nosuchcommand' is not a ppslab command" "$BIN/ppslab" nosuchcommand
fails "ppslab (no command): 64, usage on stderr" 64 "^usage: ppslab" "$BIN/ppslab"
fails "ppslab plot --bogus: 64" 64 "unknown option '--bogus'" "$BIN/ppslab" plot --bogus

# ppslab --help lists its commands as git does; each answers --help on stdout.
cmds=$("$BIN/ppslab" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
if [ "$(echo $cmds | wc -w)" -ge 5 ] && "$BIN/ppslab" --help | grep -q "'ppslab COMMAND --help'"; then
	ok "ppslab --help lists commands with a line each ($(echo $cmds))"
else
	no "ppslab --help lists commands with a line each" "$cmds"
fi
for c in $cmds; do
	succeeds "ppslab $c --help" "^usage: ppslab $c" "$BIN/ppslab" "$c" --help
done

# Colour: nothing in the sources writes an escape sequence, or it honours NO_COLOR.
esc=$(grep -rlE '\\(033|x1[bB]|e)\[' "$TOP"/lib "$TOP"/gen "$TOP"/sink "$TOP"/rut "$TOP"/analysis --include='*.c' 2>/dev/null)
nc=$(grep -rl 'NO_COLOR' "$TOP"/lib "$TOP"/gen "$TOP"/sink "$TOP"/rut "$TOP"/analysis --include='*.c' 2>/dev/null)
if [ -z "$esc" ] || [ -n "$nc" ]; then
	ok "no colour escapes in the sources, or NO_COLOR honoured (escapes: ${esc:-none})"
else
	no "colour escapes in the sources without NO_COLOR handling" $esc
fi
# A human table, as a terminal would get it, has no escape sequence.
TERM=xterm-256color "$BIN/ppslab" table "$TOP/tests/data/small.json" >"$T/out" 2>"$T/err"
if [ -s "$T/out" ] && ! LC_ALL=C grep -q $'\033' "$T/out" "$T/err"; then
	ok "ppslab table prints no escape sequences"
else
	no "ppslab table prints no escape sequences" "$(head -c 300 "$T/err")"
fi

# one meaning per short option across ppslab's commands: each letter stands for one long
# option wherever it is offered (-n is --dry-run, -q --quiet, -o --output, -p --plot ...)
cmds=$("$BIN/ppslab" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
for c in $cmds; do
	"$BIN/ppslab" "$c" --help | sed -n "s/^ *-\([a-zA-Z]\), --\([a-z-]*\).*/\1 \2 $c/p"
done | sort -u >"$T/shorts"
clash=$(awk '{l[$1] = l[$1] ? l[$1] : $2; if (l[$1] != $2) bad[$1] = 1; w[$1] = w[$1] " " $3 ":--" $2}
	END {for (k in bad) print "-" k ":" w[k]}' "$T/shorts")
if [ -n "$cmds" ] && [ -s "$T/shorts" ] && [ -z "$clash" ]; then
	ok "ppslab: one long option per short letter across its commands"
else
	no "ppslab: one long option per short letter across its commands" "$clash"
fi
# the long spellings of the letters given up still work: a script may use them
for c in "lab status --name ppslab-no-such-lab --json" "plot --plot x.png --link 10G --help" \
	"run --resume --force --help" "table --show n --help" "report --compare x --help" \
	"env --compact --help" "lab up --queues 2 --senders 2 --help"; do
	"$BIN/ppslab" $c >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" = 0 ] || { [ "$rc" = 1 ] && ! grep -qi "unknown option\|usage" "$T/err"; }; then
		ok "ppslab $c: the long options are taken"
	else
		no "ppslab $c: the long options are taken" "status $rc: $(head -c 300 "$T/err")"
	fi
done
echo "1..$n"
