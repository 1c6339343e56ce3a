#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/fuzz/seeds.sh NAME DIR TOP — writes the seed corpus of harness fuzz_NAME into DIR
# from the tests' data (the unit tests' rule files and strings, tests/data results
# files); generated at fuzz time, never committed. fuzz_classify writes its own frames
# (PPSLAB_FUZZ_SEEDS).
set -eu
name=$1 dir=$2 top=$3
n=0
put() { n=$((n + 1)); printf '%s' "$1" >"$dir/s$n"; }
# The quoted strings of a unit test source, one seed each (C escapes left as they are).
strings_of() { grep -ho '"[^"]*"' "$@" | sed 's/^"//; s/"$//' | sort -u; }
case "$name" in
rules)
	for f in "$top"/profiles/rules/*.rules "$top"/tests/unit/data/fw/*; do
		[ -f "$f" ] && cp "$f" "$dir/$(basename "$f")"
	done
	while IFS= read -r l; do
		case "$l" in *from*|*flush*|*delete*|*zero*) put "$l" ;; esac
	done < <(strings_of "$top"/tests/unit/fw/t_fw_*.c)
	;;
ctl)
	while IFS= read -r l; do
		case "$l" in *from*|*ip.fw*|*polling*) put "ipfw add $l" ; put "sysctl $l" ;; esac
	done < <(strings_of "$top"/tests/unit/rut/t_bsdctl.c "$top"/tests/unit/fw/t_fw_cmd.c | head -n 300)
	put "sysctl -a"
	put "sysctl kern.polling.enable=1
sysctl kern.polling.user_frac=150
ipfw -q add 100 count ip from any to any
ipfw show
ipfw zero 100
ipfw delete 100"
	put "load 20 ipfw -q r.rules
add 200 deny ip from any to 198.18.0.1
"
	;;
results)
	for f in "$top"/tests/data/*.json "$top"/tests/data/golden/*.json; do
		[ -f "$f" ] && cp "$f" "$dir/$(basename "$f")"
	done
	;;
num)
	for v in 0 1 64 64B 1.5M 10Mbit 1Gbps 100us 2.5s 5m 1h 50% 1KiB 9000 -1 1e3 0x10 \
		18446744073709551615 18446744073709551616 1.0000005M 10kpps " 1" "1 "; do
		put "A$v"
		put $'\x80'"$v"
	done
	;;
profile)
	for f in "$top"/profiles/*.json "$top"/tests/unit/data/profile/*.json; do
		[ -f "$f" ] && cp "$f" "$dir/$(basename "$f")"
	done
	put "--set pollhz=1000,2000
--set trial.duration=1s
$(cat "$top/profiles/demo.json")"
	put '{ "matrix": { "pollhz": [1000, "x"] }, "trial": { "durat": 1 } }'
	;;
classify) ;;
*) ;;
esac
