#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_completion.sh — completion/ppslab.bash driven as bash drives it (no root): COMP_WORDS
# and COMP_CWORD set, the function registered for each program called, COMPREPLY
# checked: ppslab's commands, each program's and command's long options (read from
# its --help), interface names after -i/--in/-o, BACKEND:IF with the colon split off as
# bash splits it, files after --rules, profile names after `ppslab run`, axis names
# after its --set (the registry's, through `ppslab --list-axes`), ppslab-rut's kernel
# names from its --help, the fixed words of `ppslab trend`'s options.
set -u
BIN=${PPSLAB_BIN:?}
TOP=${PPSLAB_TOP:?}
T=$(mktemp -d /tmp/ppslab-t_completion.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }

PATH=$BIN:$PATH
# shellcheck source=/dev/null
. "$TOP/completion/ppslab.bash"
# Interface names: the real ones on this machine (the test has no say in them).
ifs=$(ls /sys/class/net 2>/dev/null | sort | tr '\n' ' ')
if1=$(ls /sys/class/net 2>/dev/null | head -n 1)

# comp WORDS...: the last word is the one being completed; prints COMPREPLY sorted
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	local f
	f=$(complete -p "$1" 2>/dev/null | sed -nE 's/.*-F ([^ ]+) .*/\1/p')
	[ -n "$f" ] || { echo "NOT-REGISTERED"; return; }
	"$f" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]:-}"
	[ ${#COMPREPLY[@]} -gt 0 ] && printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}
is() {   # DESC GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else no "$1" "got:    $2" "wanted: $3"; fi
}
has() {   # DESC GOT WORD...
	local d=$1 got=" $2" w; shift 2
	for w in "$@"; do
		case "$got" in *" $w "*) ;; *) no "$d" "no '$w' in: $got"; return ;; esac
	done
	ok "$d"
}

for p in ppslab ppslab-gen ppslab-sink ppslab-rut; do
	complete -p "$p" 2>/dev/null | grep -q -- "-F _ppslab_complete $p\$" &&
		ok "$p is registered with complete -F" || no "$p is registered with complete -F" "$(complete -p "$p" 2>&1)"
done
want=$(ppslab --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' | sort | tr '\n' ' ')
is "ppslab <TAB>: the commands ppslab --help lists" "$(comp ppslab '')" "$want"
is "ppslab -q ta<TAB>: table (after a global option)" "$(comp ppslab -q ta)" "table "
is "ppslab --v<TAB>: its global options" "$(comp ppslab --v)" "--verbose --version "
is "ppslab table --ro<TAB>: --rows and --row-label" "$(comp ppslab table --ro)" "--row-label --rows "
is "ppslab compare --fail<TAB>" "$(comp ppslab compare --fail)" "--fail-on "
is "ppslab trend --fail-on <TAB>" "$(comp ppslab trend --fail-on '')" "missing progression regression "
is "ppslab trend DIR --order <TAB>" "$(comp ppslab trend nightly --order '')" "given label "
is "ppslab trend --label env<TAB>: the usual keys" "$(comp ppslab trend --label env)" \
	"environment.dut.os.kernel environment.dut.os.version "
is "ppslab trend --lab<TAB>" "$(comp ppslab trend --lab)" "--label --label-from "
is "ppslab lab s<TAB>: status, shield" "$(comp ppslab lab s)" "shield status "
is "ppslab lab shield on --ns <TAB>" "$(comp ppslab lab shield on --ns '')" "gen rut sink "
is "ppslab-gen --dst<TAB>: --dst and --dst-mac" "$(comp ppslab-gen --dst)" "--dst --dst-mac "
is "ppslab-sink --exp<TAB>" "$(comp ppslab-sink --exp)" "--expect --expect-from "
is "ppslab-rut --range<TAB>" "$(comp ppslab-rut --range)" "--range-policy "
is "ppslab-rut --kernel <TAB>: every kernel personality" "$(comp ppslab-rut --kernel '')" \
	"dragonfly-1.8 dragonfly-2.0 freebsd-14 freebsd-5.3 freebsd-7 "
is "ppslab run P --set <TAB>: every axis, as NAME=" "$(comp ppslab run demo --set '')" \
	"$(ppslab --list-axes | sed 's/$/=/' | sort | tr '\n' ' ')"
is "ppslab run P --set ea<TAB>" "$(comp ppslab run demo --set ea)" "each_burst= "
is "ppslab run P -s bu<TAB>" "$(comp ppslab run demo -s bu)" "burst_max= "
is "ppslab --list-axes: the registry's 20 axes" "$(ppslab --list-axes | wc -l | tr -d ' ')" 20
is "ppslab run P --set ip<TAB>" "$(comp ppslab run demo --set ip)" "ip_version= "
is "ppslab-rut --kernel free<TAB>" "$(comp ppslab-rut --kernel free)" "freebsd-14 freebsd-5.3 freebsd-7 "
# Every option a completion offers for ppslab-gen is one its --help defines, all of them.
want=$(ppslab-gen --help | sed -nE 's/^ +(-[A-Za-z0-9], )?(--[a-z0-9][a-z0-9-]*).*/\2/p' | sort | tr '\n' ' ')
is "ppslab-gen --<TAB>: all of --help's long options" "$(comp ppslab-gen --)" "$want"

is "ppslab-gen -i <TAB>: interfaces and backends" "$(comp ppslab-gen -i '')" \
	"$(printf '%s\n' $ifs afpacket: libnet: pcap: udp: xdp: | sort | tr '\n' ' ')"
is "ppslab-rut --out <TAB>: interfaces and backends" "$(comp ppslab-rut --out '' | tr ' ' '\n' | grep -v : | tr '\n' ' ')" "$ifs"
is "ppslab-sink --iface ${if1:0:1}<TAB>" "$(comp ppslab-sink --iface "${if1:0:1}" | tr ' ' '\n' | grep -c "^$if1\$")" 1
# bash splits "pcap:lo" at the colon: words "pcap" ":" "lo"; the reply replaces "lo"
is "ppslab-gen -i pcap:${if1}<TAB> (split at ':')" "$(comp ppslab-gen -i pcap : "$if1")" "$if1 "
is "ppslab-gen -i pcap:<TAB> (the ':' is the word)" "$(comp ppslab-gen -i pcap : | tr ' ' '\n' | grep -c "^:$if1\$")" 1
is "ppslab-gen -i pcap:${if1} as one word (no ':' in COMP_WORDBREAKS)" "$(comp ppslab-gen -i "pcap:$if1")" "pcap:$if1 "

# Files after --rules; profile names after ppslab run.
mkdir -p "$T/w/profiles" && cd "$T/w" || exit 1
: >fw-a.rules; : >fw-b.rules; : >other.txt
: >profiles/pollhz.json; : >profiles/pollhz-fw.json; : >profiles/notes.txt
is "ppslab-rut --rules fw<TAB>: files" "$(comp ppslab-rut --rules fw)" "fw-a.rules fw-b.rules "
is "ppslab-rut -f o<TAB>: files" "$(comp ppslab-rut -f o)" "other.txt "
is "ppslab-gen -f <TAB> is --flows: no files" "$(comp ppslab-gen -f o)" ""
is "ppslab run poll<TAB>: profile names" "$(comp ppslab run poll)" "pollhz pollhz-fw "
has "ppslab run <TAB>: the profiles (and installed ones)" "$(comp ppslab run '')" pollhz pollhz-fw
echo "1..$n"
