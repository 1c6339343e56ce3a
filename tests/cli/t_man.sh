#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_man.sh — the manual pages in man/ agree with the programs (no root): every option
# each program's --help defines is an option of its man page and the other way round
# (short and long names together), for ppslab-gen, ppslab-sink, ppslab-rut, ppslab and
# every command `ppslab --help` lists (each has a `.SS ppslab COMMAND` section under
# COMMANDS; a new command without one fails here on purpose); each page renders with
# man(1) (or groff/mandoc) without a warning.
set -u
BIN=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
M=$TOP/man
T=$(mktemp -d /tmp/ppslab-t_man.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }

# Option definitions of a --help text on stdin: lines "  -i, --iface ARG  text" or
# "      --src ADDR  text" become "-i --iface" or "--src", sorted.
help_defs() {
	sed -nE 's/^ +(-[A-Za-z0-9], )?(--[a-z0-9][a-z0-9-]*).*/\1\2/p' | sed 's/, / /' | sort -u
}
# Option definitions of man source on stdin: the tag line after each .TP that names a
# long option, with the font escapes and \- removed, in the same form.
man_defs() {
	awk 'tp { print; tp = 0; next } /^\.TP/ { tp = 1 }' |
		sed -E 's/\\f[BIRP]//g; s/\\-/-/g' |
		sed -nE 's/^(-[A-Za-z0-9], )?(--[a-z0-9][a-z0-9-]*).*/\1\2/p' | sed 's/, / /' | sort -u
}
# Lines of a man page from the line matching START (a regex) up to the next .SH (and
# .SS, with "ss") heading, the start line excluded.
man_section() {   # FILE START [ss]
	awk -v start="$2" -v ss="${3:-}" '
		on && (/^\.SH/ || (ss && /^\.SS/)) { exit }
		on { print }
		$0 ~ start { on = 1 }' "$1"
}
# compare DESC HELP-COMMAND... with the man definitions in $T/man
compare() {
	local d=$1; shift
	if ! "$@" >"$T/help" 2>"$T/err"; then
		no "$d: $* --help runs" "$(head -c 300 "$T/err")"
		return
	fi
	help_defs <"$T/help" >"$T/h"
	if [ ! -s "$T/h" ]; then no "$d: --help defines options" "none found in: $(head -c 300 "$T/help")"; return; fi
	if [ ! -s "$T/man" ]; then no "$d: the man page has an option list" "no .TP option tags found"; return; fi
	local only_help only_man
	only_help=$(comm -23 "$T/h" "$T/man" | tr '\n' ';')
	only_man=$(comm -13 "$T/h" "$T/man" | tr '\n' ';')
	if [ -z "$only_help$only_man" ]; then
		ok "$d: the man page's options are --help's ($(wc -l <"$T/h") options)"
	else
		no "$d: the man page's options are --help's" \
			"in --help, not in the man page: ${only_help:-none}" \
			"in the man page, not in --help: ${only_man:-none}"
	fi
}

# Self-check of the extraction: a made-up help and man text, one option different each.
printf '  -a, --alpha N  x\n      --beta  y\n  -g, --gamma  z\n' | help_defs >"$T/h"
printf '.TP\n\\fB\\-a\\fR, \\fB\\-\\-alpha\\fR \\fIN\\fR\nx\n.TP\n\\fB\\-\\-beta\\fR\ny\n.TP\n\\fB\\-\\-delta\\fR\nz\n' |
	man_defs >"$T/man"
if [ "$(comm -3 "$T/h" "$T/man" | tr -d '\t' | tr '\n' ';')" = "--delta;-g --gamma;" ]; then
	ok "the option extraction tells a changed option apart"
else
	no "the option extraction tells a changed option apart" "help: $(tr '\n' ';' <"$T/h")" "man: $(tr '\n' ';' <"$T/man")"
fi

for p in ppslab-gen ppslab-sink ppslab-rut; do
	man_section "$M/$p.1" '^\.SH OPTIONS' | man_defs >"$T/man"
	compare "$p" "$BIN/$p" --help
done

man_section "$M/ppslab.1" '^\.SH OPTIONS' | man_defs >"$T/man"
compare "ppslab" "$BIN/ppslab" --help
# The commands ppslab --help lists: the lines under "commands:" up to the blank line.
cmds=$("$BIN/ppslab" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
if [ -n "$cmds" ]; then ok "ppslab --help lists commands ($(echo $cmds))"; else no "ppslab --help lists commands"; fi
for c in $cmds; do
	if ! grep -qE "^\.SS \"?ppslab $c\"?\$" "$M/ppslab.1"; then
		no "ppslab $c: a '.SS ppslab $c' section in man/ppslab.1" "add one under COMMANDS with its options as .TP tags"
		continue
	fi
	man_section "$M/ppslab.1" "^\\.SS \"?ppslab $c\"?\$" ss | man_defs >"$T/man"
	compare "ppslab $c" "$BIN/ppslab" "$c" --help
done

# Rendering: man-db's man -l --warnings (groff -ww), else groff, else mandoc -Tlint.
for f in "$M"/*.1; do
	b=$(basename "$f")
	if command -v man >/dev/null 2>&1 && man --version 2>/dev/null | grep -q man-db; then
		LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$f" >"$T/out" 2>"$T/err"
	elif command -v groff >/dev/null 2>&1; then
		groff -man -ww -Tutf8 "$f" >"$T/out" 2>"$T/err"
	elif command -v mandoc >/dev/null 2>&1; then
		mandoc -Tlint -Wwarning "$f" >"$T/err" 2>&1; mandoc -Tutf8 "$f" >"$T/out"
	else
		ok "$b renders # SKIP no man, groff or mandoc"; continue
	fi
	name=${b%.1}
	sed -i 's/.\x08//g' "$T/out"   # overstrike (bold) when man writes to a file
	if [ ! -s "$T/err" ] && grep -q "^NAME" "$T/out" && grep -qE "^ +$name - " "$T/out"; then
		ok "$b renders without warnings ($(wc -l <"$T/out") lines)"
	else
		no "$b renders without warnings" "$(head -c 600 "$T/err")" "$(head -n 5 "$T/out" | tr '\n' '|')"
	fi
done
# Every installed page is here: one per program.
for p in ppslab ppslab-gen ppslab-sink ppslab-rut; do
	[ -f "$M/$p.1" ] && ok "man/$p.1 exists" || no "man/$p.1 exists"
done
echo "1..$n"
