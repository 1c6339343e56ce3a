#!/usr/bin/env bash
# t_layout.sh — the house rules of the source tree (no root, no build needed): each
# program is its own room, lib/ serves them all, the analyzer's results/ room reads
# results without the runner; every header guard names its path; no header name
# repeats; unit tests sit in the room they test. HACKING.md explains each rule.
set -u
TOP=${PPSLAB_TOP:?}
cd "$TOP" || exit 1
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
check() {   # check DESC FINDINGS: ok when FINDINGS is empty
	if [ -z "$2" ]; then ok "$1"; else no "$1" "$(head -n 20 <<<"$2")"; fi
}

srcs=$(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build*' | sed 's#^\./##')
headers=$(grep '\.h$' <<<"$srcs")

# PPSLAB_<PATH>_H: the header's path, '/', '-' and '.' as '_', upper case
bad=""
for h in $headers; do
	want=$(sed 's/\.h$//; s/[^A-Za-z0-9]/_/g' <<<"$h" | tr a-z A-Z)
	want="PPSLAB_${want}_H"
	grep -q "^#ifndef $want\$" "$h" && grep -q "^#define $want\$" "$h" ||
		bad+="$h: guard is not $want"$'\n'
done
check "every header is guarded by PPSLAB_<PATH>_H" "$bad"

check "no header file name repeats anywhere" \
	"$(xargs -n1 basename <<<"$headers" | sort | uniq -d)"

bad=$(git ls-files 'tests/unit/*.c' | grep -vE '^tests/unit/(lib|gen|sink|rut|analysis)/t_[a-z0-9_]+\.c$')
check "every unit test sits in the room it tests (tests/unit/ROOM/t_*.c)" "$bad"

check "analysis/ holds only main.c, the cmd_*.c front ends and anacli (the rest is runner/ or results/)" \
	"$(git ls-files 'analysis/*.[ch]' | grep -vE '^analysis/(runner|results)/|^analysis/(main\.c|cmd_[a-z]+\.c|cmds\.h|anacli\.[ch])$')"

echo "1..$n"
