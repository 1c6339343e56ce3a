#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# t_vocabulary.sh — one vocabulary across the four programs (no root): the options of
# ppslab-gen, ppslab-sink, ppslab-rut, ppslab and every ppslab command, read from their
# --help, compared with each other: an option name shared by several programs has the
# same short letter wherever it has one and takes an argument in all or in none; UDP
# ports are --dport and --sport everywhere (ppslab-sink's older --port still works, as
# --dport, without being listed); --size means a frame size only; and each program's -i
# help lists exactly the port backends it can open in this build, found by asking the
# program to open each one.
set -u
BIN=${PPSLAB_BIN:?}
T=$(mktemp -d /tmp/ppslab-t_vocabulary.XXXXXX)
trap 'rm -rf "$T"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }

# "PROGRAM LETTER NAME ARG" per option of a --help on stdin ('-' for none)
defs() {
	sed -nE 's/^ +(-([A-Za-z0-9]), )?--([a-z0-9][a-z0-9-]*)( ([^ ]+))?.*/\2|\3|\5/p' |
		awk -F'|' -v p="$1" '{ print p, ($1 == "" ? "-" : $1), $2, ($3 == "" ? "-" : $3) }'
}
progs="ppslab-gen ppslab-sink ppslab-rut ppslab"
: >"$T/defs"
for p in $progs; do
	"$BIN/$p" --help | defs "$p" >>"$T/defs"
done
cmds=$("$BIN/ppslab" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }')
for c in $cmds; do
	"$BIN/ppslab" "$c" --help | defs "ppslab-$c" >>"$T/defs"
done
[ "$(wc -l <"$T/defs")" -gt 60 ] && ok "options read from $(echo $progs $cmds | wc -w) --help texts ($(wc -l <"$T/defs") options)" ||
	no "options read from the --help texts" "$(head -5 "$T/defs")"

# An option name shared by programs: the same letter wherever it has one, an argument
# in all or in none.
bad=$(awk '{
	name = $3; letter = $2; takes = ($4 != "-")
	if (letter != "-") {
		if (name in L && L[name] != letter) print "--" name ": -" L[name] " in " LP[name] ", -" letter " in " $1
		else if (!(name in L)) { L[name] = letter; LP[name] = $1 }
	}
	if (name in A && A[name] != takes) print "--" name ": " (A[name] ? "takes an argument" : "a flag") " in " AP[name] ", not in " $1
	else if (!(name in A)) { A[name] = takes; AP[name] = $1 }
}' "$T/defs")
shared=$(awk '{ c[$3]++ } END { for (k in c) if (c[k] > 1) n++; print n + 0 }' "$T/defs")
if [ -z "$bad" ]; then
	ok "the $shared option names shared by several programs have one letter and one arity"
else
	no "shared option names have one letter and one arity" "$(echo "$bad" | tr '\n' ';')"
fi

# UDP ports: --dport and --sport; nobody lists --port
ports=$(awk '$3 == "port" { print $1 }' "$T/defs")
dports=$(awk '$3 == "dport" { printf "%s ", $1 }' "$T/defs")
if [ -z "$ports" ] && [ "$dports" = "ppslab-gen ppslab-sink " ]; then
	ok "UDP ports are --dport (ppslab-gen, ppslab-sink); no program lists --port"
else
	no "UDP ports are --dport everywhere" "--port in: ${ports:-none}" "--dport in: $dports"
fi
"$BIN/ppslab-sink" -i lo --port 70000 >"$T/out" 2>"$T/err"; rc=$?
"$BIN/ppslab-sink" -i lo --dport 70000 >"$T/out2" 2>"$T/err2"; rc2=$?
if [ $rc = 64 ] && grep -q -- "--port 70000: expected a UDP port" "$T/err" &&
	[ $rc2 = 64 ] && grep -q -- "--dport 70000: expected a UDP port" "$T/err2"; then
	ok "ppslab-sink --port still works as --dport (each named as typed in errors)"
else
	no "ppslab-sink --port still works as --dport" "$rc: $(cat "$T/err")" "$rc2: $(cat "$T/err2")"
fi
sizes=$(awk '$3 == "size" { print $1 }' "$T/defs")
if [ "$sizes" = "ppslab-gen" ] && "$BIN/ppslab-gen" --help | grep -qE -- '--size SIZES +frame size'; then
	ok "--size is the frame size (ppslab-gen) and nothing else"
else
	no "--size is the frame size and nothing else" "--size in: $sizes"
fi

# -i lists what the program can open in this build: each backend tried on an interface
# that does not exist (nothing is opened); "only transmits", "needs an Ethernet port",
# "built without" or "not in this build" mean it cannot.
listed() {   # PROGRAM: the BACKEND: names its -i help lists
	"$BIN/$1" --help | grep -E '^ +-i, ' | grep -oE '\b(afpacket|pcap|xdp|libnet|udp):' | tr -d : | sort -u | tr '\n' ' '
}
cannot='only transmits|needs an Ethernet port|built without|not in this build|only on Linux|Linux-only|unknown port backend'
probe() {   # PROGRAM BACKEND: prints BACKEND if the program can open it
	local p=$1 b=$2 t=ppslab-none0 out
	[ "$b" = udp ] && t=127.0.0.1:9
	case $p in
	ppslab-gen) out=$(timeout 10 "$BIN/$p" -i "$b:$t" --count 1 --dst 127.0.0.1 2>&1 >/dev/null) ;;
	ppslab-sink) out=$(timeout 10 "$BIN/$p" -i "$b:$t" --duration 0.1 2>&1 >/dev/null) ;;
	ppslab-rut) out=$(timeout 10 "$BIN/$p" -i "$b:$t" -o "$b:$t" --duration 0.1 2>&1 >/dev/null) ;;
	esac
	echo "$out" | grep -qE "$cannot" || echo "$b"
}
for p in ppslab-gen ppslab-sink ppslab-rut; do
	have=$(for b in afpacket pcap xdp libnet udp; do probe "$p" "$b"; done | sort | tr '\n' ' ')
	got=$(listed "$p")
	if [ -n "$have" ] && [ "$have" = "$got" ]; then
		ok "$p -i lists the backends it can open here: $got"
	else
		no "$p -i lists the backends it can open here" "listed: $got" "opens:  $have"
	fi
done

# The tools share their run-control options, letter for letter.
for o in "-t --duration DUR" "-I --interval DUR" "-j --json" "-q --quiet" "-v --verbose" "-V --version" "-h --help"; do
	set -- $o
	miss=""
	for p in ppslab-gen ppslab-sink ppslab-rut; do
		"$BIN/$p" --help | grep -qE -- "^ +$1, $2( ${3:-})? " || miss="$miss $p"
	done
	[ -z "$miss" ] && ok "ppslab-gen, -sink, -rut: $*" || no "$* in every tool" "missing or different in:$miss"
done
echo "1..$n"
